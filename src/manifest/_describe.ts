/**
 * How values, keys and paths appear in a problem: by kind, quoted when safe, cut when long, and
 * always on one line.
 *
 * @module
 */

import { type Phrase, phrase } from "../locale/messages.ts";
import type { Segment } from "../json_text.ts";
import { keyLabel } from "../text.ts";

/** A parsed JSON object. */
export type Json = Record<string, unknown>;

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

/** A path inside the document as a field name: `input_schema.properties.x`, `anyOf[0]`. */
export function fieldOf(path: readonly Segment[]): string {
  let out = "";
  for (const segment of path) {
    out += typeof segment === "number"
      ? `[${segment}]`
      : out === ""
      ? keyLabel(segment)
      : `.${keyLabel(segment)}`;
  }
  return out;
}
