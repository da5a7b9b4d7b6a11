/**
 * Turns ajv's first failure into one line naming the field (a JSON pointer, `(root)` for the whole
 * input) and what was expected.
 *
 * @module
 */

import { oneLine, pointerChild as child, showValue } from "../text.ts";
import type { AjvError } from "./_types.ts";

/** How the whole input is named, since `""` reads as nothing and `/` is the property `""`. */
export const ROOT = "(root)";

const ENUM_BUDGET = 120;

function listValues(values: unknown): string {
  if (!Array.isArray(values)) return showValue(values);
  const shown: string[] = [];
  let used = 0;
  for (const value of values) {
    const text = showValue(value);
    if (shown.length > 0 && used + text.length > ENUM_BUDGET) break;
    shown.push(text);
    used += text.length + 2;
  }
  const more = values.length - shown.length;
  return more > 0 ? `${shown.join(", ")}, … (${more} more)` : shown.join(", ");
}

function typeNames(type: unknown): string {
  const names = Array.isArray(type) ? type.map(String) : String(type).split(",");
  return names.join(" or ");
}

/** Where the failure is and what was expected, before escaping and cutting. */
function locate(error: AjvError): [pointer: string, text: string] {
  const { instancePath, params } = error;
  const said = error.message ?? `must pass "${error.keyword}"`;
  if (error.propertyName !== undefined) {
    return [child(instancePath, error.propertyName), `property name ${said}`];
  }
  switch (error.keyword) {
    case "required":
      return [child(instancePath, params.missingProperty), "required property is missing"];
    case "dependencies":
    case "dependentRequired":
      return [
        child(instancePath, params.missingProperty),
        `required property is missing (required when ${showValue(params.property)} is present)`,
      ];
    case "additionalProperties":
      return [child(instancePath, params.additionalProperty), "property is not allowed"];
    case "unevaluatedProperties":
      return [child(instancePath, params.unevaluatedProperty), "property is not allowed"];
    case "enum":
      return [instancePath, `must be one of: ${listValues(params.allowedValues)}`];
    case "const":
      return [instancePath, `must be equal to ${showValue(params.allowedValue)}`];
    case "type":
      return [instancePath, `must be ${typeNames(params.type)}`];
    case "false schema":
      return [instancePath, "is not allowed"];
    default:
      return [instancePath, said];
  }
}

/**
 * Describes one ajv failure as `pointer: what was expected`, on one line.
 *
 * @param error The failure.
 * @returns For example `/items/0/count: must be integer` or `/text: required property is missing`.
 *
 * @example Point at the missing property
 * ```ts
 * import { describeError } from "./_message.ts";
 * const error = { instancePath: "", schemaPath: "#/required", keyword: "required", params: { missingProperty: "text" } };
 * console.assert(describeError(error) === "/text: required property is missing");
 * ```
 */
export function describeError(error: AjvError): string {
  const [pointer, text] = locate(error);
  return `${oneLine(pointer === "" ? ROOT : pointer, 200)}: ${oneLine(text)}`;
}

/**
 * The message of an input the schema refused.
 *
 * @param toolName The tool whose schema refused the input.
 * @param error The first failure, `undefined` when ajv gave none, or a ready `pointer: text` line.
 * @returns `Input refused by tool "name" schema: pointer: expected`.
 *
 * @example Name the tool and the field
 * ```ts
 * import { refusal } from "./_message.ts";
 * const error = { instancePath: "/n", schemaPath: "#/properties/n/type", keyword: "type", params: { type: "integer" } };
 * console.assert(refusal("wc", error) === 'Input refused by tool "wc" schema: /n: must be integer');
 * ```
 */
export function refusal(toolName: string, error: AjvError | string | undefined): string {
  const detail = error === undefined
    ? `${ROOT}: is not valid`
    : typeof error === "string"
    ? error
    : describeError(error);
  return `Input refused by tool ${showValue(toolName, 80)} schema: ${detail}`;
}
