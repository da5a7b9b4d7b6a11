/**
 * The delegation depth: how many subagents deep this process runs. A subagent's environment
 * carries its depth in `BASIS_SPAWN_DEPTH` (the parent's depth plus one); a process without it is
 * at depth 0.
 *
 * @module
 */

/** The variable that carries the delegation depth to a subagent. */
export const SPAWN_DEPTH_VAR = "BASIS_SPAWN_DEPTH";

/**
 * Reads a delegation depth from the value of `BASIS_SPAWN_DEPTH`.
 *
 * @param value The variable's value, or `undefined` when unset.
 * @returns The depth: 0 when unset or blank; `undefined` when it is not a whole number (the
 *   caller refuses to delegate rather than guess).
 *
 * @example Unset, set and garbage
 * ```ts
 * import { parseSpawnDepth } from "./depth.ts";
 * console.assert(parseSpawnDepth(undefined) === 0);
 * console.assert(parseSpawnDepth("2") === 2);
 * console.assert(parseSpawnDepth("two") === undefined);
 * ```
 */
export function parseSpawnDepth(value: string | undefined): number | undefined {
  const text = value?.trim() ?? "";
  if (text === "") return 0;
  if (!/^[0-9]+$/.test(text)) return undefined;
  const depth = Number(text);
  return Number.isSafeInteger(depth) ? depth : undefined;
}
