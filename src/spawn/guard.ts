/**
 * The refusals that come before any rule or approver is asked: a reach outside the user's policy,
 * commands turned off, an unknown target, the delegation depth limit, an unknown agent, a task the
 * call's reach does not cover, and no subagent configured. A rule can never lift them.
 *
 * @module
 */

import { listOf, type Phrase, phrase } from "../locale/messages.ts";
import { namedAgents, reachPolicy, type SpawnConfig } from "./config.ts";
import { SPAWN_DEPTH_VAR } from "./lineage.ts";
import { reachCovers } from "./reach.ts";
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
 * Says why a call may not even be put to the approver, checking in this order: a `reach` the
 * policy does not allow; for a command, commands turned off, then an unknown target; for a task,
 * the depth limit, an unknown agent, a reach that does not cover the agent addressed, then
 * whether a subagent is configured.
 *
 * @param call The parsed call.
 * @param context Commands on or off, the depth, the configuration.
 * @returns The refusal (the caller's `denied`, exit 5) as a phrase (worded in the caller's locale,
 *   or in English with `english()` for the audit trail), or `undefined` when the call may go on to
 *   the rules and the approver.
 *
 * @example Commands off, tasks still delegated
 * ```ts
 * import { spawnRefusal } from "./guard.ts";
 * const config = { file: "/c/spawn.json", agent: ["my-agent"], targets: new Map(), maxDepth: 2 };
 * const context = { noShell: true, depth: 0, config };
 * console.assert(spawnRefusal({ mode: "command", body: "ls" }, context)?.key === "spawn.guard.no_shell");
 * console.assert(spawnRefusal({ mode: "agent", body: "sum up" }, context) === undefined);
 * ```
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
 * console.assert(refusal?.key === "spawn.guard.unknown_target_none");
 * ```
 */
export function spawnRefusal(call: SpawnCall, context: SpawnGuardContext): Phrase | undefined {
  const { config } = context;
  const policy = reachPolicy(config);
  if (call.reach !== undefined && !policy.allow.includes(call.reach)) {
    return phrase("spawn.guard.reach_not_allowed", {
      reach: JSON.stringify(call.reach),
      allowed: listOf(policy.allow.map((reach) => JSON.stringify(reach)), "join.or"),
      default: JSON.stringify(policy.default),
    });
  }
  const target = JSON.stringify(call.target);
  const file = config.file;
  if (call.mode === "command") {
    if (context.noShell) return phrase("spawn.guard.no_shell");
    if (call.target === undefined || config.targets.has(call.target)) return undefined;
    const names = [...config.targets.keys()].sort().join(", ");
    return names === ""
      ? phrase("spawn.guard.unknown_target_none", { target, file })
      : phrase("spawn.guard.unknown_target", { target, names });
  }
  if (context.depth === undefined) {
    return phrase("spawn.guard.depth_unknown", { variable: SPAWN_DEPTH_VAR });
  }
  if (context.depth >= config.maxDepth) {
    return phrase("spawn.guard.depth_limit", { depth: context.depth, max: config.maxDepth });
  }
  const agents = namedAgents(config);
  // Names for a message: plain, comma-separated.
  const names = [...agents.keys()].sort().join(", ");
  const name = call.target;
  if (name !== undefined && !agents.has(name)) {
    return names === ""
      ? phrase("spawn.guard.unknown_agent_none", { agent: target, name, file })
      : phrase("spawn.guard.unknown_agent", { agent: target, name, names });
  }
  const reach = call.reach ?? policy.default;
  if (!reachCovers(reach, name)) {
    return name === undefined
      ? phrase("spawn.guard.reach_needs_name", { reach: JSON.stringify(reach) })
      : phrase("spawn.guard.reach_local_only", {
        reach: JSON.stringify(reach),
        agent: target,
        name,
      });
  }
  if (name !== undefined || config.agent !== undefined) return undefined;
  return names === ""
    ? phrase("spawn.guard.no_agent", { file })
    : phrase("spawn.guard.no_agent_named", { file, names });
}
