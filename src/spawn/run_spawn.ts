/**
 * Running an approved spawn call: a command through `/bin/sh -c` (or a target's argv prefix) with
 * a cleared environment, or a task handed to the configured subagent (or the named agent it is
 * for) on its stdin. Both run in the workspace root, in their own process group, under a time
 * limit, with each stream capped.
 *
 * @module
 */

import { BasisError } from "../errors.ts";
import { phrase } from "../locale/messages.ts";
import { type EnvLookup, readEnv } from "../paths.ts";
import { runProgram } from "../run/run_program.ts";
import type { RunOptions, RunRequest, RunResult, SandboxWrap } from "../run/types.ts";
import { childEnv, type ChildPreview, fillPlaceholders, ROSTER_VAR } from "./child.ts";
import type { SpawnConfig } from "./config.ts";
import {
  CONFINED_RECORD,
  dropLineageRecord,
  keepLineageRecord,
  lineageDir,
  renameLineageRecord,
  SPAWN_DEPTH_VAR,
} from "./lineage.ts";
import { KEPT_ENV, SPAWN_OUTPUT_CAP, spawnTimeout } from "./limits.ts";
import type { SpawnCall } from "./types.ts";

/** The shell a local command runs with. */
export const SHELL = "/bin/sh";

/** Options of {@linkcode runSpawn}. */
export interface RunSpawnOptions
  extends Pick<RunOptions, "signal" | "onStdout" | "onStderr" | "secrets"> {
  /** The user's spawn configuration (the agent and the targets). */
  config: SpawnConfig;
  /**
   * `--env KEY=VALUE` pairs, added to both modes' environment. Their values are secrets: give them
   * as `secrets` (the call's), and the run reports none of them (streams, kept output, messages).
   * @default {}
   */
  env?: Readonly<Record<string, string>> | undefined;
  /** This process's delegation depth; a subagent runs at this plus one. @default 0 */
  depth?: number | undefined;
  /** More variables for a subagent only (e.g. the approval settings it inherits). @default {} */
  agentEnv?: Readonly<Record<string, string>> | undefined;
  /**
   * What the child policy overrides for a task (the preview's `child`): passed as `BASIS_ROSTER`,
   * `BASIS_MODEL` and `BASIS_SYSTEM_PROMPT`, and into the agent's `{model}` and `{system_prompt}`.
   * @default nothing: the child inherits
   */
  child?: ChildPreview | undefined;
  /** `--spawn-timeout`: the time limit, capped at 600,000 ms. @default 120000 for a command, 600000 for a subagent */
  timeoutMs?: number | undefined;
  /** Where the kept variables (`PATH`, `HOME`, `LANG`) are read from. @default readEnv */
  readEnv?: EnvLookup | undefined;
  /** The OS sandbox to run it in (the call's plan). @default none */
  sandbox?: SandboxWrap | undefined;
}

/**
 * Runs an approved spawn call in `cwd`. A local command is `/bin/sh -c BODY`; a targeted one is
 * the target's argv prefix with the body appended as one argument. A command's environment is
 * cleared except `PATH`, `HOME` and `LANG`, then the `--env` pairs. A task goes to the stdin of
 * the subagent (or of the named agent it is for); the agent inherits the environment, plus the
 * `--env` pairs, `agentEnv`, what `child` overrides and `BASIS_SPAWN_DEPTH` (this depth plus
 * one). Each stream is kept up to 64 KiB. The `--env` values
 * are redacted from everything the run reports, the streamed chunks included.
 *
 * Call it only after the guard and the approver said yes.
 *
 * @param call The parsed call.
 * @param cwd The absolute working directory (the workspace root).
 * @param options The configuration, environment, limits and streaming callbacks.
 * @returns The run's result (failures, time-outs and signals are fields, as with `runProgram`).
 * @throws {BasisError} `denied` when the call names a target or an agent that is not configured,
 *   or is a plain task and no subagent is configured (the guard refuses all of them first).
 *
 * @example Run a command
 * ```ts ignore
 * import { loadSpawnConfig } from "./config.ts";
 * import { runSpawn } from "./run_spawn.ts";
 * const config = await loadSpawnConfig("/home/me/.config/basis");
 * const result = await runSpawn({ mode: "command", body: "ls | wc -l" }, "/w", { config });
 * console.log(result.stdout);
 * ```
 */
export async function runSpawn(
  call: SpawnCall,
  cwd: string,
  options: RunSpawnOptions,
): Promise<RunResult> {
  const { config, env = {}, child, signal, onStdout, onStderr, secrets } = options;
  const timeoutMs = spawnTimeout(call.mode, options.timeoutMs);
  let request: RunRequest;
  // A subagent's lineage is also kept as a record (see lineage.ts): an MCP client it runs may strip
  // its environment. A confined one's is bound into its sandbox; an unconfined one's is keyed by
  // its pid (setpriv and setsid exec in place), written before it is given its task. The record is
  // kept before the start, so that a subagent whose record cannot be kept (a read-only or full
  // state directory, a basis-tools inside a sandbox) is never started: its children could not know
  // their depth once a client clears their environment.
  let record: string | undefined;
  let onStart: ((pid: number) => void) | undefined;
  let wrap = options.sandbox;
  if (call.mode === "command") {
    const prefix = call.target === undefined ? [SHELL, "-c"] : config.targets.get(call.target);
    if (prefix === undefined) {
      const params = { target: JSON.stringify(call.target) };
      throw BasisError.of("denied", phrase("error.spawn_unknown_target", params));
    }
    const read = options.readEnv ?? readEnv;
    const kept: Record<string, string> = Object.create(null);
    for (const name of KEPT_ENV) {
      const value = read(name);
      if (value !== undefined) kept[name] = value;
    }
    const [program = SHELL, ...args] = [...prefix, call.body];
    const stdin = new Uint8Array();
    request = { program, args, cwd, stdin, env: [kept, env], clearEnv: true, timeoutMs };
  } else {
    const [program = "", ...args] = fillPlaceholders(agentArgv(call.target, config), child);
    const depth = { [SPAWN_DEPTH_VAR]: String((options.depth ?? 0) + 1) };
    const layers = [env, options.agentEnv ?? {}, childEnv(child), depth];
    const stdin = new TextEncoder().encode(call.body);
    request = { program, args, cwd, stdin, env: layers, timeoutMs };
    const roster = Object.assign({}, ...layers)[ROSTER_VAR] ?? readEnv(ROSTER_VAR);
    const values = { ...depth, ...(roster === undefined ? {} : { [ROSTER_VAR]: roster }) };
    const kept = keepLineageRecord(`pending-${crypto.randomUUID()}`, values);
    if (kept === undefined) {
      throw BasisError.of("denied", phrase("error.spawn_no_lineage", { dir: lineageDir() }));
    }
    record = kept;
    if (wrap?.kind === "bwrap") {
      wrap = {
        ...wrap,
        args: [...wrap.args.slice(0, -1), "--ro-bind", kept, CONFINED_RECORD, "--"],
      };
    } else {
      // Unconfined, the child finds it by its parent's pid: the agent's own.
      onStart = (pid) => record = renameLineageRecord(kept, String(pid));
    }
  }
  try {
    return await runProgram(wrap === undefined ? request : { ...request, sandbox: wrap }, {
      maxBytes: SPAWN_OUTPUT_CAP,
      maxLines: Infinity,
      maxStderrBytes: SPAWN_OUTPUT_CAP,
      secrets,
      onStart,
      signal,
      onStdout,
      onStderr,
    });
  } finally {
    dropLineageRecord(record);
  }
}

/** The argv of the agent a task is for: the named one, or the configured subagent. */
function agentArgv(target: string | undefined, config: SpawnConfig): readonly string[] {
  if (target === undefined) {
    if (config.agent === undefined) throw BasisError.of("denied", phrase("error.spawn_no_agent"));
    return config.agent;
  }
  const named = config.agents?.get(target);
  if (named !== undefined) return named.argv;
  throw BasisError.of(
    "denied",
    phrase("error.spawn_unknown_agent", { agent: JSON.stringify(target) }),
  );
}
