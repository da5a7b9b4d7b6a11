/**
 * Checks made on a schema before ajv sees it: it must be an object or a boolean, and no object in it
 * may have a `__proto__` key, which ajv compiles wrongly and which standalone code (JavaScript object
 * literals) would turn into a prototype.
 *
 * @module
 */

import { type Phrase, phrase } from "../locale/messages.ts";
import { escapeToken } from "../text.ts";

/**
 * Looks for what ajv cannot be trusted with in a schema.
 *
 * @param schema The schema as declared.
 * @returns Why not, as a phrase, or `undefined` when the schema may go to ajv.
 *
 * @example Refuse a `__proto__` key
 * ```ts
 * import { precheckSchema } from "./_shape.ts";
 * import { english } from "../locale/messages.ts";
 * console.assert(precheckSchema({ type: "object" }) === undefined);
 * const reason = precheckSchema(JSON.parse('{"properties": {"__proto__": {}}}'));
 * console.assert(reason !== undefined && english(reason).includes("/properties/__proto__"));
 * ```
 */
export function precheckSchema(schema: unknown): Phrase | undefined {
  const shaped = typeof schema === "boolean" ||
    (typeof schema === "object" && schema !== null && !Array.isArray(schema));
  if (!shaped) {
    return phrase("schema_problem.invalid", { detail: phrase("schema_problem.not_schema") });
  }
  const pending: [value: unknown, pointer: string][] = [[schema, ""]];
  const seen = new Set<object>();
  while (pending.length > 0) {
    const [value, pointer] = pending.pop() as [unknown, string];
    if (typeof value !== "object" || value === null || seen.has(value)) continue;
    seen.add(value);
    for (const key of Object.keys(value)) {
      if (key === "__proto__") {
        return phrase("schema_problem.invalid_at", {
          pointer: `${pointer}/__proto__`,
          reason: phrase("schema_problem.proto_key"),
        });
      }
      pending.push([(value as Record<string, unknown>)[key], `${pointer}/${escapeToken(key)}`]);
    }
  }
  return undefined;
}
