/**
 * `basis-tools list`: the roster, one line a tool: the declared tools, then the built-in `spawn`.
 * A tool that cannot be used is listed too, marked unavailable with why.
 *
 * @module
 */

import { callSecrets, redactorOf, secretEnv } from "../../redact.ts";
import { checkAvailability, rosterEntries } from "../../contract/availability.ts";
import type { ManifestProblem } from "../../errors.ts";
import { listOf, messages, phrase } from "../../locale/messages.ts";
import { out, outJson, problemJson } from "../output.ts";
import { formatTable } from "../_table.ts";
import { rosterFor, serves, spawnConfigFor } from "../_roster.ts";
import { spawnText } from "../../spawn/tool_definition.ts";
import { SPAWN_SIDE_EFFECTS, SPAWN_TOOL } from "../../spawn/types.ts";
import type { Settings } from "../settings.ts";

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
  // Tools that set the same values share their secrets (a roster of many is mostly alike).
  const secretsOf = new Map<string, string[]>();
  const rows = rosterEntries(roster).map(({ name, ...entry }) => {
    if (!("spec" in entry)) {
      const { scope, description, problems } = entry.unavailable;
      const shown = description && redactorOf(callSecrets(settings.env)).text(description);
      return { name, side_effect: null, source: scope, description: shown || null, problems };
    }
    const { sideEffect, scope, description } = entry.spec;
    // A description is shown; a secret of the tool's (or an --env one) never is.
    const env = secretEnv(entry.spec);
    const values = Object.values(env).join("\0");
    const secrets = secretsOf.get(values) ?? callSecrets(env, settings.env);
    secretsOf.set(values, secrets);
    const shown = redactorOf(secrets).text(description);
    return { name, side_effect: sideEffect, source: scope, description: shown, problems: [] };
  }) as Row[];
  const words = messages(settings.locale);
  if (serves(settings, SPAWN_TOOL)) {
    // The spawn tool as a model sees it: its side effects, and its description under the config.
    rows.push({
      name: SPAWN_TOOL,
      side_effect: Object.values(SPAWN_SIDE_EFFECTS).join(", "),
      source: "built-in",
      description: "config" in spawn ? spawnText(spawn.config, words, "description") : null,
      problems: "problems" in spawn ? spawn.problems : [],
    });
  }
  const { t, say } = words;
  if (settings.json) {
    outJson(rows.map(({ problems, ...row }) => ({
      ...row,
      available: problems.length === 0,
      // The reason stays English (a stable field); the message is in the locale.
      problems: problems.map((problem) => problemJson(problem, words)),
    })));
    return 0;
  }
  const cells = rows.map(
    ({ name, side_effect, source, description, problems: [first, ...more] }) => {
      if (first === undefined) return [name, side_effect ?? "-", source, description ?? ""];
      // `unavailable: <field>: <reason>`, saying how many more problems there are.
      const why = say(first.reason);
      const reason = (first.field === undefined ? why : `${first.field}: ${why}`).replace(
        /\s+/g,
        " ",
      );
      const text = more.length === 0
        ? t("list.unavailable", { reason })
        : t("list.unavailable_more", { reason, count: more.length });
      return [name, side_effect ?? "-", source, text];
    },
  );
  const heading = [t("list.heading_name"), t("list.heading_effect"), t("list.heading_source")];
  // Aligned by the cells each character takes, cut to the terminal's width (whole in a pipe).
  const lines = formatTable([[...heading, t("list.heading_description")], ...cells]);
  if (roster.tools.size === 0 && roster.unavailable.size === 0) {
    const paths = say(listOf(roster.sources.map((s) => s.path), "join.and"));
    const hint = say(phrase("hint.no_workspace"));
    const found = roster.sources.some((source) => source.found);
    lines.push(found ? t("list.no_tools", { paths }) : t("list.no_manifest", { paths, hint }));
  }
  out(lines.join("\n") + "\n");
  return 0;
}

/** One line of the list. */
interface Row {
  name: string;
  side_effect: string | null;
  source: string;
  description: string | null;
  problems: readonly ManifestProblem[];
}
