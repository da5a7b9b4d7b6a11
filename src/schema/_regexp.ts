/**
 * The regular expression engine of the gate: `pattern`, `patternProperties` and `propertyNames`
 * patterns run on RE2 (the `re2js` port), whose matching takes time linear in the input, so that
 * no schema can make a call spin (`^(a+)+$` against `"aaaa…!"` is as quick as any other).
 *
 * ajv calls {@linkcode linearRegExp} in place of `new RegExp` (its `code.regExp` option), both when
 * it compiles a schema and from standalone code read back from the disk cache, which reaches it by
 * the name in {@linkcode linearRegExp.code} (see `_runtime.ts`).
 *
 * @module
 */

import { RE2JS } from "re2js";
import { REGEXP_MODULE } from "./_key.ts";
import { toRe2Syntax, UnsupportedPattern } from "./_regexp_syntax.ts";

/** What ajv needs of a compiled pattern. */
export interface LinearPattern {
  /** Whether the pattern matches somewhere in `text` (unanchored, as `RegExp#test`). */
  test(text: string): boolean;
  /** The pattern as a regular expression literal: ajv tells patterns apart by it. */
  toString(): string;
}

/** The engine as ajv's `code.regExp` option takes it: a function, and how standalone code names it. */
export interface LinearRegExpEngine {
  (pattern: string, flags: string): LinearPattern;
  /** The expression standalone code evaluates to get the engine. */
  code: string;
}

/** Patterns compiled in this process: validators built again (a reloaded roster) share them. */
const compiled = new Map<string, LinearPattern>();
const MAX_KEPT = 512;

function compile(pattern: string, flags: string): LinearPattern {
  const key = `${flags}/${pattern}`;
  const known = compiled.get(key);
  if (known !== undefined) return known;
  const made = build(pattern, flags);
  if (compiled.size >= MAX_KEPT) compiled.clear();
  compiled.set(key, made);
  return made;
}

function build(pattern: string, flags: string): LinearPattern {
  // JavaScript's own verdict first: an invalid pattern is refused in its words, as ever.
  new RegExp(pattern, flags);
  const translated = toRe2Syntax(pattern);
  let re2: RE2JS;
  try {
    re2 = RE2JS.compile(translated, RE2JS.LOOKBEHINDS);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new UnsupportedPattern(pattern, "engine", detail);
  }
  const literal = `/${pattern}/${flags}`;
  return { test: (text) => re2.test(text), toString: () => literal };
}

/**
 * Compiles a pattern for linear-time matching.
 *
 * @param pattern The pattern, in ECMA-262 syntax (as JSON Schema writes it).
 * @param flags ajv's flags: `"u"`.
 * @returns The compiled pattern.
 * @throws {SyntaxError} When JavaScript itself refuses the pattern.
 * @throws {UnsupportedPattern} When it uses what cannot run in linear time (a backreference, a
 * lookahead) or what RE2 does not know (its words are in `detail`).
 *
 * @example No catastrophic backtracking
 * ```ts
 * import { linearRegExp } from "./_regexp.ts";
 * const pattern = linearRegExp("^(a+)+$", "u");
 * console.assert(pattern.test("a".repeat(43) + "!") === false);
 * console.assert(pattern.test("aaa") === true);
 * ```
 */
export const linearRegExp: LinearRegExpEngine = Object.assign(compile, {
  code: `require(${JSON.stringify(REGEXP_MODULE)}).linearRegExp`,
});

export { UnsupportedPattern };
