/**
 * `basis-tools schema [--format openai|anthropic|mcp|gemini]`: the roster's tool definitions for a
 * model API, built through the tool contract (declared tools in roster order, then spawn).
 *
 * With `--format gemini` the output is what Gemini CLI's `tools.discoveryCommand` reads: a JSON
 * array of function declarations `{name, description, parametersJsonSchema}`.
 *
 * A tool that cannot be used (a problem of its own, a program that cannot be found, a schema that
 * does not compile; spawn with a broken spawn.json) is left out, with one line on stderr saying why.
 *
 * @module
 */

import { checkAvailability } from "../../contract/availability.ts";
import { toolsOf } from "../../contract/roster_tools.ts";
import { DEFINITION_FORMATS, type DefinitionFormat } from "../../contract/types.ts";
import { BasisError, formatProblem, type ManifestProblem } from "../../errors.ts";
import { phrase } from "../../locale/messages.ts";
import { SPAWN_TOOL } from "../../spawn/types.ts";
import { err, outJson } from "../output.ts";
import { cliMessages } from "../_cli_messages.ts";
import { rosterFor, serves, spawnConfigFor } from "../_roster.ts";
import { toolContext } from "../_tools.ts";
import type { Settings } from "../settings.ts";

/** The format printed when `--format` is not given. */
export const DEFAULT_FORMAT: DefinitionFormat = "openai";

/**
 * Prints the definitions of every tool of the roster as one JSON array.
 *
 * @param settings The run's settings (the locale changes built-in tools' texts, never names or
 *   schemas).
 * @param format The `--format` value, when given.
 * @returns The exit code: 0, tools left out or not.
 * @throws {BasisError} `usage` for an unknown format; `manifest_invalid` for a manifest file that
 *   cannot be used.
 */
export async function schemaCommand(
  settings: Settings,
  format: string | undefined,
): Promise<number> {
  const chosen = format ?? DEFAULT_FORMAT;
  if (!(DEFINITION_FORMATS as readonly string[]).includes(chosen)) {
    throw BasisError.of(
      "usage",
      phrase("cli.bad_format", {
        value: JSON.stringify(chosen),
        formats: DEFINITION_FORMATS.join(", "),
      }),
    );
  }
  const [loaded, spawn] = await Promise.all([rosterFor(settings), spawnConfigFor(settings)]);
  const roster = await checkAvailability(loaded, {
    cacheDir: settings.cacheDir,
    env: settings.env,
  });
  const served = serves(settings, SPAWN_TOOL);
  const config = served && "config" in spawn ? spawn.config : undefined;
  const tools = toolsOf(roster, config, toolContext(settings));
  outJson(tools.map((tool) => tool.definition(chosen as DefinitionFormat)));
  const left: [string, readonly ManifestProblem[]][] = [
    ...[...roster.unavailable.values()].map((tool) => [tool.name, tool.problems] as const),
    ...(served && "problems" in spawn ? [[SPAWN_TOOL, spawn.problems] as const] : []),
  ] as [string, readonly ManifestProblem[]][];
  if (left.length > 0) {
    const words = await cliMessages(settings.locale);
    err(
      left.map(([name, problems]) => {
        const why = problems.map((problem) => formatProblem(problem, words)).join("; ");
        return `basis-tools: ${words.t("cli.left_out", { tool: JSON.stringify(name), why })}\n`;
      }).join(""),
    );
  }
  return 0;
}
