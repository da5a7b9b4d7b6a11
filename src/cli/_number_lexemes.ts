/**
 * Numbers as the caller wrote them. `JSON.parse` reads every number as a double, and
 * `JSON.stringify` writes the double back in its shortest form: `12345678901234567890` would reach a
 * program as `12345678901234567000`, `1.0` as `1`, `1e2` as `100`. A tool's stdin keeps each number's
 * text (its lexeme) byte for byte instead; everything else is the compact JSON of the parsed value,
 * so that the program receives the same document the gate judged (for a repeated key, the last
 * value, as `JSON.parse` keeps it).
 *
 * @module
 */

import { parseKeepingNumbers } from "../json_exact.ts";

/** Where a string or a number may start; nothing else in JSON text holds `"`, `-` or a digit. */
const NEXT_TOKEN = /["\-0-9]/g;
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/** The index just past the string whose opening quote is at `at`. */
function stringEnd(text: string, at: number): number {
  let quote = text.indexOf('"', at + 1);
  while (quote > 0) {
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === 0x5c) backslashes++;
    if (backslashes % 2 === 0) return quote + 1;
    quote = text.indexOf('"', quote + 1);
  }
  return text.length;
}

/**
 * Tells whether every number in a JSON text is written exactly as `JSON.stringify` would write it
 * (then the compact JSON of its value already holds every number as written). One pass, jumping
 * over strings.
 *
 * @param text JSON text that `JSON.parse` accepts.
 * @returns `false` when some number is written otherwise (`1.0`, `1e2`, `-0`, 20 digits, …).
 *
 * @example Written as JavaScript writes numbers, or not
 * ```ts
 * import { numbersAsJavaScriptWrites } from "./_number_lexemes.ts";
 * console.assert(numbersAsJavaScriptWrites('{"a": [1, 2.5, -3], "b": "1.0"}'));
 * console.assert(!numbersAsJavaScriptWrites('{"a": 1.0}'));
 * ```
 */
export function numbersAsJavaScriptWrites(text: string): boolean {
  NEXT_TOKEN.lastIndex = 0;
  for (let match = NEXT_TOKEN.exec(text); match !== null; match = NEXT_TOKEN.exec(text)) {
    const at = match.index;
    if (text.charCodeAt(at) === 0x22) {
      NEXT_TOKEN.lastIndex = stringEnd(text, at);
      continue;
    }
    NUMBER.lastIndex = at;
    const lexeme = NUMBER.exec(text)?.[0] ?? "";
    if (String(Number(lexeme)) !== lexeme) return false;
    NEXT_TOKEN.lastIndex = at + Math.max(lexeme.length, 1);
  }
  return true;
}

/**
 * The compact JSON of a text's value, with every number written as the text writes it.
 *
 * @param text JSON text that `JSON.parse` accepts.
 * @returns The compact JSON, or `undefined` when the text is nested too deeply for the reviver's
 * stack (far deeper than the gate's nesting limit: such an input is refused before anything runs).
 *
 * @example Big integers and trailing zeros survive
 * ```ts
 * import { compactKeepingNumbers } from "./_number_lexemes.ts";
 * const text = '{ "n": 12345678901234567890, "price": 1.50, "e": 1E3 }';
 * console.assert(compactKeepingNumbers(text) === '{"n":12345678901234567890,"price":1.50,"e":1E3}');
 * ```
 */
export function compactKeepingNumbers(text: string): string | undefined {
  try {
    return JSON.stringify(parseKeepingNumbers(text));
  } catch (error) {
    if (error instanceof RangeError) return undefined;
    throw error;
  }
}
