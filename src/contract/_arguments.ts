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
import { parseKeepingNumbers } from "../json_text.ts";
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
  // The digits the caller wrote: read from the program's stdin, so both carry the same.
  let written: Record<string, unknown> | undefined;
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
      written ??= keptNumbers(stdin);
      text = JSON.stringify(Object.hasOwn(written, field) ? written[field] : value);
    } else return refuse("input.argument_type", { type });
    if (text.includes("\0")) return refuse("input.argument_nul");
    if (text.startsWith("-") && !afterDashes) return refuse("input.argument_dash");
    argv[index] = text;
  }
  return argv;
}

/** The input as the program receives it, each number kept as written (`{}` if it is not JSON). */
function keptNumbers(stdin: Uint8Array): Record<string, unknown> {
  try {
    return parseKeepingNumbers(new TextDecoder().decode(stdin)) as Record<string, unknown>;
  } catch {
    return {};
  }
}
