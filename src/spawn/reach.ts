/**
 * `reach`: the typed input field that bounds which agents a task may address in one call, and
 * the user's reach policy (`spawn.json` `"reach"`): which values a call may give, and the value a
 * call that gives none has.
 *
 * - `local`: only the configured subagent (`agent`): a plain task;
 * - `named`: only a named agent (`@<name> <task>`);
 * - `any`: either.
 *
 * @module
 */

/** Which agents a task may address. */
export type Reach = "local" | "named" | "any";

/** Every reach, in the order schemas and messages list them. */
export const REACH_VALUES: readonly Reach[] = Object.freeze(["local", "named", "any"] as const);

/** The user's reach policy. */
export interface ReachPolicy {
  /** The values a call may give, in {@linkcode REACH_VALUES} order, never empty. */
  readonly allow: readonly Reach[];
  /** What a call that gives no `reach` has; always one of `allow`. */
  readonly default: Reach;
}

/** The policy when `spawn.json` has none: every value, `any` when a call says nothing. */
export const DEFAULT_REACH_POLICY: ReachPolicy = Object.freeze({
  allow: REACH_VALUES,
  default: "any",
});

/**
 * Whether a value is a reach.
 *
 * @param value Anything.
 * @returns True for `"local"`, `"named"` and `"any"`.
 *
 * @example
 * ```ts
 * import { isReach } from "./reach.ts";
 * console.assert(isReach("named") && !isReach("everything"));
 * ```
 */
export function isReach(value: unknown): value is Reach {
  return typeof value === "string" && (REACH_VALUES as readonly string[]).includes(value);
}

/**
 * Whether a reach lets a task go where it is addressed.
 *
 * @param reach The call's effective reach.
 * @param agent The named agent the task addresses, or `undefined` for the configured subagent.
 * @returns True when the reach covers that agent.
 *
 * @example A local reach keeps a task at home
 * ```ts
 * import { reachCovers } from "./reach.ts";
 * console.assert(reachCovers("local", undefined) && !reachCovers("local", "reviewer"));
 * console.assert(reachCovers("any", "reviewer") && !reachCovers("named", undefined));
 * ```
 */
export function reachCovers(reach: Reach, agent: string | undefined): boolean {
  if (reach === "any") return true;
  return reach === "local" ? agent === undefined : agent !== undefined;
}
