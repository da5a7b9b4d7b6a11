/**
 * `basis-tools list`: the roster, one line a tool: the declared tools, then the built-in `spawn`.
 * A tool that cannot be used is listed too, marked unavailable with why.
 *
 * @module
 */

import { callSecrets, redact } from "../../redact.ts";
import { checkAvailability, rosterEntries } from "../../contract/availability.ts";
import type { ManifestProblem } from "../../errors.ts";
import { listOf, type Messages } from "../../locale/messages.ts";
import { out, outJson, problemJson } from "../output.ts";
import { formatTable } from "../_table.ts";
import { cliMessages } from "../_cli_messages.ts";
import { rosterFor, serves, spawnConfigFor } from "../_roster.ts";
import { BUILT_IN, type ListRow, SPAWN_SIDE_EFFECT_TEXT, spawnRow } from "../_spawn_row.ts";
import { SPAWN_TOOL } from "../../spawn/types.ts";
import type { Settings } from "../settings.ts";

/** A row of `list`, with why a tool cannot be used (none when it can). */
type Row = ListRow & { problems: readonly ManifestProblem[] };

/**
 * Prints the roster: name, side effect, source, description; for a tool that cannot be used, why
 * (a problem of its declaration, or a program that cannot be found). Schemas are not compiled.
 *
 * @param settings The run's settings.
 * @returns The exit code: 0 whenever the manifests could be read, unavailable tools or not.
 */
export async function listCommand(settings: Settings): Promise<number> {
  const [loaded, spawn] = await Promise.all([rosterFor(settings), spawnConfigFor(settings)]);
  const roster = await checkAvailability(loaded, { schemas: false, env: settings.env });
  const rows: Row[] = rosterEntries(roster).map((entry) =>
    "spec" in entry
      ? {
        name: entry.name,
        side_effect: entry.spec.sideEffect,
        source: entry.spec.scope,
        // A description is shown; a secret of the tool's (or an --env one) never is.
        description: redact(entry.spec.description, callSecrets(entry.spec.env, settings.env)),
        problems: [],
      }
      : {
        name: entry.name,
        side_effect: "",
        source: entry.unavailable.scope,
        description: entry.unavailable.description ?? "",
        problems: entry.unavailable.problems,
      }
  );
  if (serves(settings, SPAWN_TOOL)) {
    rows.push(
      "config" in spawn ? { ...await spawnRow(settings, spawn.config), problems: [] } : {
        name: SPAWN_TOOL,
        side_effect: SPAWN_SIDE_EFFECT_TEXT,
        source: BUILT_IN,
        description: "",
        problems: spawn.problems,
      },
    );
  }
  const words = await cliMessages(settings.locale);
  if (settings.json) {
    outJson(rows.map(({ problems, ...row }) => ({
      ...row,
      side_effect: row.side_effect === "" ? null : row.side_effect,
      description: row.description === "" && problems.length > 0 ? null : row.description,
      available: problems.length === 0,
      // The reason stays English (a stable field); the message is in the locale.
      problems: problems.map((problem) => problemJson(problem, words)),
    })));
    return 0;
  }
  const { t, say } = words;
  const heading = [
    t("list.heading_name"),
    t("list.heading_effect"),
    t("list.heading_source"),
    t("list.heading_description"),
  ];
  const cells = rows.map((row) => {
    const description = row.problems.length === 0
      ? row.description
      : unavailableText(row.problems, words);
    const effect = row.problems.length === 0 || row.side_effect !== "" ? row.side_effect : "-";
    return [row.name, effect, row.source, description];
  });
  // Aligned by the cells each character takes, cut to the terminal's width (whole in a pipe).
  const lines = formatTable([heading, ...cells]);
  if (roster.tools.size === 0 && roster.unavailable.size === 0) {
    const paths = say(listOf(roster.sources.map((s) => s.path), "join.and"));
    lines.push(t("list.no_tools", { paths }));
  }
  out(lines.join("\n") + "\n");
  return 0;
}

/** `unavailable: <field>: <reason>`, saying how many more problems there are. */
function unavailableText(problems: readonly ManifestProblem[], words: Messages): string {
  const first = problems[0]!;
  const why = words.say(first.reason);
  const reason = (first.field === undefined ? why : `${first.field}: ${why}`).replace(/\s+/g, " ");
  return problems.length === 1
    ? words.t("list.unavailable", { reason })
    : words.t("list.unavailable_more", { reason, count: problems.length - 1 });
}
