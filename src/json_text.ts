/**
 * Reading JSON text written by people (manifests, spawn.json, rules.json, a call's input):
 * `JSON.parse` first (fast), then, for JSONC, `JSON.parse` of the text without its comments and
 * trailing commas, and only when that fails too, or when a problem must be located, the JSONC
 * parser (offsets, and what exactly is wrong), imported lazily.
 *
 * Positions are 1-based; columns count UTF-16 code units, as editors do. Syntax errors describe
 * what was unexpected by kind ("string", "number") rather than quoting it, so a secret pasted into
 * a broken file is not echoed back.
 *
 * @module
 */

import type { Node, ParseError } from "jsonc-parser";
import type { MessageKey } from "./locale/en_us.ts";
import { type Phrase, phrase } from "./locale/messages.ts";
import { stripJsonc } from "./strip_jsonc.ts";

type Jsonc = typeof import("jsonc-parser");

/** One step of a path into the document: a property name or an array index. */
export type Segment = string | number;

/** What a problem is about: the value at `path`, or the key naming it. */
export interface Pointer {
  readonly path: readonly Segment[];
  readonly at: "key" | "value";
}

/** A 1-based position in the text. */
export interface Position {
  readonly line: number;
  readonly column: number;
}

/** The outcome of reading JSONC text. */
export type ParsedText =
  | {
    readonly ok: true;
    readonly value: unknown;
    readonly tree?: Node;
    /** Whether the text is strict JSON as it is (no comment, no trailing comma). */
    readonly strict: boolean;
  }
  | { readonly ok: false; readonly position?: Position; readonly reason: Phrase };

/** Finds where a pointer's node starts, when the document can be mapped. */
export type Locate = (pointer: Pointer) => Position | undefined;

const PARSE_OPTIONS = { allowTrailingComma: true, disallowComments: false } as const;

// ParseErrorCode and SyntaxKind values (const enums in jsonc-parser's types). Punctuation is
// shown as written; words are phrases.
const END = phrase("json.end");
const END_OF_INPUT = phrase("json.end_input");
/** ParseErrorCode.EndOfFileExpected: text after the value; its end is named as the text is. */
const END_EXPECTED = 9;
const NESTED = phrase("json.nested");
const EXPECTED: Readonly<Record<number, string | Phrase>> = {
  3: phrase("json.property_name"),
  4: phrase("json.value"),
  5: '":"',
  6: '","',
  7: '"}"',
  8: '"]"',
};
const SCAN_ERRORS: Readonly<Record<number, MessageKey>> = {
  2: "json.invalid_number",
  10: "json.comment",
  11: "json.unterminated_comment",
  12: "json.unterminated_string",
  13: "json.invalid_number",
  14: "json.bad_unicode",
  15: "json.bad_escape",
  16: "json.control",
};
const PUNCTUATION: Readonly<Record<number, string | Phrase>> = {
  1: '"{"',
  2: '"}"',
  3: '"["',
  4: '"]"',
  5: '","',
  6: '":"',
  7: '"null"',
  8: '"true"',
  9: '"false"',
  10: phrase("json.string"),
  11: phrase("json.number"),
};

let jsoncModule: Promise<Jsonc> | undefined;

function loadJsonc(): Promise<Jsonc> {
  jsoncModule ??= import("jsonc-parser");
  return jsoncModule;
}

/**
 * Parses text as JSON, then as JSONC (comments and trailing commas allowed).
 *
 * @param text The file's text (without a byte order mark).
 * @param empty The problem of a blank text (what the file was expected to hold).
 * @returns The value (and the JSONC tree when the fallback built one), or one syntax problem.
 */
export async function parseJsonc(text: string, empty: Phrase): Promise<ParsedText> {
  try {
    return { ok: true, value: JSON.parse(text), strict: true };
  } catch {
    // Not strict JSON: JSONC, or broken.
  }
  if (text.trim() === "") return { ok: false, reason: empty };
  const strict = stripJsonc(text);
  if (strict !== undefined) {
    try {
      return { ok: true, value: JSON.parse(strict), strict: false };
    } catch {
      // Broken: the JSONC parser says where.
    }
  }
  const jsonc = await loadJsonc();
  const errors = firstErrors(jsonc, text, PARSE_OPTIONS);
  if (errors === undefined) {
    return { ok: false, reason: phrase("json.invalid_detail", { detail: NESTED }) };
  }
  const first = errors[0];
  if (first !== undefined) {
    return {
      ok: false,
      position: positionAt(text, first.offset),
      reason: phrase("json.invalid_detail", { detail: describeError(jsonc, text, errors) }),
    };
  }
  // Valid JSONC that the fast path could not turn into JSON: the tree is built only now.
  let tree: Node | undefined;
  try {
    tree = jsonc.parseTree(text, [], PARSE_OPTIONS);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
  }
  try {
    const value = JSON.parse(strictText(jsonc, text));
    return { ok: true, value, ...(tree ? { tree } : {}), strict: false };
  } catch {
    return { ok: false, reason: phrase("json.invalid") };
  }
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
  const jsonc = await loadJsonc();
  const errors = firstErrors(jsonc, text, { allowTrailingComma: false, disallowComments: true });
  if (errors === undefined) return { reason: NESTED };
  const first = errors[0];
  if (first === undefined) return { reason: phrase("json.invalid") };
  return {
    position: positionAt(text, first.offset),
    reason: describeError(jsonc, text, errors, end),
  };
}

/** Thrown to stop a scan once the errors that are described have been found. */
const ENOUGH = Symbol("enough");

/**
 * The first two syntax errors of a text (all that {@linkcode describeError} looks at), found in
 * one pass that builds no tree and stops at the second: time linear in the text, memory in its
 * nesting, however broken or large it is.
 *
 * @returns The errors (none when the text is valid), or `undefined` when it nests too deep.
 */
function firstErrors(
  jsonc: Jsonc,
  text: string,
  options: { allowTrailingComma: boolean; disallowComments: boolean },
): ParseError[] | undefined {
  const errors: ParseError[] = [];
  try {
    jsonc.visit(text, {
      onError: (error, offset, length) => {
        errors.push({ error, offset, length });
        if (errors.length === 2) throw ENOUGH;
      },
    }, options);
  } catch (error) {
    if (error instanceof RangeError) return undefined;
    if (error !== ENOUGH) throw error;
  }
  return errors;
}

/**
 * Builds a function that maps pointers to positions, parsing the text into a tree if needed.
 *
 * @param text The file's text.
 * @param tree The tree from {@linkcode parseJsonc}, when it built one.
 * @returns The locator; it answers `undefined` for everything when the text cannot be mapped.
 */
export async function createLocator(text: string, tree?: Node): Promise<Locate> {
  let root = tree;
  if (root === undefined) {
    const jsonc = await loadJsonc();
    try {
      root = jsonc.parseTree(text, [], PARSE_OPTIONS);
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
    }
  }
  if (root === undefined) return () => undefined;
  const starts = lineStarts(text);
  const top = root;
  return (pointer) => {
    const offset = offsetOf(top, pointer);
    return offset === undefined ? undefined : positionOf(text, starts, offset);
  };
}

function offsetOf(root: Node, pointer: Pointer): number | undefined {
  let node = root;
  let key: Node | undefined;
  for (const segment of pointer.path) {
    key = undefined;
    let next: Node | undefined;
    if (node.type === "object" && typeof segment === "string") {
      // The last property of that name: JSON.parse keeps the last duplicate.
      const properties = node.children ?? [];
      for (let i = properties.length - 1; i >= 0; i--) {
        const property = properties[i];
        const name = property?.children?.[0];
        if (name?.value === segment) {
          key = name;
          next = property?.children?.[1];
          break;
        }
      }
    } else if (node.type === "array" && typeof segment === "number") {
      next = node.children?.[segment];
    }
    if (next === undefined) return (key ?? node).offset;
    node = next;
  }
  return (pointer.at === "key" && key !== undefined ? key : node).offset;
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 10) starts.push(i + 1);
    else if (code === 13) {
      if (text.charCodeAt(i + 1) === 10) i++;
      starts.push(i + 1);
    }
  }
  return starts;
}

/** The position of one offset, counting lines up to it (no table of every line's start). */
function positionAt(text: string, offset: number): Position {
  const at = Math.max(0, Math.min(offset, text.length));
  let line = 1;
  let start = 0;
  for (let i = 0; i < at; i++) {
    const code = text.charCodeAt(i);
    if (code === 13 && text.charCodeAt(i + 1) === 10) {
      if (i + 1 === at) break; // On the "\n" of a "\r\n": still the line it ends.
      i++;
    }
    if (code === 10 || code === 13) {
      line++;
      start = i + 1;
    }
  }
  return { line, column: at - start + 1 };
}

function positionOf(text: string, starts: readonly number[], offset: number): Position {
  const at = Math.max(0, Math.min(offset, text.length));
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (starts[mid]! <= at) low = mid;
    else high = mid - 1;
  }
  return { line: low + 1, column: at - starts[low]! + 1 };
}

function describeError(
  jsonc: Jsonc,
  text: string,
  errors: readonly ParseError[],
  end: Phrase = END,
): Phrase {
  const error = errors[0]!;
  const scanError = SCAN_ERRORS[error.error];
  if (scanError !== undefined) return phrase(scanError);
  const found = describeToken(jsonc, text, error.offset, end);
  const expectedFor = (code: number) => code === END_EXPECTED ? end : EXPECTED[code];
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

function describeToken(
  jsonc: Jsonc,
  text: string,
  offset: number,
  end: Phrase,
): string | Phrase {
  if (offset >= text.length) return end;
  const scanner = jsonc.createScanner(text, true);
  scanner.setPosition(offset);
  const kind = scanner.scan();
  if (kind === 17) return end;
  const known = PUNCTUATION[kind];
  if (known !== undefined) return known;
  const from = scanner.getTokenOffset();
  if (text.charCodeAt(from) === 0x27) return phrase("json.single_quoted");
  // One character (two code units at most) is safe to show; a longer unquoted word might be a
  // pasted secret (and is never copied: it may be the whole of a huge text).
  const token = text.slice(from, from + Math.min(scanner.getTokenLength(), 3));
  if (scanner.getTokenLength() <= 2 && [...token].length === 1) return JSON.stringify(token);
  return phrase("json.unquoted");
}

/** The same document as strict JSON: comments and trailing commas removed. */
function strictText(jsonc: Jsonc, text: string): string {
  const scanner = jsonc.createScanner(text, true);
  const parts: string[] = [];
  let pendingComma = false;
  for (let kind = scanner.scan(); kind !== 17; kind = scanner.scan()) {
    if (kind === 5) {
      pendingComma = true;
      continue;
    }
    if (pendingComma && kind !== 2 && kind !== 4) parts.push(",");
    pendingComma = false;
    parts.push(
      text.slice(scanner.getTokenOffset(), scanner.getTokenOffset() + scanner.getTokenLength()),
    );
  }
  return parts.join("");
}
