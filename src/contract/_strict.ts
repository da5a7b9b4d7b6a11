/**
 * Whether an input schema qualifies for OpenAI's strict mode (`"strict": true` on a function),
 * where the model's arguments are constrained to the schema as it decodes. OpenAI refuses a strict
 * function whose schema leaves its subset of JSON Schema, so a definition is marked strict only when
 * every rule holds. Private to the contract.
 *
 * The rules (OpenAI's "Supported schemas" for Structured Outputs): the root is an object; every
 * object says `additionalProperties: false` and lists every property in `required`; only the
 * keywords below appear; `items` is one schema; `$ref` points into `$defs` or `definitions` (or is
 * `#`); at most 10 levels of nested objects, 5000 properties and 1000 enum values in all.
 *
 * @module
 */

import { jsonKind } from "../json_kind.ts";

/** Keywords strict mode takes, on any schema (then those of objects, arrays, strings, numbers). */
const KEYWORDS = new Set(
  ("type description title enum const anyOf $ref $defs definitions properties required " +
    "additionalProperties items minItems maxItems pattern format minimum maximum " +
    "exclusiveMinimum exclusiveMaximum multipleOf").split(" "),
);
const TYPES: ReadonlySet<unknown> = new Set(
  "string number integer boolean object array null".split(" "),
);
const FORMATS = new Set("date-time time date duration email hostname ipv4 ipv6 uuid".split(" "));
/** At most 10 levels of nested objects, 5000 properties and 1000 enum values in all. */
const [MAX_DEPTH, MAX_PROPERTIES, MAX_ENUM_VALUES] = [10, 5000, 1000];

/**
 * Tells whether a schema (as the definition carries it: `"type": "object"` at the top) may be
 * sent with `"strict": true`.
 *
 * @param schema The input schema.
 * @returns True only when every rule of strict mode holds.
 *
 * @example A closed object qualifies; an open one does not
 * ```ts
 * import { qualifiesForStrict } from "./_strict.ts";
 * const closed = {
 *   type: "object",
 *   properties: { q: { type: "string" } },
 *   required: ["q"],
 *   additionalProperties: false,
 * };
 * console.assert(qualifiesForStrict(closed));
 * console.assert(!qualifiesForStrict({ type: "object", properties: { q: { type: "string" } } }));
 * ```
 */
export function qualifiesForStrict(schema: Record<string, unknown>): boolean {
  if (schema.type !== "object" || "anyOf" in schema) return false;
  const counts = { properties: 0, enums: 0 };
  return fits(schema, 1, counts) && counts.properties <= MAX_PROPERTIES &&
    counts.enums <= MAX_ENUM_VALUES;
}

const isRecord = (value: unknown): value is Record<string, unknown> => jsonKind(value) === "object";

function fits(
  node: unknown,
  depth: number,
  counts: { properties: number; enums: number },
): boolean {
  if (!isRecord(node) || !Object.keys(node).every((key) => KEYWORDS.has(key))) return false;
  const { type, format, $ref: ref } = node;
  const types = typeof type === "string" ? [type] : type;
  const typed = Array.isArray(types) && types.length > 0 && types.every((t) => TYPES.has(t));
  if (type !== undefined && !typed) return false;
  // A schema that says nothing of its kind (`{}`: anything) cannot be decoded to.
  if (!["type", "anyOf", "$ref", "enum", "const"].some((key) => key in node)) return false;
  if ("format" in node && !(typeof format === "string" && FORMATS.has(format))) return false;
  const known = typeof ref === "string" && /^#(?:$|\/\$defs\/|\/definitions\/)/.test(ref);
  if ("$ref" in node && !known) return false;
  if ("enum" in node) {
    if (!Array.isArray(node.enum)) return false;
    counts.enums += node.enum.length;
  }
  if ((Array.isArray(types) && types.includes("object")) || "properties" in node) {
    const { properties = {}, required = [] } = node;
    if (depth > MAX_DEPTH || node.additionalProperties !== false || !isRecord(properties)) {
      return false;
    }
    const names = Object.keys(properties);
    counts.properties += names.length;
    if (!Array.isArray(required) || required.length !== names.length) return false;
    const fit = (name: string) =>
      required.includes(name) && fits(properties[name], depth + 1, counts);
    if (!names.every(fit)) return false;
  } else if ("additionalProperties" in node || "required" in node) {
    return false;
  }
  if ("items" in node && !fits(node.items, depth, counts)) return false;
  if ("anyOf" in node) {
    const { anyOf } = node;
    if (!Array.isArray(anyOf) || anyOf.length === 0) return false;
    if (!anyOf.every((branch) => fits(branch, depth, counts))) return false;
  }
  for (const key of ["$defs", "definitions"].filter((key) => key in node)) {
    const defs = node[key];
    if (!isRecord(defs) || !Object.values(defs).every((def) => fits(def, depth, counts))) {
      return false;
    }
  }
  return true;
}
