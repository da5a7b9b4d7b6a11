/**
 * How a manifest's shape failures read: each failure the schema finds (ajv's keyword, at a path)
 * worded for the field it names, the value found shown by kind (quoted only where it is never
 * secret: `side_effect`, `timeout_ms`, a schema's `type`).
 *
 * @module
 */

import TOOLS_SCHEMA from "../../schemas/tools.schema.json" with { type: "json" };
import { type Phrase, phrase, type PhraseParams } from "../locale/messages.ts";
import type { MessageKey } from "../locale/en_us.ts";
import { isAbsolutePath } from "../paths.ts";
import type { Pointer, Segment } from "../json_text.ts";
import { foundPhrase } from "../json_kind.ts";
import { fieldName, keyLabel } from "../text.ts";
import { unknownKey } from "../suggest.ts";
import type { SchemaIssue } from "../schema/gate.ts";

/** The only manifest version this program reads. */
export const SCHEMA_VERSION = 1;

const TOOL = TOOLS_SCHEMA.definitions.tool.properties;
/** The keys each kind of object may have, for "did you mean". */
const KEYS: Readonly<Record<string, readonly string[]>> = {
  "": Object.keys(TOOLS_SCHEMA.properties),
  tool: Object.keys(TOOL),
  sandbox: Object.keys(TOOL.sandbox.properties),
  argument: Object.keys(TOOLS_SCHEMA.definitions.argument.anyOf[1]!.properties!),
  "env.value": Object.keys(TOOLS_SCHEMA.definitions.envValue.anyOf[1]!.properties!),
};

/** The words for a value of the wrong type, naming what was found (default: not a string). */
const WRONG_TYPE: Readonly<Record<string, MessageKey>> = {
  "": "manifest.not_object",
  tools: "manifest.tools_not_object",
  tool: "manifest.tool_not_object",
  input_schema: "manifest.schema_not_object",
  output_schema: "manifest.schema_not_object",
  command: "manifest.command_not_argv",
  program: "manifest.argument_not_string",
  env: "manifest.env_not_object",
  sandbox: "manifest.sandbox_not_object",
  network: "manifest.not_boolean",
  "env.public": "manifest.not_boolean",
  write: "manifest.sandbox_paths",
  read: "manifest.sandbox_paths",
  files: "manifest.files_list",
};

/** A parsed JSON object. */
export type Json = Record<string, unknown>;

/** Where one problem goes: its path, whether at a key, its field and why. */
export type Report = (
  path: readonly Segment[],
  at: Pointer["at"],
  field: string,
  reason: Phrase,
) => void;

/** Whether a parsed value is a JSON object (not null, not an array). */
export function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A non-secret found value: short strings and numbers verbatim, anything else by kind. */
export function show(value: unknown): string | Phrase {
  if (value === null || ["number", "boolean"].includes(typeof value)) return String(value);
  if (typeof value === "string" && value.length <= 40) return JSON.stringify(value);
  return foundPhrase(value);
}

/** A path as a JSON pointer (as ajv's instance paths are written). */
export function pointerOf(path: readonly Segment[]): string {
  return path.map((s) => `/${String(s).replaceAll("~", "~0").replaceAll("/", "~1")}`).join("");
}

/**
 * Words the failures the schema found in a value (the file without its tools, or one tool's
 * entry), for what each names.
 *
 * @param issues The schema gate's failures, in ajv's order.
 * @param root The value they are about.
 * @param tool Whether it is one tool's entry (else the file itself).
 * @param report Where each worded problem goes (paths inside `root`).
 */
export function wordIssues(
  issues: readonly SchemaIssue[],
  root: unknown,
  tool: boolean,
  report: Report,
): void {
  for (const found of issues) {
    const path: Segment[] = [];
    let value = root;
    for (const token of found.instancePath.split("/").slice(1)) {
      const key = token.replaceAll("~1", "/").replaceAll("~0", "~");
      const segment = Array.isArray(value) ? Number(key) : key;
      path.push(segment);
      value = (value as Record<Segment, unknown>)[segment];
    }
    word(found, path, value, tool ? kindOf(path) : String(path[0] ?? ""), report);
  }
}

/** What a path inside a tool names. */
function kindOf(path: readonly Segment[]): string {
  const [field, second, third] = path;
  if (field === undefined) return "tool";
  if (field === "command" && typeof second === "number") {
    if (typeof third === "string") return `argument.${third}`;
    return second === 0 ? "program" : "argument";
  }
  if (second === "type" && /^(?:in|out)put_schema$/.test(String(field))) return `${field}.type`;
  if (field === "sandbox" && second !== undefined) {
    return third === undefined ? String(second) : "grant";
  }
  if (field === "env" && second !== undefined) {
    return third === undefined ? "env.value" : third === "public" ? "env.public" : "env.text";
  }
  if (field === "files" && second !== undefined) return "glob";
  if (field === "success_exit_codes" && second !== undefined) return "exit_code";
  return String(field);
}

/** Words one failure; nothing for a failure another one of the same value words better. */
function word(found: SchemaIssue, path: Segment[], value: unknown, kind: string, report: Report) {
  const { keyword, params } = found;
  const say = (reason: Phrase) => report(path, "value", fieldName(path), reason);
  if (keyword === "additionalProperties") {
    const key = String(params.additionalProperty);
    const reason = unknownKey(key, KEYS[kind] ?? []);
    return report([...path, key], "key", fieldName([...path, key]), reason);
  }
  if (keyword === "required") {
    const missing = String(params.missingProperty);
    if (kind === "argument") return say(phrase("manifest.argument_shape"));
    if (kind === "env.value") {
      return report(path, "value", fieldName([...path, missing]), phrase("manifest.required"));
    }
    const reason = missing === "schema"
      ? phrase("manifest.schema_required", { version: SCHEMA_VERSION })
      : missing === "tools"
      ? phrase("manifest.tools_required")
      : phrase("manifest.required");
    return report(path, "value", keyLabel(missing), reason);
  }
  if (keyword === "propertyNames") return;
  if (keyword === "") {
    // The gate's own words: a number too large for a double, or nesting deeper than it checks
    // (a tool's schemas are held to a lower limit by hand).
    const schema = kind.startsWith("input_schema") || kind.startsWith("output_schema");
    if (schema && (found.reason as Phrase).key === "schema.too_deep") return;
    return say(typeof found.reason === "string" ? phrase("schema.invalid") : found.reason);
  }
  if (found.pointer !== found.instancePath) {
    // A variable's name (env's propertyNames): the pointer is the name's.
    const name = found.pointer.slice(found.instancePath.length + 1).replaceAll("~1", "/")
      .replaceAll("~0", "~");
    const reason = keyword === "not"
      ? phrase("manifest.proto_key")
      : name === ""
      ? phrase("manifest.env_name_empty")
      : phrase(name.includes("=") ? "manifest.env_name_equals" : "manifest.env_name_nul");
    return report([...path, name], "key", name === "" ? "env" : fieldName([...path, name]), reason);
  }
  const typed = (key: MessageKey, given?: PhraseParams) =>
    say(phrase(key, given ?? { found: foundPhrase(value) }));
  if (kind === "timeout_ms") {
    const max = keyword === "maximum" ? { max: Number(params.limit) } : undefined;
    const key = max ? "manifest.timeout_max" : "manifest.timeout_invalid";
    return typed(key, { ...max, value: show(value) });
  }
  if (kind === "side_effect") return typed("manifest.side_effect", { value: show(value) });
  if (kind === "output") {
    // Not an allowed value, or "content" beside output_schema (the dependency's const).
    const key = keyword === "const" ? "manifest.output_with_schema" : "manifest.output";
    return typed(key, { value: show(value) });
  }
  if (kind === "exit_code") return typed("manifest.exit_code", { value: show(value) });
  if (kind === "success_exit_codes") {
    if (keyword === "minItems") return typed("manifest.exit_codes_empty");
    if (keyword !== "uniqueItems") return typed("manifest.exit_codes");
    return typed("manifest.exit_codes_twice", {
      value: show((value as unknown[])[Number(params.j)]),
    });
  }
  if (kind === "schema") {
    return typed("manifest.schema_unsupported", { value: show(value), version: SCHEMA_VERSION });
  }
  if (kind === "argument.input") return typed("manifest.argument_name", { found: show(value) });
  if (kind.endsWith("schema.type")) {
    // Neither a type that is not a string, nor "object" (anyOf): said once, for the anyOf.
    const key = kind === "input_schema.type" ? "schema_type" : "output_schema_type";
    return keyword === "anyOf" ? typed(`manifest.${key}`, { value: show(value) }) : undefined;
  }
  const text = typeof value === "string" ? value : undefined;
  if (kind === "argument" || kind === "env.value") {
    if (keyword === "not" && kind === "argument") return typed("manifest.argument_flag_prefix");
    // A string or an object (anyOf): only the failures of the kind the value has count.
    if (keyword === "type" || (keyword === "anyOf" && (isObject(value) || text != null))) return;
    if (keyword !== "anyOf") return typed("manifest.nul");
    return typed(kind === "argument" ? "manifest.argument_not_string" : "manifest.env_value");
  }
  if (keyword === "type") {
    if (kind === "program" && isObject(value)) return typed("manifest.argument_program");
    if (kind === "command" && text !== undefined) return typed("manifest.command_shell");
    return typed(WRONG_TYPE[kind] ?? "manifest.not_string");
  }
  if (kind === "command") return typed("manifest.command_empty");
  // A pattern, or a "not" of patterns, refused a string (a value of another type passes them).
  if (text === undefined) return;
  if (text.includes("\0") && kind !== "title") return typed("manifest.nul");
  if (kind === "argument.flag" || kind === "argument.prefix") {
    return typed(kind === "argument.flag" ? "manifest.argument_flag" : "manifest.argument_prefix");
  }
  if (keyword === "pattern") {
    if (kind === "program") return typed("manifest.program_blank");
    const lines = kind === "title" && text.trim() !== "";
    return typed(lines ? "manifest.title_lines" : "manifest.blank");
  }
  if (kind === "grant") return typed("manifest.sandbox_tilde");
  const outside = isAbsolutePath(text) || text.split("/").includes("..");
  typed(outside ? "manifest.files_outside" : "manifest.files_backslash");
}
