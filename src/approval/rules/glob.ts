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

/** A glob ready to match: code points, with `*` and `?` as negative markers. */
export type CompiledGlob = Int32Array;

/**
 * Compiles a glob.
 *
 * @param glob The glob as written.
 * @returns Its compiled form, or `undefined` when it ends with a lone `\` (nothing to escape).
 * @throws Never.
 * @example A literal star
 * ```ts
 * import { compileGlob } from "./glob.ts";
 * console.assert(compileGlob("a\\*")?.length === 2 && compileGlob("a\\") === undefined);
 * ```
 */
export function compileGlob(glob: string): CompiledGlob | undefined {
  const out = new Int32Array(glob.length);
  let n = 0;
  for (let i = 0; i < glob.length; i++) {
    let point = glob.codePointAt(i) as number;
    if (point > 0xffff) i++;
    if (point === 0x5c) {
      if (i + 1 >= glob.length) return undefined;
      point = glob.codePointAt(++i) as number;
      if (point > 0xffff) i++;
      out[n++] = point;
    } else if (point === 0x2a) {
      if (n === 0 || out[n - 1] !== STAR) out[n++] = STAR;
    } else {
      out[n++] = point === 0x3f ? ONE : point;
    }
  }
  return out.subarray(0, n);
}

/**
 * Whether a compiled glob matches the whole of a text.
 *
 * Greedy with one backtrack point: on a mismatch, the last `*` seen takes one more character and
 * matching resumes after it. Earlier stars never need to be revisited.
 *
 * @param glob From {@linkcode compileGlob}.
 * @param text The field's text.
 * @returns True when the whole text matches.
 * @throws Never.
 */
function matchCompiledGlob(glob: CompiledGlob, text: string): boolean {
  const p = glob.length;
  let pi = 0;
  let ti = 0;
  let starAt = -1;
  let resumeAt = 0;
  while (ti < text.length) {
    const point = text.codePointAt(ti) as number;
    const width = point > 0xffff ? 2 : 1;
    const token = pi < p ? glob[pi] as number : undefined;
    if (token === STAR) {
      starAt = pi++;
      resumeAt = ti;
    } else if (token !== undefined && (token === ONE || token === point)) {
      pi++;
      ti += width;
    } else if (starAt >= 0) {
      pi = starAt + 1;
      const skipped = text.codePointAt(resumeAt) as number;
      resumeAt += skipped > 0xffff ? 2 : 1;
      ti = resumeAt;
    } else {
      return false;
    }
  }
  while (pi < p && glob[pi] === STAR) pi++;
  return pi === p;
}

const cache = new Map<string, CompiledGlob | undefined>();
const CACHE_LIMIT = 4096;

/**
 * Whether a glob matches the whole of a text (compiled globs are cached).
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
 * console.assert(matchGlob("a?c", "aéc"));
 * ```
 */
export function matchGlob(glob: string, text: string): boolean {
  let compiled = cache.get(glob);
  if (compiled === undefined && !cache.has(glob)) {
    if (cache.size >= CACHE_LIMIT) cache.clear();
    compiled = compileGlob(glob);
    cache.set(glob, compiled);
  }
  return compiled !== undefined && matchCompiledGlob(compiled, text);
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
