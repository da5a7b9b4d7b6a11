/**
 * The refusals that come before any rule or approver is asked: a reach outside the user's policy,
 * commands turned off, an unknown target, the delegation depth limit, an unknown agent, a task the
 * call's reach does not cover, and no subagent configured. A rule can never lift them.
 *
 * @module
 */

import { listOf, type Phrase, phrase } from "../locale/messages.ts";
import { namedAgents, reachPolicy, type SpawnConfig } from "./config.ts";
import { SPAWN_DEPTH_VAR } from "./depth.ts";
import { type Reach, reachCovers } from "./reach.ts";
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
 * Why a spawn call was refused before approval, as data, with its phrase (worded in the caller's
 * locale, or in English with `english()` for the audit trail).
 */
export type SpawnRefusal =
  & {
    /** The refusal as a phrase: one line, `Spawn refused: …`. */
    readonly phrase: Phrase;
  }
  & (
    | {
      readonly kind: "reach_not_allowed";
      /** The reach the call gave. */
      readonly reach: Reach;
      /** What the policy allows. */
      readonly allowed: readonly Reach[];
      /** What a call that gives none has. */
      readonly default: Reach;
    }
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
    | {
      readonly kind: "unknown_agent";
      /** The agent named. */
      readonly agent: string;
      /** The configured agent names, sorted. */
      readonly known: readonly string[];
      /** The spawn configuration file. */
      readonly file: string;
    }
    | {
      readonly kind: "reach_excludes";
      /** The call's effective reach. */
      readonly reach: Reach;
      /** The named agent the task is for, or `undefined` for the configured subagent. */
      readonly agent: string | undefined;
    }
    | {
      readonly kind: "no_agent";
      readonly file: string;
      /** The named agents there are, sorted (a plain task could address one instead). */
      readonly known: readonly string[];
    }
  );

type RefusalData = SpawnRefusal extends infer R ? R extends unknown ? Omit<R, "phrase"> : never
  : never;

/** The refusal with its phrase. */
function refusal(data: RefusalData): SpawnRefusal {
  return { ...data, phrase: refusalPhrase(data) } as SpawnRefusal;
}

/**
 * Says why a call may not even be put to the approver, checking in this order: a `reach` the
 * policy does not allow; for a command, commands turned off, then an unknown target; for a task,
 * the depth limit, an unknown agent, a reach that does not cover the agent addressed, then
 * whether a subagent is configured.
 *
 * @param call The parsed call.
 * @param context Commands on or off, the depth, the configuration.
 * @returns The refusal (the caller's `denied`, exit 5) with its kind, details and phrase, or
 *   `undefined` when the call may go on to the rules and the approver.
 *
 * @example Commands off, tasks still delegated
 * ```ts
 * import { spawnRefusal } from "./guard.ts";
 * const config = { file: "/c/spawn.json", agent: ["my-agent"], targets: new Map(), maxDepth: 2 };
 * const context = { noShell: true, depth: 0, config };
 * console.assert(spawnRefusal({ mode: "command", body: "ls" }, context)?.kind === "no_shell");
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
 * console.assert(refusal?.kind === "unknown_target");
 * ```
 */
export function spawnRefusal(
  call: SpawnCall,
  context: SpawnGuardContext,
): SpawnRefusal | undefined {
  const { config } = context;
  const policy = reachPolicy(config);
  if (call.reach !== undefined && !policy.allow.includes(call.reach)) {
    return refusal({
      kind: "reach_not_allowed",
      reach: call.reach,
      allowed: policy.allow,
      default: policy.default,
    });
  }
  if (call.mode === "command") {
    if (context.noShell) return refusal({ kind: "no_shell" });
    if (call.target !== undefined && !config.targets.has(call.target)) {
      const known = [...config.targets.keys()].sort();
      return refusal({ kind: "unknown_target", target: call.target, known, file: config.file });
    }
    return undefined;
  }
  if (context.depth === undefined) return refusal({ kind: "depth_unknown" });
  if (context.depth >= config.maxDepth) {
    return refusal({ kind: "depth_limit", depth: context.depth, max: config.maxDepth });
  }
  const agents = namedAgents(config);
  const known = [...agents.keys()].sort();
  if (call.target !== undefined && !agents.has(call.target)) {
    return refusal({ kind: "unknown_agent", agent: call.target, known, file: config.file });
  }
  const reach = call.reach ?? policy.default;
  if (!reachCovers(reach, call.target)) {
    return refusal({ kind: "reach_excludes", reach, agent: call.target });
  }
  if (call.target === undefined && config.agent === undefined) {
    return refusal({ kind: "no_agent", file: config.file, known });
  }
  return undefined;
}

/** Names for a message: `"a", "b"` style is for values; these are plain, comma-separated. */
function names(list: readonly string[]): string {
  return list.join(", ");
}

/** How each refusal is said. */
function refusalPhrase(data: RefusalData): Phrase {
  switch (data.kind) {
    case "reach_not_allowed":
      return phrase("spawn.guard.reach_not_allowed", {
        reach: JSON.stringify(data.reach),
        allowed: listOf(data.allowed.map((reach) => JSON.stringify(reach)), "join.or"),
        default: JSON.stringify(data.default),
      });
    case "no_shell":
      return phrase("spawn.guard.no_shell");
    case "unknown_target":
      return data.known.length === 0
        ? phrase("spawn.guard.unknown_target_none", {
          target: JSON.stringify(data.target),
          file: data.file,
        })
        : phrase("spawn.guard.unknown_target", {
          target: JSON.stringify(data.target),
          names: names(data.known),
        });
    case "depth_unknown":
      return phrase("spawn.guard.depth_unknown", { variable: SPAWN_DEPTH_VAR });
    case "depth_limit":
      return phrase("spawn.guard.depth_limit", { depth: data.depth, max: data.max });
    case "unknown_agent":
      return data.known.length === 0
        ? phrase("spawn.guard.unknown_agent_none", {
          agent: JSON.stringify(data.agent),
          name: data.agent,
          file: data.file,
        })
        : phrase("spawn.guard.unknown_agent", {
          agent: JSON.stringify(data.agent),
          name: data.agent,
          names: names(data.known),
        });
    case "reach_excludes":
      return data.agent === undefined
        ? phrase("spawn.guard.reach_needs_name", { reach: JSON.stringify(data.reach) })
        : phrase("spawn.guard.reach_local_only", {
          reach: JSON.stringify(data.reach),
          agent: JSON.stringify(data.agent),
          name: data.agent,
        });
    case "no_agent":
      return data.known.length === 0
        ? phrase("spawn.guard.no_agent", { file: data.file })
        : phrase("spawn.guard.no_agent_named", { file: data.file, names: names(data.known) });
  }
}
