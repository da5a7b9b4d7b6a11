/**
 * Parsing JSON text without losing how its numbers were written: a number whose text differs from
 * what `JSON.stringify` would write for its double (`12345678901234567890`, `1.0`, `1E2`, `-0`) is
 * kept as its own text (`JSON.rawJSON`), so writing the value back, compact or indented, gives
 * every number exactly as the text had it. What a program receives and what a person is shown to
 * approve are then the same digits.
 *
 * @module
 */

/** `JSON.parse`'s reviver with the source text of each primitive (ES2025, in V8). */
type SourceReviver = (key: string, value: unknown, context: { source?: string }) => unknown;

/** `JSON.rawJSON`: a value `JSON.stringify` writes as the given text (ES2025, in V8). */
const rawJSON = (JSON as unknown as { rawJSON(text: string): unknown }).rawJSON;

const keep: SourceReviver = (_key, value, context) =>
  typeof value === "number" && context.source !== undefined && String(value) !== context.source
    ? rawJSON(context.source)
    : value;

/**
 * Parses JSON text, keeping each number's text where its double would be written otherwise.
 *
 * @param text JSON text that `JSON.parse` accepts.
 * @returns The value, for `JSON.stringify` only (kept numbers are raw JSON objects, not numbers).
 * @throws {SyntaxError} When the text is not JSON; {RangeError} when it is nested too deeply.
 * @example Indented, with the digits as written
 * ```ts
 * import { parseKeepingNumbers } from "./json_exact.ts";
 * const text = JSON.stringify(parseKeepingNumbers('{"n":12345678901234567890}'), null, 1);
 * console.assert(text === '{\n "n": 12345678901234567890\n}');
 * ```
 */
export function parseKeepingNumbers(text: string): unknown {
  return JSON.parse(text, keep as Parameters<typeof JSON.parse>[1]);
}
