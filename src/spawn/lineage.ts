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
 * Deno lets nothing short of `--allow-all` read `/proc`, so the released binary cannot look at its
 * ancestors. So when basis-tools starts a subagent it also keeps a record of the subagent's
 * variables where no sandboxed call can write — `lineage/PID` in the state directory, removed when
 * the subagent ends — and a basis-tools reads the record of its parent (`Deno.ppid`): one that the
 * subagent (an MCP client) starts itself. A subagent confined by bwrap (its own PID namespace) has
 * its record bound read-only at {@linkcode CONFINED_RECORD}, which every process in its sandbox
 * reads. A record is one more layer, like an ancestor's environment: it can only raise the depth or
 * narrow the roster, so a stale one (its subagent was killed with basis-tools, and the pid reused)
 * restricts an unrelated process, never loosens one.
 *
 * @module
 */

import { type EnvLookup, joinPath, parentPath, readEnv, stateDir } from "../paths.ts";
import { readRegularFile } from "../read_regular_file.ts";
import { parseRoster, ROSTER_VAR } from "./child.ts";

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
 * import { parseSpawnDepth } from "./lineage.ts";
 * console.assert(parseSpawnDepth(undefined) === 0);
 * console.assert(parseSpawnDepth("2") === 2);
 * console.assert(parseSpawnDepth("two") === undefined);
 * ```
 */
export function parseSpawnDepth(value: string | undefined): number | undefined {
  // Blank is 0 (`Number("")`); anything but digits is unknown.
  const text = value?.trim() ?? "";
  const depth = /^[0-9]*$/.test(text) ? Number(text) : NaN;
  return Number.isSafeInteger(depth) ? depth : undefined;
}

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
  ancestors: readonly Readonly<Record<string, string>>[] = ancestorValues(env),
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

/**
 * Where a confined subagent's record is bound, read-only: in the empty `/run` of its sandbox (a
 * tmpfs bwrap can make the mount point in; Deno reads nothing in `/dev` or `/proc` short of
 * `--allow-all`). Outside a sandbox only root can make it.
 */
export const CONFINED_RECORD = "/run/.basis-lineage";

/**
 * Keeps the record of a subagent's lineage variables until {@linkcode dropLineageRecord}: in the
 * state directory (0600 in a 0700 directory), written whole (a reader sees all of it or none).
 *
 * @param key The subagent's pid, or a name of the caller's for a confined one.
 * @param values The lineage variables the subagent was started with.
 * @param env How the state directory is found. @default readEnv
 * @returns The record's path, or `undefined` when it could not be written (no state directory,
 *   a read-only one inside a sandbox): the environment alone carries the lineage then.
 */
export function keepLineageRecord(
  key: string,
  values: Readonly<Record<string, string>>,
  env: EnvLookup = readEnv,
): string | undefined {
  const dir = lineageDir(env);
  const path = joinPath(dir, key);
  try {
    Deno.mkdirSync(dir, { recursive: true, mode: 0o700 });
    Deno.writeTextFileSync(path, JSON.stringify(values), { mode: 0o600, createNew: true });
    return path;
  } catch {
    dropLineageRecord(path);
    return undefined;
  }
}

/**
 * Where the records of running subagents are kept: `<state>/lineage`.
 *
 * @param env How variables are read.
 * @returns The directory.
 */
export function lineageDir(env: EnvLookup = readEnv): string {
  return joinPath(stateDir(env), "lineage");
}

/**
 * Gives a kept record the key a child looks it up by (the subagent's pid, once it started).
 *
 * @param path The record {@linkcode keepLineageRecord} kept.
 * @param key Its new name in the same directory.
 * @returns Where the record is now (where it was, if it could not be renamed).
 */
export function renameLineageRecord(path: string, key: string): string {
  const to = joinPath(parentPath(path), key);
  try {
    Deno.renameSync(path, to);
    return to;
  } catch {
    return path;
  }
}

/** Removes a record {@linkcode keepLineageRecord} kept (its subagent ended). */
export function dropLineageRecord(path: string | undefined): void {
  try {
    if (path !== undefined) Deno.removeSync(path);
  } catch {
    // Already gone.
  }
}

/**
 * The lineage variables of every ancestor: the records of a confined sandbox and of the parent
 * (each one failed look-up when absent), then where `/proc` can be read, each ancestor's starting
 * environment. (That walk finds every subagent's variables, so it needs no record of theirs.)
 */
function ancestorValues(env: EnvLookup): Record<string, string>[] {
  const found: Record<string, string>[] = [];
  const records = [CONFINED_RECORD];
  try {
    records.push(joinPath(lineageDir(env), String(Deno.ppid)));
  } catch {
    // No state directory: no record of the parent either.
  }
  for (const path of records) {
    const values = recordAt(path);
    if (values !== undefined) found.push(values);
  }
  try {
    const proc = Deno.permissions.querySync({ name: "read", path: "/proc" }).state;
    if (Deno.build.os !== "linux" || proc !== "granted") return found;
  } catch {
    return found;
  }
  let pid = parentOf("self");
  for (let seen = 0; pid !== undefined && pid > 0 && seen < MAX_ANCESTORS; seen++) {
    // The lineage variables the process was started with, when it has any and may be read.
    let environ: string[] = [];
    try {
      environ = new TextDecoder().decode(Deno.readFileSync(`/proc/${pid}/environ`)).split("\0");
    } catch {
      // Not ours to read: nothing is known from it.
    }
    const values: Record<string, string> = {};
    for (const name of [SPAWN_DEPTH_VAR, ROSTER_VAR]) {
      const pair = environ.find((entry) => entry.startsWith(`${name}=`));
      if (pair !== undefined) values[name] = pair.slice(name.length + 1);
    }
    if (Object.keys(values).length > 0) found.push(values);
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

/**
 * The variables a lineage record holds, when there is one: anything there that is not a record
 * as {@linkcode keepLineageRecord} writes it (a FIFO, a link, garbage) counts as an unknown depth,
 * which delegates no further.
 */
function recordAt(path: string): Record<string, string> | undefined {
  try {
    const read = readRegularFile(path, { limit: 65536, follow: false });
    if (read.kind === "missing") return undefined;
    const values = read.kind === "read" ? JSON.parse(new TextDecoder().decode(read.bytes)) : {};
    const fields = [values?.[SPAWN_DEPTH_VAR], values?.[ROSTER_VAR] ?? ""];
    if (fields.every((field) => typeof field === "string")) return values;
  } catch (error) {
    // Not allowed to look: nothing is known from here.
    if (error instanceof Deno.errors.NotCapable) return undefined;
  }
  return { [SPAWN_DEPTH_VAR]: "unknown" };
}
