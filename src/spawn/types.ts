/**
 * The shapes of the `spawn` tool: a parsed call, its preview, its side effects and its structured
 * output. Nothing here runs anything.
 *
 * @module
 */

import type { Phrase } from "../locale/messages.ts";
import type { ChildPreview } from "./child.ts";
import type { Reach } from "./reach.ts";
import type { SandboxGrants } from "../sandbox/types.ts";

export type { Reach } from "./reach.ts";

/** The built-in tool's name (a manifest may never declare it). */
export const SPAWN_TOOL = "spawn";

/** A parsed spawn input: a command line to run, or a task to hand to a subagent. */
export interface SpawnCall {
  /** `command`: run `body` with `/bin/sh -c` (or hand it to a target); `agent`: hand it to a subagent as its task. */
  readonly mode: "command" | "agent";
  /** The command line or the task, trimmed, never empty. */
  readonly body: string;
  /**
   * The configured target named with `!@name`, or the named agent addressed with `@name`; absent
   * for a local command and for the configured subagent.
   */
  readonly target?: string;
  /** The `reach` field, when the call gave one (it bounds tasks only). */
  readonly reach?: Reach;
}

/** What {@linkcode parseSpawnInput} returns: the call, or why the input was refused. */
export type SpawnParse =
  | { readonly ok: true; readonly call: SpawnCall }
  | {
    readonly ok: false;
    /**
     * The refusal as one line for the caller (a person or a model), `Input refused by tool
     * "spawn": /input: …`; `english()` words it in English.
     */
    readonly phrase: Phrase;
  };

/**
 * The preview of a spawn call: what the approver and remembered rules see. Key order pinned:
 * mode, body, cwd, target, then `sandbox` only when the command has grants beyond the default,
 * then, for a task and only when they apply, `reach` and `child` (README: "Approval"): a call
 * with none of them has exactly the four keys.
 */
export interface SpawnPreview {
  /** `command` runs the body as a command line; `agent` hands it to a subagent as a task. */
  readonly mode: "command" | "agent";
  /** The command text or the task, exactly as it will be used. */
  readonly body: string;
  /** Absolute working directory. */
  readonly cwd: string;
  /** Where it runs, or the named agent a task is for: `"local"` when none was named. */
  readonly target: string;
  /**
   * The grants of a command confined with more than the default (the policy's `spawn` section);
   * absent otherwise, so that the preview of every other call is the four keys above.
   */
  readonly sandbox?: SandboxGrants;
  /** A task's effective reach, only when it is not the policy's default. */
  readonly reach?: Reach;
  /** What the child will be, only when the child policy overrides something. */
  readonly child?: ChildPreview;
}

/**
 * What a spawn call may touch. Declared tools have `"process"` or `"external"` (the manifest's
 * `SideEffect`); the built-in tool adds `"local state"` for agent mode, kept out of the manifest
 * type so that a manifest can never declare it.
 */
export type SpawnSideEffect = "process" | "local state";

/** The side effect of each mode: a command is `"process"`, a subagent `"local state"`. */
export const SPAWN_SIDE_EFFECTS: Readonly<Record<SpawnCall["mode"], SpawnSideEffect>> = {
  command: "process",
  agent: "local state",
};

/**
 * The structured output of a spawn call (for `--json` and library callers). JSON field names;
 * `null` where a value does not apply, as in the CLI's other JSON.
 */
export interface SpawnOutput {
  /** What the program printed on stdout, cut at 64 KiB. */
  readonly stdout: string;
  /** What it printed on stderr, cut at 64 KiB. */
  readonly stderr: string;
  /**
   * Its exit code; 124 when it timed out; `null` when it was killed by a signal, cancelled or
   * never started.
   */
  readonly exit_code: number | null;
  /** One line saying how the call failed (with the stderr), or `null` when it succeeded. */
  readonly error: string | null;
  /** Whether `stdout` was cut. */
  readonly stdout_truncated: boolean;
  /** Whether `stderr` was cut. */
  readonly stderr_truncated: boolean;
}
