/**
 * Reading JSON text written by people (manifests, `spawn.json`, `sandbox.json`, `rules.json`, a
 * call's input). One `jsonc-parser` pass (imported lazily) gives the value, where every key and
 * value starts, each key given twice, and what exactly is wrong with a broken text. Strict JSON
 * whose keys hold no escape, the common case, is read by `JSON.parse` alone, as long as it holds
 * as many keys as the text says: V8's `JSON.parse` can misread an escaped key (after
 * `{"a": 0, "\\": 0}`, the `"\u0061"` of `{"a": 1, "\u0061": 2}` comes out as `"\\"`), so text with
 * one is always read by the pass.
 *
 * Positions are 1-based; columns count UTF-16 code units, as editors do. Syntax errors describe
 * what was unexpected by kind ("string", "number") rather than quoting it, so a secret pasted into
 * a broken file is not echoed back.
 *
 * @module
 */

import type { ParseError } from "jsonc-parser";
import type { MessageKey } from "./locale/en_us.ts";
import { type Phrase, phrase } from "./locale/messages.ts";
import { attempt } from "./quietly.ts";

type Jsonc = typeof import("jsonc-parser");

/** One step of a path into the document: a property name or an array index. */
export type Segment = string | number;

/** What a problem is about: the value at `path`, or the key naming it. */
export type Pointer = { readonly path: readonly Segment[]; readonly at: "key" | "value" };

/** A 1-based position in the text. */
export type Position = { readonly line: number; readonly column: number };

/** Finds where a pointer's node starts. */
export type Locate = (pointer: Pointer) => Position | undefined;

/** A key given again in an object that already has it. */
export interface DuplicateKey {
  /** The path of the object holding the key: property names and array indexes. */
  readonly path: readonly Segment[];
  /** The key, decoded (`"\u0061"` and `"a"` are the same key). */
  readonly key: string;
  /** Where this (second or later) occurrence of the key starts: its opening quote. */
  readonly position: Position;
  /** Where the first occurrence starts. */
  readonly first: Position;
}

/** The outcome of reading JSONC text. */
export type ParsedText =
  | { readonly ok: true; readonly value: unknown; readonly duplicates: readonly DuplicateKey[] }
  | { readonly ok: false; readonly position?: Position; readonly reason: Phrase };

const JSONC = { allowTrailingComma: true, disallowComments: false } as const;
const STRICT = { allowTrailingComma: false, disallowComments: true } as const;

// ParseErrorCode and SyntaxKind values (const enums in jsonc-parser's types). Punctuation is
// shown as written; words are phrases.
const END = phrase("json.end");
const END_OF_INPUT = phrase("json.end_input");
/** ParseErrorCode.EndOfFileExpected: text after the value; its end is named as the text is. */
const END_EXPECTED = 9;
const NESTED = phrase("json.nested");
/** What a ParseErrorCode from 3 on says was expected. */
const EXPECTED = [phrase("json.property_name"), phrase("json.value"), '":"', '","', '"}"', '"]"'];
/** The ParseErrorCodes of a bad token, and their words. */
const SCAN_ERRORS: Readonly<Record<number, MessageKey>> = {
  ...{ 2: "json.invalid_number", 10: "json.comment", 11: "json.unterminated_comment" },
  ...{ 12: "json.unterminated_string", 13: "json.invalid_number", 14: "json.bad_unicode" },
  ...{ 15: "json.bad_escape", 16: "json.control" },
};
/** SyntaxKinds 1 to 9, as written. */
const PUNCTUATION = ["{", "}", "[", "]", ",", ":", "null", "true", "false"];

/** A key (a string followed by `:`) holding an escape: `JSON.parse` may misread it. */
const ESCAPED_KEY = /\x22(?:[^\x22\\]|\\.)*\\.(?:[^\x22\\]|\\.)*\x22\s*:/;
/**
 * Whether `JSON.parse` read a text right: no key holds an escape (no backslash at all is the quick
 * answer) and none is given twice (`JSON.parse` keeps the last: the value holds fewer keys).
 */
function parsedRight(text: string, value: unknown): boolean {
  if (text.includes("\\") && ESCAPED_KEY.test(text)) return false;
  return (text.match(KEY_END)?.length ?? 0) === keysIn(value);
}
/** A key's closing quote: an unescaped `"` followed by `:`. */
const KEY_END = /(?:^|[^\\])(?:\\\\)*\x22[ \t\n\r]*:/g;

/** jsonc-parser, imported on first use. */
let jsoncModule: Promise<Jsonc> | undefined;

/** Where one key and its value start; `first` is where the key was first given. */
type Place = [first: Position, key: Position, value: Position];

/** What one pass over a text found. */
interface Pass {
  readonly value: unknown;
  readonly root: Position;
  /** For each object and array of the value: where each of its entries is. */
  readonly places: WeakMap<object, Map<Segment, Place>>;
  readonly duplicates: DuplicateKey[];
  /** The first two syntax errors (none when the text is valid), each with its position. */
  readonly errors: (ParseError & Position)[];
  /** Whether the text nests too deeply to be read. */
  readonly nested: boolean;
}

/** Thrown to stop a pass once the errors that are described have been found. */
const ENOUGH = Symbol("enough");

let lastPass: { text: string; pass: Pass } | undefined;

/**
 * Reads a text in one `jsonc-parser` pass: the value, the places and the duplicates (JSONC only:
 * strict JSON is read this way only to say what is wrong with it), and the errors.
 */
async function read(text: string, options: typeof JSONC | typeof STRICT): Promise<Pass> {
  if (lastPass?.text === text && options === JSONC) return lastPass.pass;
  const jsonc = await (jsoncModule ??= import("jsonc-parser"));
  const places = new WeakMap<object, Map<Segment, Place>>();
  const duplicates: DuplicateKey[] = [];
  const errors: (ParseError & Position)[] = [];
  const open: (Record<string, unknown> | unknown[])[] = [];
  let value: unknown;
  let root: Position = { line: 1, column: 1 };
  let key = "";
  let keyAt = root;
  const at = (line: number, character: number) => ({ line: line + 1, column: character + 1 });
  const put = (item: unknown, line: number, character: number) => {
    const where = at(line, character);
    const top = open.at(-1);
    if (top === undefined) {
      value = item;
      root = where;
    } else if (Array.isArray(top)) {
      places.get(top)!.set(top.length, [where, where, where]);
      top.push(item);
    } else {
      const entries = places.get(top)!;
      entries.set(key, [entries.get(key)?.[0] ?? keyAt, keyAt, where]);
      // Own data, as JSON.parse makes it: "__proto__" must not become the prototype.
      if (key !== "__proto__") top[key] = item;
      else setOwn(top, key, item);
    }
  };
  const begin = (item: Record<string, unknown> | unknown[], line: number, character: number) => {
    put(item, line, character);
    places.set(item, new Map());
    open.push(item);
  };
  const build: Parameters<Jsonc["visit"]>[1] = {
    onObjectBegin: (_offset, _length, line, character) => begin({}, line, character),
    onArrayBegin: (_offset, _length, line, character) => begin([], line, character),
    onObjectEnd: () => open.pop(),
    onArrayEnd: () => open.pop(),
    onObjectProperty: (property, _offset, _length, line, character, path) => {
      keyAt = at(line, character);
      key = property;
      const first = places.get(open.at(-1)!)!.get(property)?.[0];
      if (first) duplicates.push({ path: path(), key: property, position: keyAt, first });
    },
    onLiteralValue: (literal, _offset, _length, line, character) => put(literal, line, character),
  };
  let nested = false;
  try {
    jsonc.visit(text, {
      ...(options === JSONC ? build : {}),
      onError: (error, offset, length, line, character) => {
        errors.push({ error, offset, length, ...at(line, character) });
        if (errors.length === 2) throw ENOUGH;
      },
    }, options);
  } catch (error) {
    if (error instanceof RangeError) nested = true;
    else if (error !== ENOUGH) throw error;
  }
  const pass = { value, root, places, duplicates, errors, nested };
  if (options === JSONC) lastPass = { text, pass };
  return pass;
}

/** How many keys the objects of a parsed value hold, without recursion. */
function keysIn(value: unknown): number {
  let count = 0;
  const stack = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item !== "object" || item === null) continue;
    if (Array.isArray(item)) {
      for (const element of item) stack.push(element);
    } else {
      for (const key in item) {
        count++;
        stack.push((item as Record<string, unknown>)[key]);
      }
    }
  }
  return count;
}

/**
 * Parses text as JSONC (JSON, with comments and trailing commas allowed), finding every key given
 * twice (`JSON.parse` would keep the last one silently).
 *
 * @param text The file's text (without a byte order mark).
 * @param empty The problem of a blank text (what the file was expected to hold).
 * @returns The value and the keys given twice, or one syntax problem, at its position.
 * @example A key given twice
 * ```ts
 * import { parseJsonc } from "./json_text.ts";
 * import { phrase } from "./locale/messages.ts";
 * const parsed = await parseJsonc('{"a": 1, // one\n "a": 2}', phrase("manifest.empty_file"));
 * console.assert(parsed.ok && parsed.duplicates[0]?.position.line === 2);
 * ```
 */
export async function parseJsonc(text: string, empty: Phrase): Promise<ParsedText> {
  // Strict JSON that JSON.parse reads right is read by it alone; any other text by the pass.
  const value: unknown = attempt(() => JSON.parse(text));
  if (value !== undefined && parsedRight(text, value)) return { ok: true, value, duplicates: [] };
  if (text.trim() === "") return { ok: false, reason: empty };
  const pass = await read(text, JSONC);
  if (pass.nested) return { ok: false, reason: phrase("json.invalid_detail", { detail: NESTED }) };
  const first = pass.errors[0];
  if (first === undefined) return { ok: true, value: pass.value, duplicates: pass.duplicates };
  const reason = await describeError(text, pass.errors, END);
  return {
    ok: false,
    position: { line: first.line, column: first.column },
    reason: phrase("json.invalid_detail", { detail: reason }),
  };
}

/**
 * Finds the keys given twice in strict JSON that `JSON.parse` accepted.
 *
 * @param text The text.
 * @param value What `JSON.parse` made of it.
 * @returns The duplicates, in the order they appear; empty for most text.
 * @example One duplicate
 * ```ts
 * import { duplicateKeysOf } from "./json_text.ts";
 * const text = '{"a": 1, "a": 2}';
 * console.assert((await duplicateKeysOf(text, JSON.parse(text))).length === 1);
 * ```
 */
export async function duplicateKeysOf(text: string, value: unknown): Promise<DuplicateKey[]> {
  if (parsedRight(text, value)) return [];
  return (await read(text, JSONC)).duplicates;
}

/**
 * Why a text is not strict JSON (no comments, no trailing commas), and where: for a caller whose
 * `JSON.parse` failed. Values are described by kind, never quoted, as for manifests.
 *
 * @param text The text `JSON.parse` refused.
 * @param source Whether the text is a file's or a call's input (how its end is named).
 * @returns The first problem, located when it can be.
 */
export async function strictJsonProblem(
  text: string,
  source: "file" | "input" = "file",
): Promise<{ readonly position?: Position; readonly reason: Phrase }> {
  const end = source === "file" ? END : END_OF_INPUT;
  if (text.trim() === "") return { reason: phrase("json.unexpected", { found: end }) };
  const { errors, nested } = await read(text, STRICT);
  if (nested) return { reason: NESTED };
  const first = errors[0];
  if (first === undefined) return { reason: phrase("json.invalid") };
  const position = { line: first.line, column: first.column };
  return { position, reason: await describeError(text, errors, end) };
}

/**
 * Builds a function that maps pointers to positions. For a path that goes further than the
 * document, the position of the deepest node it reaches; for a key given twice, the last one (the
 * one `JSON.parse` keeps).
 *
 * @param text The file's text.
 * @returns The locator; it answers `undefined` for everything when the text cannot be read.
 */
export async function createLocator(text: string): Promise<Locate> {
  const pass = await read(text, JSONC);
  if (pass.nested || pass.errors.length > 0) return () => undefined;
  return ({ path, at }) => {
    let node = pass.value;
    let where = pass.root;
    let place: Place | undefined;
    for (const segment of path) {
      // A WeakMap has no entry for a primitive (nor throws for one).
      place = pass.places.get(node as object)?.get(segment);
      if (place === undefined) return where;
      node = (node as Record<Segment, unknown>)[segment];
      where = place[2];
    }
    return at === "key" && place !== undefined ? place[1] : where;
  };
}

async function describeError(text: string, errors: ParseError[], end: Phrase): Promise<Phrase> {
  const error = errors[0]!;
  const scanError = SCAN_ERRORS[error.error];
  if (scanError !== undefined) return phrase(scanError);
  const jsonc = await (jsoncModule ??= import("jsonc-parser"));
  const found = describeToken(jsonc, text, error.offset, end);
  const expectedFor = (code: number) => code === END_EXPECTED ? end : EXPECTED[code - 3];
  // An unexpected symbol is reported first; what was expected there comes next, right after it.
  const next = errors[1];
  const expected = expectedFor(error.error) ??
    (next !== undefined && next.offset === error.offset + error.length
      ? expectedFor(next.error)
      : undefined);
  return expected === undefined
    ? phrase("json.unexpected", { found })
    : phrase("json.unexpected_expected", { found, expected });
}

function describeToken(jsonc: Jsonc, text: string, offset: number, end: Phrase): string | Phrase {
  if (offset >= text.length) return end;
  const scanner = jsonc.createScanner(text, true);
  scanner.setPosition(offset);
  const kind = scanner.scan();
  if (kind === 17) return end;
  if (kind >= 1 && kind <= 9) return JSON.stringify(PUNCTUATION[kind - 1]);
  if (kind === 10 || kind === 11) return phrase(kind === 10 ? "json.string" : "json.number");
  const from = scanner.getTokenOffset();
  if (text.charCodeAt(from) === 0x27) return phrase("json.single_quoted");
  // One character (two code units at most) is safe to show; a longer unquoted word might be a
  // pasted secret (and is never copied: it may be the whole of a huge text).
  const token = text.slice(from, from + Math.min(scanner.getTokenLength(), 3));
  if (scanner.getTokenLength() <= 2 && [...token].length === 1) return JSON.stringify(token);
  return phrase("json.unquoted");
}

/**
 * Sets a key of an object as its own data, as `JSON.parse` does: a key `"__proto__"` stays a key
 * and never sets the prototype.
 *
 * @param to The object.
 * @param key The key.
 * @param value Its value.
 */
export function setOwn(to: object, key: string, value: unknown): void {
  Object.defineProperty(to, key, { value, writable: true, enumerable: true, configurable: true });
}

/** `JSON.parse`'s reviver with the source text of each primitive (ES2025, in V8). */
type SourceReviver = (key: string, value: unknown, context: { source?: string }) => unknown;

/** `JSON.rawJSON`: a value `JSON.stringify` writes as the given text (ES2025, in V8). */
const rawJSON = (JSON as unknown as { rawJSON(text: string): unknown }).rawJSON;

const keep: SourceReviver = (_key, value, context) =>
  typeof value === "number" && context.source !== undefined && String(value) !== context.source
    ? rawJSON(context.source)
    : value;

/**
 * Parses JSON text without losing how its numbers were written: a number whose text differs from
 * what `JSON.stringify` would write for its double (`12345678901234567890`, `1.0`, `1E2`, `-0`) is
 * kept as its own text (`JSON.rawJSON`), so writing the value back, compact or indented, gives
 * every number exactly as the text had it.
 *
 * @param text JSON text that `JSON.parse` accepts.
 * @returns The value, for `JSON.stringify` only (kept numbers are raw JSON objects, not numbers).
 * @throws {SyntaxError} When the text is not JSON; {RangeError} when it is nested too deeply.
 * @example Indented, with the digits as written
 * ```ts
 * import { parseKeepingNumbers } from "./json_text.ts";
 * const text = JSON.stringify(parseKeepingNumbers('{"n":12345678901234567890}'), null, 1);
 * console.assert(text === '{\n "n": 12345678901234567890\n}');
 * ```
 */
export function parseKeepingNumbers(text: string): unknown {
  return JSON.parse(text, keep as Parameters<typeof JSON.parse>[1]);
}

/**
 * The compact JSON of a text's value, with every number written as the text writes it.
 *
 * @param text JSON text that `JSON.parse` accepts.
 * @returns The compact JSON, or `undefined` when the text is nested too deeply for the reviver's
 * stack (far deeper than the gate's nesting limit: such an input is refused before anything runs).
 * @example Big integers and trailing zeros survive
 * ```ts
 * import { compactKeepingNumbers } from "./json_text.ts";
 * const text = '{ "n": 12345678901234567890, "price": 1.50, "e": 1E3 }';
 * console.assert(compactKeepingNumbers(text) === '{"n":12345678901234567890,"price":1.50,"e":1E3}');
 * ```
 */
export function compactKeepingNumbers(text: string): string | undefined {
  try {
    return JSON.stringify(parseKeepingNumbers(text));
  } catch (error) {
    if (error instanceof RangeError) return undefined;
    throw error;
  }
}

/**
 * A number below 5e-324 needs an exponent of three digits or, without one, hundreds of zeros:
 * text with neither holds no number too small for a double.
 */
const TINY = /[eE]-\d{3}|0{200}/;

/**
 * Where a JSON text holds a number too small for a double: written as something other than zero
 * (`1e-400`, `0.000…1` past 324 places) yet read as `0`. A program would receive the digits as
 * written while every check judged 0.
 *
 * @param text JSON text that `JSON.parse` accepts.
 * @returns The JSON pointer of the first such number, or `undefined` when there is none.
 * @example
 * ```ts
 * import { underflowPointer } from "./json_text.ts";
 * console.assert(await underflowPointer('{"a":[1,1e-400]}') === "/a/1");
 * console.assert(await underflowPointer('{"a":0.0,"b":-0e5}') === undefined);
 * ```
 */
export async function underflowPointer(text: string): Promise<string | undefined> {
  if (!TINY.test(text)) return undefined;
  const jsonc = await (jsoncModule ??= import("jsonc-parser"));
  let found: Segment[] | undefined;
  try {
    jsonc.visit(text, {
      onLiteralValue: (value, offset, length, _line, _character, path) => {
        const mantissa = text.slice(offset, offset + length).replace(/[eE].*$/, "");
        if (found === undefined && value === 0 && /[1-9]/.test(mantissa)) found = path();
      },
    }, STRICT);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
  }
  return found?.map((s) => `/${String(s).replaceAll("~", "~0").replaceAll("/", "~1")}`).join("");
}
