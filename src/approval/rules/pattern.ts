/**
 * Rule patterns: a glob over the preview's compact JSON.
 *
 * @module
 */

import { codePoints, compilePattern, matchCompiled } from "./_pattern.ts";

/**
 * Whether a rule pattern matches a text. Anchored at both ends; `*` (and `**`, the same thing)
 * matches any run of characters, including `/` and `"`, and the empty run; `?` matches exactly one
 * Unicode character (a code point, not a UTF-16 unit or a byte); every other character is literal,
 * `{}[],` and regular-expression metacharacters included. There are no escapes. Cost is at most
 * pattern length × text length.
 *
 * @param pattern The pattern.
 * @param text The text, usually a preview's compact JSON.
 * @returns True when the whole text matches the whole pattern.
 * @throws Never.
 * @example Anchored, with `*` crossing quotes and slashes
 * ```ts
 * import { matchPattern } from "./pattern.ts";
 * console.assert(matchPattern("cargo*", "cargo test"));
 * console.assert(!matchPattern("cargo", "cargo test"));
 * console.assert(matchPattern('**"target":"mac"**', '{"mode":"command","body":"ls","cwd":"/w","target":"mac"}'));
 * console.assert(matchPattern("a?c", "aéc"));
 * ```
 */
export function matchPattern(pattern: string, text: string): boolean {
  return matchCompiled(compilePattern(pattern), codePoints(text));
}
