/**
 * Recognising JSON text that is already compact: exactly what `JSON.stringify` would write for the
 * value it parses to. A tool's stdin is the compact JSON of its input; when the input arrived in
 * that form (as programs and models usually send it), its own bytes can be passed on instead of
 * building and encoding a second copy, which for a 100 MiB input is about 120 ms and 200 MiB.
 *
 * The check is conservative: whatever it is unsure of (an escape other than the ones
 * `JSON.stringify` writes, a key made only of digits, which objects list first) counts as "not
 * compact", and the caller serialises as usual. It is fast where it pays, on text made of long
 * strings (`indexOf` jumps over them), and gives up on text of many small tokens (more than one per
 * 64 characters on average), where serialising is no slower.
 *
 * @module
 */

/** Where the compact JSON lies in a text: everything but leading and trailing whitespace. */
export interface CompactSpan {
  /** The index of the first character of the value. */
  readonly start: number;
  /** The index just past its last character. */
  readonly end: number;
}

/** `"`, `\`, `b`, `f`, `n`, `r`, `t`: the escapes `JSON.stringify` writes as two characters. */
const SHORT_ESCAPE = /["\\bfnrt]/y;
/** `\u00XX` as `JSON.stringify` writes it: lower-case hex, a control without a short escape. */
const CONTROL_ESCAPE = /u00(?:0[0-7bef]|1[0-9a-f])/y;
const DIGITS_ONLY = /^"[0-9]+"$/;
const NUMBER = /[-+.0-9eE]+/y;
const SPACE = /[ \t\n\r]/;

/**
 * Tells whether `text`, apart from leading and trailing whitespace, is exactly
 * `JSON.stringify(JSON.parse(text))`.
 *
 * @param text JSON text that `JSON.parse` accepts (the answer is meaningless for anything else).
 * @param options `maxTokens`: the most values and keys to look at before giving up.
 *   @default {16 plus one per 64 characters}
 * @returns The span of the compact value, or `undefined` when the text is not (surely) compact.
 *
 * @example Compact and not
 * ```ts
 * import { compactSpan } from "./_compact_json.ts";
 * console.assert(compactSpan('{"a":[1,"x"]}\n')?.end === 13);
 * console.assert(compactSpan('{"a": 1}') === undefined);
 * ```
 */
export function compactSpan(
  text: string,
  options: { maxTokens?: number } = {},
): CompactSpan | undefined {
  let start = 0;
  let end = text.length;
  while (start < end && SPACE.test(text[start]!)) start++;
  while (end > start && SPACE.test(text[end - 1]!)) end--;
  // A lone surrogate would come out escaped.
  if (start === end || !text.isWellFormed()) return undefined;
  let budget = options.maxTokens ?? 16 + ((end - start) >> 6);
  // The next `"` and `\` at or after the last search (`Infinity`: none left).
  let quote = -1;
  let escape = -1;
  const find = (char: string, from: number) => {
    const at = text.indexOf(char, from);
    return at === -1 ? Infinity : at;
  };
  const matches = (pattern: RegExp, at: number) => {
    pattern.lastIndex = at;
    return pattern.test(text);
  };
  /** A string starting with the `"` at `at`: the index after its closing quote, or -1. */
  const string = (at: number): number => {
    let i = at + 1;
    while (true) {
      if (quote < i) quote = find('"', i);
      if (quote >= end) return -1;
      if (escape < i) escape = find("\\", i);
      if (escape > quote) return quote + 1;
      if (matches(SHORT_ESCAPE, escape + 1)) i = escape + 2;
      else if (matches(CONTROL_ESCAPE, escape + 1)) i = escape + 6;
      else return -1;
    }
  };
  /** A key and its colon: the index of the value, or -1. */
  const key = (at: number, keys: Set<string>): number => {
    if (text[at] !== '"') return -1;
    const after = string(at);
    if (after < 0 || text[after] !== ":") return -1;
    const name = text.slice(at, after);
    // Duplicates keep only the last value; integer keys are listed first, whatever their place.
    if (keys.has(name) || DIGITS_ONLY.test(name) || --budget < 0) return -1;
    keys.add(name);
    return after + 1;
  };
  // Walks one value after another without recursion, so that depth costs no stack. The open
  // containers: the keys seen so far for an object, `null` for an array.
  const open: (Set<string> | null)[] = [];
  let i = start;
  while (true) {
    // A value starts at i.
    if (--budget < 0) return undefined;
    const c = text[i];
    if ((c === "{" || c === "[") && text[i + 1] === (c === "{" ? "}" : "]")) {
      i += 2;
    } else if (c === "[") {
      open.push(null);
      i += 1;
      continue;
    } else if (c === "{") {
      const keys = new Set<string>();
      open.push(keys);
      i = key(i + 1, keys);
      if (i < 0) return undefined;
      continue;
    } else if (c === '"') {
      i = string(i);
    } else {
      const word = ["true", "false", "null"].find((word) => text.startsWith(word, i));
      NUMBER.lastIndex = i;
      // A number counts only when written as JavaScript would write it.
      const token = word ?? NUMBER.exec(text)?.[0];
      i = token !== undefined && (word !== undefined || String(Number(token)) === token)
        ? i + token.length
        : -1;
    }
    if (i < 0) return undefined;
    // After a value: a comma and the next member, or the end of containers.
    while (true) {
      const container = open.at(-1);
      if (container === undefined) return i === end ? { start, end } : undefined;
      if (text[i] === ",") {
        i = container === null ? i + 1 : key(i + 1, container);
        if (i < 0) return undefined;
        break;
      }
      if (text[i] !== (container === null ? "]" : "}")) return undefined;
      open.pop();
      i += 1;
    }
  }
}
