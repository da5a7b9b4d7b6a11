/**
 * Quoting an argv for a person to read, the way a POSIX shell would need it. Nothing here is ever
 * given to a shell; it is only shown.
 *
 * @module
 */

const SAFE = /^[A-Za-z0-9_\-.,/:=@%+]+$/;

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
