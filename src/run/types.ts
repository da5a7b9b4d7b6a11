/**
 * The runner's request and result shapes. A run's result and its failure have the same shape:
 * callers branch on fields, not on classes. `undefined`, never `null`, for what does not apply.
 *
 * @module
 */

import type { Phrase } from "../locale/messages.ts";

/** What to start and how. */
export interface RunRequest {
  /** The program: an absolute path, or a bare name looked up on `PATH` (of `env`, else ours). */
  program: string;
  /** Arguments after the program (argv[1..]). */
  args: readonly string[];
  /** Absolute working directory. */
  cwd: string;
  /** Bytes written to the child's stdin, then stdin is closed. */
  stdin: Uint8Array;
  /**
   * Environment layers applied over the inherited environment, later wins
   * (e.g. `[cliPairs, manifestEnv]`).
   */
  env?: readonly Readonly<Record<string, string>>[];
  /**
   * Start from an empty environment instead of the inherited one: the child sees only what
   * `env` sets (and `PATH` is looked up in `env` alone). @default false
   */
  clearEnv?: boolean;
  /** Stop the whole process group after this many milliseconds. */
  timeoutMs: number;
  /** The exit codes that mean success (outcome `ok`). @default [0] */
  successExitCodes?: readonly number[];
  /**
   * Start the program inside this OS sandbox (`src/sandbox/`): the wrapper's argv, then the
   * program and its arguments. @default none: the program runs with the user's full rights
   */
  sandbox?: SandboxWrap;
}

/**
 * An OS sandbox to start a program through. With `bwrap`, the program runs in a PID namespace of
 * its own that dies with it: when the call ends, every process it started is gone.
 */
export interface SandboxWrap {
  /** `bwrap` (bubblewrap, Linux) or `sandbox-exec` (macOS). */
  readonly kind: "bwrap" | "sandbox-exec";
  /** The wrapper program, an absolute path. */
  readonly program: string;
  /** Its arguments up to the program (bwrap's end with `--`). */
  readonly args: readonly string[];
}

/** Optional knobs of a run. */
export interface RunOptions {
  /** Cancels the run: the whole process group is stopped. */
  signal?: AbortSignal | undefined;
  /**
   * Receives stdout bytes as they arrive (for streaming to a terminal): raw, but for `secrets`,
   * which are replaced (a tail that may begin a secret is held until the next read shows it).
   */
  onStdout?: ((chunk: Uint8Array) => void) | undefined;
  /** Receives stderr bytes as they arrive, redacted as `onStdout`'s are. */
  onStderr?: ((chunk: Uint8Array) => void) | undefined;
  /**
   * Told the started child's pid, right after the start, before it is given its stdin: the
   * program's own pid (setsid and setpriv exec in place), or the sandbox wrapper's. Must not throw.
   */
  onStart?: ((pid: number) => void) | undefined;
  /** Keep at most this many bytes of stdout in memory for the result. @default 51200 */
  maxBytes?: number | undefined;
  /** Keep at most this many lines of stdout in memory for the result. @default 2000 */
  maxLines?: number | undefined;
  /** Keep at most this many bytes of stderr. @default 65536 */
  maxStderrBytes?: number | undefined;
  /**
   * Directory for spill files holding the full stdout when it exceeds the cap. It is made 0700;
   * before a new file is written, old ones are pruned (see the README: spill files).
   */
  spillDir?: string | undefined;
  /** A spill file holds at most this many bytes; past them it ends. @default 16777216 (16 MiB) */
  maxSpillBytes?: number | undefined;
  /**
   * Values never to report (the secrets of the call, see `callSecrets()`): replaced by
   * `[redacted]` in the streamed chunks, the kept output, the spill file, the command, the working
   * directory and the reason the program did not start. @default []
   */
  secrets?: readonly string[] | undefined;
  /** Milliseconds between SIGTERM and SIGKILL when stopping. @default 500 */
  graceMs?: number | undefined;
}

/** Why a program could not be started. */
export type StartFailure = "not_found" | "not_executable" | "permission_denied" | "other";

/**
 * How a run ended, classified once by the runner: every consumer (failure codes, messages,
 * `--json`, spawn results, MCP) switches on it. `ok`: exited 0 (or with another of the request's
 * `successExitCodes`, its `exitCode` saying which); `timed_out`: stopped at the time
 * limit; `cancelled`: stopped (or never started) because the caller aborted; `killed`: ended by a
 * signal it was not sent for either; `exit_code`: exited with any other code; `not_started`:
 * never ran.
 */
export type RunOutcome = "ok" | "timed_out" | "cancelled" | "killed" | "exit_code" | "not_started";

/** The outcome of one run, success or failure alike. */
export interface RunResult {
  /** How it ended: the one field to switch on (the fields below say the details). */
  outcome: RunOutcome;
  /** The argv that ran (program as resolved, then args). */
  command: readonly string[];
  /** The working directory it ran in. */
  cwd: string;
  /** Wall time from start to end, in milliseconds. */
  durationMs: number;
  /** The exit code, when the process exited on its own. */
  exitCode: number | undefined;
  /** The signal that ended it (`"SIGKILL"`), when one did. */
  signal: string | undefined;
  /** Stopped because the time limit elapsed. */
  timedOut: boolean;
  /** Stopped because the caller aborted. */
  cancelled: boolean;
  /** The group ignored SIGTERM and had to be killed with SIGKILL. */
  isForcefullyTerminated: boolean;
  /** Set when the program never started; `startReason` says why. */
  startFailure: StartFailure | undefined;
  /**
   * Why the program never started, in one line, as a phrase: `english(startReason)` in English,
   * `messages(locale).say(startReason)` in any locale. `undefined` when it started (or when a
   * cancellation came before it could).
   */
  startReason: Phrase | undefined;
  /** Stdout as lossy UTF-8, cut at the caps. */
  stdout: string;
  /** Stderr as lossy UTF-8, cut at its cap. */
  stderr: string;
  /** Total bytes the program wrote to stdout (before redaction). */
  stdoutBytes: number;
  /** Total bytes the program wrote to stderr. */
  stderrBytes: number;
  /** Whether `stdout` / `stderr` were cut. */
  stdoutTruncated: boolean;
  /** Whether `stderr` was cut. */
  stderrTruncated: boolean;
  /**
   * When stdout was cut and a spill directory was given: the file holding all of it, or its first
   * `maxSpillBytes` when `spillTruncated`.
   */
  spillPath: string | undefined;
  /** Whether the spill file holds only the first part of stdout (it reached `maxSpillBytes`). */
  spillTruncated: boolean;
  /** The time limit that applied, in milliseconds. */
  timeoutMs: number;
}
