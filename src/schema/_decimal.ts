/**
 * `multipleOf` judged exactly, in decimal: `0.07` is a multiple of `0.01`, as a person reads it,
 * although `0.07 / 0.01` is `7.000000000000001` in binary floating point (which made ajv's own check
 * refuse it). Each number is taken as the shortest decimal that reads back as the same double (what
 * `String(n)` writes: the number as the caller wrote it, unless they wrote more than 17 significant
 * digits), and the two are compared as integers scaled by a common power of ten.
 *
 * The function runs in validators compiled now and in standalone code read back from the disk
 * cache, which reaches it by the name in {@linkcode isMultipleOf.code} (see `_runtime.ts`).
 *
 * @module
 */

import { DECIMAL_MODULE } from "./_key.ts";

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/;

/** `n` as digits × 10^exponent, from its shortest decimal form. */
function decimal(n: number): [digits: bigint, exponent: number] {
  const [, sign = "", whole = "", fraction = "", exponent = "0"] = DECIMAL.exec(String(n)) ?? [];
  return [BigInt(`${sign}${whole}${fraction}` || "0"), Number(exponent) - fraction.length];
}

function check(value: number, divisor: number): boolean {
  if (!Number.isFinite(value) || !Number.isFinite(divisor) || divisor === 0) return false;
  if (Number.isSafeInteger(value) && Number.isSafeInteger(divisor)) return value % divisor === 0;
  const [a, aExponent] = decimal(value);
  const [b, bExponent] = decimal(divisor);
  const common = Math.min(aExponent, bExponent);
  const scaledA = a * 10n ** BigInt(aExponent - common);
  const scaledB = b * 10n ** BigInt(bExponent - common);
  return scaledA % scaledB === 0n;
}

/** The check as ajv's keyword uses it: a function, and how standalone code names it. */
export interface MultipleOfCheck {
  (value: number, divisor: number): boolean;
  /** The expression standalone code evaluates to get the function. */
  code: string;
}

/**
 * Tells whether `value` is an integer multiple of `divisor`, exactly, in decimal.
 *
 * @param value The number being checked (finite).
 * @param divisor The schema's `multipleOf` (finite, greater than 0).
 * @returns Whether `value / divisor` is an integer in decimal arithmetic; `false` for a divisor of
 * 0 or a number that is not finite.
 *
 * @example Decimal multiples
 * ```ts
 * import { isMultipleOf } from "./_decimal.ts";
 * console.assert(isMultipleOf(19.99, 0.01) && isMultipleOf(0.29, 0.01) && isMultipleOf(0.07, 0.01));
 * console.assert(!isMultipleOf(0.075, 0.01) && isMultipleOf(1e21, 5) && !isMultipleOf(7, 2));
 * ```
 */
export const isMultipleOf: MultipleOfCheck = Object.assign(check, {
  code: `require(${JSON.stringify(DECIMAL_MODULE)}).isMultipleOf`,
});
