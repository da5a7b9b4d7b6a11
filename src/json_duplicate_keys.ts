/**
 * Finding keys given twice in one object of JSON (or JSONC) text. `JSON.parse` keeps the last
 * one silently; a file people write (a manifest, spawn.json, rules.json) must not be able to say a
 * name twice, so every reader of such a file refuses what this finds.
 *
 * One pass over the text, no parser: strings are skipped with `indexOf`, comments (`//`, `/* *\/`)
 * are skipped as JSONC has them, and positions are worked out only for what is found.
 *
 * @module
 */

import type { Position, Segment } from "./json_text.ts";

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

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const SLASH = 0x2f;
const STAR = 0x2a;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;
const NEWLINE = 0x0a;
const RETURN = 0x0d;

/** Objects with at most this many keys compare them in a list; larger ones switch to a map. */
const LIST_KEYS = 16;

/** One open object or array. Frames are reused as the depth goes up and down. */
class Frame {
  /** How this value is reached from the one holding it (`undefined` for the top). */
  segment: Segment | undefined = undefined;
  /** Whether this is an object (else an array). */
  object = false;
  /** In an object: the next string is a key. */
  expectKey = false;
  /** In an object: the last key read. */
  key = "";
  /** In an array: the index of the current element. */
  index = 0;
  /** An object's keys so far and the offset of each one's first occurrence. */
  readonly names: string[] = [];
  readonly offsets: number[] = [];
  map: Map<string, number> | undefined = undefined;

  open(segment: Segment | undefined, object: boolean): void {
    this.segment = segment;
    this.object = object;
    this.expectKey = object;
    this.key = "";
    this.index = 0;
    this.names.length = 0;
    this.offsets.length = 0;
    this.map = undefined;
  }

  /** Records a key; returns the offset of its first occurrence when it was there already. */
  add(key: string, offset: number): number | undefined {
    if (this.map !== undefined) {
      const first = this.map.get(key);
      if (first === undefined) this.map.set(key, offset);
      return first;
    }
    const at = this.names.indexOf(key);
    if (at !== -1) return this.offsets[at];
    this.names.push(key);
    this.offsets.push(offset);
    if (this.names.length > LIST_KEYS) {
      this.map = new Map(this.names.map((name, i) => [name, this.offsets[i]!]));
    }
    return undefined;
  }
}

/** The characters the scan stops at: strings, comments, brackets, commas. */
const STOPS = new Uint8Array(128);
for (const char of '"/{}[],') STOPS[char.charCodeAt(0)] = 1;

/**
 * Every key given more than once in one object, in text order (a key given three times is found
 * twice, each time with the first one's position). Meant for text `JSON.parse` (or the JSONC
 * reader) accepted; other text gives some answer, never an exception.
 *
 * @param text The JSON or JSONC text (without a byte order mark: positions count from its start).
 * @returns The duplicates, in the order they appear; empty for most text.
 * @example A tool declared twice
 * ```ts
 * import { findDuplicateKeys } from "./json_duplicate_keys.ts";
 * const text = '{"tools": {\n  "a": {},\n  "a": {}\n}}';
 * const duplicate = findDuplicateKeys(text)[0]!;
 * console.assert(duplicate.key === "a" && duplicate.path.join() === "tools");
 * console.assert(duplicate.position.line === 3 && duplicate.position.column === 3);
 * console.assert(duplicate.first.line === 2);
 * ```
 */
export function findDuplicateKeys(text: string): DuplicateKey[] {
  const found: { path: Segment[]; key: string; offset: number; first: number }[] = [];
  const frames: Frame[] = [];
  let depth = 0;
  const length = text.length;
  let i = 0;
  while (i < length) {
    const code = text.charCodeAt(i);
    if (code >= 128 || STOPS[code] === 0) {
      i++;
      continue;
    }
    const top = depth === 0 ? undefined : frames[depth - 1]!;
    if (code === QUOTE) {
      const end = stringEnd(text, i);
      if (top !== undefined && top.object && top.expectKey) {
        const key = decodeKey(text.slice(i, end));
        const first = top.add(key, i);
        if (first !== undefined) found.push({ path: pathOf(frames, depth), key, offset: i, first });
        top.key = key;
        top.expectKey = false;
      }
      i = end;
      continue;
    }
    if (code === SLASH) {
      i = commentEnd(text, i);
      continue;
    }
    if (code === OPEN_OBJECT || code === OPEN_ARRAY) {
      const segment = top === undefined ? undefined : top.object ? top.key : top.index;
      const frame = frames[depth] ?? (frames[depth] = new Frame());
      frame.open(segment, code === OPEN_OBJECT);
      depth++;
    } else if (code === CLOSE_OBJECT || code === CLOSE_ARRAY) {
      if (depth > 0) depth--;
    } else if (code === COMMA && top !== undefined) {
      if (top.object) top.expectKey = true;
      else top.index++;
    }
    i++;
  }
  if (found.length === 0) return [];
  const starts = lineStarts(text);
  return found.map(({ path, key, offset, first }) => ({
    path,
    key,
    position: positionAt(starts, offset),
    first: positionAt(starts, first),
  }));
}

/** The offset just past the string starting at `start` (its closing quote), or the text's end. */
function stringEnd(text: string, start: number): number {
  let at = start + 1;
  while (true) {
    const quote = text.indexOf('"', at);
    if (quote === -1) return text.length;
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote + 1;
    at = quote + 1;
  }
}

/** The offset just past a comment starting at `start`, or past the slash when it starts none. */
function commentEnd(text: string, start: number): number {
  const next = text.charCodeAt(start + 1);
  if (next === SLASH) {
    // To the first line break of either kind (two indexOf calls would each search to the end of
    // a text without that kind: quadratic over many comments).
    let at = start + 2;
    while (at < text.length) {
      const code = text.charCodeAt(at);
      if (code === NEWLINE || code === RETURN) return at;
      at++;
    }
    return at;
  }
  if (next === STAR) {
    const close = text.indexOf("*/", start + 2);
    return close === -1 ? text.length : close + 2;
  }
  return start + 1;
}

function decodeKey(quoted: string): string {
  if (!quoted.includes("\\")) return quoted.slice(1, -1);
  try {
    const key: unknown = JSON.parse(quoted);
    if (typeof key === "string") return key;
  } catch {
    // Not a valid string: compared as written.
  }
  return quoted.slice(1, -1);
}

function pathOf(frames: readonly Frame[], depth: number): Segment[] {
  const path: Segment[] = [];
  for (let i = 0; i < depth; i++) {
    const segment = frames[i]!.segment;
    if (segment !== undefined) path.push(segment);
  }
  return path;
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === NEWLINE) starts.push(i + 1);
    else if (code === RETURN) {
      if (text.charCodeAt(i + 1) === NEWLINE) i++;
      starts.push(i + 1);
    }
  }
  return starts;
}

/** 1-based line and column (UTF-16 code units, as editors and the JSON reader count them). */
function positionAt(starts: readonly number[], offset: number): Position {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (starts[mid]! <= offset) low = mid;
    else high = mid - 1;
  }
  return { line: low + 1, column: offset - starts[low]! + 1 };
}

/**
 * The keys given twice in a parsed document, found cheaply when there are none: for strict JSON a
 * count of the keys in the text equal to the keys in the value says so in one pass (the common
 * case); anything else is scanned with {@linkcode findDuplicateKeys}.
 *
 * @param text The text that was parsed (without a byte order mark).
 * @param value What `JSON.parse` made of it (JSONC: of its strict form).
 * @param strict Whether the text is strict JSON as it is: a comment could hide a key from the
 *   count, so JSONC is always scanned (and so is text with a backslash: see the body).
 * @returns The duplicates, in the order they appear; empty for most text.
 * @example One duplicate, in strict JSON
 * ```ts
 * import { duplicateKeysOf } from "./json_duplicate_keys.ts";
 * const text = '{"a": 1, "a": 2}';
 * console.assert(duplicateKeysOf(text, JSON.parse(text), true).length === 1);
 * console.assert(duplicateKeysOf('{"a": 1}', { a: 1 }, true).length === 0);
 * ```
 */
export function duplicateKeysOf(text: string, value: unknown, strict: boolean): DuplicateKey[] {
  // V8's JSON.parse can misread an escaped key (after `{"a": 0, "\\": 0}`, the `"\u0061"` of
  // `{"a": 1, "\u0061": 2}` becomes `"\\"`): the value then has as many keys as the text though
  // one was given twice. Text with an escape is scanned; the scan decodes each key itself.
  const countable = strict && !text.includes("\\");
  return countable && keysInText(text) === keysInValue(value) ? [] : findDuplicateKeys(text);
}

/**
 * How many keys the text of a JSON document `JSON.parse` accepted holds: a key's closing quote is
 * an unescaped `"` followed by `:` (inside a string a quote is always escaped, so `\":` there never
 * counts, while `\\":` ends a key).
 */
function keysInText(text: string): number {
  return text.match(/(?:^|[^\\])(?:\\\\)*"[ \t\n\r]*:/g)?.length ?? 0;
}

/** How many keys the objects of a parsed value hold, without recursion. */
function keysInValue(value: unknown): number {
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
