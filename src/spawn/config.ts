/**
 * The user's spawn configuration: `spawn.json` in the global config directory (never in a
 * workspace, so that a repository cannot choose what its commands run through).
 *
 * ```jsonc
 * {
 *   "agent": ["claude", "-p"],                           // the subagent: task on stdin, answer on stdout
 *   "targets": { "builder": ["ssh", "builder.local", "--"] }, // name → argv prefix; body appended
 *   "max_depth": 2                                       // agent calls refused at this depth or deeper
 * }
 * ```
 *
 * Every key is optional; a missing file means no agent, no targets and a depth limit of 2.
 *
 * @module
 */

import { ManifestError, type ManifestProblem, problemOf } from "../errors.ts";
import { type Phrase, phrase } from "../locale/messages.ts";
import { findDuplicateKeys } from "../json_duplicate_keys.ts";
import { parseJsonc, type Segment } from "../json_text.ts";
import { joinPath, resolvePath } from "../paths.ts";
import { readConfigFile } from "../read_config_file.ts";
import { unknownKey } from "../suggest.ts";
import { keyLabel } from "../text.ts";
import { foundPhrase } from "../json_kind.ts";

/** The file name inside the config directory. */
export const SPAWN_CONFIG_FILE = "spawn.json";

/** The default depth at which agent calls are refused. */
export const DEFAULT_MAX_DEPTH = 2;

/** `$schema` names the JSON Schema an editor checks the file with; this program ignores it. */
const KEYS = ["$schema", "agent", "targets", "max_depth"] as const;
const TARGET_NAME = /^[A-Za-z0-9_-]+$/;

/** The resolved spawn configuration. */
export interface SpawnConfig {
  /** The file it was read from (absolute; may not exist). */
  readonly file: string;
  /** The subagent's argv, or `undefined` when none is configured. */
  readonly agent: readonly string[] | undefined;
  /** Target name → argv prefix, by name. */
  readonly targets: ReadonlyMap<string, readonly string[]>;
  /** Agent calls are refused at this delegation depth or deeper. */
  readonly maxDepth: number;
}

/**
 * Reads `spawn.json` from the config directory. A missing file (or a directory in its place) is
 * the default configuration. A program written as a relative path with a `/` resolves against the
 * config directory; a bare name is looked up on `PATH` when it runs.
 *
 * @param configDir The global config directory.
 * @returns The configuration.
 * @throws {ManifestError} `manifest_invalid`, one problem per line, when the file cannot be read
 *   or holds anything but the documented keys and values.
 *
 * @example Read the user's configuration
 * ```ts ignore
 * import { loadSpawnConfig } from "./config.ts";
 * const config = await loadSpawnConfig("/home/me/.config/basis");
 * console.log(config.agent ?? "no agent", [...config.targets.keys()]);
 * ```
 */
export async function loadSpawnConfig(configDir: string): Promise<SpawnConfig> {
  const file = resolvePath(joinPath(configDir, SPAWN_CONFIG_FILE));
  const read = readConfigFile(file);
  if (read.kind === "missing") return defaults(file);
  if (read.kind === "error") throw new ManifestError([problemOf({ file }, read.reason)]);
  return await parseSpawnConfig(read.text, file);
}

/**
 * Checks the text of a `spawn.json` without touching the disk.
 *
 * @param text The file's text (JSON; comments and trailing commas are accepted).
 * @param file Its absolute path, for messages and relative programs.
 * @returns The configuration.
 * @throws {ManifestError} With every problem found (a key given twice among them, at the second).
 *
 * @example A target
 * ```ts
 * import { parseSpawnConfig } from "./config.ts";
 * const config = await parseSpawnConfig('{"targets":{"box":["ssh","box","--"]}}', "/c/spawn.json");
 * console.assert(config.targets.get("box")?.[0] === "ssh" && config.agent === undefined);
 * ```
 */
export async function parseSpawnConfig(text: string, file: string): Promise<SpawnConfig> {
  const source = text.replace(/^\uFEFF/, "");
  const parsed = await parseJsonc(source, phrase("spawn_config.empty"));
  if (!parsed.ok) throw new ManifestError([problemOf({ file, ...parsed.position }, parsed.reason)]);
  const value = parsed.value;
  const problems: ManifestProblem[] = [];
  // JSON.parse kept the last of a key given twice (two agents, a target twice): say where.
  for (const { path, key, position, first } of findDuplicateKeys(source)) {
    const reason = phrase("json.duplicate_key", { line: first.line, column: first.column });
    problems.push(problemOf({ file, ...position, field: fieldName([...path, key]) }, reason));
  }
  const problem = (field: string, reason: Phrase) =>
    problems.push(problemOf({ file, field }, reason));
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new ManifestError([problemOf({ file }, phrase("spawn_config.not_object"))]);
  }
  const object = value as Record<string, unknown>;
  for (const key of Object.keys(object)) {
    if (!(KEYS as readonly string[]).includes(key)) {
      const { field, reason } = unknownKey(key, KEYS);
      problem(field, reason);
    }
  }
  if (Object.hasOwn(object, "$schema") && typeof object.$schema !== "string") {
    problem("$schema", phrase("manifest.not_string", { found: foundPhrase(object.$schema) }));
  }
  const dir = file.slice(0, file.lastIndexOf("/")) || "/";
  const agent = object.agent === undefined ? undefined : argv(object.agent, "agent", dir, problem);
  const targets = new Map<string, readonly string[]>();
  if (object.targets !== undefined) {
    if (
      typeof object.targets !== "object" || object.targets === null || Array.isArray(object.targets)
    ) {
      problem("targets", phrase("spawn_config.targets_not_object"));
    } else {
      for (const name of Object.keys(object.targets).sort()) {
        const field = `targets.${name}`;
        if (!TARGET_NAME.test(name)) {
          problem(field, phrase("spawn_config.target_name"));
        } else if (name === "local") {
          problem(field, phrase("spawn_config.target_local"));
        }
        const prefix = argv((object.targets as Record<string, unknown>)[name], field, dir, problem);
        if (prefix !== undefined) targets.set(name, prefix);
      }
    }
  }
  const maxDepth = object.max_depth === undefined ? DEFAULT_MAX_DEPTH : object.max_depth;
  if (typeof maxDepth !== "number" || !Number.isSafeInteger(maxDepth) || maxDepth < 0) {
    problem("max_depth", phrase("spawn_config.max_depth"));
  }
  if (problems.length > 0) throw new ManifestError(problems);
  return { file, agent, targets, maxDepth: maxDepth as number };
}

/** `targets.builder`, `agent[0]`. */
function fieldName(path: readonly Segment[]): string {
  let name = "";
  for (const segment of path) {
    if (typeof segment === "number") name += `[${segment}]`;
    else name += name === "" ? keyLabel(segment) : `.${keyLabel(segment)}`;
  }
  return name;
}

function defaults(file: string): SpawnConfig {
  return { file, agent: undefined, targets: new Map(), maxDepth: DEFAULT_MAX_DEPTH };
}

/** A non-empty argv of strings; a relative program with a `/` resolves against `dir`. */
function argv(
  value: unknown,
  field: string,
  dir: string,
  problem: (field: string, reason: Phrase) => void,
): readonly string[] | undefined {
  if (!Array.isArray(value) || value.length === 0 || !value.every((v) => typeof v === "string")) {
    problem(field, phrase("spawn_config.argv"));
    return undefined;
  }
  const [program, ...args] = value as string[];
  if (program === undefined || program.trim() === "") {
    problem(`${field}[0]`, phrase("spawn_config.program_blank"));
    return undefined;
  }
  const resolved = program.includes("/") && !program.startsWith("/")
    ? resolvePath(dir, program)
    : program;
  return [resolved, ...args];
}
