/**
 * Matching the text of remembered rules. Globs are always applied to one field (one argument, the
 * cwd, a spawn body, a string in the input), never to text spanning fields: `*` matches any run of
 * characters within the field (the empty run too), `?` exactly one Unicode character, and `\`
 * makes the character after it literal (`\*`, `\?`, `\\`). Everything else is literal. Anchored at
 * both ends; the cost is at most pattern length × text length (no regular expressions, no
 * recursion).
 *
 * Spawn command lines are simple enough for a glob allow rule when they are one command with its
 * arguments, no shell control syntax; for anything else only an exact allow rule applies.
 *
 * @module
 */

/** `*` in a compiled glob (runs of `*` are collapsed). */
const STAR = -1;
/** `?` in a compiled glob. */
const ONE = -2;

/**
 * A glob as code points, with `*` and `?` as negative markers; `undefined` when it ends with a
 * lone `\` (nothing to escape).
 */
function compile(glob: string): number[] | undefined {
  const points = Array.from(glob, (char) => char.codePointAt(0)!);
  const out: number[] = [];
  for (let i = 0; i < points.length; i++) {
    const point = points[i]!;
    if (point === 0x5c && i + 1 >= points.length) return undefined;
    if (point === 0x5c) out.push(points[++i]!);
    else if (point !== 0x2a) out.push(point === 0x3f ? ONE : point);
    else if (out.at(-1) !== STAR) out.push(STAR);
  }
  return out;
}

const cache = new Map<string, number[] | undefined>();
const CACHE_LIMIT = 4096;

/**
 * Whether a glob matches the whole of a text (compiled globs are cached). Greedy with one
 * backtrack point: on a mismatch, the last `*` seen takes one more character and matching resumes
 * after it. Earlier stars never need to be revisited.
 *
 * @param glob The glob: `*` any run within the text, `?` one character, `\` escapes.
 * @param text The field's text.
 * @returns True when the whole text matches; false for a malformed glob (a trailing lone `\`).
 * @throws Never.
 * @example Within one field
 * ```ts
 * import { matchGlob } from "./glob.ts";
 * console.assert(matchGlob("cargo *", "cargo test"));
 * console.assert(!matchGlob("cargo", "cargo test"));
 * console.assert(matchGlob("a?c", "aéc") && matchGlob("a\\*", "a*") && !matchGlob("a\\", "a"));
 * ```
 */
export function matchGlob(glob: string, text: string): boolean {
  if (!cache.has(glob)) {
    if (cache.size >= CACHE_LIMIT) cache.clear();
    cache.set(glob, compile(glob));
  }
  const pattern = cache.get(glob);
  if (pattern === undefined) return false;
  const points = Array.from(text, (char) => char.codePointAt(0)!);
  let [pi, ti, starAt, resumeAt] = [0, 0, -1, 0];
  while (ti < points.length) {
    const token = pattern[pi];
    if (token === STAR) [starAt, resumeAt] = [pi++, ti];
    else if (token !== undefined && (token === ONE || token === points[ti])) {
      [pi, ti] = [pi + 1, ti + 1];
    } else if (starAt < 0) return false;
    else [pi, ti] = [starAt + 1, ++resumeAt];
  }
  while (pattern[pi] === STAR) pi++;
  return pi === pattern.length;
}

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
 * import { isSimpleCommand } from "./glob.ts";
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
