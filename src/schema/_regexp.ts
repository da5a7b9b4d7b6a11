/**
 * The regular expression engine of the gate: `pattern`, `patternProperties` and `propertyNames`
 * patterns run on RE2 (the `re2js` port), whose matching takes time linear in the input, so that
 * no schema can make a call spin (`^(a+)+$` against `"aaaa…!"` is as quick as any other).
 *
 * ajv calls {@linkcode linearRegExp} in place of `new RegExp` (its `code.regExp` option), both when
 * it compiles a schema and from standalone code read back from the disk cache.
 *
 * A JSON Schema pattern (ECMA-262 syntax, as JavaScript reads it with the `u` flag) is rewritten in
 * the syntax of RE2, keeping JavaScript's meaning where the two differ: `.` and `\s` match what they
 * match in JavaScript, `\uXXXX` (surrogate pairs included), `\u{…}`, `\cX` and `\0` become
 * `\x{…}`, `[^]` and `[]` are spelled out, named groups become `(?P<name>…)`. What RE2 cannot run
 * in linear time is refused, never approximated. The text is first compiled with `RegExp`, so the
 * rewrite needs no grammar of its own beyond escapes, classes and groups.
 *
 * @module
 */

import { RE2JS } from "re2js";

/** Why a pattern cannot run on the linear-time engine. */
export type UnsupportedFeature = "backreference" | "lookahead" | "engine";

/** A pattern the linear-time engine cannot take, and why. */
export class UnsupportedPattern extends Error {
  /**
   * Describes a pattern the engine cannot take.
   *
   * @param pattern The pattern as the schema gave it.
   * @param feature What it uses that cannot run in linear time (`engine`: RE2 refused it).
   * @param detail RE2's own words, for `engine`.
   */
  constructor(
    readonly pattern: string,
    readonly feature: UnsupportedFeature,
    readonly detail?: string,
  ) {
    super(`Cannot run pattern ${JSON.stringify(pattern)} in linear time: ${detail ?? feature}`);
    this.name = "UnsupportedPattern";
  }
}

/** What JavaScript's `\s` matches (WhiteSpace and LineTerminator), as the inside of a class. */
const JS_SPACE =
  "\\t\\n\\v\\f\\r \\x{a0}\\x{1680}\\x{2000}-\\x{200a}\\x{2028}\\x{2029}\\x{202f}\\x{205f}\\x{3000}\\x{feff}";
/** What JavaScript's `.` matches without the `s` flag. */
const JS_DOT = "[^\\n\\r\\x{2028}\\x{2029}]";
const ANY = "[\\x{0}-\\x{10ffff}]";
const NOTHING = "[^\\x{0}-\\x{10ffff}]";

/** Long General_Category names (as `\p{…}` accepts them in JavaScript) → RE2's short ones. */
const CATEGORIES: ReadonlyMap<string, string> = new Map(
  ("Letter=L Cased_Letter=LC Uppercase_Letter=Lu Lowercase_Letter=Ll Titlecase_Letter=Lt " +
    "Modifier_Letter=Lm Other_Letter=Lo Mark=M Combining_Mark=M Nonspacing_Mark=Mn Spacing_Mark=Mc " +
    "Enclosing_Mark=Me Number=N Decimal_Number=Nd digit=Nd Letter_Number=Nl Other_Number=No " +
    "Punctuation=P punct=P Connector_Punctuation=Pc Dash_Punctuation=Pd Open_Punctuation=Ps " +
    "Close_Punctuation=Pe Initial_Punctuation=Pi Final_Punctuation=Pf Other_Punctuation=Po " +
    "Symbol=S Math_Symbol=Sm Currency_Symbol=Sc Modifier_Symbol=Sk Other_Symbol=So Separator=Z " +
    "Space_Separator=Zs Line_Separator=Zl Paragraph_Separator=Zp Other=C Control=Cc cntrl=Cc " +
    "Format=Cf Surrogate=Cs Private_Use=Co Unassigned=Cn").split(" ").map((pair) =>
      pair.split("=") as [string, string]
    ),
);

function hex(code: number): string {
  return `\\x{${code.toString(16)}}`;
}

/** The property named inside `\p{…}`, as RE2 names it (RE2 refuses what it does not know). */
function property(name: string): string {
  const equals = name.indexOf("=");
  if (equals >= 0) {
    const key = name.slice(0, equals);
    const value = name.slice(equals + 1);
    if (key === "General_Category" || key === "gc") return CATEGORIES.get(value) ?? value;
    // Script_Extensions (scx) is not Script: RE2 is left to refuse it, as it does.
    return key === "Script" || key === "sc" ? value : name;
  }
  return CATEGORIES.get(name) ?? name;
}

/** `\uXXXX` at `at` (the backslash), as RE2's `\x{…}` and the index after it; a pair is one. */
function unicodeEscape(text: string, at: number): [text: string, next: number] {
  if (text[at + 2] === "{") {
    const close = text.indexOf("}", at + 3);
    return [hex(parseInt(text.slice(at + 3, close), 16)), close + 1];
  }
  const code = parseInt(text.slice(at + 2, at + 6), 16);
  const low = parseInt(text.slice(at + 8, at + 12), 16);
  const pair = code >= 0xd800 && code <= 0xdbff && text.startsWith("\\u", at + 6) &&
    low >= 0xdc00 && low <= 0xdfff;
  if (pair) return [hex(0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00)), at + 12];
  return [hex(code), at + 6];
}

/** The escape at `at` (a backslash), rewritten, and the index after it. */
function escape(pattern: string, at: number, inClass: boolean): [text: string, next: number] {
  const kind = pattern[at + 1] ?? "";
  if (kind === "s") return [inClass ? JS_SPACE : `[${JS_SPACE}]`, at + 2];
  // Inside a class RE2 cannot subtract: its own \S differs only on \v and Unicode spaces.
  if (kind === "S") return [inClass ? "\\S" : `[^${JS_SPACE}]`, at + 2];
  if (kind === "b") return [inClass ? hex(8) : "\\b", at + 2];
  if (kind === "0") return [hex(0), at + 2];
  if (kind === "c") return [hex((pattern.charCodeAt(at + 2) ?? 0) % 32), at + 3];
  if (kind === "x") return [hex(parseInt(pattern.slice(at + 2, at + 4), 16)), at + 4];
  if (kind === "u") return unicodeEscape(pattern, at);
  if (kind === "p" || kind === "P") {
    const close = pattern.indexOf("}", at + 3);
    return [`\\${kind}{${property(pattern.slice(at + 3, close))}}`, close + 1];
  }
  if (/^[1-9k]$/.test(kind)) throw new UnsupportedPattern(pattern, "backreference");
  // \d \D \w \W \B \f \n \r \t \v, and escaped syntax characters: the same in RE2.
  return [`\\${kind}`, at + 2];
}

/**
 * Rewrites a JavaScript pattern (valid with the `u` flag) in RE2's syntax, with the same meaning;
 * throws {@linkcode UnsupportedPattern} for a backreference or a lookahead, which no linear-time
 * engine can run. Lookbehinds are kept: the engine runs those without captures in linear time.
 */
function toRe2Syntax(pattern: string): string {
  let out = "";
  let inClass = false;
  for (let i = 0; i < pattern.length;) {
    const c = pattern[i]!;
    const at = (prefix: string) => pattern.startsWith(prefix, i);
    let [text, next] = [c, i + 1];
    if (c === "\\") [text, next] = escape(pattern, i, inClass);
    else if (inClass) {
      // A "[" inside a class is a literal in JavaScript; RE2 would read "[:" as a POSIX class.
      if (c === "[") text = "\\[";
      inClass = c !== "]";
    } else if (at("[^]")) [text, next] = [ANY, i + 3];
    else if (at("[]")) [text, next] = [NOTHING, i + 2];
    else if (c === "[") {
      inClass = true;
      if (at("[^")) [text, next] = ["[^", i + 2];
    } else if (c === ".") text = JS_DOT;
    else if (at("(?=") || at("(?!")) throw new UnsupportedPattern(pattern, "lookahead");
    else if (at("(?<") && !at("(?<=") && !at("(?<!")) [text, next] = ["(?P<", i + 3];
    out += text;
    i = next;
  }
  return out;
}

/**
 * What ajv needs of a compiled pattern: whether it matches somewhere in a text (unanchored, as
 * `RegExp#test`), and the pattern as a regular expression literal (ajv tells patterns apart by it).
 */
export type LinearPattern = { test(text: string): boolean; toString(): string };

/** Patterns compiled in this process: validators built again (a reloaded roster) share them. */
const compiled = new Map<string, LinearPattern>();
const MAX_KEPT = 512;

/**
 * Compiles a pattern for linear-time matching.
 *
 * @param pattern The pattern, in ECMA-262 syntax (as JSON Schema writes it).
 * @param flags ajv's flags: `"u"`.
 * @returns The compiled pattern.
 * @throws {SyntaxError} When JavaScript itself refuses the pattern.
 * @throws {UnsupportedPattern} When it uses what cannot run in linear time (a backreference, a
 * lookahead) or what RE2 does not know (its words are in `detail`).
 * @example No catastrophic backtracking
 * ```ts
 * import { linearRegExp } from "./_regexp.ts";
 * const pattern = linearRegExp("^(a+)+$", "u");
 * console.assert(pattern.test("a".repeat(43) + "!") === false);
 * console.assert(pattern.test("aaa") === true);
 * console.assert(linearRegExp("(?<year>\\d{4})", "u").test("2024"));
 * ```
 */
export function linearRegExp(pattern: string, flags: string): LinearPattern {
  const key = `${flags}/${pattern}`;
  const known = compiled.get(key);
  if (known !== undefined) return known;
  // JavaScript's own verdict first: an invalid pattern is refused in its words, as ever.
  new RegExp(pattern, flags);
  let re2: RE2JS;
  try {
    re2 = RE2JS.compile(toRe2Syntax(pattern), RE2JS.LOOKBEHINDS);
  } catch (error) {
    if (error instanceof UnsupportedPattern) throw error;
    throw new UnsupportedPattern(
      pattern,
      "engine",
      error instanceof Error ? error.message : String(error),
    );
  }
  const literal = `/${pattern}/${flags}`;
  const made = { test: (text: string) => re2.test(text), toString: () => literal };
  if (compiled.size >= MAX_KEPT) compiled.clear();
  compiled.set(key, made);
  return made;
}
