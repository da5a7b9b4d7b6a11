/**
 * Filling a declared tool's arguments from its input (`{"input": "name", …}` elements of
 * `command`), after the schema gate and before the preview: each value becomes exactly one argv
 * element — a string as it is, a boolean as `true` or `false`, a number with the digits the caller
 * wrote (the bytes the program receives on stdin, not the double) — or, for a prefixed value, that
 * text after its fixed prefix in one element; a flag is its fixed text when its field is true. A
 * flag whose field is false or absent, and a prefixed value whose field is absent, leave no
 * element. No shell ever sees a value. A plain value that begins with `-` is refused unless a
 * literal `--` comes before its element (after a prefix, which ends with `=`, it cannot be an
 * option), and one holding a NUL character is refused always: both are refusals of the input,
 * naming its field.
 *
 * @module
 */

import type { InputArgument } from "../manifest/types.ts";
import type { InputSlot } from "../approval/approve.ts";
import type { MessageKey } from "../locale/en_us.ts";
import { type Phrase, phrase } from "../locale/messages.ts";
import { parseKeepingNumbers } from "../json_text.ts";
import { pointerChild } from "../text.ts";

/**
 * The argv of one call: the manifest's, each argument taken from the input put in its place or,
 * when it is optional and not given, left out.
 *
 * @param command The manifest's argv (a placeholder where an argument goes).
 * @param args The arguments taken from the input.
 * @param input The input, as the schema gate judged it (an object).
 * @param stdin The bytes the program receives (the input as compact JSON, numbers as written).
 * @returns The argv and where each argument from the input is in it (or would be, when left
 *   out), or the first refusal in argv order: the field's JSON pointer and why.
 */
export function fillArguments(
  command: readonly string[],
  args: readonly InputArgument[],
  input: Readonly<Record<string, unknown>>,
  stdin: Uint8Array,
):
  | { readonly argv: string[]; readonly fromInput: InputSlot[] }
  | { readonly pointer: string; readonly reason: Phrase } {
  const argv: string[] = [];
  const fromInput: InputSlot[] = [];
  const byIndex = new Map(args.map((arg) => [arg.index, arg]));
  // The digits the caller wrote: read from the program's stdin, so both carry the same.
  let written: Record<string, unknown> | undefined;
  for (const [index, literal] of command.entries()) {
    const arg = byIndex.get(index);
    if (arg === undefined) {
      argv.push(literal);
      continue;
    }
    const { field, type, afterDashes, flag, prefix } = arg;
    const refuse = (key: MessageKey, more = {}) => ({
      pointer: pointerChild("", field),
      reason: phrase(key, { index, ...more }),
    });
    const kind = flag !== undefined ? { flag } : prefix !== undefined ? { prefix } : {};
    const slot: InputSlot = { index: argv.length, field, ...kind };
    const given = Object.hasOwn(input, field);
    const value = input[field];
    if (!given && flag === undefined && prefix === undefined) {
      return refuse("input.argument_missing");
    }
    if (!given || (flag !== undefined && value === false)) {
      fromInput.push({ ...slot, absent: true });
      continue;
    }
    let text: string;
    if (typeof value === "string" && type === "string") text = value;
    else if (typeof value === "boolean" && type === "boolean") text = flag ?? String(value);
    else if (typeof value === "number" && type !== "string" && type !== "boolean") {
      written ??= keptNumbers(stdin);
      text = JSON.stringify(Object.hasOwn(written, field) ? written[field] : value);
    } else return refuse("input.argument_type", { type });
    if (text.includes("\0")) return refuse("input.argument_nul");
    if (text.startsWith("-") && !afterDashes && flag === undefined && prefix === undefined) {
      return refuse("input.argument_dash");
    }
    argv.push(`${prefix ?? ""}${text}`);
    fromInput.push(slot);
  }
  return { argv, fromInput };
}

/** The input as the program receives it, each number kept as written (`{}` if it is not JSON). */
function keptNumbers(stdin: Uint8Array): Record<string, unknown> {
  try {
    return parseKeepingNumbers(new TextDecoder().decode(stdin)) as Record<string, unknown>;
  } catch {
    return {};
  }
}
