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

/** Keywords strict mode takes, on any schema (then those of objects, arrays, strings, numbers). */
const KEYWORDS: ReadonlySet<string> = words(
  "type description title enum const anyOf $ref $defs definitions " +
    "properties required additionalProperties items minItems maxItems pattern format " +
    "minimum maximum exclusiveMinimum exclusiveMaximum multipleOf",
);
const TYPES: ReadonlySet<string> = words("string number integer boolean object array null");
const FORMATS: ReadonlySet<string> = words(
  "date-time time date duration email hostname ipv4 ipv6 uuid",
);

function words(text: string): ReadonlySet<string> {
  return new Set(text.split(" "));
}

const MAX_DEPTH = 10;
const MAX_PROPERTIES = 5000;
const MAX_ENUM_VALUES = 1000;

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

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function fits(
  node: unknown,
  depth: number,
  counts: { properties: number; enums: number },
): boolean {
  if (!isRecord(node)) return false;
  for (const key of Object.keys(node)) if (!KEYWORDS.has(key)) return false;
  if (!typesFit(node.type)) return false;
  // A schema that says nothing of its kind (`{}`: anything) cannot be decoded to.
  if (!["type", "anyOf", "$ref", "enum", "const"].some((key) => key in node)) return false;
  if ("format" in node && !(typeof node.format === "string" && FORMATS.has(node.format))) {
    return false;
  }
  if ("$ref" in node) {
    const ref = node.$ref;
    if (
      typeof ref !== "string" ||
      !(ref === "#" || ref.startsWith("#/$defs/") || ref.startsWith("#/definitions/"))
    ) return false;
  }
  if ("enum" in node) {
    if (!Array.isArray(node.enum)) return false;
    counts.enums += node.enum.length;
  }
  const isObject = node.type === "object" ||
    (Array.isArray(node.type) && node.type.includes("object")) || "properties" in node;
  if (isObject) {
    if (depth > MAX_DEPTH) return false;
    if (node.additionalProperties !== false) return false;
    const properties = node.properties ?? {};
    if (!isRecord(properties)) return false;
    const names = Object.keys(properties);
    counts.properties += names.length;
    const required = node.required ?? [];
    if (!Array.isArray(required) || required.length !== names.length) return false;
    if (!names.every((name) => required.includes(name))) return false;
    for (const name of names) if (!fits(properties[name], depth + 1, counts)) return false;
  } else if ("additionalProperties" in node || "required" in node) {
    return false;
  }
  if ("items" in node && !fits(node.items, depth, counts)) return false;
  if ("anyOf" in node) {
    if (!Array.isArray(node.anyOf) || node.anyOf.length === 0) return false;
    for (const branch of node.anyOf) if (!fits(branch, depth, counts)) return false;
  }
  for (const key of ["$defs", "definitions"] as const) {
    if (!(key in node)) continue;
    const defs = node[key];
    if (!isRecord(defs)) return false;
    for (const def of Object.values(defs)) if (!fits(def, depth, counts)) return false;
  }
  return true;
}

function typesFit(type: unknown): boolean {
  if (type === undefined) return true;
  if (typeof type === "string") return TYPES.has(type);
  return Array.isArray(type) && type.length > 0 &&
    type.every((item) => typeof item === "string" && TYPES.has(item));
}
