/**
 * Arguments taken from the input: an element `{"input": "name"}` of `command` stands for one whole
 * argument, filled at call time from a top-level property of the input. The rules that make it
 * safe by construction are checked here, at load: the element is an object (no text can be
 * mistaken for one, and it cannot be joined with other text), it is never the program, and the
 * property is one the input schema lists under `properties`, types as a string, integer, number or
 * boolean, and requires — so every call that passes the schema gate has exactly one value for it.
 *
 * @module
 */

import { phrase } from "../locale/messages.ts";
import type { ArgumentType, InputArgument } from "./types.ts";
import { isObject, type Json, show } from "./_describe.ts";
import { nearWords, unknownKey } from "../suggest.ts";
import { keyLabel } from "../text.ts";
import type { Report } from "./_fields.ts";

/** The types an argument may have. */
export const ARGUMENT_TYPES: readonly ArgumentType[] = ["string", "integer", "number", "boolean"];

const PLACEHOLDER_KEYS = ["input"] as const;

/** An argument element as written, before the schema is looked at. */
export interface WrittenArgument {
  readonly index: number;
  readonly field: string;
}

/**
 * What an argv element shows where its value will go: `<name>`. A shell-quoted literal `<name>`
 * is always quoted, so the two never read the same in `show`.
 *
 * @param field The property's name.
 * @returns The text.
 */
export function argumentLabel(field: string): string {
  return `<${field}>`;
}

/**
 * Reads one `{"input": "name"}` element of `command`.
 *
 * @param value The element (an object).
 * @param index Its position.
 * @param report Where problems go.
 * @returns The property it names, or `undefined` when it is malformed (reported).
 */
export function readArgument(value: Json, index: number, report: Report): string | undefined {
  const field = `command[${index}]`;
  if (index === 0) {
    report(["command", 0], "value", field, phrase("manifest.argument_program"));
    return undefined;
  }
  let ok = true;
  for (const key of Object.keys(value)) {
    if ((PLACEHOLDER_KEYS as readonly string[]).includes(key)) continue;
    const { reason } = unknownKey(key, PLACEHOLDER_KEYS);
    report(["command", index, key], "key", `${field}.${keyLabel(key)}`, reason);
    ok = false;
  }
  if (!Object.hasOwn(value, "input")) {
    report(["command", index], "value", field, phrase("manifest.argument_shape"));
    return undefined;
  }
  const name = value.input;
  if (typeof name !== "string" || name === "") {
    const reason = phrase("manifest.argument_name", { found: show(name) });
    report(["command", index, "input"], "value", `${field}.input`, reason);
    return undefined;
  }
  return ok ? name : undefined;
}

/**
 * Checks each argument against the input schema: the property is listed under `properties`, its
 * schema's `type` is one scalar type, and `required` lists it.
 *
 * @param written The arguments as written, in argv order.
 * @param command The `command` array as written (a literal `--` element is looked for).
 * @param schema The tool's input schema (already checked to be an object).
 * @param report Where problems go.
 * @returns The arguments, or `undefined` when any is refused (reported).
 */
export function checkArguments(
  written: readonly WrittenArgument[],
  command: readonly unknown[],
  schema: Json,
  report: Report,
): InputArgument[] | undefined {
  const properties = isObject(schema.properties) ? schema.properties : undefined;
  const required = Array.isArray(schema.required) ? schema.required : [];
  const dashes = command.indexOf("--");
  const out: InputArgument[] = [];
  let ok = true;
  for (const { index, field } of written) {
    const where = ["command", index, "input"] as const;
    const label = `command[${index}].input`;
    const name = JSON.stringify(field);
    const property = properties !== undefined && Object.hasOwn(properties, field)
      ? properties[field]
      : undefined;
    if (property === undefined) {
      const near = nearWords(field, properties === undefined ? [] : Object.keys(properties), 1)[0];
      report(
        [...where],
        "value",
        label,
        near === undefined
          ? phrase("manifest.argument_unknown", { name })
          : phrase("manifest.argument_unknown_near", { name, near: JSON.stringify(near) }),
      );
      ok = false;
      continue;
    }
    const type = isObject(property) ? property.type : undefined;
    if (typeof type !== "string" || !(ARGUMENT_TYPES as readonly string[]).includes(type)) {
      const found = type === undefined ? phrase("found.nothing") : show(type);
      report([...where], "value", label, phrase("manifest.argument_type", { name, found }));
      ok = false;
      continue;
    }
    if (!required.includes(field)) {
      report([...where], "value", label, phrase("manifest.argument_optional", { name }));
      ok = false;
      continue;
    }
    out.push({
      index,
      field,
      type: type as ArgumentType,
      afterDashes: dashes !== -1 && dashes < index,
    });
  }
  return ok ? out : undefined;
}
