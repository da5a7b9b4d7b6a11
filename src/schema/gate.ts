/**
 * The schema gate: checks a tool's input against its `input_schema` before anything runs, and tells
 * `check` whether a schema can be compiled at all. Validators are compiled lazily, once per process,
 * and cached on disk as ajv standalone code so that later processes never load ajv's compiler.
 *
 * @module
 */

import { BasisError } from "../errors.ts";
import { english, type Phrase, phrase } from "../locale/messages.ts";
import { cacheDir as defaultCacheDir } from "../paths.ts";
import { inspectInput, MAX_INPUT_DEPTH } from "./_input.ts";

export { MAX_INPUT_DEPTH } from "./_input.ts";
import { locate, refusal } from "./_message.ts";
import { obtainValidator } from "./_validator.ts";
import type { AjvError, Validator } from "./_types.ts";
import { showValue } from "../text.ts";
import { foundPhrase } from "../json_kind.ts";

/** The part of a tool the gate needs. */
export interface SchemaTool {
  /** The tool's name, used in messages. */
  readonly name: string;
  /** The tool's JSON Schema for its input. */
  readonly inputSchema: Readonly<Record<string, unknown>>;
}

/** Options of {@linkcode validateInput} and {@linkcode checkSchema}. */
export interface SchemaGateOptions {
  /**
   * The cache directory; compiled validators go to its `validators/` folder.
   *
   * @default `cacheDir()` from `src/paths.ts` (`$BASIS_CACHE_DIR`, `$XDG_CACHE_HOME/basis`, …)
   */
  cacheDir?: string;
}

interface GateSettings {
  cacheDir: string;
}

function settle(options: SchemaGateOptions): GateSettings {
  return { cacheDir: options.cacheDir ?? defaultCacheDir() };
}

/**
 * Checks a tool's input against the tool's input schema (draft-07 unless `$schema` names 2019-09 or
 * 2020-12; unknown keywords ignored; formats checked). Before the schema, the input must be JSON
 * data nested at most 256 arrays and objects deep, with every number finite (`1e400` parses to
 * `Infinity`). The input is never modified.
 *
 * @param tool The tool: its name (for messages) and its input schema.
 * @param input The input, as parsed from JSON.
 * @param options Where compiled validators are cached.
 * @returns Nothing; resolves when the input is accepted.
 * @throws {BasisError} `invalid_input` naming the first failing field as a JSON pointer and what was
 * expected, e.g. `Input refused by tool "wc" schema: /items/0/count: must be integer`; its `cause`
 * is ajv's failure (`keyword`, `instancePath`, `params`). The same code, naming the field, for an
 * input nested too deeply, holding a number that is not finite, or (from library callers) not JSON
 * data.
 * @throws {BasisError} `manifest_invalid` when the schema itself cannot be compiled; its `phrase`
 * words the message, reason included, in any locale.
 *
 * @example Refuse an input that lacks a required field
 * ```ts ignore
 * import { validateInput } from "./gate.ts";
 * const tool = { name: "wc", inputSchema: { type: "object", required: ["text"] } };
 * await validateInput(tool, { text: "hello" }, { cacheDir: "/tmp/basis-cache" });
 * await validateInput(tool, {}).catch((error) => console.log(error.message));
 * // Input refused by tool "wc" schema: /text: required property is missing
 * ```
 */
export async function validateInput(
  tool: SchemaTool,
  input: unknown,
  options: SchemaGateOptions = {},
): Promise<void> {
  const { cacheDir } = settle(options);
  const entry = await obtainValidator(tool.inputSchema, cacheDir);
  if ("problem" in entry) {
    const params = { tool: showValue(tool.name, 80), reason: entry.problem };
    throw BasisError.of("manifest_invalid", phrase("error.input_schema", params));
  }
  const inspected = inspectInput(input);
  if ("problem" in inspected) {
    throw BasisError.of("invalid_input", refusal(tool.name, inspected.problem));
  }
  let failure: AjvError | undefined | null;
  try {
    failure = await firstFailure(entry.validate, inspected.value);
  } catch (error) {
    throw unusableInput(tool.name, error);
  }
  if (failure !== null) {
    throw BasisError.of("invalid_input", refusal(tool.name, failure ?? undefined), {
      cause: failure,
    });
  }
}

/** The part of a tool the output check needs. */
export interface OutputSchemaTool {
  /** The tool's name, used in messages. */
  readonly name: string;
  /** The JSON Schema of the tool's structured output. */
  readonly outputSchema: Readonly<Record<string, unknown>>;
}

/**
 * Checks what a tool printed against its output schema, as {@linkcode validateInput} checks an
 * input: the text must be JSON (a leading byte order mark is dropped), a JSON object, nested at
 * most 256 levels deep with every number finite, and match the schema.
 *
 * @param tool The tool: its name (for messages) and its output schema.
 * @param text What the program printed on stdout.
 * @param options Where compiled validators are cached.
 * @returns The parsed object.
 * @throws {BasisError} `invalid_output` naming what is wrong: not JSON (what was unexpected and
 *   where), not an object, or the first failing field as a JSON pointer and what was expected
 *   (`Output of tool "q" does not match its output schema: /rows/0/id: must be integer`).
 * @throws {BasisError} `manifest_invalid` when the output schema cannot be compiled.
 *
 * @example Check a program's output
 * ```ts ignore
 * import { validateOutput } from "./gate.ts";
 * const tool = { name: "q", outputSchema: { type: "object", required: ["rows"] } };
 * const value = await validateOutput(tool, '{"rows": []}');
 * ```
 */
export async function validateOutput(
  tool: OutputSchemaTool,
  text: string,
  options: SchemaGateOptions = {},
): Promise<Record<string, unknown>> {
  const { cacheDir } = settle(options);
  const entry = await obtainValidator(tool.outputSchema, cacheDir);
  if ("problem" in entry) {
    const params = { tool: showValue(tool.name, 80), reason: entry.problem };
    throw BasisError.of("manifest_invalid", phrase("error.output_schema", params));
  }
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  let parsed: unknown;
  try {
    parsed = JSON.parse(source);
  } catch {
    const { strictJsonProblem } = await import("../json_text.ts");
    const { position, reason } = await strictJsonProblem(source, "input");
    const detail = position === undefined
      ? reason
      : phrase("json.at", { detail: reason, line: position.line, column: position.column });
    throw BasisError.of(
      "invalid_output",
      phrase("output.not_json", { tool: showValue(tool.name, 80), detail }),
    );
  }
  const inspected = inspectInput(parsed);
  if ("problem" in inspected) {
    throw BasisError.of("invalid_output", refusal(tool.name, inspected.problem, OUTPUT));
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    const reason = phrase("output.must_be_object", { found: foundPhrase(parsed) });
    throw BasisError.of("invalid_output", refusal(tool.name, { pointer: "", reason }, OUTPUT));
  }
  let failure: AjvError | undefined | null;
  try {
    failure = await firstFailure(entry.validate, inspected.value);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    const reason = phrase("schema.too_deep", { limit: MAX_INPUT_DEPTH });
    throw BasisError.of("invalid_output", refusal(tool.name, { pointer: "", reason }, OUTPUT));
  }
  if (failure !== null) {
    throw BasisError.of("invalid_output", refusal(tool.name, failure ?? undefined, OUTPUT), {
      cause: failure,
    });
  }
  return parsed as Record<string, unknown>;
}

const OUTPUT = "schema.output_refused";

/**
 * The refusal for an input ajv could not validate at all: a schema recursing deeper than the stack
 * allows (RangeError). Anything else is a bug and is returned unchanged, to be rethrown.
 */
function unusableInput(toolName: string, error: unknown): unknown {
  if (!(error instanceof RangeError)) return error;
  const reason = phrase("schema.too_deep", { limit: MAX_INPUT_DEPTH });
  return BasisError.of("invalid_input", refusal(toolName, { pointer: "", reason }), {
    cause: error,
  });
}

/** `null` when the input passes; the first failure (or `undefined` if ajv named none) otherwise. */
async function firstFailure(
  validate: Validator,
  data: unknown,
): Promise<AjvError | undefined | null> {
  try {
    const result = validate(data);
    if (result === true) return null;
    if (result === false) return validate.errors?.[0];
    await result; // `$async` schemas resolve on success and throw ajv's ValidationError on failure
    return null;
  } catch (error) {
    const errors = (error as { errors?: unknown } | null)?.errors;
    if (Array.isArray(errors)) return errors[0] as AjvError | undefined;
    throw error;
  }
}

/**
 * Tells whether a tool's input schema can be compiled, filling the same caches validation uses.
 *
 * @param tool The tool: its name and its input schema.
 * @param options Where compiled validators are cached.
 * @returns `undefined` when the schema compiles; otherwise one line saying why not, in English, such
 * as `unsupported "$schema" "…"` or `invalid JSON Schema: /type: must be one of: …` (see
 * {@linkcode schemaProblem} for any locale).
 * @throws Never for a bad schema; only for bugs.
 *
 * @example Report a schema whose `type` is not a type
 * ```ts ignore
 * import { checkSchema } from "./gate.ts";
 * const reason = await checkSchema({ name: "bad", inputSchema: { type: 12 } });
 * console.log(reason); // invalid JSON Schema: /type: must be one of: "array", "boolean", …
 * ```
 */
export async function checkSchema(
  tool: SchemaTool,
  options: SchemaGateOptions = {},
): Promise<string | undefined> {
  const problem = await schemaProblem(tool, options);
  return problem === undefined ? undefined : english(problem);
}

/**
 * Tells why a tool's input schema cannot be compiled, as a phrase that any locale can word (what
 * {@linkcode checkSchema} says in English). Fills the same caches validation uses.
 *
 * @param tool The tool: its name and its input schema.
 * @param options Where compiled validators are cached.
 * @returns `undefined` when the schema compiles; otherwise why not. Where ajv explains only in
 * English text (a schema its meta-schema accepts but it cannot compile), that text is a value of
 * the phrase.
 * @throws Never for a bad schema; only for bugs.
 *
 * @example Word the reason in Ukrainian
 * ```ts ignore
 * import { schemaProblem } from "./gate.ts";
 * import { loadLocale, messages } from "../locale/messages.ts";
 * const problem = await schemaProblem({ name: "bad", inputSchema: { $ref: "#/nowhere" } });
 * await loadLocale("uk-UA");
 * if (problem) console.log(messages("uk-UA").say(problem)); // не вдалося розв’язати "$ref" "#/nowhere"
 * ```
 */
export async function schemaProblem(
  tool: SchemaTool,
  options: SchemaGateOptions = {},
): Promise<Phrase | undefined> {
  const { cacheDir } = settle(options);
  const entry = await obtainValidator(tool.inputSchema, cacheDir);
  return "problem" in entry ? entry.problem : undefined;
}

/** One way a value fails a schema (see {@linkcode schemaIssues}). */
export interface SchemaIssue {
  /** The failing value, as a JSON pointer (ajv's `instancePath`; `""` for the whole value). */
  readonly instancePath: string;
  /**
   * The field the issue names, as a JSON pointer: `instancePath`, or for a missing, unknown or
   * badly named property that property's pointer.
   */
  readonly pointer: string;
  /** The failing keyword (`required`, `additionalProperties`, `type`, …); `""` for a value that is not JSON data or is nested too deeply. */
  readonly keyword: string;
  /** ajv's detail of the failure (`missingProperty`, `additionalProperty`, `allowedValues`, …). */
  readonly params: Readonly<Record<string, unknown>>;
  /** What was expected, as the gate words it (ajv's English where the catalogue has no words). */
  readonly reason: Phrase | string;
}

/** Options of {@linkcode schemaIssues}. */
export interface SchemaIssuesOptions extends SchemaGateOptions {
  /**
   * Report every failure, not only the first.
   *
   * @default {false}
   */
  allErrors?: boolean;
}

/**
 * Checks a value against a schema that is known to be good (one of `schemas/*.schema.json`), with
 * the gate's ajv and validator cache: compiled once per process (and cached on disk), then only
 * run. Before the schema the value must be JSON data nested at most 256 levels deep.
 *
 * @param schema The schema; the same object is answered from memory without hashing it again.
 * @param value The value, as parsed from JSON.
 * @param options Where compiled validators are cached; whether to report every failure.
 * @returns The failures, in ajv's order; empty when the value passes.
 * @throws {Error} When the schema itself cannot be compiled (a bug, not a user's error).
 *
 * @example Find what a config value lacks
 * ```ts ignore
 * import { schemaIssues } from "./gate.ts";
 * const schema = { type: "object", required: ["version"] };
 * const [issue] = await schemaIssues(schema, {}, { allErrors: true });
 * console.log(issue?.pointer); // "/version"
 * ```
 */
export async function schemaIssues(
  schema: object | boolean,
  value: unknown,
  options: SchemaIssuesOptions = {},
): Promise<SchemaIssue[]> {
  // A config file is checked even where no cache directory can be found (in memory only then).
  let cacheDir = options.cacheDir;
  try {
    cacheDir ??= defaultCacheDir();
  } catch {
    // No HOME: compiled in this process, kept nowhere.
  }
  const entry = await obtainValidator(schema, cacheDir, options.allErrors);
  if ("problem" in entry) throw new Error(`Cannot compile schema: ${english(entry.problem)}`);
  const inspected = inspectInput(value);
  if ("problem" in inspected) {
    const { pointer, reason } = inspected.problem;
    return [{ instancePath: pointer, pointer, keyword: "", params: {}, reason }];
  }
  if (entry.validate(inspected.value) === true) return [];
  return (entry.validate.errors ?? []).map((error) => {
    const [pointer, reason] = locate(error);
    const { instancePath, keyword, params } = error;
    return { instancePath, pointer, keyword, params, reason };
  });
}
