/**
 * The refusals that come before any rule or approver is asked: commands turned off, an unknown
 * target, the delegation depth limit, and no subagent configured.
 *
 * @module
 */

import type { SpawnConfig } from "./config.ts";
import { SPAWN_DEPTH_VAR } from "./depth.ts";
import type { SpawnCall } from "./types.ts";

/** What the guard needs to know about this process. */
export interface SpawnGuardContext {
  /** Whether commands are turned off (`--no-shell`). */
  readonly noShell: boolean;
  /** This process's delegation depth; `undefined` when `BASIS_SPAWN_DEPTH` is not a number. */
  readonly depth: number | undefined;
  /** The user's spawn configuration. */
  readonly config: SpawnConfig;
}

/**
 * Why a spawn call was refused before approval, as data (for messages in another language), with
 * its English message.
 */
export type SpawnRefusal =
  & { readonly message: string }
  & (
    | { readonly kind: "no_shell" }
    | {
      readonly kind: "unknown_target";
      /** The target named. */
      readonly target: string;
      /** The configured target names, sorted. */
      readonly known: readonly string[];
      /** The spawn configuration file. */
      readonly file: string;
    }
    | { readonly kind: "depth_unknown" }
    | { readonly kind: "depth_limit"; readonly depth: number; readonly max: number }
    | { readonly kind: "no_agent"; readonly file: string }
  );

/**
 * Says why a call may not even be put to the approver, checking in this order: for a command,
 * commands turned off, then an unknown target; for a task, the depth limit, then whether a
 * subagent is configured.
 *
 * @param call The parsed call.
 * @param context Commands on or off, the depth, the configuration.
 * @returns A one-line refusal (the caller's `denied`, exit 5), or `undefined` when the call may go
 *   on to the rules and the approver.
 *
 * @example Commands off, tasks still delegated
 * ```ts
 * import { refuseSpawn } from "./guard.ts";
 * const config = { file: "/c/spawn.json", agent: ["my-agent"], targets: new Map(), maxDepth: 2 };
 * const context = { noShell: true, depth: 0, config };
 * console.assert(refuseSpawn({ mode: "command", body: "ls" }, context) !== undefined);
 * console.assert(refuseSpawn({ mode: "agent", body: "sum up" }, context) === undefined);
 * ```
 */
export function refuseSpawn(call: SpawnCall, context: SpawnGuardContext): string | undefined {
  return spawnRefusal(call, context)?.message;
}

/**
 * The refusal {@linkcode refuseSpawn} words, as data.
 *
 * @param call The parsed call.
 * @param context Commands on or off, the depth, the configuration.
 * @returns The refusal with its kind, details and English message, or `undefined`.
 *
 * @example An unknown target
 * ```ts
 * import { spawnRefusal } from "./guard.ts";
 * const config = { file: "/c/spawn.json", agent: undefined, targets: new Map(), maxDepth: 2 };
 * const refusal = spawnRefusal({ mode: "command", body: "ls", target: "mac" }, {
 *   noShell: false,
 *   depth: 0,
 *   config,
 * });
 * console.assert(refusal?.kind === "unknown_target");
 * ```
 */
export function spawnRefusal(
  call: SpawnCall,
  context: SpawnGuardContext,
): SpawnRefusal | undefined {
  const { config } = context;
  if (call.mode === "command") {
    if (context.noShell) {
      return {
        kind: "no_shell",
        message:
          'Spawn refused: commands are turned off (--no-shell); a task without a leading "!" ' +
          "can still be delegated",
      };
    }
    if (call.target !== undefined && !config.targets.has(call.target)) {
      const names = [...config.targets.keys()].sort();
      const known = names.length === 0
        ? `no targets are configured (add "targets" to ${config.file})`
        : `configured targets: ${names.join(", ")}`;
      return {
        kind: "unknown_target",
        target: call.target,
        known: names,
        file: config.file,
        message: `Spawn refused: unknown target ${JSON.stringify(call.target)}; ${known}`,
      };
    }
    return undefined;
  }
  if (context.depth === undefined) {
    return {
      kind: "depth_unknown",
      message: `Spawn refused: ${SPAWN_DEPTH_VAR} is not a whole number, so the delegation ` +
        "depth is unknown; commands still work",
    };
  }
  if (context.depth >= config.maxDepth) {
    return {
      kind: "depth_limit",
      depth: context.depth,
      max: config.maxDepth,
      message: `Spawn refused: this call is at delegation depth ${context.depth} and the limit ` +
        `is ${config.maxDepth}, so it cannot delegate further; commands ("!<command>") still work`,
    };
  }
  if (config.agent === undefined) {
    return {
      kind: "no_agent",
      file: config.file,
      message: "Spawn refused: no subagent is configured; add an argv such as " +
        `"agent": ["claude", "-p"] to ${config.file} (it gets the task on stdin and answers on ` +
        "stdout)",
    };
  }
  return undefined;
}
