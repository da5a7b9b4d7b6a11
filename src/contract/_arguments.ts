/**
 * Filling a declared tool's arguments from its input (`{"input": "name"}` elements of `command`),
 * after the schema gate and before the preview: each value becomes exactly one argv element — a
 * string as it is, a boolean as `true` or `false`, a number with the digits the caller wrote (the
 * bytes the program receives on stdin, not the double). No shell ever sees it. A value that begins
 * with `-` is refused unless a literal `--` comes before its element, and one holding a NUL
 * character is refused always: both are refusals of the input, naming its field.
 *
 * @module
 */

import type { InputArgument } from "../manifest/types.ts";
import type { MessageKey } from "../locale/en_us.ts";
import { type Phrase, phrase } from "../locale/messages.ts";
import { pointerChild } from "../text.ts";

/**
 * The argv of one call: the manifest's, each argument taken from the input put in its place.
 *
 * @param command The manifest's argv (`<name>` where an argument goes).
 * @param args The arguments taken from the input.
 * @param input The input, as the schema gate judged it (an object).
 * @param stdin The bytes the program receives (the input as compact JSON, numbers as written).
 * @returns The argv, or the first refusal in argv order: the field's JSON pointer and why.
 */
export function fillArguments(
  command: readonly string[],
  args: readonly InputArgument[],
  input: Readonly<Record<string, unknown>>,
  stdin: Uint8Array,
): string[] | { readonly pointer: string; readonly reason: Phrase } {
  const argv = [...command];
  let lexemes: Map<string, string> | undefined;
  for (const { field, index, type, afterDashes } of args) {
    const refuse = (key: MessageKey, more = {}) => ({
      pointer: pointerChild("", field),
      reason: phrase(key, { index, ...more }),
    });
    if (!Object.hasOwn(input, field)) return refuse("input.argument_missing");
    const value = input[field];
    let text: string;
    if (typeof value === "string" && type === "string") text = value;
    else if (typeof value === "boolean" && type === "boolean") text = String(value);
    else if (typeof value === "number" && type !== "string" && type !== "boolean") {
      lexemes ??= topLevelNumbers(stdin, args);
      text = lexemes.get(field) ?? String(value);
    } else return refuse("input.argument_type", { type });
    if (text.includes("\0")) return refuse("input.argument_nul");
    if (text.startsWith("-") && !afterDashes) return refuse("input.argument_dash");
    argv[index] = text;
  }
  return argv;
}

/** `JSON.parse`'s reviver with the source text of each primitive (ES2025, in V8). */
type SourceReviver = (
  this: unknown,
  key: string,
  value: unknown,
  context: { source?: string },
) => unknown;

/**
 * The text of each number the input holds at a top-level property an argument is filled from,
 * read from the program's stdin (so the argument and stdin carry the same digits).
 */
function topLevelNumbers(stdin: Uint8Array, args: readonly InputArgument[]): Map<string, string> {
  const wanted = new Set(args.filter((arg) => arg.type !== "string").map((arg) => arg.field));
  const seen: { holder: unknown; key: string; source: string }[] = [];
  const reviver: SourceReviver = function (key, value, context) {
    if (typeof value === "number" && wanted.has(key) && context.source !== undefined) {
      seen.push({ holder: this, key, source: context.source });
    }
    return value;
  };
  const found = new Map<string, string>();
  try {
    const root = JSON.parse(
      new TextDecoder().decode(stdin),
      reviver as Parameters<typeof JSON.parse>[1],
    );
    for (const { holder, key, source } of seen) if (holder === root) found.set(key, source);
  } catch {
    // Not the text it should be: the double's digits are used.
  }
  return found;
}
