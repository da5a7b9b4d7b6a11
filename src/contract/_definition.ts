/**
 * A tool's definition for each model API, from its name, texts, schema and annotations. Private
 * to the contract.
 *
 * @module
 */

import type { SideEffect } from "../manifest/types.ts";
import type { DefinitionFormat, McpToolAnnotations, ToolDefinitions } from "./types.ts";
import { ToolError } from "./tool_error.ts";
import { qualifiesForStrict } from "./_strict.ts";

/** What every definition is made of. */
export interface DefinitionParts {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly inputSchema: Record<string, unknown>;
  /** The JSON Schema of a structured result, when the tool has one. */
  readonly outputSchema?: Record<string, unknown> | undefined;
  readonly annotations: McpToolAnnotations;
}

/**
 * The MCP annotations of a side effect: never read-only, always destructive and not idempotent
 * (a program may change or delete anything it can reach); `external` reaches an open world,
 * `process` a closed one.
 *
 * @param sideEffect The declared side effect.
 * @returns The annotations.
 */
export function annotationsFor(sideEffect: SideEffect): McpToolAnnotations {
  return {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: sideEffect === "external",
  };
}

/**
 * The spawn tool's annotations: like `external`. A shell command can reach the network and
 * anything the user can, a target is another machine, and a subagent acts on its own.
 */
export const SPAWN_ANNOTATIONS: McpToolAnnotations = Object.freeze({
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: true,
});

/**
 * The input schema as every model API takes it: with `"type": "object"` at the top. MCP requires
 * it (a client refuses a whole `tools/list` without it) and so does Anthropic; a manifest may
 * leave it out (`{}`), and since the contract refuses every input that is not an object, saying so
 * changes nothing. A schema that already says `"object"` is returned as it is.
 *
 * @param schema The tool's input schema (a copy the caller owns).
 * @returns The schema, with `type` set to `"object"`.
 *
 * @example A bare schema gains its type
 * ```ts
 * import { objectSchema } from "./_definition.ts";
 * console.assert(objectSchema({}).type === "object");
 * ```
 */
export function objectSchema(
  schema: Record<string, unknown>,
): { type: "object"; [key: string]: unknown } {
  return schema.type === "object" ? schema as { type: "object" } : { ...schema, type: "object" };
}

/**
 * Builds one definition. Every format gets the same input schema, normalized by
 * {@linkcode objectSchema}, and the output schema (normalized the same way: a structured result is
 * an object) where the format has a place for one: MCP's `outputSchema`, Gemini's
 * `responseJsonSchema`. OpenAI's says `strict: true` exactly when the input schema qualifies for
 * its strict mode, else `strict: false`.
 *
 * @param parts The name, texts, schemas and annotations.
 * @param format The model API.
 * @returns The definition in that API's shape.
 * @throws {ToolError} Internal, for an unknown format.
 */
export function buildDefinition<F extends DefinitionFormat>(
  parts: DefinitionParts,
  format: F,
): ToolDefinitions[F] {
  const { name, title, description, annotations } = parts;
  const inputSchema = objectSchema(parts.inputSchema);
  const outputSchema = parts.outputSchema === undefined
    ? undefined
    : objectSchema(parts.outputSchema);
  const definitions: { [K in DefinitionFormat]: () => ToolDefinitions[K] } = {
    openai: () => ({
      type: "function",
      function: {
        name,
        description,
        parameters: inputSchema,
        strict: qualifiesForStrict(inputSchema),
      },
    }),
    anthropic: () => ({ name, description, input_schema: inputSchema }),
    mcp: () => ({
      name,
      title,
      description,
      inputSchema,
      ...(outputSchema === undefined ? {} : { outputSchema }),
      annotations: { ...annotations },
    }),
    gemini: () => ({
      name,
      description,
      parametersJsonSchema: inputSchema,
      ...(outputSchema === undefined ? {} : { responseJsonSchema: outputSchema }),
    }),
  };
  if (!Object.hasOwn(definitions, format)) {
    throw ToolError.internal(
      `Cannot define tool ${JSON.stringify(name)} for format ${JSON.stringify(format)}: ` +
        "expected openai, anthropic, mcp or gemini",
      { tool: name },
    );
  }
  return definitions[format]();
}
