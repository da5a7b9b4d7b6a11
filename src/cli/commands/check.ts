/**
 * `basis-tools check`: validate both manifests, compile every tool's schemas and find every
 * program; check the user's `spawn.json` too. Every problem is reported, also those that leave only
 * one tool unavailable: CI stays strict.
 *
 * @module
 */

import { checkAvailability } from "../../contract/availability.ts";
import { formatProblem, ManifestError, type ManifestProblem } from "../../errors.ts";
import { out, outJson } from "../output.ts";
import { cliMessages } from "../_cli_messages.ts";
import { plural } from "../../locale/messages.ts";
import { rosterFor, spawnConfigFor } from "../_roster.ts";
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
    const roster = await checkAvailability(await rosterFor(settings, { whole: true }), {
      cacheDir: settings.cacheDir,
      env: settings.env,
    });
    files = roster.sources.filter((source) => source.found).map((source) => source.path);
    tools = roster.tools.size + roster.unavailable.size;
    // File by file, in file order; what the declaration cannot show (a program, a schema that
    // does not compile) after each file's located problems.
    const order = roster.sources.map((source) => source.path);
    problems = [...roster.problems]
      .sort((a, b) =>
        order.indexOf(a.file) - order.indexOf(b.file) ||
        (a.line ?? Infinity) - (b.line ?? Infinity) ||
        (a.column ?? Infinity) - (b.column ?? Infinity)
      );
  } catch (error) {
    if (!(error instanceof ManifestError)) throw error;
    problems = error.problems;
  }
  // The user's spawn configuration is checked too: a broken one would fail every spawn call.
  const spawn = await spawnConfigFor(settings);
  if ("problems" in spawn) problems = [...problems, ...spawn.problems];
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
