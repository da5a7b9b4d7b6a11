/**
 * The shapes of the tool contract: a builder holds configuration, its tool describes itself and
 * makes executions, and an execution runs once.
 *
 * @module
 */

import type { ApprovalRequest, Decision } from "../approval/approve.ts";
import type { RecordOptions } from "../audit/open_audit_log.ts";
import type { AuditEntry } from "../audit/types.ts";
import type { Locale } from "../locale/locale.ts";
import type { RunResult } from "../run/types.ts";
import type { SideEffect } from "../manifest/types.ts";
import type { SpawnCall, SpawnOutput, SpawnSideEffect } from "../spawn/types.ts";

/** The model APIs a tool can describe itself for. */
export type DefinitionFormat = "openai" | "anthropic" | "mcp" | "gemini" | "openai-responses";

/** Every definition format, for parsing `--format`. */
export const DEFINITION_FORMATS: readonly DefinitionFormat[] = [
  "openai",
  "anthropic",
  "mcp",
  "gemini",
  "openai-responses",
];

/** A tool as OpenAI's Chat Completions API takes it. */
export interface OpenAIToolDefinition {
  /** Always `"function"`. */
  readonly type: "function";
  /** The function. */
  readonly function: {
    /** The tool's name. */
    readonly name: string;
    /** What it does. */
    readonly description: string;
    /** The input's JSON Schema. */
    readonly parameters: Record<string, unknown>;
    /**
     * True exactly when the input schema qualifies for OpenAI's strict mode (every object closed
     * with `additionalProperties: false` and every property required, only the keywords strict
     * mode takes), so the model's arguments are constrained to it.
     */
    readonly strict: boolean;
  };
}

/**
 * A tool as OpenAI's Responses API and the OpenAI Agents SDK take it: the Chat Completions
 * function, flat.
 */
export interface OpenAIResponsesToolDefinition {
  /** Always `"function"`. */
  readonly type: "function";
  /** The tool's name. */
  readonly name: string;
  /** What it does. */
  readonly description: string;
  /** The input's JSON Schema. */
  readonly parameters: Record<string, unknown>;
  /**
   * True exactly when the input schema qualifies for OpenAI's strict mode, as in
   * {@linkcode OpenAIToolDefinition}; always given, since the Responses API takes a function
   * without `strict` as strict.
   */
  readonly strict: boolean;
}

/** A tool as Anthropic's Messages API takes it. */
export interface AnthropicToolDefinition {
  /** The tool's name. */
  readonly name: string;
  /** What it does. */
  readonly description: string;
  /** The input's JSON Schema. */
  readonly input_schema: Record<string, unknown>;
}

/** The behaviour hints of an MCP tool. */
export interface McpToolAnnotations {
  /** Always false: every tool here runs a program. */
  readonly readOnlyHint: boolean;
  /** True: a program may change or delete things. */
  readonly destructiveHint: boolean;
  /** False: calling twice may do twice as much. */
  readonly idempotentHint: boolean;
  /** True when the tool reaches beyond this machine (`external`, and spawn). */
  readonly openWorldHint: boolean;
}

/** A tool as an MCP server lists it (`tools/list`). */
export interface McpToolDefinition {
  /** The tool's name. */
  readonly name: string;
  /** Its display name. */
  readonly title: string;
  /** What it does. */
  readonly description: string;
  /** The input's JSON Schema, `"type": "object"` at its top (as MCP requires). */
  readonly inputSchema: { readonly type: "object"; readonly [key: string]: unknown };
  /**
   * The JSON Schema of the structured result (`structuredContent`), when the tool declares an
   * output schema; `"type": "object"` at its top.
   */
  readonly outputSchema?: { readonly type: "object"; readonly [key: string]: unknown };
  /** Behaviour hints derived from the side effect. */
  readonly annotations: McpToolAnnotations;
}

/**
 * A function declaration as Gemini CLI's `tools.discoveryCommand` reads it: the input's JSON
 * Schema goes in `parametersJsonSchema` (Gemini CLI reads nothing else for the parameters).
 */
export interface GeminiFunctionDeclaration {
  /** The tool's name: the argument Gemini CLI passes to `tools.callCommand`. */
  readonly name: string;
  /** What it does. */
  readonly description: string;
  /** The input's JSON Schema. */
  readonly parametersJsonSchema: Record<string, unknown>;
  /** The JSON Schema of the result, when the tool declares an output schema. */
  readonly responseJsonSchema?: Record<string, unknown>;
}

/** The definition shape of each format. */
export interface ToolDefinitions {
  /** `{"type":"function","function":{name, description, parameters, strict}}`. */
  readonly openai: OpenAIToolDefinition;
  /** `{name, description, input_schema}`. */
  readonly anthropic: AnthropicToolDefinition;
  /** `{name, title, description, inputSchema, outputSchema?, annotations}`. */
  readonly mcp: McpToolDefinition;
  /** `{name, description, parametersJsonSchema, responseJsonSchema?}`. */
  readonly gemini: GeminiFunctionDeclaration;
  /** `{"type":"function", name, description, parameters, strict}`. */
  readonly "openai-responses": OpenAIResponsesToolDefinition;
}

/** One piece of output as the program wrote it. */
export interface OutputChunk {
  /** The stream it came from. */
  readonly kind: "stdout" | "stderr";
  /** The bytes, exactly as written (decode with a streaming `TextDecoder` per kind). */
  readonly data: Uint8Array;
}

/** How a client may use a content block (MCP's `annotations`). */
export interface ContentAnnotations {
  /** Who it is for. */
  readonly audience?: readonly ("user" | "assistant")[];
  /** How important it is, 0 (optional) to 1 (required). */
  readonly priority?: number;
  /** When what it shows last changed (ISO 8601). */
  readonly lastModified?: string;
}

/** Text for a model (MCP's `TextContent`). */
export interface TextContent {
  /** Always `"text"`. */
  readonly type: "text";
  /** The text. */
  readonly text: string;
  /** How a client may use it. */
  readonly annotations?: ContentAnnotations;
}

/** An image or a sound (MCP's `ImageContent`, `AudioContent`). */
export interface MediaContent<Kind extends "image" | "audio"> {
  /** `"image"` or `"audio"`. */
  readonly type: Kind;
  /** Base64 of its bytes. */
  readonly data: string;
  /** Its media type (`image/png`, `audio/wav`). */
  readonly mimeType: string;
  /** How a client may use it. */
  readonly annotations?: ContentAnnotations;
}

/** An image (MCP's `ImageContent`). */
export type ImageContent = MediaContent<"image">;
/** A sound (MCP's `AudioContent`). */
export type AudioContent = MediaContent<"audio">;

/** The contents of a resource embedded in a result (MCP's `EmbeddedResource`). */
export interface EmbeddedResource {
  /** Always `"resource"`. */
  readonly type: "resource";
  /** The resource: its URI, media type, and its text or the base64 of its bytes (`blob`). */
  readonly resource:
    & { readonly uri: string; readonly mimeType?: string }
    & ({ readonly text: string } | { readonly blob: string });
  /** How a client may use it. */
  readonly annotations?: ContentAnnotations;
}

/** A resource named by its URI, not embedded (MCP's `ResourceLink`). */
export interface ResourceLink {
  /** Always `"resource_link"`. */
  readonly type: "resource_link";
  /** Where it is. */
  readonly uri: string;
  /** Its name. */
  readonly name: string;
  /** Its display name. */
  readonly title?: string;
  /** What it is. */
  readonly description?: string;
  /** Its media type. */
  readonly mimeType?: string;
  /** Its size in bytes. */
  readonly size?: number;
  /** How a client may use it. */
  readonly annotations?: ContentAnnotations;
}

/** One block of a tool's result, as MCP serves it (`CallToolResult.content`). */
export type ContentBlock =
  | TextContent
  | ImageContent
  | AudioContent
  | EmbeddedResource
  | ResourceLink;

/** What a run was, beside its result. */
export interface ToolMetadata<Extra> {
  /** How long the program ran, in milliseconds. */
  readonly durationMs: number;
  /** Details that depend on the tool (see each builder). */
  readonly extra: Extra;
}

/** The final output of an execution: the truth of the run, not the concatenated chunks. */
export interface ToolOutput<Extra = Record<string, unknown>> {
  /**
   * The text for a model: stdout with trailing newlines trimmed, a sentence when the program
   * printed nothing, and a note when it was cut (localized).
   */
  readonly result: string;
  /**
   * What a model is given, as MCP content blocks: those the program printed when the tool declares
   * `"output": "content"` (checked, secrets hidden; `result` then is their text, with a line for
   * each block that is not text); otherwise one text block holding `result`.
   */
  readonly content: readonly ContentBlock[];
  /**
   * The structured result: stdout parsed as a JSON object that matched the tool's output schema,
   * when the tool declares one (`result` then is that JSON as text). Absent otherwise.
   */
  readonly structuredContent?: Record<string, unknown>;
  /** The duration and the tool's details. */
  readonly metadata: ToolMetadata<Extra>;
}

/** Options of {@linkcode ToolExecution.execute}. */
export interface ExecuteOptions {
  /** Cancels the call: before the run nothing starts; during it the whole process group stops. */
  signal?: AbortSignal;
  /**
   * Receives the program's output as it arrives, as `outputStream()` would give it, without a
   * stream object (for a caller that writes each chunk out at once). What it throws stops the
   * run (its process group) and is rethrown by `execute()` once the run has ended.
   */
  onOutput?: (chunk: OutputChunk) => void;
}

/** Options of {@linkcode Tool.execution}. */
export interface ExecutionOptions {
  /**
   * The compact JSON the program receives on stdin, when the caller has the input's text: the
   * UTF-8 of `JSON.stringify(args)`, except that each number may be written as the caller wrote it
   * (`1.0`, `12345678901234567890`), which `args` cannot hold. The gate judges `args`.
   *
   * @default {the UTF-8 of JSON.stringify(args)}
   */
  encodedInput?: Uint8Array;
}

/**
 * One call of a tool, made by {@linkcode Tool.execution} once its arguments passed validation. It
 * runs once: call {@linkcode ToolExecution.outputStream} (optionally) first, then
 * {@linkcode ToolExecution.execute}.
 */
export interface ToolExecution<Extra = Record<string, unknown>> {
  /** The tool's name. */
  readonly tool: string;
  /** The validated arguments. */
  readonly args: unknown;
  /**
   * The program's output as it arrives, stdout and stderr in the order they came. Call it before
   * `execute()`; the stream closes when the run ends (the outcome is `execute()`'s). Chunks not read
   * are queued in memory.
   *
   * @returns The chunks.
   * @throws {ToolError} Internal, when `execute()` has started or the stream was already taken.
   */
  outputStream(): ReadableStream<OutputChunk>;
  /**
   * Runs the call: preview → remembered rules → approver → program. Nothing starts before the
   * approver said yes.
   *
   * @param options The signal that cancels the call, and where output goes as it arrives.
   * @returns The final output.
   * @throws {ToolError} User-facing for a denial, a failed, timed-out or cancelled run; internal
   *   when called a second time.
   */
  execute(options?: ExecuteOptions): Promise<ToolOutput<Extra>>;
}

/** A function from input to output, for hosts that want no more than that. */
export type ToolService = (input: unknown) => Promise<unknown>;

/**
 * A tool: what it is (for a model and a person, in its locale) and how to call it. Names, schemas
 * and the version never change with the locale.
 */
export interface Tool<Extra = Record<string, unknown>> {
  /** The name a model calls it by (never localized). */
  readonly name: string;
  /** The language of its texts and user-facing errors. */
  readonly locale: Locale;
  /** The version of basis-tools that runs it. */
  readonly version: string;
  /**
   * What its calls may touch (never localized): a declared tool's one side effect; spawn's two,
   * `process` for a command and `local state` for a subagent.
   */
  readonly sideEffects: readonly (SideEffect | SpawnSideEffect)[];
  /**
   * A short name for people.
   *
   * @returns The display name.
   */
  displayName(): string;
  /**
   * What it does, in one sentence.
   *
   * @returns The description.
   */
  description(): string;
  /**
   * How to use it, in Markdown.
   *
   * @returns The help text.
   */
  help(): string;
  /**
   * A terse plain-text paragraph for a system prompt, starting with the tool's name.
   *
   * @returns The text.
   */
  systemPrompt(): string;
  /**
   * The JSON Schema of its input (a copy).
   *
   * @returns The schema.
   */
  inputSchema(): Record<string, unknown>;
  /**
   * The JSON Schema of what {@linkcode Tool.toService}'s function returns (a copy).
   *
   * @returns The schema.
   */
  outputSchema(): Record<string, unknown>;
  /**
   * Validates the arguments and makes one execution. Nothing runs yet.
   *
   * @param args The arguments, as parsed from JSON.
   * @param options Bytes of the input already encoded.
   * @returns The execution.
   * @throws {ToolError} User-facing (`invalid_input`) when the arguments are refused; internal
   *   (`manifest_invalid`) when the tool's schema cannot be used.
   */
  execution(args: unknown, options?: ExecutionOptions): Promise<ToolExecution<Extra>>;
  /**
   * The tool's definition for a model API.
   *
   * @param format `openai`, `anthropic`, `mcp`, `gemini` or `openai-responses`.
   * @returns The definition in that API's shape.
   */
  definition<F extends DefinitionFormat>(format: F): ToolDefinitions[F];
  /**
   * The tool as a plain function: validate, execute, and return the value
   * {@linkcode Tool.outputSchema} describes.
   *
   * @returns The function; it rejects with a {@linkcode ToolError}.
   */
  toService(): ToolService;
}

/** Holds a tool's configuration; `build()` can be called any number of times. */
export interface ToolBuilder<Extra = Record<string, unknown>> {
  /**
   * Makes a tool from the configuration held now. The builder is not consumed.
   *
   * @returns The tool.
   */
  build(): Tool<Extra>;
}

/** What an approver is given beside the request. */
export interface ApproverContext {
  /** Aborted when the caller cancels: stop asking and deny. */
  readonly signal: AbortSignal | undefined;
  /** Values never to show: the secrets of the call (its env and `--env` values). */
  readonly secrets: readonly string[];
}

/**
 * Decides whether a call may run, after the schema gate and before anything starts. A denial's
 * `reason` is shown to the caller: a phrase worded in the tool's locale (its English goes to the
 * audit trail), text as it is.
 */
export type Approver = (request: ApprovalRequest, context: ApproverContext) => Promise<Decision>;

/** Where decisions and runs are recorded (an audit log from `openAuditLog()` is one). */
export interface AuditSink {
  /**
   * Records one entry.
   *
   * @param entry The decision or the run's outcome.
   * @param options More values to redact.
   */
  record(entry: AuditEntry, options?: RecordOptions): unknown;
}

/** The run details in a declared tool's output (`metadata.extra`). */
export type DeclaredToolExtra = {
  /** The run, with the call's secrets (its env and `--env` values) redacted from its text fields. */
  readonly run: RunResult;
};

/** The run details in the spawn tool's output (`metadata.extra`). */
export type SpawnToolExtra = {
  /** The parsed call. */
  readonly call: SpawnCall;
  /** The run. */
  readonly run: RunResult;
  /** The structured output (`error` localized). */
  readonly output: SpawnOutput;
};
