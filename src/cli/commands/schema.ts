/**
 * `basis-tools schema [--format openai|anthropic|mcp|gemini]`: the roster's tool definitions for a
 * model API, built through the tool contract (declared tools in roster order, then spawn).
 *
 * With `--format gemini` the output is what Gemini CLI's `tools.discoveryCommand` reads: a JSON
 * array of function declarations `{name, description, parametersJsonSchema}`.
 *
 * @module
 */

import { rosterTools } from "../../contract/roster_tools.ts";
import { DEFINITION_FORMATS, type DefinitionFormat } from "../../contract/types.ts";
import { BasisError } from "../../errors.ts";
import { phrase } from "../../locale/messages.ts";
import { loadSpawnConfig } from "../../spawn/config.ts";
import { outJson } from "../output.ts";
import { rosterFor } from "../_roster.ts";
import type { Settings } from "../settings.ts";

/** The format printed when `--format` is not given. */
export const DEFAULT_FORMAT: DefinitionFormat = "openai";

/**
 * Prints the definitions of every tool of the roster as one JSON array.
 *
 * @param settings The run's settings (the locale changes built-in tools' texts, never names or
 *   schemas).
 * @param format The `--format` value, when given.
 * @returns The exit code.
 * @throws {BasisError} `usage` for an unknown format; `manifest_invalid` for a broken manifest or
 *   spawn.json.
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
  const [roster, spawnConfig] = await Promise.all([
    rosterFor(settings),
    loadSpawnConfig(settings.configDir),
  ]);
  const tools = rosterTools(roster, spawnConfig, {
    locale: settings.locale,
    spawn: { noShell: settings.noShell },
  });
  outJson(tools.map((tool) => tool.definition(chosen as DefinitionFormat)));
  return 0;
}
