/**
 * What a compiled validator depends on, and the cache key derived from it.
 *
 * @module
 */

import type { Draft } from "./_draft.ts";

/** The ajv version compiled code comes from; must match `deno.json` (a test checks). */
export const AJV_VERSION = "8.20.0";

/** The ajv-formats version format checks come from; must match `deno.json` (a test checks). */
export const AJV_FORMATS_VERSION = "3.0.1";

/** The re2js version patterns run on; must match `deno.json` (a test checks). */
export const RE2JS_VERSION = "2.10.0";

/** Bumped whenever the cache file layout or the runtime shim changes meaning. */
export const CACHE_FORMAT = 2;

/** The name standalone code requires the linear-time regular expression engine by (`_regexp.ts`). */
export const REGEXP_MODULE = "basis-tools/linear-regexp";

/** The name standalone code requires the exact `multipleOf` check by (`_decimal.ts`). */
export const DECIMAL_MODULE = "basis-tools/decimal";

/**
 * What the compiler is given beside {@linkcode AJV_OPTIONS}, which cannot be written as JSON: the
 * regular expression engine (`code.regExp`) and the keywords defined in place of ajv's own.
 */
export const COMPILER_ADDITIONS = {
  regExp: `${REGEXP_MODULE} re2js@${RE2JS_VERSION}`,
  keywords: [`multipleOf ${DECIMAL_MODULE}`],
} as const;

/**
 * The ajv options every validator is compiled with: unknown keywords ignored, formats checked, first
 * failure only, input never coerced or filled in, only own properties counted, no console output.
 */
export const AJV_OPTIONS = {
  strict: false,
  allErrors: false,
  validateFormats: true,
  useDefaults: false,
  coerceTypes: false,
  removeAdditional: false,
  ownProperties: true,
  messages: true,
  logger: false,
  code: { source: true },
} as const;

/** How ajv-formats is added: every format, full (not fast) checks, no extra keywords. */
export const FORMATS_OPTIONS = { mode: "full", keywords: false } as const;

const FINGERPRINT = JSON.stringify([
  CACHE_FORMAT,
  AJV_VERSION,
  AJV_FORMATS_VERSION,
  AJV_OPTIONS,
  FORMATS_OPTIONS,
  COMPILER_ADDITIONS,
]);

/**
 * The cache key of one schema: the hex SHA-256 of the versions, the draft, the options (the regular
 * expression engine and the keywords replaced included) and the schema's JSON text.
 *
 * @param draft The draft the schema is compiled as.
 * @param schemaText `JSON.stringify` of the schema.
 * @param allErrors Whether the validator reports every failure (not only the first).
 * @returns 64 lowercase hex digits.
 *
 * @example Different drafts, different keys
 * ```ts
 * import { cacheKey } from "./_key.ts";
 * const a = await cacheKey("draft-07", "{}");
 * console.assert(a.length === 64 && a !== await cacheKey("2020-12", "{}"));
 * ```
 */
export async function cacheKey(
  draft: Draft,
  schemaText: string,
  allErrors = false,
): Promise<string> {
  const variant = allErrors ? `${draft} allErrors` : draft;
  const bytes = new TextEncoder().encode(`${FINGERPRINT}\n${variant}\n${schemaText}`);
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  let hex = "";
  for (const byte of digest) hex += byte.toString(16).padStart(2, "0");
  return hex;
}
