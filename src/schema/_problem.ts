/**
 * Why a schema cannot be compiled, as the disk cache keeps it: the phrase (a message key and its
 * values) as JSON, so a later process can word it in any locale without compiling again. What is
 * read back is checked, since the cache is a file anyone with the user's rights may have changed.
 *
 * @module
 */

import { EN_US } from "../locale/en_us.ts";
import type { Phrase, PhraseParams } from "../locale/messages.ts";

/** Only the gate's own messages may come from the cache. */
const SCHEMA_KEY = /^(?:schema|schema_problem|join)\.[a-z_]+$/;

/** How placeholders are named (which also keeps `__proto__` out). */
const PARAM_NAME = /^[a-z][a-z_]*$/;

/** Deeper than this, a cached phrase is not one the gate wrote. */
const MAX_DEPTH = 8;

/**
 * Writes a schema problem as the text of a cache file.
 *
 * @param problem Why the schema cannot be compiled.
 * @returns One line of JSON.
 *
 * @example Round trip
 * ```ts
 * import { problemText, readProblem } from "./_problem.ts";
 * const problem = { key: "schema_problem.unresolved_ref", params: { ref: '"#/x"' } } as const;
 * console.assert(readProblem(problemText(problem))?.params?.ref === '"#/x"');
 * ```
 */
export function problemText(problem: Phrase): string {
  return JSON.stringify(problem);
}

/**
 * Reads a schema problem back from a cache file's text.
 *
 * @param text The file's body.
 * @returns The phrase, or `undefined` when the text is not a phrase the gate could have written
 * (not JSON, a key outside the schema messages, a value that is not text, a number or a phrase).
 *
 * @example Refuse what the gate never writes
 * ```ts
 * import { readProblem } from "./_problem.ts";
 * console.assert(readProblem('{"key": "schema_problem.not_json"}')?.key === "schema_problem.not_json");
 * console.assert(readProblem('{"key": "label.tool"}') === undefined);
 * console.assert(readProblem("invalid JSON Schema") === undefined);
 * ```
 */
export function readProblem(text: string): Phrase | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  return asPhrase(value, 0);
}

function asPhrase(value: unknown, depth: number): Phrase | undefined {
  if (depth > MAX_DEPTH || typeof value !== "object" || value === null) return undefined;
  const { key, params } = value as { key?: unknown; params?: unknown };
  if (typeof key !== "string" || !SCHEMA_KEY.test(key) || !Object.hasOwn(EN_US, key)) {
    return undefined;
  }
  const known = key as Phrase["key"];
  if (params === undefined) return { key: known };
  if (typeof params !== "object" || params === null || Array.isArray(params)) return undefined;
  const copied: Record<string, string | number | Phrase> = {};
  for (const [name, param] of Object.entries(params)) {
    if (!PARAM_NAME.test(name)) return undefined;
    if (typeof param === "string" || (typeof param === "number" && Number.isFinite(param))) {
      copied[name] = param;
      continue;
    }
    const nested = asPhrase(param, depth + 1);
    if (nested === undefined) return undefined;
    copied[name] = nested;
  }
  return { key: known, params: copied as PhraseParams };
}
