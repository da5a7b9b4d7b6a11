/**
 * Parsing the rules file's text as strict JSON, with a line and column when it is broken. The
 * JSONC parser, which reports offsets, is imported only when `JSON.parse` has failed. Problems name
 * what kind of thing was wrong, never the text itself.
 *
 * @module
 */

import type { ParseError } from "jsonc-parser";
import type { MessageKey } from "../../locale/en_us.ts";
import { type Phrase, phrase } from "../../locale/messages.ts";

/** The outcome of parsing: the value, or one problem (`invalid JSON: ... at 4:2`). */
export type ParsedJson =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly problem: Phrase };

// jsonc-parser's ParseErrorCode values (a const enum in its types).
const REASONS: Readonly<Record<number, MessageKey>> = {
  1: "rules_file.json.unexpected_character",
  2: "rules_file.json.invalid_number",
  3: "rules_file.json.property_name",
  4: "rules_file.json.value",
  5: "rules_file.json.colon",
  6: "rules_file.json.comma",
  7: "rules_file.json.close_brace",
  8: "rules_file.json.close_bracket",
  9: "rules_file.json.trailing_text",
  10: "rules_file.json.comment",
  11: "rules_file.json.unterminated_comment",
  12: "rules_file.json.unterminated_string",
  13: "rules_file.json.invalid_number",
  14: "rules_file.json.unicode_escape",
  15: "rules_file.json.escape",
  16: "rules_file.json.control_character",
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
  if (text.trim() === "") return { ok: false, problem: phrase("rules_file.empty") };
  const { parse } = await import("jsonc-parser");
  const errors: ParseError[] = [];
  try {
    parse(text, errors, { disallowComments: true, allowTrailingComma: false });
  } catch {
    return { ok: false, problem: phrase("rules_file.invalid_json") };
  }
  const first = errors[0];
  if (first === undefined) return { ok: false, problem: phrase("rules_file.invalid_json") };
  const { line, column } = positionOf(text, first.offset);
  const reason = phrase(REASONS[first.error] ?? "rules_file.json.syntax");
  return { ok: false, problem: phrase("rules_file.invalid_json_at", { reason, line, column }) };
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
