/**
 * A schema refusal in the tool's locale, from the gate's error: the field (a JSON pointer) and what
 * was expected. In English the contract uses the gate's own message; in another locale the failure
 * ajv reported (the error's `cause`) is worded here from the catalogue, the keywords ajv knows and
 * this catalogue does not falling back to ajv's English text. The English catalogue words them as
 * the gate does (a test keeps them equal). Private to the contract.
 *
 * @module
 */

import type { MessageKey } from "../locale/en_us.ts";
import type { Messages } from "../locale/messages.ts";
import { oneLine, pointerChild as child, showValue } from "../text.ts";
import { quote } from "./_words.ts";

/** ajv's failure, as the gate keeps it in the error's `cause`. */
interface Failure {
  instancePath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
  propertyName?: string;
}

const ENUM_BUDGET = 120;

function listValues(words: Messages, values: unknown): string {
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
  return more > 0 ? words.t("schema.enum_more", { values: list, count: more }) : list;
}

function isFailure(value: unknown): value is Failure {
  if (typeof value !== "object" || value === null) return false;
  const failure = value as Partial<Failure>;
  return typeof failure.keyword === "string" && typeof failure.instancePath === "string" &&
    typeof failure.params === "object" && failure.params !== null;
}

const LIMITS: Readonly<Record<string, MessageKey>> = {
  minLength: "schema.min_length",
  maxLength: "schema.max_length",
  minItems: "schema.min_items",
  maxItems: "schema.max_items",
  additionalItems: "schema.max_items",
  unevaluatedItems: "schema.max_items",
  minProperties: "schema.min_properties",
  maxProperties: "schema.max_properties",
};

const COMPARISONS = new Set([
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "formatMinimum",
  "formatMaximum",
  "formatExclusiveMinimum",
  "formatExclusiveMaximum",
]);

/** What was expected, for keywords that are not about a missing or extra property. */
function expected(words: Messages, failure: Failure): string {
  const { keyword, params } = failure;
  const limitKey = LIMITS[keyword];
  if (limitKey !== undefined && params.limit !== undefined) {
    return words.t(limitKey, { limit: String(params.limit) });
  }
  if (COMPARISONS.has(keyword) && params.comparison !== undefined) {
    return words.t("schema.compare", {
      comparison: String(params.comparison),
      limit: String(params.limit),
    });
  }
  switch (keyword) {
    case "enum":
      return words.t("schema.enum", { values: listValues(words, params.allowedValues) });
    case "const":
      return words.t("schema.const", { value: showValue(params.allowedValue) });
    case "type": {
      const names = Array.isArray(params.type)
        ? params.type.map(String)
        : String(params.type).split(",");
      return words.t("schema.type", { types: names.join(` ${words.t("schema.or")} `) });
    }
    case "false schema":
      return words.t("schema.false");
    case "pattern":
      return words.t("schema.pattern", { pattern: String(params.pattern) });
    case "format":
      return words.t("schema.format", { format: String(params.format) });
    case "multipleOf":
      return words.t("schema.multiple_of", { value: String(params.multipleOf) });
    case "uniqueItems":
      return words.t("schema.unique", { first: String(params.j), second: String(params.i) });
    case "oneOf":
      return words.t("schema.one_of");
    case "anyOf":
      return words.t("schema.any_of");
    case "not":
      return words.t("schema.not");
    case "if":
      return words.t("schema.if", { clause: String(params.failingKeyword) });
    case "contains":
      if (params.maxContains === undefined && params.minContains !== undefined) {
        return words.t("schema.contains", { min: String(params.minContains) });
      }
  }
  return failure.message ?? `must pass "${keyword}"`;
}

/** Where the failure is and what was expected, before cutting. */
function locate(words: Messages, failure: Failure): [pointer: string, text: string] {
  const { instancePath, params } = failure;
  if (failure.propertyName !== undefined) {
    return [
      child(instancePath, failure.propertyName),
      words.t("schema.property_name", { reason: expected(words, failure) }),
    ];
  }
  switch (failure.keyword) {
    case "required":
      return [child(instancePath, params.missingProperty), words.t("schema.required")];
    case "dependencies":
    case "dependentRequired":
      return [
        child(instancePath, params.missingProperty),
        words.t("schema.required_when", { property: showValue(params.property) }),
      ];
    case "additionalProperties":
      return [child(instancePath, params.additionalProperty), words.t("schema.not_allowed")];
    case "unevaluatedProperties":
      return [child(instancePath, params.unevaluatedProperty), words.t("schema.not_allowed")];
    default:
      return [instancePath, expected(words, failure)];
  }
}

/**
 * Words a refusal from the failure the gate kept (ajv's, or the RangeError / TypeError of an input
 * that cannot be checked), in any locale.
 *
 * @param words The locale's messages.
 * @param tool The tool's name.
 * @param cause The gate error's `cause`.
 * @returns One line.
 */
export function renderRefusal(words: Messages, tool: string, cause: unknown): string {
  const root = words.t("schema.root");
  let pointer = root;
  let reason: string;
  if (cause instanceof RangeError) {
    reason = words.t("schema.too_deep");
  } else if (cause instanceof TypeError) {
    reason = words.t("schema.not_json");
  } else if (isFailure(cause)) {
    const [where, text] = locate(words, cause);
    pointer = where === "" ? root : oneLine(where, 200);
    reason = oneLine(text);
  } else {
    reason = words.t("schema.invalid");
  }
  return words.t("schema.refused", { tool: oneLine(quote(tool), 80), pointer, reason });
}
