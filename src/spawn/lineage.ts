/**
 * What a delegated child inherits from its parents however it was started: its delegation depth
 * (`BASIS_SPAWN_DEPTH`) and its roster (`BASIS_ROSTER`). A parent sets both in its child's
 * environment, but a program between them — an MCP client starting `basis-tools mcp` with only
 * HOME, PATH and a few more, as the MCP SDK's stdio transport does — may clear it. So the values are
 * also read from the environment every ancestor process was started with (Linux:
 * `/proc/PID/environ`, which a process cannot change for its ancestors): the depth is the highest
 * any of them carries and the roster what every one of them allows, so a child can raise its depth
 * or narrow its roster, never lower or widen them.
 *
 * @module
 */

import { type EnvLookup, readEnv } from "../paths.ts";
import { parseRoster, ROSTER_VAR } from "./child.ts";
import { parseSpawnDepth, SPAWN_DEPTH_VAR } from "./depth.ts";

/** What this process inherited. */
export interface Lineage {
  /** The delegation depth; `undefined` when some value of it is not a whole number. */
  readonly depth: number | undefined;
  /**
   * The tools this process may expose: `undefined` for no restriction, or `{ bad }` naming the
   * first malformed name of a roster.
   */
  readonly roster: readonly string[] | { readonly bad: string } | undefined;
}

/** How many ancestors are looked at, at most. */
const MAX_ANCESTORS = 64;

/**
 * This process's lineage: its own environment's values and its ancestors'.
 *
 * @param env How this process's own variables are read.
 * @param ancestors The values its ancestors were started with. @default read from `/proc`
 * @returns The depth and the roster.
 * @example A cleared environment under a parent at depth 1
 * ```ts
 * import { inheritedLineage } from "./lineage.ts";
 * const lineage = inheritedLineage(() => undefined, [{ BASIS_SPAWN_DEPTH: "1", BASIS_ROSTER: "a,b" }]);
 * console.assert(lineage.depth === 1 && JSON.stringify(lineage.roster) === '["a","b"]');
 * ```
 */
export function inheritedLineage(
  env: EnvLookup,
  ancestors: readonly Readonly<Record<string, string>>[] = ancestorValues(),
): Lineage {
  const layers = [
    { [SPAWN_DEPTH_VAR]: env(SPAWN_DEPTH_VAR), [ROSTER_VAR]: env(ROSTER_VAR) },
    ...ancestors,
  ];
  let depth: number | undefined = 0;
  let roster: readonly string[] | { readonly bad: string } | undefined;
  for (const layer of layers) {
    const found = parseSpawnDepth(layer[SPAWN_DEPTH_VAR]);
    depth = found === undefined || depth === undefined ? undefined : Math.max(depth, found);
    const names = parseRoster(layer[ROSTER_VAR]);
    if (names === undefined || (roster !== undefined && !Array.isArray(roster))) continue;
    roster = !Array.isArray(names) || roster === undefined
      ? names
      : (roster as readonly string[]).filter((name) => (names as readonly string[]).includes(name));
  }
  return { depth, roster };
}

/**
 * Tells every process this one starts what it inherited, in its own environment: the variables
 * are set to the lineage found (a program started with a cleared environment, a sandboxed one
 * that cannot see its ancestors, gets them so).
 *
 * @param lineage What {@linkcode inheritedLineage} found.
 */
export function passLineageOn(lineage: Lineage): void {
  const { depth, roster } = lineage;
  const set = (name: string, value: string) => {
    try {
      if (readEnv(name) !== value) Deno.env.set(name, value);
    } catch {
      // Not allowed to set it: a child reads it from its ancestors.
    }
  };
  if (depth !== 0) set(SPAWN_DEPTH_VAR, depth === undefined ? "unknown" : String(depth));
  if (Array.isArray(roster)) set(ROSTER_VAR, roster.join(","));
}

/** The lineage variables every ancestor was started with (none where `/proc` cannot be read). */
function ancestorValues(): Record<string, string>[] {
  if (Deno.build.os !== "linux") return [];
  try {
    if (Deno.permissions.querySync({ name: "read", path: "/proc" }).state !== "granted") return [];
  } catch {
    return [];
  }
  const found: Record<string, string>[] = [];
  let pid = parentOf("self");
  for (let seen = 0; pid !== undefined && pid > 0 && seen < MAX_ANCESTORS; seen++) {
    const values = lineageIn(pid);
    if (values !== undefined) found.push(values);
    pid = pid === 1 ? undefined : parentOf(String(pid));
  }
  return found;
}

/** A process's parent, from `/proc/PID/stat` (after the command name, which may hold spaces). */
function parentOf(pid: string): number | undefined {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
  } catch {
    return undefined;
  }
}

/** The lineage variables a process was started with, when it has any and may be read. */
function lineageIn(pid: number): Record<string, string> | undefined {
  let environ: string;
  try {
    environ = new TextDecoder().decode(Deno.readFileSync(`/proc/${pid}/environ`));
  } catch {
    return undefined;
  }
  const text = `\0${environ}`;
  let values: Record<string, string> | undefined;
  for (const name of [SPAWN_DEPTH_VAR, ROSTER_VAR]) {
    const at = text.indexOf(`\0${name}=`);
    if (at === -1) continue;
    const start = at + name.length + 2;
    const end = text.indexOf("\0", start);
    (values ??= {})[name] = text.slice(start, end === -1 ? undefined : end);
  }
  return values;
}
