/**
 * The user's spawn configuration: `spawn.json` in the global config directory (never in a
 * workspace, so that a repository cannot choose what its commands and tasks run through).
 *
 * ```jsonc
 * {
 *   "agent": ["claude", "-p"],                           // the subagent: task on stdin, answer on stdout
 *   "agents": {                                          // named agents, for "@<name> <task>"
 *     "reviewer": ["claude", "-p", "--model", "{model}"],
 *     "writer": { "argv": ["codex", "exec"], "child": { "roster": ["fmt"] } }
 *   },
 *   "targets": { "builder": ["ssh", "builder.local", "--"] }, // name → argv prefix; body appended
 *   "max_depth": 2,                                      // agent calls refused at this depth or deeper
 *   "reach": { "allow": ["local", "named"], "default": "local" }, // what "reach" may be
 *   "child": { "roster": ["lint", "test"], "model": "m", "system_prompt": "…" } // every child
 * }
 * ```
 *
 * Every key is optional; a missing file means no agent, no named agents, no targets, a depth limit
 * of 2, every reach allowed (`any` when a call says nothing) and no child policy.
 *
 * @module
 */

import { ManifestError, type ManifestProblem, problemOf } from "../errors.ts";
import { type Phrase, phrase } from "../locale/messages.ts";
import { createLocator, type Segment } from "../json_text.ts";
import { joinPath, resolvePath } from "../paths.ts";
import { loadConfigFile, parseConfigText } from "../read_config_file.ts";
import { fieldName } from "../text.ts";
import { foundPhrase } from "../json_kind.ts";
import type { ChildPolicy } from "./child.ts";
import { DEFAULT_REACH_POLICY, type ReachPolicy } from "./reach.ts";
import {
  AGENT_KEYS,
  checkName,
  checkPlaceholders,
  isObject,
  mergeChild,
  narrowArgv,
  narrowChild,
  narrowReach,
  type ProblemSink,
  unknownKeys,
} from "./_config_fields.ts";

/** The file name inside the config directory. */
export const SPAWN_CONFIG_FILE = "spawn.json";

/** The default depth at which agent calls are refused. */
export const DEFAULT_MAX_DEPTH = 2;

/** `$schema` names the JSON Schema an editor checks the file with; this program ignores it. */
const KEYS = ["$schema", "agent", "agents", "targets", "max_depth", "reach", "child"] as const;

/** A named agent: its argv and the child policy that applies to the tasks it gets. */
export interface NamedAgent {
  /** The argv: the task on stdin, the answer on stdout. */
  readonly argv: readonly string[];
  /** Its own `child` keys laid over the top-level `child`. */
  readonly child: ChildPolicy;
}

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
  /** Named agents (`@<name> <task>`), by name. @default none */
  readonly agents?: ReadonlyMap<string, NamedAgent>;
  /** What a call's `reach` may be, and what it is when a call says nothing. @default every value, "any" */
  readonly reach?: ReachPolicy;
  /** What the configured subagent's child gets instead of what it inherits. @default nothing */
  readonly child?: ChildPolicy;
}

const NO_AGENTS: ReadonlyMap<string, NamedAgent> = new Map();

/**
 * The named agents of a configuration.
 *
 * @param config The configuration.
 * @returns Name → agent (empty when none are configured).
 */
export function namedAgents(config: SpawnConfig): ReadonlyMap<string, NamedAgent> {
  return config.agents ?? NO_AGENTS;
}

/**
 * The reach policy of a configuration.
 *
 * @param config The configuration.
 * @returns The policy ({@linkcode DEFAULT_REACH_POLICY} when the file sets none).
 */
export function reachPolicy(config: SpawnConfig): ReachPolicy {
  return config.reach ?? DEFAULT_REACH_POLICY;
}

/**
 * The child policy that applies to a task.
 *
 * @param config The configuration.
 * @param agent The named agent the task is for, or `undefined` for the configured subagent.
 * @returns The policy (empty when nothing is overridden).
 */
export function childPolicy(config: SpawnConfig, agent: string | undefined): ChildPolicy {
  if (agent !== undefined) {
    const named = namedAgents(config).get(agent);
    if (named !== undefined) return named.child;
  }
  return config.child ?? {};
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
  return await loadConfigFile(file, defaults, parseSpawnConfig);
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
  const parsed = await parseConfigText(text, file, phrase("spawn_config.empty"));
  const { source, value } = parsed;
  // JSON.parse kept the last of a key given twice (two agents, a target twice): say where.
  const problems: ManifestProblem[] = [...parsed.duplicates];
  if (!isObject(value)) {
    throw new ManifestError([problemOf({ file }, phrase("spawn_config.not_object"))]);
  }
  const found: { path: readonly Segment[]; at: "key" | "value"; reason: Phrase }[] = [];
  const sink: ProblemSink = {
    add: (path, reason, at = "value") => found.push({ path, at, reason }),
  };
  const config = narrowConfig(value, file, sink);
  if (found.length > 0) {
    // Only a broken file pays for the JSONC tree that says where each problem is.
    const locate = await createLocator(source);
    const located = found.map(({ path, at, reason }) =>
      problemOf({ file, ...locate({ path, at }), field: fieldName(path) }, reason)
    );
    // In file order, as a person reads the file.
    const place = (problem: ManifestProblem) => [problem.line ?? 0, problem.column ?? 0];
    located.sort((a, b) => {
      const [al = 0, ac = 0] = place(a);
      const [bl = 0, bc = 0] = place(b);
      return al - bl || ac - bc;
    });
    problems.push(...located);
  }
  if (problems.length > 0) throw new ManifestError(problems);
  return config;
}

/** Every key of the file, each problem reported with where it is. */
function narrowConfig(
  object: Record<string, unknown>,
  file: string,
  sink: ProblemSink,
): SpawnConfig {
  unknownKeys(object, KEYS, [], sink);
  if (Object.hasOwn(object, "$schema") && typeof object.$schema !== "string") {
    sink.add(["$schema"], phrase("manifest.not_string", { found: foundPhrase(object.$schema) }));
  }
  const dir = file.slice(0, file.lastIndexOf("/")) || "/";
  const child = object.child === undefined ? {} : narrowChild(object.child, ["child"], sink) ?? {};
  const agent = object.agent === undefined
    ? undefined
    : narrowArgv(object.agent, ["agent"], dir, sink);
  if (agent !== undefined) checkPlaceholders(agent, child, ["agent"], sink);
  const targets = new Map<string, readonly string[]>();
  if (object.targets !== undefined) {
    if (!isObject(object.targets)) {
      sink.add(["targets"], phrase("spawn_config.targets_not_object"));
    } else {
      const reasons = {
        bad: phrase("spawn_config.target_name"),
        local: phrase("spawn_config.target_local"),
      };
      for (const name of Object.keys(object.targets).sort()) {
        checkName(name, ["targets", name], sink, reasons);
        const prefix = narrowArgv(object.targets[name], ["targets", name], dir, sink);
        if (prefix !== undefined) targets.set(name, prefix);
      }
    }
  }
  const agents = narrowAgents(object.agents, child, dir, sink);
  const maxDepth = object.max_depth === undefined ? DEFAULT_MAX_DEPTH : object.max_depth;
  if (typeof maxDepth !== "number" || !Number.isSafeInteger(maxDepth) || maxDepth < 0) {
    sink.add(["max_depth"], phrase("spawn_config.max_depth"));
  }
  const reach = object.reach === undefined ? undefined : narrowReach(object.reach, sink);
  return {
    file,
    agent,
    targets,
    maxDepth: maxDepth as number,
    agents,
    reach: reach ?? DEFAULT_REACH_POLICY,
    child,
  };
}

/** `"agents"`: name → argv, or name → `{"argv": [...], "child": {...}}`. */
function narrowAgents(
  value: unknown,
  top: ChildPolicy,
  dir: string,
  sink: ProblemSink,
): ReadonlyMap<string, NamedAgent> {
  const agents = new Map<string, NamedAgent>();
  if (value === undefined) return agents;
  if (!isObject(value)) {
    sink.add(["agents"], phrase("spawn_config.agents_not_object"));
    return agents;
  }
  const reasons = {
    bad: phrase("spawn_config.agent_name"),
    local: phrase("spawn_config.agent_local"),
  };
  for (const name of Object.keys(value).sort()) {
    const path = ["agents", name];
    checkName(name, path, sink, reasons);
    const entry = value[name];
    let argv: readonly string[] | undefined;
    let own: ChildPolicy | undefined;
    let argvPath: readonly Segment[] = path;
    if (isObject(entry)) {
      unknownKeys(entry, AGENT_KEYS, path, sink);
      argvPath = [...path, "argv"];
      argv = narrowArgv(entry.argv, argvPath, dir, sink);
      if (entry.child !== undefined) own = narrowChild(entry.child, [...path, "child"], sink);
    } else {
      argv = narrowArgv(entry, path, dir, sink);
    }
    if (argv === undefined) continue;
    const child = mergeChild(top, own);
    checkPlaceholders(argv, child, argvPath, sink);
    agents.set(name, { argv, child });
  }
  return agents;
}

function defaults(file: string): SpawnConfig {
  return {
    file,
    agent: undefined,
    targets: new Map(),
    maxDepth: DEFAULT_MAX_DEPTH,
    agents: new Map(),
    reach: DEFAULT_REACH_POLICY,
    child: {},
  };
}
