/**
 * A tool's definition for each model API, from its name, texts, schemas and side effect. Private
 * to the contract.
 *
 * @module
 */

import type { DefinitionFormat, Tool, ToolDefinitions } from "./types.ts";
import { ToolError } from "./tool_error.ts";
import { qualifiesForStrict } from "./_strict.ts";
import { dialectOf } from "../schema/gate.ts";

/**
 * The schema as every model API takes it: with `"type": "object"` at the top. MCP requires it (a
 * client refuses a whole `tools/list` without it) and so does Anthropic; a manifest may leave it
 * out (`{}`), and since the contract refuses every input that is not an object, saying so changes
 * nothing.
 */
function objectSchema(schema: Record<string, unknown>): { type: "object"; [key: string]: unknown } {
  return schema.type === "object" ? schema as { type: "object" } : { ...schema, type: "object" };
}

/**
 * The schema with the `$schema` of the draft it is validated as (draft-07 when it names none), for
 * MCP, whose clients read a schema without one as 2020-12: the Python SDK's client raises on a
 * draft-07 tuple (`items: [...]`) read so, and Gemini CLI picks its validator by `$schema`. The
 * TypeScript SDK's client validates as draft-07 whatever `$schema` says, as the gate does without
 * one; and its own server serves draft-07 schemas this way. Converting to 2020-12 instead would
 * make that client misread a converted tuple (`prefixItems` ignored, `items` applied to all).
 */
function withDialect<S extends Record<string, unknown>>(schema: S): S {
  const dialect = dialectOf(schema);
  if (dialect === undefined) return schema;
  const { $schema: _, ...rest } = schema;
  return { $schema: dialect, ...rest } as unknown as S;
}

/**
 * Builds one definition. Every format gets the same input schema, with `"type": "object"`, and
 * the output schema (the same way: a structured result is an object) where the format has a place
 * for one: MCP's `outputSchema`, Gemini's `responseJsonSchema`; MCP's each name their draft.
 * OpenAI's (Chat Completions, and the Responses API's flat shape) say `strict: true` exactly when
 * the input schema qualifies for its strict mode. The MCP annotations: never
 * read-only, always destructive and not idempotent (a program may change or delete anything it
 * can reach); open-world for `external` and spawn.
 *
 * @param tool The tool (its name, texts and input schema).
 * @param format The model API.
 * @param openWorld Whether the tool reaches beyond this machine.
 * @param declared The JSON Schema of a structured result, when the tool has one.
 * @returns The definition in that API's shape.
 * @throws {ToolError} Internal, for an unknown format.
 */
export function definitionOf<F extends DefinitionFormat>(
  tool: Tool<unknown>,
  format: F,
  openWorld: boolean,
  declared?: Record<string, unknown>,
): ToolDefinitions[F] {
  const [name, description] = [tool.name, tool.description()];
  const inputSchema = objectSchema(tool.inputSchema());
  const outputSchema = declared && objectSchema(structuredClone(declared));
  const strict = () => qualifiesForStrict(inputSchema);
  const definitions: { [K in DefinitionFormat]: () => ToolDefinitions[K] } = {
    openai: () => ({
      type: "function",
      function: { name, description, parameters: inputSchema, strict: strict() },
    }),
    "openai-responses": () => ({
      type: "function",
      name,
      description,
      parameters: inputSchema,
      strict: strict(),
    }),
    anthropic: () => ({ name, description, input_schema: inputSchema }),
    mcp: () => ({
      name,
      title: tool.displayName(),
      description,
      inputSchema: withDialect(inputSchema),
      ...(outputSchema && { outputSchema: withDialect(outputSchema) }),
      annotations: {
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: false,
        openWorldHint: openWorld,
      },
    }),
    gemini: () => ({
      name,
      description,
      parametersJsonSchema: inputSchema,
      ...(outputSchema && { responseJsonSchema: outputSchema }),
    }),
  };
  if (!Object.hasOwn(definitions, format)) {
    throw ToolError.internal(
      `Cannot define tool ${JSON.stringify(name)} for format ${JSON.stringify(format)}: ` +
        "expected openai, anthropic, mcp, gemini or openai-responses",
      { tool: name },
    );
  }
  return definitions[format]();
}
