/**
 * Loading the roster with the run's settings, and finding one tool in it.
 *
 * @module
 */

import { BasisError } from "../errors.ts";
import { nearWords } from "../suggest.ts";
import { loadRoster } from "../manifest/load.ts";
import type { Roster, ToolSpec } from "../manifest/types.ts";
import type { Settings } from "./settings.ts";

/**
 * Loads the workspace and global manifests.
 *
 * @param settings The run's settings.
 * @returns The roster.
 * @throws {ManifestError} When a manifest is invalid.
 */
export function rosterFor(settings: Settings): Promise<Roster> {
  return loadRoster({
    ...(settings.workspace === undefined ? {} : { workspace: settings.workspace }),
    configDir: settings.configDir,
  });
}

/**
 * Finds a tool by name.
 *
 * @param roster The roster.
 * @param name The name asked for.
 * @returns The tool.
 * @throws {BasisError} `unknown_tool`, naming the closest names when there are any.
 */
export function findTool(roster: Roster, name: string): ToolSpec {
  const spec = roster.tools.get(name);
  if (spec) return spec;
  const near = nearWords(name, [...roster.tools.keys()], 3);
  const hint = near.length > 0
    ? `; did you mean ${near.map((n) => JSON.stringify(n)).join(" or ")}?`
    : roster.tools.size === 0
    ? "; no tools are declared (see basis-tools check)"
    : "; see basis-tools list";
  throw new BasisError("unknown_tool", `Cannot find tool ${JSON.stringify(name)}${hint}`);
}
