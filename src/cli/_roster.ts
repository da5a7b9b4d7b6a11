/**
 * Loading the roster with the run's settings, and finding one tool in it; the workspace root for
 * commands that need no manifest (`spawn`, `show spawn`).
 *
 * @module
 */

import { BasisError, ManifestError, type ManifestProblem } from "../errors.ts";
import { listOf, phrase } from "../locale/messages.ts";
import { nearWords } from "../suggest.ts";
import { explicitWorkspace, findWorkspaceRoot, loadRoster } from "../manifest/load.ts";
import { resolvePath } from "../paths.ts";
import type { Roster, ToolSpec } from "../manifest/types.ts";
import { ROSTER_VAR, withinRoster } from "../spawn/child.ts";
import { loadSpawnConfig, type SpawnConfig } from "../spawn/config.ts";
import type { Settings } from "./settings.ts";

/**
 * Loads the workspace and global manifests: the tools this run serves, which are only those
 * `BASIS_ROSTER` names when it is set (unless `whole` asks for every declared tool, as `check`
 * and `rules` do: they are about the files, not about what this run exposes).
 *
 * @param settings The run's settings.
 * @param options `whole`: every declared tool, whatever `BASIS_ROSTER` says; `only`: the one tool
 *   the run uses (`call`), the only one whose entry is checked.
 * @returns The roster.
 * @throws {ManifestError} When a manifest is invalid.
 * @throws {BasisError} `usage` when `-C` cannot be used (see `explicitWorkspace()`).
 */
export async function rosterFor(
  settings: Settings,
  options: { whole?: boolean; only?: string } = {},
): Promise<Roster> {
  const { workspace, configDir, roster: names } = settings;
  const loaded = await loadRoster({
    ...(workspace === undefined ? {} : { workspace }),
    ...(options.only === undefined ? {} : { only: options.only }),
    configDir,
  });
  if (names === undefined || options.whole === true) return loaded;
  const { tools, unavailable } = loaded;
  return {
    ...loaded,
    tools: withinRoster(tools, names),
    unavailable: withinRoster(unavailable, names),
  };
}

/**
 * Whether this run serves a tool: always, unless `BASIS_ROSTER` is set and leaves it out.
 *
 * @param settings The run's settings.
 * @param name The tool's name (`spawn` included).
 * @returns True when the tool is in this run's roster.
 */
export function serves(settings: Settings, name: string): boolean {
  return settings.roster === undefined || settings.roster.includes(name);
}

/**
 * Refuses a tool this run does not serve (`BASIS_ROSTER` leaves it out), naming what it serves.
 *
 * @param settings The run's settings.
 * @param name The tool asked for.
 * @throws {BasisError} `unknown_tool` (exit 2) when the tool is left out.
 */
export function requireServed(settings: Settings, name: string): void {
  if (serves(settings, name)) return;
  const names = settings.roster!.join(", ");
  const params = { tool: JSON.stringify(name), variable: ROSTER_VAR, names };
  const key = names === "" ? "cli.not_in_roster_empty" : "cli.not_in_roster";
  throw BasisError.of("unknown_tool", phrase(key, params));
}

/**
 * The user's spawn configuration, or why spawn cannot be used: a broken `spawn.json` makes only
 * spawn unavailable, never the declared tools.
 *
 * @param settings The run's settings.
 * @returns The configuration, or the problems of the file.
 */
export async function spawnConfigFor(
  settings: Settings,
): Promise<{ config: SpawnConfig } | { problems: readonly ManifestProblem[] }> {
  try {
    return { config: await loadSpawnConfig(settings.configDir) };
  } catch (error) {
    if (!(error instanceof ManifestError)) throw error;
    return { problems: error.problems };
  }
}

/**
 * Finds a usable tool by name.
 *
 * @param roster The roster.
 * @param name The name asked for.
 * @returns The tool.
 * @throws {ManifestError} When the tool is declared but unavailable: every problem of it (exit 6).
 * @throws {BasisError} `unknown_tool`, naming the closest names when there are any; its phrase
 *   words it in the run's locale.
 */
export function findTool(roster: Roster, name: string): ToolSpec {
  const { tools, unavailable } = roster;
  const spec = tools.get(name);
  if (spec) return spec;
  const problems = unavailable.get(name)?.problems;
  if (problems) throw new ManifestError(problems);
  const known = [...tools.keys(), ...unavailable.keys()];
  const near = nearWords(name, known, 3, { abbreviation: true }).map((n) => JSON.stringify(n));
  const tool = JSON.stringify(name);
  if (near.length > 0) {
    throw BasisError.of(
      "unknown_tool",
      phrase("cli.unknown_tool_near", { tool, names: listOf(near, "join.or") }),
    );
  }
  if (known.length > 0) {
    throw BasisError.of("unknown_tool", phrase("cli.unknown_tool_list", { tool }));
  }
  // Nothing declared: in which files, or (none found) how to start a workspace or name another.
  const paths = (found: boolean) =>
    listOf(
      roster.sources.filter((s) => !found || s.found).map((s) => JSON.stringify(s.path)),
      "join.and",
    );
  throw BasisError.of(
    "unknown_tool",
    roster.sources.some((source) => source.found)
      ? phrase("cli.unknown_tool_none", { tool, files: paths(true) })
      : phrase("cli.unknown_tool_no_manifest", {
        tool,
        paths: paths(false),
        hint: phrase("hint.no_workspace"),
      }),
  );
}

/**
 * The workspace root: `-C DIR`, which must be a directory basis-tools may read, else the nearest
 * ancestor of the current directory holding `.basis/tools.json`, else the current directory.
 *
 * @param settings The run's settings.
 * @returns The absolute root.
 * @throws {BasisError} `usage` when `-C` names something that does not exist, is not a directory
 *   or is outside Deno's read permission.
 */
export async function workspaceRoot(settings: Settings): Promise<string> {
  if (settings.workspace === undefined) return await findWorkspaceRoot(Deno.cwd());
  return explicitWorkspace(resolvePath(settings.workspace), settings.workspace);
}
