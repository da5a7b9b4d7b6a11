/**
 * Loading the roster with the run's settings, and finding one tool in it.
 *
 * @module
 */

import { BasisError } from "../errors.ts";
import { listOf, phrase } from "../locale/messages.ts";
import { nearWords } from "../suggest.ts";
import { loadRoster } from "../manifest/load.ts";
import type { Roster, ToolSpec } from "../manifest/types.ts";
import type { Settings } from "./settings.ts";
import { notADirectory } from "./_workspace_root.ts";

/**
 * Loads the workspace and global manifests.
 *
 * @param settings The run's settings.
 * @returns The roster.
 * @throws {ManifestError} When a manifest is invalid.
 */
export async function rosterFor(settings: Settings): Promise<Roster> {
  try {
    return await loadRoster({
      ...(settings.workspace === undefined ? {} : { workspace: settings.workspace }),
      configDir: settings.configDir,
    });
  } catch (error) {
    // The loader's one usage error: -C is not a directory.
    if (!(error instanceof BasisError) || error.code !== "usage") throw error;
    throw notADirectory(settings.workspace ?? "");
  }
}

/**
 * Finds a tool by name.
 *
 * @param roster The roster.
 * @param name The name asked for.
 * @returns The tool.
 * @throws {BasisError} `unknown_tool`, naming the closest names when there are any; its phrase
 *   words it in the run's locale.
 */
export function findTool(roster: Roster, name: string): ToolSpec {
  const spec = roster.tools.get(name);
  if (spec) return spec;
  const near = nearWords(name, [...roster.tools.keys()], 3);
  const tool = JSON.stringify(name);
  throw BasisError.of(
    "unknown_tool",
    near.length > 0
      ? phrase("cli.unknown_tool_near", {
        tool,
        names: listOf(near.map((n) => JSON.stringify(n)), "join.or"),
      })
      : phrase(roster.tools.size === 0 ? "cli.unknown_tool_none" : "cli.unknown_tool_list", {
        tool,
      }),
  );
}
