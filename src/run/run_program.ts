/**
 * Runs one program from an argv, never through a shell: its own process group, JSON (or any bytes)
 * on stdin, layered environment, a time limit, cancellation, capped and spilled output.
 *
 * @module
 */

import { isAbsolutePath } from "../paths.ts";
import { attempt, isMissing } from "../quietly.ts";
import { redactorOf } from "../redact.ts";
import type { Phrase } from "../locale/messages.ts";
import {
  classifySpawnError,
  cwdMissing,
  type Launched,
  launchFailure,
  signalledStatus,
  spawnInOwnGroup,
  type StartProblem,
} from "./_launch.ts";
import { mergeEnvLayers, resolveIn } from "./resolve_program.ts";

export {
  effectiveVar,
  mergeEnvLayers,
  type Resolution,
  type ResolveContext,
  resolveProgram,
  resolveRunProgram,
} from "./resolve_program.ts";
import { granted } from "./_spill.ts";
import { supervise } from "./_supervise.ts";
import type { RunOptions, RunOutcome, RunRequest, RunResult, StartFailure } from "./types.ts";

export { DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES, DEFAULT_MAX_SPILL_BYTES } from "./_supervise.ts";

/**
 * Runs a program and reports what happened. Nothing the program does makes this throw: not being
 * found or executable, Deno's permissions refusing it, exit codes, signals, time-outs and
 * cancellation are all fields of the result. On time-out or cancellation the whole process group is
 * stopped (SIGTERM, `graceMs`, SIGKILL); after a normal exit, whatever the program left running in
 * its group is stopped too.
 *
 * A bare name is looked up on `PATH` (of the environment the program gets); a program given as an
 * absolute path (the one {@linkcode resolveRunProgram} found for approval) is started as it is,
 * and looked at only when it does not start, to say why.
 *
 * Given `secrets`, the run reports none of them anywhere: each stream is redacted as it flows,
 * before the callbacks, the kept part and the spill file see it (so a secret split across reads,
 * or straddling a cap, is still hidden), and so are the command, the working directory and why the
 * program did not start.
 *
 * @param request The program, its arguments, working directory, stdin bytes, environment layers and
 * time limit.
 * @param options Cancellation, streaming callbacks, output caps, the spill directory and the
 * secrets to hide.
 * @returns The run's result; `startFailure` is set when the program never started.
 * @throws Only on bugs, including an exception thrown by `onStdout`/`onStderr` (re-thrown after the
 * process group was stopped).
 *
 * @example Run a program with JSON on stdin
 * ```ts ignore
 * import { runProgram } from "./run_program.ts";
 * const result = await runProgram({
 *   program: "cat",
 *   args: [],
 *   cwd: Deno.cwd(),
 *   stdin: new TextEncoder().encode('{"q":1}'),
 *   timeoutMs: 5000,
 * });
 * console.assert(result.outcome === "ok" && result.stdout === '{"q":1}');
 * ```
 */
export async function runProgram(
  request: RunRequest,
  options: RunOptions = {},
): Promise<RunResult> {
  return hidden(await run(request, options), options.secrets ?? []);
}

async function run(request: RunRequest, options: RunOptions): Promise<RunResult> {
  const started = performance.now();
  const env = mergeEnvLayers(request.env ?? []);
  const found = isAbsolutePath(request.program) ? undefined : resolveIn(request, env);
  if (found?.ok === false) return notStarted(request, started, found.path, found);
  const program = found?.path ?? request.program;
  // Why it did not start: the file or the directory as they are now, else what the start said.
  const failed = (problem: StartProblem) => {
    const judged = resolveIn({ ...request, program }, env);
    const why = judged.ok ? checkCwd(request.cwd) ?? problem : judged;
    return notStarted(request, started, program, why);
  };
  if (options.signal?.aborted) return notStarted(request, started, program, undefined, true);
  const wrap = request.sandbox;
  // Deno checks the wrapper it starts, not the program the wrapper runs: what Deno's permissions
  // would refuse to start, the wrapper is not asked to start either.
  if (wrap !== undefined && granted({ name: "run", command: program }) === false) {
    const refusal = new Deno.errors.NotCapable(`Requires run access to "${program}"`);
    return failed(classifySpawnError(refusal, program, request.cwd, loaderVarNames(env)));
  }
  let launched: Launched;
  try {
    launched = await spawnInOwnGroup(
      wrap?.program ?? program,
      wrap === undefined ? request.args : [...wrap.args, program, ...request.args],
      { cwd: request.cwd, env, clearEnv: request.clearEnv === true, bwrap: wrap?.kind === "bwrap" },
    );
  } catch (error) {
    // Named as the tool's program, whatever started it (setsid, bwrap): an argument list too long
    // (E2BIG) is the program's.
    return failed(classifySpawnError(error, program, request.cwd, loaderVarNames(env)));
  }
  options.onStart?.(launched.child.pid);
  // The group is the watchdog's until the runner has sent it its last signal.
  const { status: ended, ...ran } = await supervise(launched, request, options).finally(
    launched.release,
  );
  const notRun = launchFailure(launched, ended, ran.stdoutBytes, ran.stderr);
  if (notRun !== undefined) return failed(notRun);
  const status = launched.bwrap ? signalledStatus(ended) : ended;
  const exitCode = status.signal === null ? status.code : undefined;
  const signal = status.signal ?? undefined;
  // The fields in the order of a result that never started.
  return {
    ...notStarted(request, started, program),
    ...ran,
    outcome: runOutcome({ ...ran, exitCode, signal, startFailure: undefined }, request),
    exitCode,
    signal,
  };
}

/**
 * The result of a run whose program could not be found: nothing started.
 *
 * @param request The request.
 * @param resolution The failed resolution (from {@linkcode resolveRunProgram}), or another reason
 *   nothing may start (a sandbox that is required and cannot confine the call).
 * @param secrets Values to hide in the command, cwd and reason (as `RunOptions.secrets`).
 * @returns The result, `startFailure` set.
 * @throws Never.
 */
export function startFailureResult(
  request: RunRequest,
  resolution: { readonly failure: StartFailure; readonly path: string; readonly reason: Phrase },
  secrets: readonly string[] = [],
): RunResult {
  return hidden(notStarted(request, performance.now(), resolution.path, resolution), secrets);
}

/**
 * A result with the secrets hidden in what the streams did not carry: the command, the working
 * directory and why the program did not start (stdout and stderr were redacted as they flowed).
 */
function hidden(result: RunResult, secrets: readonly string[]): RunResult {
  if (secrets.length === 0) return result;
  const redactor = redactorOf(secrets);
  const reason = result.startReason;
  return {
    ...result,
    command: result.command.map((arg) => redactor.text(arg)),
    cwd: redactor.text(result.cwd),
    startReason: reason === undefined ? undefined : redactor.phrase(reason),
  };
}

function checkCwd(cwd: string): StartProblem | undefined {
  try {
    return Deno.statSync(cwd).isDirectory ? undefined : cwdMissing(cwd, true);
  } catch (error) {
    // Not allowed to look: Deno's spawn will say if it is missing.
    return isMissing(error) ? cwdMissing(cwd) : undefined;
  }
}

/**
 * Classifies a run from what happened to it, in one order: timed out, cancelled, killed by a
 * signal, exited non-zero, never started, else ok. The runner sets {@linkcode RunResult.outcome}
 * with it; a result made by hand (a test's) can too.
 *
 * @param run What happened.
 * @param request The exit codes that mean success. @default {[0]}
 * @returns The outcome.
 * @throws Never.
 * @example A run that exited 3
 * ```ts
 * import { runOutcome } from "./run_program.ts";
 * const outcome = runOutcome({
 *   timedOut: false, cancelled: false, signal: undefined, exitCode: 3, startFailure: undefined,
 * });
 * console.assert(outcome === "exit_code");
 * ```
 */
export function runOutcome(
  run: Pick<RunResult, "timedOut" | "cancelled" | "signal" | "exitCode" | "startFailure">,
  { successExitCodes = [0] }: Pick<RunRequest, "successExitCodes"> = {},
): RunOutcome {
  if (run.timedOut) return "timed_out";
  if (run.cancelled) return "cancelled";
  if (run.signal !== undefined) return "killed";
  if (run.exitCode !== undefined && !successExitCodes.includes(run.exitCode)) return "exit_code";
  if (run.startFailure !== undefined || run.exitCode === undefined) return "not_started";
  return "ok";
}

/** A run that never started: `problem` says why, or the caller cancelled it before it could. */
function notStarted(
  request: RunRequest,
  started: number,
  program: string,
  problem?: StartProblem,
  cancelled = false,
): RunResult {
  return {
    outcome: cancelled ? "cancelled" : "not_started",
    command: [program, ...request.args],
    cwd: request.cwd,
    durationMs: Math.round((performance.now() - started) * 10) / 10,
    ...{ exitCode: undefined, signal: undefined, timedOut: false, cancelled },
    ...{ isForcefullyTerminated: false, startFailure: problem?.failure },
    ...{ startReason: problem?.reason, stdout: "", stderr: "", stdoutBytes: 0, stderrBytes: 0 },
    ...{ stdoutTruncated: false, stderrTruncated: false, spillPath: undefined },
    ...{ spillTruncated: false, timeoutMs: request.timeoutMs },
  };
}

/**
 * The names of loader variables (`LD_*`, `DYLD_*`) the child would receive; Deno refuses to start
 * programs with them under a scoped `--allow-run`.
 *
 * @param merged The merged layers.
 * @returns Sorted names; the inherited ones only when the environment may be read.
 */
export function loaderVarNames(merged: Readonly<Record<string, string>>): string[] {
  const names = new Set(Object.keys(merged));
  // Reading the whole environment may not be permitted: then what we know is reported.
  for (const name of attempt(() => Object.keys(Deno.env.toObject()), [])) names.add(name);
  return [...names].filter((name) => /^(LD_|DYLD_)/.test(name)).sort();
}
