/**
 * Which spawn command lines are simple enough for a glob allow rule: one command with its
 * arguments, no shell control syntax. For anything else only an exact allow rule applies.
 *
 * @module
 */

/**
 * Control syntax and expansions: `;` `&` `|` `<` `>` `(` `)` `` ` `` `$` `\`, and control
 * characters (newline and carriage return included).
 */
// deno-lint-ignore no-control-regex -- control characters are what is looked for
const CONTROL = /[;&|<>()`$\\\u0000-\u001f\u007f]/;

/** Where a command line is cut into the pieces a deny glob is also tried on. */
// deno-lint-ignore no-control-regex -- control characters are what is looked for
const SEPARATORS = /[;&|<>(){}`\u0000-\u001f\u007f]|\$\(/;

/**
 * Whether a command line is a simple command: no control syntax, quoted or not (a quoted `;` counts
 * too: telling quotes apart would take a shell parser, and erring this way only means asking).
 *
 * @param body The command line.
 * @returns True when a glob allow rule may apply to it.
 * @throws Never.
 * @example
 * ```ts
 * import { isSimpleCommand } from "./simple_command.ts";
 * console.assert(isSimpleCommand("cargo test --release"));
 * console.assert(!isSimpleCommand("cargo test; rm -rf ~"));
 * console.assert(!isSimpleCommand("cargo test $(cat x)"));
 * ```
 */
export function isSimpleCommand(body: string): boolean {
  return !CONTROL.test(body);
}

/**
 * The pieces of a command line between control operators, trimmed, for deny and ask globs: a deny
 * glob that matches the whole line or any piece applies (`rm *` denies `ls; rm -rf x`).
 *
 * @param body The command line.
 * @returns The non-empty pieces.
 * @throws Never.
 */
export function commandPieces(body: string): string[] {
  return body.split(SEPARATORS).map((piece) => piece.trim()).filter((piece) => piece !== "");
}
