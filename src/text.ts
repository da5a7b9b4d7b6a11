/**
 * Small text helpers that keep every message on one short line, shared by the seams that word
 * messages from untrusted data (schema refusals, their localized form in the contract, the keys
 * and names in manifest and spawn.json problems).
 *
 * @module
 */

import { attempt } from "./quietly.ts";

// deno-lint-ignore no-control-regex
const LINE_BREAKING = /[\u0000-\u001f\u007f\u0085\u2028\u2029]/g;
// deno-lint-ignore no-control-regex
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
const MAX_KEY_LABEL_LENGTH = 200;

/**
 * Escapes control and line-separator characters so the text stays on one line, and cuts it.
 *
 * @param text Any text, possibly untrusted.
 * @param max The longest result, in UTF-16 units, before the ellipsis.
 * @returns The same text on one line, at most `max` units plus `…`.
 *
 * @example Escape a line break
 * ```ts
 * import { oneLine } from "./text.ts";
 * console.assert(oneLine("a\nb") === "a\\u000ab");
 * ```
 */
export function oneLine(text: string, max = 300): string {
  const flat = text.replace(
    LINE_BREAKING,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

/**
 * Renders a JSON value compactly, on one line, cut to `max` units.
 *
 * @param value A JSON value (anything `JSON.stringify` accepts; others render as `String(value)`).
 * @param max The longest result before the ellipsis.
 * @returns The rendering.
 *
 * @example Quote a string, cut a long array
 * ```ts
 * import { showValue } from "./text.ts";
 * console.assert(showValue("red") === '"red"');
 * console.assert(showValue(Array(100).fill(1), 10) === "[1,1,1,1,1…");
 * ```
 */
export function showValue(value: unknown, max = 60): string {
  // What JSON cannot write (a BigInt, a cycle) is shown as String() shows it.
  return oneLine(attempt(() => JSON.stringify(value) ?? String(value)) ?? String(value), max);
}

/**
 * Escapes one JSON pointer reference token (`~` → `~0`, `/` → `~1`).
 *
 * @param token A property name or index.
 * @returns The escaped token.
 *
 * @example Escape both special characters
 * ```ts
 * import { escapeToken } from "./text.ts";
 * console.assert(escapeToken("a/b~c") === "a~1b~0c");
 * ```
 */
export function escapeToken(token: string): string {
  return token.replaceAll("~", "~0").replaceAll("/", "~1");
}

/**
 * The JSON pointer of a child: the parent's pointer, `/`, the escaped name.
 *
 * @param pointer The parent's pointer (`""` for the root).
 * @param name The property name or index.
 * @returns The child's pointer.
 */
export function pointerChild(pointer: string, name: unknown): string {
  return `${pointer}/${escapeToken(String(name))}`;
}

/**
 * A key or name as shown in a problem: cut when very long, and quoted with escapes when it holds a
 * control or line-breaking character (a problem is always one line).
 *
 * @param text A key or name as written, possibly untrusted.
 * @returns The text as it is, or cut, or quoted.
 *
 * @example A plain key stays as it is; a line break is quoted
 * ```ts
 * import { keyLabel } from "./text.ts";
 * console.assert(keyLabel("timeout_ms") === "timeout_ms");
 * console.assert(keyLabel("a\nb") === '"a\\nb"');
 * ```
 */
export function keyLabel(text: string): string {
  const cut = text.length > MAX_KEY_LABEL_LENGTH ? `${text.slice(0, MAX_KEY_LABEL_LENGTH)}…` : text;
  return UNPRINTABLE.test(cut) ? JSON.stringify(cut) : cut;
}

/**
 * Where a value is in a configuration file, as its problems name fields: keys joined by `.`, array
 * indexes in brackets, each key shown with {@linkcode keyLabel}.
 *
 * @param path The keys and indexes from the top of the file.
 * @returns The field's name.
 * @example A target's program
 * ```ts
 * import { fieldName } from "./text.ts";
 * console.assert(fieldName(["targets", "box", 0]) === "targets.box[0]");
 * ```
 */
export function fieldName(path: readonly (string | number)[]): string {
  let name = "";
  for (const segment of path) {
    if (typeof segment === "number") name += `[${segment}]`;
    else name += name === "" ? keyLabel(segment) : `.${keyLabel(segment)}`;
  }
  return name;
}
