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

/** Options of {@linkcode compactSpan}. */
export interface CompactSpanOptions {
  /**
   * The most values and keys to look at.
   *
   * @default {16 plus one per 64 characters}
   */
  maxTokens?: number;
}

const QUOTE = 0x22;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const U = 0x75;
/** `"`, `\`, `b`, `f`, `n`, `r`, `t`: the escapes `JSON.stringify` writes as two characters. */
const SHORT_ESCAPES = new Set([0x22, 0x5c, 0x62, 0x66, 0x6e, 0x72, 0x74]);
/** The control characters `JSON.stringify` writes as `\b`, `\t`, `\n`, `\f` and `\r`. */
const SHORT_CONTROLS = new Set([0x08, 0x09, 0x0a, 0x0c, 0x0d]);
const LOWER_HEX = /^[0-9a-f]{2}$/;
const DIGITS_ONLY = /^"[0-9]+"$/;
const NUMBER_CHARS = /[-+.0-9eE]+/y;
const JSON_SPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);

/**
 * Tells whether `text`, apart from leading and trailing whitespace, is exactly
 * `JSON.stringify(JSON.parse(text))`.
 *
 * @param text JSON text that `JSON.parse` accepts (the answer is meaningless for anything else).
 * @param options How many values and keys to look at before giving up.
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
  options: CompactSpanOptions = {},
): CompactSpan | undefined {
  let start = 0;
  let end = text.length;
  while (start < end && JSON_SPACE.has(text.charCodeAt(start))) start++;
  while (end > start && JSON_SPACE.has(text.charCodeAt(end - 1))) end--;
  // A lone surrogate would come out escaped.
  if (start === end || !text.isWellFormed()) return undefined;
  const budget = options.maxTokens ?? 16 + ((end - start) >> 6);
  return new Scanner(text, end, budget).value(start) === end ? { start, end } : undefined;
}

/** Walks one value after another without recursion, so that depth costs no stack. */
class Scanner {
  readonly #text: string;
  readonly #end: number;
  /** The next `"` and `\` at or after the last search (`Infinity`: none left). */
  #quote = -1;
  #escape = -1;
  /** How many more values and keys to look at before giving up. */
  #budget: number;

  constructor(text: string, end: number, budget: number) {
    this.#text = text;
    this.#end = end;
    this.#budget = budget;
  }

  /** Scans the value at `at`; returns the index after it, or -1 when it is not compact. */
  value(at: number): number {
    const text = this.#text;
    // The open containers: the keys seen so far for an object, `null` for an array.
    const open: (Set<string> | null)[] = [];
    let i = at;
    while (true) {
      // A value starts at i.
      if (--this.#budget < 0) return -1;
      const c = text.charCodeAt(i);
      if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
        const close = c === OPEN_OBJECT ? CLOSE_OBJECT : CLOSE_ARRAY;
        if (text.charCodeAt(i + 1) === close) {
          i += 2;
        } else if (c === OPEN_ARRAY) {
          open.push(null);
          i += 1;
          continue;
        } else {
          const keys = new Set<string>();
          open.push(keys);
          i = this.#key(i + 1, keys);
          if (i < 0) return -1;
          continue;
        }
      } else if (c === QUOTE) {
        i = this.#string(i);
      } else if (text.startsWith("true", i)) {
        i += 4;
      } else if (text.startsWith("false", i)) {
        i += 5;
      } else if (text.startsWith("null", i)) {
        i += 4;
      } else {
        i = this.#number(i);
      }
      if (i < 0) return -1;
      // After a value: a comma and the next member, or the end of containers.
      while (true) {
        const container = open.at(-1);
        if (container === undefined) return i;
        const next = text.charCodeAt(i);
        if (next === COMMA) {
          i = container === null ? i + 1 : this.#key(i + 1, container);
          if (i < 0) return -1;
          break;
        }
        if (next !== (container === null ? CLOSE_ARRAY : CLOSE_OBJECT)) return -1;
        open.pop();
        i += 1;
      }
    }
  }

  /** A key and its colon; returns the index of the value, or -1. */
  #key(at: number, keys: Set<string>): number {
    if (this.#text.charCodeAt(at) !== QUOTE) return -1;
    const after = this.#string(at);
    if (after < 0 || this.#text.charCodeAt(after) !== COLON) return -1;
    const key = this.#text.slice(at, after);
    // Duplicates keep only the last value; integer keys are listed first, whatever their place.
    if (keys.has(key) || DIGITS_ONLY.test(key) || --this.#budget < 0) return -1;
    keys.add(key);
    return after + 1;
  }

  /** A string starting with the `"` at `at`; returns the index after its closing quote, or -1. */
  #string(at: number): number {
    const text = this.#text;
    let i = at + 1;
    while (true) {
      if (this.#quote < i) this.#quote = find(text, '"', i);
      if (this.#quote >= this.#end) return -1;
      if (this.#escape < i) this.#escape = find(text, "\\", i);
      if (this.#escape > this.#quote) return this.#quote + 1;
      const e = this.#escape;
      const kind = text.charCodeAt(e + 1);
      if (SHORT_ESCAPES.has(kind)) {
        i = e + 2;
      } else if (kind === U && text.startsWith("00", e + 2) && controlEscape(text, e + 4)) {
        i = e + 6;
      } else {
        return -1;
      }
    }
  }

  /** A number; returns the index after it, or -1 when it is not written as JavaScript would. */
  #number(at: number): number {
    NUMBER_CHARS.lastIndex = at;
    const match = NUMBER_CHARS.exec(this.#text);
    if (match === null) return -1;
    const token = match[0];
    return String(Number(token)) === token ? at + token.length : -1;
  }
}

/** Whether `\u00XX` (XX at `at`) is how `JSON.stringify` writes that character. */
function controlEscape(text: string, at: number): boolean {
  const hex = text.slice(at, at + 2);
  return LOWER_HEX.test(hex) && parseInt(hex, 16) < 0x20 && !SHORT_CONTROLS.has(parseInt(hex, 16));
}

function find(text: string, char: string, from: number): number {
  const at = text.indexOf(char, from);
  return at === -1 ? Infinity : at;
}
