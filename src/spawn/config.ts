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

import { type Phrase, phrase } from "../locale/messages.ts";
import { joinPath, parentPath, resolvePath } from "../paths.ts";
import { loadConfigFile, parseConfigText } from "../read_config_file.ts";
import { configError, type ShapeProblem, shapeProblems } from "../config_shape.ts";
import type { ChildPolicy } from "./child.ts";
import { DEFAULT_REACH_POLICY, type Reach, REACH_VALUES, type ReachPolicy } from "./reach.ts";

/** The file name inside the config directory. */
export const SPAWN_CONFIG_FILE = "spawn.json";

/** The default depth at which agent calls are refused. */
export const DEFAULT_MAX_DEPTH = 2;

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

/**
 * The named agents of a configuration.
 *
 * @param config The configuration.
 * @returns Name → agent (empty when none are configured).
 */
export function namedAgents(config: SpawnConfig): ReadonlyMap<string, NamedAgent> {
  return config.agents ?? new Map();
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
  return (agent === undefined ? undefined : config.agents?.get(agent)?.child) ?? config.child ?? {};
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
  return await loadConfigFile(file, (file) => build({}, file), parseSpawnConfig);
}

/**
 * Checks the text of a `spawn.json` without touching the disk: its shape by
 * `schemas/spawn.schema.json`, then what no schema says (a reach default the policy allows, a
 * placeholder an agent's child policy fills).
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
  const schema = await import("../../schemas/spawn.schema.json", { with: { type: "json" } });
  let found = await shapeProblems(schema.default, parsed.value);
  const raw = parsed.value as Raw;
  const config = found.length === 0 ? build(raw, file) : undefined;
  if (config !== undefined) found = facts(raw, config);
  if (found.length === 0 && parsed.duplicates.length === 0) return config!;
  throw await configError(file, parsed, found);
}

/** A file the schema accepted. */
type Raw = {
  agent?: string[];
  agents?: Record<string, string[] | { argv: string[]; child?: RawChild }>;
  targets?: Record<string, string[]>;
  max_depth?: number;
  reach?: { allow?: Reach[]; default?: Reach };
  child?: RawChild;
};
type RawChild = { roster?: string[]; model?: string; system_prompt?: string };

/** The configuration a well-formed file says: relative programs resolved, names sorted. */
function build(raw: Raw, file: string): SpawnConfig {
  const dir = parentPath(file);
  const argv = ([program, ...args]: string[]) => [
    program!.includes("/") && !program!.startsWith("/") ? resolvePath(dir, program!) : program!,
    ...args,
  ];
  const childOf = ({ roster, model, system_prompt }: RawChild): ChildPolicy => ({
    ...(roster === undefined ? {} : { roster: [...new Set(roster)].sort() }),
    ...(model === undefined ? {} : { model }),
    ...(system_prompt === undefined ? {} : { systemPrompt: system_prompt }),
  });
  const child = childOf(raw.child ?? {});
  const sorted = <T>(entries: Record<string, T> = {}) =>
    Object.entries(entries).sort(([a], [b]) => a < b ? -1 : 1);
  const agents = new Map(
    sorted(raw.agents).map(([name, entry]) => {
      if (Array.isArray(entry)) return [name, { argv: argv(entry), child }];
      return [name, { argv: argv(entry.argv), child: { ...child, ...childOf(entry.child ?? {}) } }];
    }),
  );
  const allow = raw.reach?.allow;
  return {
    file,
    agent: raw.agent && argv(raw.agent),
    targets: new Map(sorted(raw.targets).map(([name, prefix]) => [name, argv(prefix)])),
    maxDepth: raw.max_depth ?? DEFAULT_MAX_DEPTH,
    agents,
    reach: raw.reach === undefined ? DEFAULT_REACH_POLICY : {
      allow: allow === undefined ? REACH_VALUES : REACH_VALUES.filter((r) => allow.includes(r)),
      default: raw.reach.default ?? "any",
    },
    child,
  };
}

/** What the schema cannot say: the reach default against `allow`, placeholders against `child`. */
function facts(raw: Raw, config: SpawnConfig): ShapeProblem[] {
  const found: ShapeProblem[] = [];
  const add = (path: (string | number)[], reason: Phrase) =>
    found.push({ path, at: "value", reason });
  const { allow } = config.reach as ReachPolicy;
  const fallback = raw.reach?.default;
  if (raw.reach !== undefined && fallback === undefined && !allow.includes("any")) {
    add(["reach"], phrase("spawn_config.reach_default_missing"));
  } else if (fallback !== undefined && !allow.includes(fallback)) {
    const allowed = allow.map((reach) => JSON.stringify(reach)).join(", ");
    add(["reach", "default"], phrase("spawn_config.reach_default_allowed", { allowed }));
  }
  const check = (argv: readonly string[], child: ChildPolicy, path: (string | number)[]) => {
    const holes = [["model", child.model], ["system_prompt", child.systemPrompt]] as const;
    argv.forEach((arg, index) => {
      for (const [key, set] of holes) {
        if (index === 0 || set !== undefined || !arg.includes(`{${key}}`)) continue;
        const placeholder = JSON.stringify(`{${key}}`);
        add([...path, index], phrase("spawn_config.placeholder", { placeholder, key }));
      }
    });
  };
  if (config.agent !== undefined) check(config.agent, config.child ?? {}, ["agent"]);
  for (const [name, { argv, child }] of namedAgents(config)) {
    check(
      argv,
      child,
      Array.isArray(raw.agents![name]) ? ["agents", name] : ["agents", name, "argv"],
    );
  }
  return found;
}
