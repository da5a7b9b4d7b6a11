/**
 * Turns ajv's first failure into one line naming the field (a JSON pointer, `(root)` for the whole
 * input) and what was expected, as a phrase any locale can word; English is the catalogue's. Where
 * the catalogue has no words for a keyword, ajv's own English text is kept as it is.
 *
 * @module
 */

import type { MessageKey } from "../locale/en_us.ts";
import { listOf, type Phrase, phrase } from "../locale/messages.ts";
import { oneLine, pointerChild as child, showValue } from "../text.ts";
import type { AjvError } from "./_types.ts";

/** How the whole input is named, since `""` reads as nothing and `/` is the property `""`. */

const ENUM_BUDGET = 120;

/** What was expected: a phrase, or ajv's own text where the catalogue has no words for it. */
type Expected = Phrase | string;

function listValues(values: unknown): string | Phrase {
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
  const list = shown.join(", ");
  return more > 0 ? phrase("schema.enum_more", { values: list, count: more }) : list;
}

/** `a`, `a or b`, `a, b or c`, … */
function typeNames(type: unknown): Phrase {
  const names = Array.isArray(type) ? type.map(String) : String(type).split(",");
  return listOf(names.map((name) => oneLine(name)), "join.or");
}

/** ajv's own text for a failure. */
function said(error: AjvError): string {
  return oneLine(error.message ?? `must pass "${error.keyword}"`);
}

const LIMITS: Readonly<Record<string, MessageKey>> = {
  minLength: "schema.min_length",
  maxLength: "schema.max_length",
  minItems: "schema.min_items",
  maxItems: "schema.max_items",
  // Items beyond the ones a schema allows.
  items: "schema.max_items",
  additionalItems: "schema.max_items",
  unevaluatedItems: "schema.max_items",
  minProperties: "schema.min_properties",
  maxProperties: "schema.max_properties",
};

const COMPARISONS: ReadonlySet<string> = new Set([
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
]);

/**
 * The catalogue's words for what ajv says in the same words (so English is unchanged), or
 * `undefined` for a keyword the catalogue does not word that way.
 */
function sameAsAjv(error: AjvError): Phrase | undefined {
  const { keyword, params } = error;
  const text = (value: unknown) => oneLine(String(value));
  const limitKey = LIMITS[keyword];
  if (limitKey !== undefined && params.limit !== undefined) {
    return phrase(limitKey, { limit: text(params.limit) });
  }
  if (COMPARISONS.has(keyword) && params.comparison !== undefined) {
    return phrase("schema.compare", {
      comparison: text(params.comparison),
      limit: text(params.limit),
    });
  }
  switch (keyword) {
    case "pattern":
      return phrase("schema.pattern", { pattern: text(params.pattern) });
    case "format":
      return phrase("schema.format", { format: text(params.format) });
    case "multipleOf":
      return phrase("schema.multiple_of", { value: text(params.multipleOf) });
    case "uniqueItems":
      return phrase("schema.unique", { first: text(params.j), second: text(params.i) });
    case "oneOf":
      return phrase("schema.one_of");
    case "anyOf":
      return phrase("schema.any_of");
    case "not":
      return phrase("schema.not");
    case "if":
      return phrase("schema.if", { clause: text(params.failingKeyword) });
    case "contains":
      if (params.minContains === undefined) break;
      return params.maxContains === undefined
        ? phrase("schema.contains", { min: text(params.minContains) })
        : phrase("schema.contains_between", {
          min: text(params.minContains),
          max: text(params.maxContains),
        });
  }
  return undefined;
}

/**
 * Where a failure is (the JSON pointer of the field it names: for a missing, unknown or badly named
 * property, that property's) and what was expected, before escaping and cutting.
 *
 * @param error The failure.
 * @returns The pointer and the reason.
 */
export function locate(error: AjvError): [pointer: string, expected: Expected] {
  const { instancePath, params } = error;
  if (error.propertyName !== undefined) {
    const reason = sameAsAjv(error) ?? said(error);
    return [child(instancePath, error.propertyName), phrase("schema.property_name", { reason })];
  }
  switch (error.keyword) {
    case "required":
      return [child(instancePath, params.missingProperty), phrase("schema.required")];
    case "dependencies":
    case "dependentRequired":
      return [
        child(instancePath, params.missingProperty),
        phrase("schema.required_when", { property: showValue(params.property) }),
      ];
    case "additionalProperties":
      return [child(instancePath, params.additionalProperty), phrase("schema.not_allowed")];
    case "unevaluatedProperties":
      return [child(instancePath, params.unevaluatedProperty), phrase("schema.not_allowed")];
    case "enum":
      return [instancePath, phrase("schema.enum", { values: listValues(params.allowedValues) })];
    case "const":
      return [instancePath, phrase("schema.const", { value: showValue(params.allowedValue) })];
    case "type":
      return [instancePath, phrase("schema.type", { types: typeNames(params.type) })];
    case "false schema":
      return [instancePath, phrase("schema.false")];
    default:
      return [instancePath, sameAsAjv(error) ?? said(error)];
  }
}

/**
 * One ajv failure as the values of a phrase: `pointer` (the root as the catalogue names it) and
 * `reason`, each on one line.
 *
 * @param error The failure.
 * @returns The values, for a message with `{pointer}` and `{reason}` placeholders.
 *
 * @example Word a failure in any locale
 * ```ts
 * import { failureParams } from "./_message.ts";
 * import { english, phrase } from "../locale/messages.ts";
 * const error = { instancePath: "/n", schemaPath: "#/type", keyword: "type", params: { type: "integer" } };
 * const line = english(phrase("schema_problem.invalid_at", failureParams(error)));
 * console.assert(line === "invalid JSON Schema: /n: must be integer");
 * ```
 */
export function failureParams(error: AjvError): { pointer: string | Phrase; reason: Expected } {
  const [pointer, reason] = locate(error);
  return { pointer: pointer === "" ? phrase("schema.root") : oneLine(pointer, 200), reason };
}

/**
 * The refusal of an input, as a phrase: the tool, the field (a JSON pointer) and what was
 * expected. Its English is the gate's message; a host words it in its locale.
 *
 * @param toolName The tool whose schema refused the input.
 * @param failure ajv's first failure (`undefined` when ajv named none), or where and why the input
 *   could not be checked at all (a JSON pointer, `""` for the whole input).
 * @param key The sentence: an input refused (the default), or a structured output that does not
 *   match the tool's output schema.
 * @returns `Input refused by tool "name" schema: pointer: expected`.
 *
 * @example Name the tool and the field
 * ```ts
 * import { refusal } from "./_message.ts";
 * import { english } from "../locale/messages.ts";
 * const error = { instancePath: "/n", schemaPath: "#/properties/n/type", keyword: "type", params: { type: "integer" } };
 * console.assert(english(refusal("wc", error)) === 'Input refused by tool "wc" schema: /n: must be integer');
 * ```
 */
export function refusal(
  toolName: string,
  failure: AjvError | { readonly pointer: string; readonly reason: Phrase } | undefined,
  key: "schema.refused" | "schema.output_refused" = "schema.refused",
): Phrase {
  const tool = showValue(toolName, 80);
  if (failure === undefined) {
    return phrase(key, {
      tool,
      pointer: phrase("schema.root"),
      reason: phrase("schema.invalid"),
    });
  }
  if ("keyword" in failure) return phrase(key, { tool, ...failureParams(failure) });
  const { pointer, reason } = failure;
  return phrase(key, {
    tool,
    pointer: pointer === "" ? phrase("schema.root") : oneLine(pointer, 200),
    reason,
  });
}
