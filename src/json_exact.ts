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

/** `JSON.isRawJSON` (ES2025, in V8). */
const isRawJSON = (JSON as unknown as { isRawJSON(value: unknown): boolean }).isRawJSON;

/**
 * Where a JSON text holds a number too small for a double: written as something other than zero
 * (`1e-400`, `0.000…1` past 324 places) yet read as `0`. A program would receive the digits as
 * written while every check judged 0.
 *
 * @param text JSON text that `JSON.parse` accepts (nested no deeper than its parser allows).
 * @returns The JSON pointer of the first such number, or `undefined` when there is none.
 * @throws Never.
 * @example
 * ```ts
 * import { underflowPointer } from "./json_exact.ts";
 * console.assert(underflowPointer('{"a":[1,1e-400]}') === "/a/1");
 * console.assert(underflowPointer('{"a":0.0,"b":-0e5}') === undefined);
 * ```
 */
export function underflowPointer(text: string): string | undefined {
  let root: unknown;
  try {
    root = parseKeepingNumbers(text);
  } catch {
    return undefined;
  }
  const stack: [unknown, string][] = [[root, ""]];
  while (stack.length > 0) {
    const [value, pointer] = stack.pop() as [unknown, string];
    if (typeof value !== "object" || value === null) continue;
    if (isRawJSON(value)) {
      const written = (value as { rawJSON: string }).rawJSON;
      const mantissa = written.replace(/[eE].*$/, "");
      if (Number(written) === 0 && /[1-9]/.test(mantissa)) return pointer;
      continue;
    }
    const entries = Array.isArray(value)
      ? value.map((item, index) => [String(index), item] as const)
      : Object.entries(value);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, item] = entries[i]!;
      stack.push([item, `${pointer}/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`]);
    }
  }
  return undefined;
}
