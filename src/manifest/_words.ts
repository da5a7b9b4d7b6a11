/**
 * How a manifest's shape failures read: each failure the schema finds (ajv's keyword, at a path)
 * worded for the field it names, the value found shown by kind (quoted only where it is never
 * secret: `side_effect`, `timeout_ms`, a schema's `type`).
 *
 * @module
 */

import TOOLS_SCHEMA from "../../schemas/tools.schema.json" with { type: "json" };
import { type Phrase, phrase } from "../locale/messages.ts";
import { isAbsolutePath } from "../paths.ts";
import type { Pointer, Segment } from "../json_text.ts";
import { foundPhrase } from "../json_kind.ts";
import { fieldName, keyLabel } from "../text.ts";
import { unknownKey } from "../suggest.ts";
import type { SchemaIssue } from "../schema/mod.ts";

/** The only manifest version this program reads. */
export const SCHEMA_VERSION = 1;

const TOOL = TOOLS_SCHEMA.definitions.tool.properties;
/** The keys each kind of object may have, for "did you mean". */
const KEYS: Readonly<Record<string, readonly string[]>> = {
  "": Object.keys(TOOLS_SCHEMA.properties),
  tool: Object.keys(TOOL),
  sandbox: Object.keys(TOOL.sandbox.properties),
  argument: ["input"],
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
  if (typeof value === "number" || typeof value === "boolean" || value === null) {
    return String(value);
  }
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
    return third === "input" ? "argument.input" : second === 0 ? "program" : "argument";
  }
  if (second === "type" && (field === "input_schema" || field === "output_schema")) {
    return `${field}.type`;
  }
  if (field === "sandbox" && second !== undefined) {
    return third === undefined ? String(second) : "grant";
  }
  if (field === "env" && second !== undefined) return "env.value";
  if (field === "files" && second !== undefined) return "glob";
  return String(field);
}

/** Words one failure; nothing for a failure another one of the same value words better. */
function word(found: SchemaIssue, path: Segment[], value: unknown, kind: string, report: Report) {
  const { keyword, params } = found;
  const say = (reason: Phrase) => report(path, "value", fieldName(path), reason);
  const kindFound = { found: foundPhrase(value) };
  const notString = () => phrase("manifest.not_string", kindFound);
  if (keyword === "additionalProperties") {
    const key = String(params.additionalProperty);
    const { reason } = unknownKey(key, KEYS[kind] ?? []);
    return report([...path, key], "key", fieldName([...path, key]), reason);
  }
  if (keyword === "required") {
    const missing = String(params.missingProperty);
    if (kind === "argument") return say(phrase("manifest.argument_shape"));
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
    if (schema && typeof found.reason !== "string" && found.reason.key === "schema.too_deep") {
      return;
    }
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
  const nul = typeof value === "string" && value.includes("\0");
  switch (kind) {
    case "":
      return say(phrase("manifest.not_object", kindFound));
    case "tools":
      return say(phrase("manifest.tools_not_object", kindFound));
    case "schema":
      return say(
        phrase("manifest.schema_unsupported", { value: show(value), version: SCHEMA_VERSION }),
      );
    case "tool":
      return report(path, "value", "", phrase("manifest.tool_not_object", kindFound));
    case "$schema":
    case "description":
    case "title":
    case "cwd":
    case "env.value":
      if (keyword === "type") return say(notString());
      if (nul && kind !== "title") return say(phrase("manifest.nul"));
      if (kind !== "title" || (value as string).trim() === "") return say(phrase("manifest.blank"));
      return say(phrase("manifest.title_lines"));
    case "input_schema":
    case "output_schema":
      return say(phrase("manifest.schema_not_object", kindFound));
    case "input_schema.type":
    case "output_schema.type":
      // Neither a type that is not a string, nor "object" (anyOf): said once, for the anyOf.
      if (keyword !== "anyOf") return;
      return say(
        phrase(
          kind === "input_schema.type" ? "manifest.schema_type" : "manifest.output_schema_type",
          {
            value: show(value),
          },
        ),
      );
    case "command":
      if (keyword === "minItems") return say(phrase("manifest.command_empty"));
      return say(
        phrase(
          typeof value === "string" ? "manifest.command_shell" : "manifest.command_not_argv",
          kindFound,
        ),
      );
    case "program":
      if (isObject(value)) return say(phrase("manifest.argument_program"));
      if (keyword === "type") return say(phrase("manifest.argument_not_string", kindFound));
      return say(phrase(nul ? "manifest.nul" : "manifest.program_blank"));
    case "argument":
      // An argument is a string or {"input": …} (anyOf): only the failures of the kind the value
      // has say what is wrong with it; the anyOf says it for a value of neither kind.
      if (keyword === "type" || (keyword === "anyOf" && (isObject(value) || nul))) return;
      return say(
        keyword === "anyOf"
          ? phrase("manifest.argument_not_string", kindFound)
          : phrase("manifest.nul"),
      );
    case "argument.input":
      return say(phrase("manifest.argument_name", { found: show(value) }));
    case "env":
      return say(phrase("manifest.env_not_object", kindFound));
    case "side_effect":
      return say(phrase("manifest.side_effect", { value: show(value) }));
    case "timeout_ms":
      return say(
        keyword === "maximum"
          ? phrase("manifest.timeout_max", { max: Number(params.limit), value: show(value) })
          : phrase("manifest.timeout_invalid", { value: show(value) }),
      );
    case "sandbox":
      return say(phrase("manifest.sandbox_not_object", kindFound));
    case "network":
      return say(phrase("manifest.sandbox_network", kindFound));
    case "write":
    case "read":
      return say(phrase("manifest.sandbox_paths", kindFound));
    case "files":
      return say(phrase("manifest.files_list", kindFound));
    case "grant":
    case "glob": {
      // A value that is not a string passes the patterns, and so fails their "not".
      if (typeof value !== "string") return keyword === "type" ? say(notString()) : undefined;
      if (keyword === "pattern") return say(phrase(nul ? "manifest.nul" : "manifest.blank"));
      if (kind === "grant") return say(phrase("manifest.sandbox_tilde"));
      const outside = isAbsolutePath(value) || value.split("/").includes("..");
      return say(phrase(outside ? "manifest.files_outside" : "manifest.files_backslash"));
    }
  }
}
