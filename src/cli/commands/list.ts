/**
 * `basis-tools list`: the roster, one line a tool: the declared tools, then the built-in `spawn`.
 *
 * @module
 */

import { loadSpawnConfig } from "../../spawn/config.ts";
import { out, outJson } from "../output.ts";
import { rosterFor } from "../_roster.ts";
import { type ListRow, localizedSpawnRow } from "../_spawn_row.ts";
import type { Settings } from "../settings.ts";

/**
 * Prints the roster: name, side effect, source, description.
 *
 * @param settings The run's settings.
 * @returns The exit code.
 */
export async function listCommand(settings: Settings): Promise<number> {
  const [roster, spawnConfig] = await Promise.all([
    rosterFor(settings),
    loadSpawnConfig(settings.configDir),
  ]);
  const rows: ListRow[] = [...roster.tools.values()].map((spec) => ({
    name: spec.name,
    side_effect: spec.sideEffect,
    source: spec.scope,
    description: spec.description,
  }));
  rows.push(await localizedSpawnRow(spawnConfig, settings.locale));
  if (settings.json) {
    outJson(rows);
    return 0;
  }
  const nameWidth = Math.max(4, ...rows.map((row) => row.name.length));
  const effectWidth = Math.max(11, ...rows.map((row) => row.side_effect.length));
  const lines = [
    `${"NAME".padEnd(nameWidth)}  ${"SIDE EFFECT".padEnd(effectWidth)}  ${
      "SOURCE".padEnd(9)
    }  DESCRIPTION`,
  ];
  for (const row of rows) {
    const description = row.description.replace(/\s+/g, " ");
    lines.push(
      `${row.name.padEnd(nameWidth)}  ${row.side_effect.padEnd(effectWidth)}  ${
        row.source.padEnd(9)
      }  ${description}`,
    );
  }
  if (roster.tools.size === 0) {
    lines.push(`(no tools declared; looked in ${roster.sources.map((s) => s.path).join(" and ")})`);
  }
  out(lines.join("\n") + "\n");
  return 0;
}
