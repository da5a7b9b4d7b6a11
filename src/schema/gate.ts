/**
 * The schema gate: checks a tool's input against its `input_schema` before anything runs (and a
 * structured output against its `output_schema`), tells whether a schema can be compiled at all, and
 * checks config values against the shipped schemas. Validators are compiled lazily, once per
 * process, and cached on disk as ajv standalone code so that later processes never load ajv's
 * compiler. A refusal names the field (a JSON pointer, `(root)` for the whole value) and what was
 * expected, as a phrase any locale can word; where the catalogue has no words for a keyword, ajv's
 * own English text is kept as it is.
 *
 * @module
 */

import { BasisError } from "../errors.ts";
import { foundPhrase } from "../json_kind.ts";
import type { MessageKey } from "../locale/en_us.ts";
import { english, listOf, type Phrase, phrase } from "../locale/messages.ts";
import { cacheDir as defaultCacheDir } from "../paths.ts";
import { attempt } from "../quietly.ts";
import { escapeToken, oneLine, pointerChild as child, showValue } from "../text.ts";
import { type AjvError, findInJson, obtainValidator } from "./_validator.ts";

export { dialectOf } from "./_validator.ts";
import { strictJsonProblem } from "../json_text.ts";

/** The deepest nesting of arrays and objects an input may have (the input itself is level 1). */
export const MAX_INPUT_DEPTH = 256;
const tooDeep = () => phrase("schema.too_deep", { limit: MAX_INPUT_DEPTH });

type Json = Readonly<Record<string, unknown>>;
/** The part of a tool the gate needs: its name (for messages) and its input's JSON Schema. */
export type SchemaTool = { readonly name: string; readonly inputSchema: Json };
/** The part of a tool the output check needs: its name and its structured output's JSON Schema. */
export type OutputSchemaTool = { readonly name: string; readonly outputSchema: Json };

/**
 * Options of the gate's checks: the cache directory, whose `validators/` folder holds compiled
 * validators (default `cacheDir()` from `src/paths.ts`: `$BASIS_CACHE_DIR`, `$XDG_CACHE_HOME/basis`,
 * …).
 */
export type SchemaGateOptions = { cacheDir?: string };

/** Where a value cannot be checked, and why (a JSON pointer; `""` for the value itself). */
type Unusable = { readonly pointer: string; readonly reason: Phrase };

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
  await gate(tool.name, tool.inputSchema, options, () => input, "input");
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
  const parse = () => parseOutput(tool.name, text, "output.not_json");
  const value = await gate(tool.name, tool.outputSchema, options, parse, "output");
  return value as Record<string, unknown>;
}

/** Options of {@linkcode validateContent}. */
export type ContentGateOptions = SchemaGateOptions & {
  /** What the parsed value becomes before it is checked (the secrets hidden). @default as is */
  prepare?: (value: unknown) => unknown;
};

/**
 * Checks what a tool declaring `"output": "content"` printed against the shipped
 * `schemas/content.schema.json`: JSON (as {@linkcode validateOutput} reads it), an array of MCP
 * content blocks of the exact shapes the schema gives (base64 that is base64, a media type where
 * one is needed, a URI that is one).
 *
 * @param tool The tool's name (for messages).
 * @param text What the program printed on stdout.
 * @param options Where compiled validators are cached; what the value becomes before the check.
 * @returns The value, prepared and checked.
 * @throws {BasisError} `invalid_output` naming what is wrong: not JSON, or the first failing field
 *   as a JSON pointer (`Output of tool "p" is not valid MCP content: /1/data: …`).
 * @example Check a program's content blocks
 * ```ts ignore
 * import { validateContent } from "./gate.ts";
 * const blocks = await validateContent({ name: "p" }, '[{"type":"text","text":"hi"}]');
 * ```
 */
export async function validateContent(
  tool: { readonly name: string },
  text: string,
  options: ContentGateOptions = {},
): Promise<unknown[]> {
  const { default: schema } = await import("../../schemas/content.schema.json", {
    with: { type: "json" },
  });
  const { prepare = (value: unknown) => value } = options;
  const parse = async () => prepare(await parseOutput(tool.name, text, "output.content_not_json"));
  return await gate(tool.name, schema, options, parse, "content") as unknown[];
}

/** What a program printed, parsed as JSON (a leading byte order mark dropped), or why it is not. */
async function parseOutput(name: string, text: string, key: MessageKey): Promise<unknown> {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  try {
    return JSON.parse(source);
  } catch {
    const { position, reason } = await strictJsonProblem(source, "input");
    const detail = position === undefined
      ? reason
      : phrase("json.at", { detail: reason, line: position.line, column: position.column });
    throw BasisError.of("invalid_output", phrase(key, { tool: showValue(name, 80), detail }));
  }
}

/** The sentence of a refusal, by what was checked. */
const REFUSED = {
  input: "schema.refused",
  output: "schema.output_refused",
  content: "output.content_refused",
} as const;

/**
 * The gate itself: the validator (or why the schema cannot be compiled), the value (parsed, for an
 * output), its shape, then the schema. Returns the value as given.
 */
async function gate(
  name: string,
  schema: unknown,
  options: SchemaGateOptions,
  value: () => unknown,
  kind: "input" | "output" | "content",
): Promise<unknown> {
  const output = kind !== "input";
  const code = output ? "invalid_output" : "invalid_input";
  const entry = await obtainValidator(schema, options.cacheDir ?? defaultCacheDir());
  if ("problem" in entry) {
    const params = { tool: showValue(name, 80), reason: entry.problem };
    const key = output ? "error.output_schema" : "error.input_schema";
    throw BasisError.of("manifest_invalid", phrase(key, params));
  }
  const given = await value();
  const key = REFUSED[kind];
  const refuse = (failure: AjvError | Unusable | undefined, cause?: unknown) =>
    BasisError.of(code, refusal(name, failure, key), cause === undefined ? undefined : { cause });
  const inspected = inspect(given);
  if ("problem" in inspected) throw refuse(inspected.problem);
  if (kind === "output" && (typeof given !== "object" || given === null || Array.isArray(given))) {
    throw refuse({
      pointer: "",
      reason: phrase("output.must_be_object", { found: foundPhrase(given) }),
    });
  }
  const validate = entry.validate;
  let failure: AjvError | undefined | null = null;
  try {
    const result = validate(inspected.value);
    if (result === false) failure = validate.errors?.[0];
    // `$async` schemas resolve on success and throw ajv's ValidationError on failure.
    else if (result !== true) await result;
  } catch (error) {
    const errors = (error as { errors?: unknown } | null)?.errors;
    if (Array.isArray(errors)) failure = errors[0] as AjvError | undefined;
    // A schema recursing deeper than the stack allows; anything else is a bug.
    else if (error instanceof RangeError) throw refuse({ pointer: "", reason: tooDeep() }, error);
    else throw error;
  }
  if (failure !== null) throw refuse(failure, failure);
  return given;
}

/** A number of a structured output that a floating-point `multipleOf` check would refuse. */
export interface FloatMultipleOf {
  /** Where it is (a JSON pointer). */
  readonly pointer: string;
  /** The number. */
  readonly value: number;
  /** The schema's `multipleOf` it is an exact multiple of. */
  readonly divisor: number;
}

/**
 * Tells whether a value that matches an output schema would fail a client that checks it again
 * with `multipleOf` in binary floating point (the MCP SDKs' clients do: `0.07` is no multiple of
 * `0.01` to them, though it is to the gate, which checks in decimal).
 *
 * @param tool The tool: its name and the output schema the client has.
 * @param value The structured output, already accepted by the gate.
 * @param options Where compiled validators are cached.
 * @returns The first number such a client would refuse, or `undefined`.
 * @example A price in cents
 * ```ts ignore
 * import { floatMultipleOf } from "./gate.ts";
 * const tool = { name: "q", outputSchema: { properties: { p: { multipleOf: 0.01 } } } };
 * console.log(await floatMultipleOf(tool, { p: 0.07 })); // { pointer: "/p", value: 0.07, divisor: 0.01 }
 * ```
 */
export async function floatMultipleOf(
  tool: OutputSchemaTool,
  value: unknown,
  options: SchemaGateOptions = {},
): Promise<FloatMultipleOf | undefined> {
  if (!JSON.stringify(tool.outputSchema).includes('"multipleOf"')) return undefined;
  const entry = await obtainValidator(tool.outputSchema, options.cacheDir ?? defaultCacheDir());
  if ("problem" in entry) return undefined;
  const { floatMisses } = await import("./_runtime.ts");
  const miss = floatMisses(() => entry.validate(value));
  if (miss === undefined) return undefined;
  const pointer = findInJson(value, (item, at) => {
    const key = Object.keys(item).find((key) => item[key] === miss.value);
    return key === undefined ? undefined : `${at}/${escapeToken(key)}`;
  }) ?? "";
  return { pointer, ...miss };
}

/**
 * Tells why a tool's input schema cannot be compiled, as a phrase that any locale can word. Fills
 * the same caches validation uses.
 *
 * @param tool The tool: its name and its input schema.
 * @param options Where compiled validators are cached.
 * @returns `undefined` when the schema compiles; otherwise why not (`unsupported "$schema" "…"`,
 * `invalid JSON Schema: /type: must be one of: …`). Where ajv explains only in English text (a
 * schema its meta-schema accepts but it cannot compile), that text is a value of the phrase.
 * @throws Never for a bad schema; only for bugs.
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
  const entry = await obtainValidator(tool.inputSchema, options.cacheDir ?? defaultCacheDir());
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
  /**
   * The failing keyword (`required`, `additionalProperties`, `type`, …); `""` for a value that is
   * not JSON data or is nested too deeply.
   */
  readonly keyword: string;
  /** ajv's detail of the failure (`missingProperty`, `additionalProperty`, `allowedValues`, …). */
  readonly params: Readonly<Record<string, unknown>>;
  /** What was expected, as the gate words it (ajv's English where the catalogue has no words). */
  readonly reason: Phrase | string;
}

/**
 * Options of {@linkcode schemaIssues}: the gate's, and whether to report every failure, not only
 * the first (default `false`).
 */
export type SchemaIssuesOptions = SchemaGateOptions & { allErrors?: boolean };

/**
 * Checks a value against a schema that is known to be good (one of `schemas/*.schema.json`), with
 * the gate's ajv and validator cache: compiled once per process (and cached on disk), then only
 * run. Its patterns run on JavaScript's own engine (the shipped schemas' are written to run in
 * linear time), so a call never loads RE2 for them. Before the schema the value must be JSON data
 * nested at most 256 levels deep.
 *
 * @param schema The schema; the same object is answered from memory without hashing it again.
 * @param value The value, as parsed from JSON.
 * @param options Where compiled validators are cached; whether to report every failure.
 * @returns The failures, in ajv's order; empty when the value passes.
 * @throws {Error} When the schema itself cannot be compiled (a bug, not a user's error).
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
  // No HOME: compiled in this process, kept nowhere.
  const cacheDir = options.cacheDir ?? attempt(() => defaultCacheDir());
  const mode = options.allErrors ? "config-all" : "config";
  const entry = await obtainValidator(schema, cacheDir, mode);
  if ("problem" in entry) throw new Error(`Cannot compile schema: ${english(entry.problem)}`);
  const inspected = inspect(value);
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

// --- what a value must be before its schema ----------------------------------------------------

function plain(value: object): boolean {
  const prototype = Object.getPrototypeOf(value);
  return Array.isArray(value) ? prototype === Array.prototype : prototype === Object.prototype;
}

/** Why a value that is not a container cannot be checked, if it cannot. */
function leafProblem(value: unknown): Phrase | undefined {
  if (typeof value === "number" && !Number.isFinite(value)) return phrase("schema.not_finite");
  return typeof value === "bigint" ? phrase("schema.not_json") : undefined;
}

/**
 * Checks a value's shape in one walk without recursion, so that no input can exhaust the stack here
 * or in any later step that walks it (redaction, the audit line, the prompt, rules): nested at most
 * {@linkcode MAX_INPUT_DEPTH} deep, every number finite (`1e400` parses to `Infinity`, which no
 * program receives as written), JSON data (no cycle, no BigInt). Objects that are not plain (a
 * `null` prototype, as careful JSON parsers produce, or a class instance) make ajv's equality checks
 * (`enum`, `const`, `uniqueItems`) fail, so such a value is validated as its plain JSON copy.
 */
function inspect(input: unknown): { readonly value: unknown } | { readonly problem: Unusable } {
  let allPlain = true;
  const open = new Set<object>();
  const path: (string | number)[] = [];
  // Recursion is bounded by the depth limit; the pointer is written only for a problem.
  const walk = (value: unknown): Phrase | undefined => {
    if (typeof value !== "object" || value === null) return leafProblem(value);
    if (open.has(value)) return phrase("schema.not_json");
    if (path.length >= MAX_INPUT_DEPTH) return tooDeep();
    allPlain &&= plain(value);
    open.add(value);
    const keys = Array.isArray(value) ? value.keys() : Object.keys(value);
    for (const key of keys) {
      path.push(key);
      const reason = walk((value as Record<string | number, unknown>)[key]);
      if (reason !== undefined) return reason;
      path.pop();
    }
    open.delete(value);
    return undefined;
  };
  const reason = walk(input);
  if (reason !== undefined) {
    const pointer = path.map((key) => `/${escapeToken(String(key))}`).join("");
    return { problem: { pointer, reason } };
  }
  if (allPlain) return { value: input };
  // Its plain JSON copy; none for a `toJSON` that throws, or gives what cannot be written.
  const copy = attempt(() => JSON.parse(JSON.stringify(input)));
  return copy === undefined
    ? { problem: { pointer: "", reason: phrase("schema.not_json") } }
    : { value: copy };
}

// --- how a failure is worded -------------------------------------------------------------------

/**
 * The catalogue's words for what ajv says in the same words (so English is unchanged): for each
 * keyword, the message and where each of its values comes from in ajv's `params`.
 */
const SAME_AS_AJV: Readonly<
  Record<string, readonly [MessageKey, Readonly<Record<string, string>>]>
> = {
  minLength: ["schema.min_length", { limit: "limit" }],
  maxLength: ["schema.max_length", { limit: "limit" }],
  minItems: ["schema.min_items", { limit: "limit" }],
  maxItems: ["schema.max_items", { limit: "limit" }],
  // Items beyond the ones a schema allows.
  items: ["schema.max_items", { limit: "limit" }],
  additionalItems: ["schema.max_items", { limit: "limit" }],
  unevaluatedItems: ["schema.max_items", { limit: "limit" }],
  minProperties: ["schema.min_properties", { limit: "limit" }],
  maxProperties: ["schema.max_properties", { limit: "limit" }],
  minimum: ["schema.compare", { comparison: "comparison", limit: "limit" }],
  maximum: ["schema.compare", { comparison: "comparison", limit: "limit" }],
  exclusiveMinimum: ["schema.compare", { comparison: "comparison", limit: "limit" }],
  exclusiveMaximum: ["schema.compare", { comparison: "comparison", limit: "limit" }],
  pattern: ["schema.pattern", { pattern: "pattern" }],
  format: ["schema.format", { format: "format" }],
  multipleOf: ["schema.multiple_of", { value: "multipleOf" }],
  uniqueItems: ["schema.unique", { first: "j", second: "i" }],
  oneOf: ["schema.one_of", {}],
  anyOf: ["schema.any_of", {}],
  not: ["schema.not", {}],
  if: ["schema.if", { clause: "failingKeyword" }],
};

/**
 * The catalogue's words for what ajv says in the same words, or ajv's own text for a keyword the
 * catalogue does not word that way (or a failure without the values its words need).
 */
function sameAsAjv(error: AjvError): Phrase | string {
  const { keyword, params } = error;
  const [key, names] = keyword === "contains" && params.minContains !== undefined
    ? params.maxContains === undefined
      ? ["schema.contains" as const, { min: "minContains" }]
      : ["schema.contains_between" as const, { min: "minContains", max: "maxContains" }]
    : SAME_AS_AJV[keyword] ?? [undefined, {}];
  const values = Object.entries(names).map(([name, from]) => [name, params[from]] as const);
  if (key === undefined || values.some(([, value]) => value === undefined)) {
    return oneLine(error.message ?? `must pass "${keyword}"`);
  }
  return phrase(
    key,
    Object.fromEntries(values.map(([name, value]) => [name, oneLine(String(value))])),
  );
}

/** The allowed values of an enum, cut after about 120 characters with how many more there are. */
function listValues(values: unknown): string | Phrase {
  if (!Array.isArray(values)) return showValue(values);
  const shown: string[] = [];
  let used = 0;
  for (const value of values) {
    const text = showValue(value);
    if (shown.length > 0 && used + text.length > 120) break;
    shown.push(text);
    used += text.length + 2;
  }
  const more = values.length - shown.length;
  const list = shown.join(", ");
  return more > 0 ? phrase("schema.enum_more", { values: list, count: more }) : list;
}

/**
 * Where a failure is (the JSON pointer of the field it names: for a missing, unknown or badly named
 * property, that property's) and what was expected, before escaping and cutting.
 */
function locate(error: AjvError): [pointer: string, expected: Phrase | string] {
  const { instancePath, params } = error;
  if (error.propertyName !== undefined) {
    const reason = sameAsAjv(error);
    return [child(instancePath, error.propertyName), phrase("schema.property_name", { reason })];
  }
  switch (error.keyword) {
    case "required":
      return [child(instancePath, params.missingProperty), phrase("schema.required")];
    case "dependencies":
    case "dependentRequired":
      return [
        child(instancePath, params.missingProperty),
        phrase("schema.required_when", { property: showValue(params.property) }),
      ];
    case "additionalProperties":
      return [child(instancePath, params.additionalProperty), phrase("schema.not_allowed")];
    case "unevaluatedProperties":
      return [child(instancePath, params.unevaluatedProperty), phrase("schema.not_allowed")];
    case "enum":
      return [instancePath, phrase("schema.enum", { values: listValues(params.allowedValues) })];
    case "const":
      return [instancePath, phrase("schema.const", { value: showValue(params.allowedValue) })];
    case "type": {
      // One type, or several (an array, or ajv's comma-joined text): their names read alike.
      const types = listOf(String(params.type).split(",").map((n) => oneLine(n)), "join.or");
      return [instancePath, phrase("schema.type", { types })];
    }
    case "false schema":
      return [instancePath, phrase("schema.false")];
    default:
      return [instancePath, sameAsAjv(error)];
  }
}

/**
 * One ajv failure as the values of a phrase: `pointer` (the root as the catalogue names it) and
 * `reason`, each on one line.
 *
 * @param error The failure.
 * @returns The values, for a message with `{pointer}` and `{reason}` placeholders.
 */
export function failureParams(
  error: AjvError,
): { pointer: string | Phrase; reason: Phrase | string } {
  const [pointer, reason] = locate(error);
  return { pointer: pointer === "" ? phrase("schema.root") : oneLine(pointer, 200), reason };
}

/**
 * The refusal of a value, as a phrase: the tool, the field (a JSON pointer) and what was expected.
 *
 * @param toolName The tool whose schema refused the value.
 * @param failure ajv's first failure (`undefined` when ajv named none), or where and why the value
 *   could not be checked at all (a JSON pointer, `""` for the whole value).
 * @param key The sentence: an input refused (the default), or a structured output that does not
 *   match the tool's output schema.
 * @returns `Input refused by tool "name" schema: pointer: expected`.
 * @example Name the tool and the field
 * ```ts
 * import { refusal } from "./gate.ts";
 * import { english } from "../locale/messages.ts";
 * const error = { instancePath: "/n", schemaPath: "#/properties/n/type", keyword: "type", params: { type: "integer" } };
 * console.assert(english(refusal("wc", error)) === 'Input refused by tool "wc" schema: /n: must be integer');
 * ```
 */
export function refusal(
  toolName: string,
  failure: AjvError | Unusable | undefined,
  key: (typeof REFUSED)[keyof typeof REFUSED] = "schema.refused",
): Phrase {
  const tool = showValue(toolName, 80);
  if (failure === undefined) {
    return phrase(key, { tool, pointer: phrase("schema.root"), reason: phrase("schema.invalid") });
  }
  if ("keyword" in failure) return phrase(key, { tool, ...failureParams(failure) });
  const pointer = failure.pointer === "" ? phrase("schema.root") : oneLine(failure.pointer, 200);
  return phrase(key, { tool, pointer, reason: failure.reason });
}
