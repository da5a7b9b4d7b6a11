/**
 * What kind of JSON value something is, for messages that say what was found.
 *
 * @module
 */

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
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  const type = typeof value;
  return type === "object" || type === "string" || type === "number" || type === "boolean"
    ? type
    : "other";
}
