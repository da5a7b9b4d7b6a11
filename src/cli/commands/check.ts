/**
 * `basis-tools check`: validate both manifests and compile every tool's input schema; check the
 * user's `spawn.json` too.
 *
 * @module
 */

import { formatProblem, ManifestError, type ManifestProblem, problemOf } from "../../errors.ts";
import { schemaProblem } from "../../schema/gate.ts";
import { loadSpawnConfig } from "../../spawn/config.ts";
import { out, outJson } from "../output.ts";
import { cliMessages } from "../_cli_messages.ts";
import { plural } from "../../locale/messages.ts";
import { rosterFor } from "../_roster.ts";
import type { Settings } from "../settings.ts";
import { EXIT } from "../exit_codes.ts";

/**
 * Validates the manifests; prints one line per problem.
 *
 * @param settings The run's settings.
 * @returns 0 when everything is valid, else 6.
 */
export async function checkCommand(settings: Settings): Promise<number> {
  let problems: readonly ManifestProblem[] = [];
  let tools = 0;
  let files: string[] = [];
  try {
    const roster = await rosterFor(settings);
    files = roster.sources.filter((source) => source.found).map((source) => source.path);
    tools = roster.tools.size;
    const found: ManifestProblem[] = [];
    for (const spec of roster.tools.values()) {
      const problem = await schemaProblem(spec, { cacheDir: settings.cacheDir });
      if (problem !== undefined) {
        found.push(problemOf({ file: spec.file, tool: spec.name, field: "input_schema" }, problem));
      }
    }
    problems = found;
  } catch (error) {
    if (!(error instanceof ManifestError)) throw error;
    problems = error.problems;
  }
  // The user's spawn configuration is checked too: a broken one would fail every spawn call.
  try {
    await loadSpawnConfig(settings.configDir);
  } catch (error) {
    if (!(error instanceof ManifestError)) throw error;
    problems = [...problems, ...error.problems];
  }
  const words = await cliMessages(settings.locale);
  if (settings.json) {
    outJson({
      ok: problems.length === 0,
      tools,
      files,
      // The reason stays English (a stable field); the message is in the locale.
      problems: problems.map((problem) => {
        const { phrase: _, ...fields } = problem;
        return { ...fields, message: formatProblem(problem, words) };
      }),
    });
  } else if (problems.length > 0) {
    out(problems.map((problem) => formatProblem(problem, words) + "\n").join(""));
  } else {
    const { t } = words;
    const where = files.length === 0 ? t("check.no_manifest") : files.join(", ");
    const counted = plural(settings.locale, tools, t("count.tools"));
    out(`${t("check.ok", { count: tools, tools: counted, where })}\n`);
  }
  return problems.length === 0 ? EXIT.ok : EXIT.manifestInvalid;
}
