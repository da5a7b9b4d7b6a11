/**
 * Why a schema's pattern cannot run on the linear-time engine, as a phrase naming where in the
 * schema the pattern is (`check` shows it; a call of the tool is refused with it).
 *
 * @module
 */

import { type Phrase, phrase } from "../locale/messages.ts";
import { escapeToken, oneLine, showValue } from "../text.ts";
import type { UnsupportedPattern } from "./_regexp_syntax.ts";

/** RE2's words start with this; the phrase already says that RE2 refused the pattern. */
const RE2_PREFIX = "error parsing regexp: ";

/**
 * Where the first `pattern` keyword or `patternProperties` key equal to `pattern` is, as a JSON
 * pointer into the schema, walking it without recursion.
 */
function whereIs(schema: unknown, pattern: string): string | undefined {
  const pending: [value: unknown, pointer: string][] = [[schema, ""]];
  const seen = new Set<object>();
  while (pending.length > 0) {
    const [value, pointer] = pending.shift()!;
    if (typeof value !== "object" || value === null || seen.has(value)) continue;
    seen.add(value);
    const record = value as Record<string, unknown>;
    if (!Array.isArray(value)) {
      if (record.pattern === pattern) return `${pointer}/pattern`;
      const properties = record.patternProperties;
      if (
        typeof properties === "object" && properties !== null && Object.hasOwn(properties, pattern)
      ) {
        return `${pointer}/patternProperties/${escapeToken(pattern)}`;
      }
    }
    for (const key of Object.keys(record)) {
      pending.push([record[key], `${pointer}/${escapeToken(key)}`]);
    }
  }
  return undefined;
}

/**
 * The problem of a schema holding a pattern the engine refused.
 *
 * @param error What the engine said.
 * @param schema The schema (to find the pattern in).
 * @returns `unsupported pattern "(a)\\1" at /properties/id/pattern: backreferences …`.
 *
 * @example Name the pattern and where it is
 * ```ts
 * import { patternProblem } from "./_pattern_problem.ts";
 * import { UnsupportedPattern } from "./_regexp_syntax.ts";
 * import { english } from "../locale/messages.ts";
 * const schema = { properties: { id: { pattern: "(?=x)" } } };
 * const line = english(patternProblem(new UnsupportedPattern("(?=x)", "lookahead"), schema));
 * console.assert(line.startsWith('unsupported pattern "(?=x)" at /properties/id/pattern: '));
 * ```
 */
export function patternProblem(error: UnsupportedPattern, schema: unknown): Phrase {
  const where = whereIs(schema, error.pattern);
  const detail = oneLine((error.detail ?? "").replace(RE2_PREFIX, ""));
  const reason = error.feature === "backreference"
    ? phrase("schema_problem.regex_backreference")
    : error.feature === "lookahead"
    ? phrase("schema_problem.regex_lookahead")
    : phrase("schema_problem.regex_engine", { detail });
  return phrase("schema_problem.pattern_unsupported", {
    pattern: showValue(error.pattern, 200),
    pointer: where === undefined ? phrase("schema.root") : oneLine(where, 200),
    reason,
  });
}
