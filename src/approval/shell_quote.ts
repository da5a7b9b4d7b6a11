/**
 * Showing untrusted text to a person: an argv quoted the way a POSIX shell would need it (only
 * shown, never given to a shell), and control characters (which could move the cursor, rewrite the
 * screen or hide text) and bidirectional overrides shown as escapes, never sent to a terminal.
 *
 * @module
 */

const SAFE = /^[A-Za-z0-9_\-.,/:=@%+]+$/;
/** C0 and C1 controls, DEL, and the bidirectional embedding, override and isolate characters. */
// deno-lint-ignore no-control-regex -- finding control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
const ANSI_C: Record<string, string> = { "\n": "\\n", "\t": "\\t", "\r": "\\r", "\\": "\\\\" };

function hex(char: string): string {
  return `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`;
}

/**
 * Quotes one argument for reading: left bare when it is plainly safe, else single-quoted.
 *
 * @param arg The argument.
 * @returns The quoted text.
 * @example Quote an argument with a space
 * ```ts
 * import { shellQuote } from "./shell_quote.ts";
 * console.assert(shellQuote("a b") === "'a b'");
 * console.assert(shellQuote("it's") === "'it'\\''s'");
 * ```
 */
export function shellQuote(arg: string): string {
  if (SAFE.test(arg)) return arg;
  return `'${arg.replaceAll("'", `'\\''`)}'`;
}

/**
 * Quotes a whole argv for reading, arguments joined by spaces.
 *
 * @param argv The program and its arguments.
 * @returns One line.
 */
export function quoteArgv(argv: readonly string[]): string {
  return argv.map(shellQuote).join(" ");
}

/**
 * Replaces control characters with `\uXXXX` text, keeping newlines and tabs.
 *
 * @param text Text shown over one or more lines.
 * @returns Text safe to write to a terminal.
 */
export function visibleLines(text: string): string {
  return text.replace(CONTROL, (char) => char === "\n" || char === "\t" ? char : hex(char));
}

/**
 * One line of a table's cell: whitespace runs (newlines too) become one space, and control
 * characters are shown as `\uXXXX`.
 *
 * @param text A cell's text.
 * @returns The text on one line, safe to write to a terminal.
 */
export function cellText(text: string): string {
  return visibleLines(text.replace(/\s+/g, " "));
}

/**
 * Quotes one argument with {@linkcode shellQuote}, or ANSI-C quoted (`$'a\nb'`) when it holds
 * control characters, so what is shown is exact and nothing reaches the terminal raw.
 *
 * @param arg The argument.
 * @returns The quoted text.
 */
export function displayArg(arg: string): string {
  if (!arg.match(CONTROL)) return shellQuote(arg);
  const body = arg.replace(/[\\']/g, (c) => c === "'" ? "\\'" : "\\\\");
  return `$'${body.replace(CONTROL, (c) => ANSI_C[c] ?? hex(c))}'`;
}
