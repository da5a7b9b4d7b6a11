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
import { type Phrase, phrase } from "../locale/messages.ts";
import { pointerChild } from "../text.ts";

/** Why an input value cannot fill its argument. */
export interface ArgumentRefusal {
  /** The JSON pointer of the field (`/count`). */
  readonly pointer: string;
  readonly reason: Phrase;
}

/** The filled argv, or why the input cannot fill it. */
export type Filled =
  | { readonly ok: true; readonly argv: string[] }
  | { readonly ok: false; readonly refusal: ArgumentRefusal };

/**
 * The argv of one call: the manifest's, each argument taken from the input put in its place.
 *
 * @param command The manifest's argv (`<name>` where an argument goes).
 * @param args The arguments taken from the input.
 * @param input The input, as the schema gate judged it (an object).
 * @param stdin The bytes the program receives (the input as compact JSON, numbers as written).
 * @returns The argv, or the first refusal in argv order.
 */
export function fillArguments(
  command: readonly string[],
  args: readonly InputArgument[],
  input: Readonly<Record<string, unknown>>,
  stdin: Uint8Array,
): Filled {
  const argv = [...command];
  let lexemes: Map<string, string> | undefined;
  for (const arg of args) {
    const pointer = pointerChild("", arg.field);
    const refuse = (reason: Phrase): Filled => ({ ok: false, refusal: { pointer, reason } });
    const index = arg.index;
    if (!Object.hasOwn(input, arg.field)) {
      return refuse(phrase("input.argument_missing", { index }));
    }
    const value = input[arg.field];
    let text: string;
    if (typeof value === "string" && arg.type === "string") {
      text = value;
    } else if (typeof value === "boolean" && arg.type === "boolean") {
      text = String(value);
    } else if (typeof value === "number" && arg.type !== "string" && arg.type !== "boolean") {
      lexemes ??= topLevelNumbers(stdin, args);
      text = lexemes.get(arg.field) ?? String(value);
    } else {
      return refuse(phrase("input.argument_type", { index, type: arg.type }));
    }
    if (text.includes("\0")) return refuse(phrase("input.argument_nul", { index }));
    if (text.startsWith("-") && !arg.afterDashes) {
      return refuse(phrase("input.argument_dash", { index }));
    }
    argv[index] = text;
  }
  return { ok: true, argv };
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
