/**
 * `basis-tools schema [--format openai|anthropic|mcp|gemini|openai-responses]`: the roster's tool definitions for a
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
import { BasisError } from "../../errors.ts";
import { messages, phrase } from "../../locale/messages.ts";
import { SPAWN_TOOL } from "../../spawn/types.ts";
import { err, leftOut, outJson } from "../output.ts";
import { rosterFor, serves, spawnConfigFor } from "../_roster.ts";
import { toolContext } from "../_tools.ts";
import type { Settings } from "../settings.ts";

/**
 * Prints the definitions of every tool of the roster as one JSON array.
 *
 * @param settings The run's settings (the locale changes built-in tools' texts, never names or
 *   schemas).
 * @param format The `--format` value. @default "openai"
 * @returns The exit code: 0, tools left out or not.
 * @throws {BasisError} `usage` for an unknown format; `manifest_invalid` for a manifest file that
 *   cannot be used.
 */
export async function schemaCommand(
  settings: Settings,
  format = "openai",
): Promise<number> {
  if (!(DEFINITION_FORMATS as readonly string[]).includes(format)) {
    const params = { value: JSON.stringify(format), formats: DEFINITION_FORMATS.join(", ") };
    throw BasisError.of("usage", phrase("cli.bad_format", params));
  }
  const [loaded, spawn] = await Promise.all([rosterFor(settings), spawnConfigFor(settings)]);
  const { cacheDir, env } = settings;
  const roster = await checkAvailability(loaded, { cacheDir, env });
  const served = serves(settings, SPAWN_TOOL);
  const config = served && "config" in spawn ? spawn.config : undefined;
  const tools = toolsOf(roster, config, toolContext(settings));
  outJson(tools.map((tool) => tool.definition(format as DefinitionFormat)));
  const left = leftOut([
    ...roster.unavailable.values(),
    ...(served && "problems" in spawn ? [{ name: SPAWN_TOOL, problems: spawn.problems }] : []),
  ], messages(settings.locale));
  err(left.map((line) => `basis-tools: ${line}\n`).join(""));
  return 0;
}
