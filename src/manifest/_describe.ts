/**
 * How values, keys and paths appear in a problem: by kind, quoted when safe, cut when long, and
 * always on one line.
 *
 * @module
 */

import type { Phrase } from "../locale/messages.ts";
import { foundPhrase } from "../json_kind.ts";
import type { Segment } from "../json_text.ts";
import { keyLabel } from "../text.ts";

/** A parsed JSON object. */
export type Json = Record<string, unknown>;

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
