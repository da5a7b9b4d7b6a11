/**
 * JSONC to JSON without a parser: comments become a space and trailing commas go, with strings
 * left untouched. A fast path only: whatever it cannot turn into JSON, `JSON.parse` rejects, and the
 * JSONC parser (a few milliseconds to load) takes over and says where the problem is.
 *
 * @module
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const SLASH = 0x2f;
const STAR = 0x2a;
const COMMA = 0x2c;
/** After these, a comma does not follow a value, so it is not a trailing comma. */
const NOT_VALUE_END = new Set([0x5b, 0x7b, 0x2c, 0x3a]); // [ { , :
const CLOSERS = new Set([0x5d, 0x7d]); // ] }
const SPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);

/**
 * Removes comments and trailing commas from JSONC text.
 *
 * @param text The text, without a byte order mark.
 * @returns Text for `JSON.parse` (spaces where comments were), or `undefined` when a string or a
 * comment is not closed.
 *
 * @example Comments and a trailing comma
 * ```ts
 * import { stripJsonc } from "./strip_jsonc.ts";
 * const text = '{"a": [1, 2,], // two\n "b": "//x" /* kept as a string *\/}';
 * console.assert(JSON.stringify(JSON.parse(stripJsonc(text)!)) === '{"a":[1,2],"b":"//x"}');
 * ```
 */
export function stripJsonc(text: string): string | undefined {
  // Spans to replace with a space: comments, and commas found to be trailing.
  const blanks: [from: number, to: number][] = [];
  // The last character that is not space or comment, and a comma that may turn out trailing.
  let previous = -1;
  let comma = -1;
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (SPACE.has(c)) {
      i++;
      continue;
    }
    if (c === SLASH && text.charCodeAt(i + 1) === SLASH) {
      const newline = text.slice(i).search(/[\n\r]/);
      const end = newline === -1 ? text.length : i + newline;
      blanks.push([i, end]);
      i = end;
      continue;
    }
    if (c === SLASH && text.charCodeAt(i + 1) === STAR) {
      const close = text.indexOf("*/", i + 2);
      if (close === -1) return undefined;
      blanks.push([i, close + 2]);
      i = close + 2;
      continue;
    }
    if (comma !== -1 && CLOSERS.has(c)) blanks.push([comma, comma + 1]);
    comma = c === COMMA && previous !== -1 && !NOT_VALUE_END.has(previous) ? i : -1;
    previous = c;
    if (c === QUOTE) {
      i = stringEnd(text, i);
      if (i === -1) return undefined;
      continue;
    }
    i++;
  }
  if (blanks.length === 0) return text;
  blanks.sort((a, b) => a[0] - b[0]);
  const parts: string[] = [];
  let copied = 0;
  for (const [from, to] of blanks) {
    parts.push(text.slice(copied, from), " ");
    copied = to;
  }
  parts.push(text.slice(copied));
  return parts.join("");
}

/** The index after the string that opens at `at`, or -1 when it is not closed. */
function stringEnd(text: string, at: number): number {
  let from = at + 1;
  while (true) {
    const quote = text.indexOf('"', from);
    if (quote === -1) return -1;
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote + 1;
    from = quote + 1;
  }
}
