/**
 * How values, keys and paths appear in a problem: by kind, quoted when safe, cut when long, and
 * always on one line.
 *
 * @module
 */

import { type Phrase, phrase } from "../locale/messages.ts";
import type { Segment } from "../json_text.ts";

/** A parsed JSON object. */
export type Json = Record<string, unknown>;

const MAX_LABEL_LENGTH = 200;
// deno-lint-ignore no-control-regex
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/** Whether a parsed value is a JSON object (not null, not an array). */
export function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The kind of a JSON value, for "found …". */
export function kind(value: unknown): Phrase {
  if (value === null) return phrase("found.null");
  if (Array.isArray(value)) return phrase("found.array");
  switch (typeof value) {
    case "string":
      return phrase("found.string");
    case "number":
      return phrase("found.number");
    case "boolean":
      return phrase("found.boolean");
    case "object":
      return phrase("found.object");
    default:
      return phrase("found.nothing");
  }
}

/** A non-secret found value: short strings and numbers verbatim, anything else by kind. */
export function show(value: unknown): string | Phrase {
  if (typeof value === "number" || typeof value === "boolean" || value === null) {
    return String(value);
  }
  if (typeof value === "string" && value.length <= 40) return JSON.stringify(value);
  return kind(value);
}

/**
 * A key or name as shown in a problem: cut when very long, and quoted with escapes when it holds a
 * control or line-breaking character (a problem is always one line).
 */
export function label(text: string): string {
  const cut = text.length > MAX_LABEL_LENGTH ? `${text.slice(0, MAX_LABEL_LENGTH)}…` : text;
  return UNPRINTABLE.test(cut) ? JSON.stringify(cut) : cut;
}

/** A path inside the document as a field name: `input_schema.properties.x`, `anyOf[0]`. */
export function fieldOf(path: readonly Segment[]): string {
  let out = "";
  for (const segment of path) {
    out += typeof segment === "number"
      ? `[${segment}]`
      : out === ""
      ? label(segment)
      : `.${label(segment)}`;
  }
  return out;
}
