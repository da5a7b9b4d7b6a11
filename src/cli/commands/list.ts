/**
 * `basis-tools list`: the roster, one line a tool.
 *
 * @module
 */

import { out, outJson } from "../output.ts";
import { rosterFor } from "../_roster.ts";
import type { Settings } from "../settings.ts";

/**
 * Prints the roster: name, side effect, source, description.
 *
 * @param settings The run's settings.
 * @returns The exit code.
 */
export async function listCommand(settings: Settings): Promise<number> {
  const roster = await rosterFor(settings);
  const rows = [...roster.tools.values()].map((spec) => ({
    name: spec.name,
    side_effect: spec.sideEffect,
    source: spec.scope,
    description: spec.description,
  }));
  if (settings.json) {
    outJson(rows);
    return 0;
  }
  if (rows.length === 0) {
    out(`No tools declared (looked in ${roster.sources.map((s) => s.path).join(" and ")})\n`);
    return 0;
  }
  const nameWidth = Math.max(4, ...rows.map((row) => row.name.length));
  const lines = [`${"NAME".padEnd(nameWidth)}  SIDE EFFECT  SOURCE     DESCRIPTION`];
  for (const row of rows) {
    const description = row.description.replace(/\s+/g, " ");
    lines.push(
      `${row.name.padEnd(nameWidth)}  ${row.side_effect.padEnd(11)}  ${
        row.source.padEnd(9)
      }  ${description}`,
    );
  }
  out(lines.join("\n") + "\n");
  return 0;
}
