/**
 * Cutting long text for the prompt: the first lines up to a byte budget, and a count of the rest.
 *
 * @module
 */

import type { Locale } from "../../locale/locale.ts";
import { type Messages, messages, plural } from "../../locale/messages.ts";

/** What {@linkcode cutText} kept and what it left out. */
export interface Cut {
  /** The lines kept, joined by `\n`; a line cut part-way ends with `…`. */
  readonly shown: string;
  /** Lines not shown in full (a line cut part-way counts). */
  readonly cutLines: number;
  /** UTF-8 bytes not shown (newlines between cut lines included). */
  readonly cutBytes: number;
}

const ENCODER = new TextEncoder();

function byteLength(text: string): number {
  return ENCODER.encode(text).length;
}

/** The longest prefix of `line` whose UTF-8 size fits `budget`, cut between code points. */
function prefixWithin(line: string, budget: number): string {
  let used = 0;
  let end = 0;
  for (const char of line) {
    const size = byteLength(char);
    if (used + size > budget) break;
    used += size;
    end += char.length;
  }
  return line.slice(0, end);
}

/**
 * Keeps the first `maxLines` lines of a text, within `maxBytes` UTF-8 bytes.
 *
 * @param text The text.
 * @param maxLines At most this many lines are kept.
 * @param maxBytes At most this many bytes are kept (a single long line is cut part-way).
 * @returns What was kept and how much was not.
 */
export function cutText(text: string, maxLines: number, maxBytes: number): Cut {
  const lines = text.split("\n");
  const kept: string[] = [];
  let used = 0;
  let partial = "";
  for (const line of lines) {
    if (kept.length >= maxLines) break;
    const separator = kept.length > 0 ? 1 : 0;
    const size = byteLength(line) + separator;
    if (used + size > maxBytes) {
      partial = prefixWithin(line, Math.max(0, maxBytes - used - separator));
      break;
    }
    kept.push(line);
    used += size;
  }
  if (kept.length === lines.length) return { shown: text, cutLines: 0, cutBytes: 0 };
  const shownParts = partial === "" ? kept : [...kept, `${partial}…`];
  const keptBytes = used + (partial === "" ? 0 : byteLength(partial) + (kept.length > 0 ? 1 : 0));
  return {
    shown: shownParts.join("\n"),
    cutLines: lines.length - kept.length,
    cutBytes: byteLength(text) - keptBytes,
  };
}

/**
 * Words what {@linkcode cutText} left out: `… 1,234 more lines (56,789 bytes)`.
 *
 * @param cut The cut.
 * @returns The note, or `""` when nothing was left out.
 */
export function cutNote(cut: Cut, words: Messages = messages("en-US")): string {
  if (cut.cutLines === 0) return "";
  const { locale, t } = words;
  return t("prompt.cut", {
    lines: count(cut.cutLines, locale),
    line_word: plural(locale, cut.cutLines, t("count.lines")),
    bytes: count(cut.cutBytes, locale),
    byte_word: plural(locale, cut.cutBytes, t("count.bytes")),
  });
}

function count(n: number, locale: Locale): string {
  return n.toLocaleString(locale);
}
