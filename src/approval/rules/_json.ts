/**
 * Parsing the rules file's text as strict JSON, with a line and column when it is broken. The
 * JSONC parser, which reports offsets, is imported only when `JSON.parse` has failed. Problems name
 * what kind of thing was wrong, never the text itself.
 *
 * @module
 */

import type { ParseError } from "jsonc-parser";

/** The outcome of parsing: the value, or one problem (`invalid JSON: ... at 4:2`). */
export type ParsedJson =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly problem: string };

// jsonc-parser's ParseErrorCode values (a const enum in its types).
const REASONS: Readonly<Record<number, string>> = {
  1: "unexpected character",
  2: "invalid number",
  3: "expected a property name in double quotes",
  4: "expected a value",
  5: 'expected ":"',
  6: 'expected ","',
  7: 'expected "}"',
  8: 'expected "]"',
  9: "unexpected text after the end",
  10: "comments are not allowed",
  11: "unterminated comment",
  12: "unterminated string",
  13: "invalid number",
  14: 'invalid "\\u" escape in a string',
  15: "invalid escape sequence in a string",
  16: "control character in a string",
};

/**
 * Parses strict JSON (no comments, no trailing commas).
 *
 * @param text The file's text, byte order mark removed.
 * @returns The value, or the first syntax problem with its 1-based line and column (UTF-16 units).
 */
export async function parseJson(text: string): Promise<ParsedJson> {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    // Broken: locate the problem below.
  }
  if (text.trim() === "") return { ok: false, problem: "empty file" };
  const { parse } = await import("jsonc-parser");
  const errors: ParseError[] = [];
  try {
    parse(text, errors, { disallowComments: true, allowTrailingComma: false });
  } catch {
    return { ok: false, problem: "invalid JSON" };
  }
  const first = errors[0];
  if (first === undefined) return { ok: false, problem: "invalid JSON" };
  const { line, column } = positionOf(text, first.offset);
  const reason = REASONS[first.error] ?? "syntax error";
  return { ok: false, problem: `invalid JSON: ${reason} at ${line}:${column}` };
}

function positionOf(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  const end = Math.min(offset, text.length);
  for (let i = 0; i < end; i++) {
    const code = text.charCodeAt(i);
    if (code === 10 || (code === 13 && text.charCodeAt(i + 1) !== 10)) {
      line++;
      start = i + 1;
    }
  }
  return { line, column: end - start + 1 };
}
