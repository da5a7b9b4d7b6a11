/**
 * Making untrusted text safe to draw on a terminal: control characters (which could move the cursor,
 * rewrite the screen or hide text) and bidirectional overrides are shown as escapes, never sent.
 *
 * @module
 */

import { shellQuote } from "../shell_quote.ts";

/** C0 and C1 controls, DEL, and the bidirectional embedding, override and isolate characters. */
// deno-lint-ignore no-control-regex -- finding control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
const CONTROL_ALL = new RegExp(CONTROL.source, "gu");
/** The same, but leaving newlines and tabs alone (for text shown over several lines). */
// deno-lint-ignore no-control-regex -- finding control characters is the point
const CONTROL_BUT_LINES = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/gu;

function hex(char: string): string {
  return `\\u${char.codePointAt(0)!.toString(16).padStart(4, "0")}`;
}

/**
 * Replaces control characters with `\uXXXX` text, keeping newlines and tabs.
 *
 * @param text Text shown over one or more lines.
 * @returns Text safe to write to a terminal.
 */
export function visibleLines(text: string): string {
  return text.replace(CONTROL_BUT_LINES, hex);
}

const ANSI_C: Record<string, string> = {
  "\n": "\\n",
  "\t": "\\t",
  "\r": "\\r",
  "\\": "\\\\",
  "'": "\\'",
};

/**
 * Quotes one argument for reading, as a POSIX shell would need it: bare when plainly safe,
 * single-quoted otherwise, and ANSI-C quoted (`$'a\nb'`) when it holds control characters, so
 * what is shown is exact and nothing reaches the terminal raw.
 *
 * @param arg The argument.
 * @returns The quoted text.
 */
export function displayArg(arg: string): string {
  if (!CONTROL.test(arg)) return shellQuote(arg);
  const body = arg.replace(/[\\']/g, (c) => ANSI_C[c]!).replace(
    CONTROL_ALL,
    (c) => ANSI_C[c] ?? hex(c),
  );
  return `$'${body}'`;
}

/**
 * Quotes a whole argv for reading with {@linkcode displayArg}, arguments joined by spaces.
 *
 * @param argv The program and its arguments.
 * @returns One line, safe to write to a terminal.
 */
export function displayArgv(argv: readonly string[]): string {
  return argv.map(displayArg).join(" ");
}
