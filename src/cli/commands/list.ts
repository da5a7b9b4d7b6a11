/**
 * `basis-tools list`: the roster, one line a tool: the declared tools, then the built-in `spawn`.
 *
 * @module
 */

import { listOf } from "../../locale/messages.ts";
import { loadSpawnConfig } from "../../spawn/config.ts";
import { out, outJson } from "../output.ts";
import { cliMessages } from "../_cli_messages.ts";
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
  const { t, say } = await cliMessages(settings.locale);
  const heading = {
    name: t("list.heading_name"),
    effect: t("list.heading_effect"),
    source: t("list.heading_source"),
  };
  const nameWidth = Math.max(heading.name.length, ...rows.map((row) => row.name.length));
  const effectWidth = Math.max(
    heading.effect.length,
    ...rows.map((row) => row.side_effect.length),
  );
  const sourceWidth = Math.max(heading.source.length, 9);
  const lines = [
    `${heading.name.padEnd(nameWidth)}  ${heading.effect.padEnd(effectWidth)}  ${
      heading.source.padEnd(sourceWidth)
    }  ${t("list.heading_description")}`,
  ];
  for (const row of rows) {
    const description = row.description.replace(/\s+/g, " ");
    lines.push(
      `${row.name.padEnd(nameWidth)}  ${row.side_effect.padEnd(effectWidth)}  ${
        row.source.padEnd(sourceWidth)
      }  ${description}`,
    );
  }
  if (roster.tools.size === 0) {
    const paths = say(listOf(roster.sources.map((s) => s.path), "join.and"));
    lines.push(t("list.no_tools", { paths }));
  }
  out(lines.join("\n") + "\n");
  return 0;
}
