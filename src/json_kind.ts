/**
 * What kind of JSON value something is, for messages that say what was found.
 *
 * @module
 */

import type { MessageKey } from "./locale/en_us.ts";
import { type Phrase, phrase } from "./locale/messages.ts";

/** What kind of JSON value an input held (`typeof`, with `null` and `array` told apart). */
export type JsonKind = "null" | "array" | "object" | "string" | "number" | "boolean" | "other";

/**
 * The kind of a JSON value.
 *
 * @param value Any value.
 * @returns `null`, `array`, `object`, `string`, `number`, `boolean`, or `other`.
 * @example An array is not an object here
 * ```ts
 * import { jsonKind } from "./json_kind.ts";
 * console.assert(jsonKind([]) === "array" && jsonKind(null) === "null");
 * ```
 */
export function jsonKind(value: unknown): JsonKind {
  const type = value === null ? "null" : Array.isArray(value) ? "array" : typeof value;
  return /^(?:null|array|object|string|number|boolean)$/.test(type) ? type as JsonKind : "other";
}

/**
 * What was found, as messages say it: `an array`, `a number`, `null`, … (`nothing` for a value
 * that is not there), in any locale.
 *
 * @param value The value.
 * @returns The phrase.
 * @example An array
 * ```ts
 * import { foundPhrase } from "./json_kind.ts";
 * import { english } from "./locale/messages.ts";
 * console.assert(english(foundPhrase([1])) === "an array");
 * ```
 */
export function foundPhrase(value: unknown): Phrase {
  if (value === undefined) return phrase("found.nothing");
  const kind = jsonKind(value);
  return kind === "other"
    ? phrase("found.other", { type: typeof value })
    : phrase(`found.${kind}` as MessageKey);
}
