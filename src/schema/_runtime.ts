/**
 * The exact `multipleOf` check standalone code requires (as `DECIMAL_MODULE`); ajv's own runtime
 * modules are loaded one by one, on first need (`_validator.ts`).
 *
 * @module
 */

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/;

/** `n` as digits × 10^exponent, from its shortest decimal form. */
function decimal(n: number): [digits: bigint, exponent: number] {
  const [, sign = "", whole = "", fraction = "", exponent = "0"] = DECIMAL.exec(String(n)) ?? [];
  return [BigInt(`${sign}${whole}${fraction}` || "0"), Number(exponent) - fraction.length];
}

/**
 * Tells whether `value` is an integer multiple of `divisor`, exactly, in decimal: `0.07` is a
 * multiple of `0.01`, as a person reads it, although `0.07 / 0.01` is `7.000000000000001` in binary
 * floating point (which made ajv's own check refuse it). Each number is taken as the shortest
 * decimal that reads back as the same double (what `String(n)` writes), and the two are compared as
 * integers scaled by a common power of ten.
 *
 * @param value The number being checked (finite).
 * @param divisor The schema's `multipleOf` (finite, greater than 0).
 * @returns Whether `value / divisor` is an integer in decimal arithmetic; `false` for a divisor of
 * 0 or a number that is not finite.
 * @example Decimal multiples
 * ```ts
 * import { isMultipleOf } from "./_runtime.ts";
 * console.assert(isMultipleOf(19.99, 0.01) && isMultipleOf(0.29, 0.01) && isMultipleOf(0.07, 0.01));
 * console.assert(!isMultipleOf(0.075, 0.01) && isMultipleOf(1e21, 5) && !isMultipleOf(7, 2));
 * ```
 */
export function isMultipleOf(value: number, divisor: number): boolean {
  if (!Number.isFinite(value) || !Number.isFinite(divisor) || divisor === 0) return false;
  if (Number.isSafeInteger(value) && Number.isSafeInteger(divisor)) return value % divisor === 0;
  const [a, aExponent] = decimal(value);
  const [b, bExponent] = decimal(divisor);
  const common = Math.min(aExponent, bExponent);
  const exact =
    (a * 10n ** BigInt(aExponent - common)) % (b * 10n ** BigInt(bExponent - common)) === 0n;
  if (
    exact && watched !== undefined && watched.miss === undefined && floatRefuses(value, divisor)
  ) {
    watched.miss = { value, divisor };
  }
  return exact;
}

/** A number that is a multiple of its divisor, which a floating-point check says is not. */
export type FloatMiss = { readonly value: number; readonly divisor: number };

let watched: { miss: FloatMiss | undefined } | undefined;

/**
 * Runs a validation, telling the first `multipleOf` it passed that a client checking in binary
 * floating point would fail: ajv's check (the MCP TypeScript SDK's client, Gemini CLI), `q !==
 * parseInt(q)` for `q = value / divisor` (so a quotient of 1e21 or more fails too), and Python's
 * jsonschema (the MCP Python SDK's client), which divides by a divisor JSON writes as a float and
 * takes the remainder of one it writes as an integer. What a validation skips (a branch of `anyOf`
 * after one that passed) decides nothing, so a miss there cannot change a client's answer.
 *
 * @param validate The validation: synchronous.
 * @returns The first miss, or `undefined`.
 * @example 0.07 is a multiple of 0.01 in decimal, not in binary floating point
 * ```ts
 * import { floatMisses, isMultipleOf } from "./_runtime.ts";
 * console.assert(floatMisses(() => isMultipleOf(0.07, 0.01))?.divisor === 0.01);
 * console.assert(floatMisses(() => isMultipleOf(0.5, 0.25)) === undefined);
 * ```
 */
export function floatMisses(validate: () => unknown): FloatMiss | undefined {
  const outer = watched;
  watched = { miss: undefined };
  try {
    validate();
    return watched.miss;
  } finally {
    watched = outer;
  }
}

function floatRefuses(value: number, divisor: number): boolean {
  const quotient = value / divisor;
  if (quotient !== parseInt(String(quotient))) return true;
  // Python's remainder by an integer divisor: exact for an integer it reads as one (below 1e21).
  return Number.isInteger(divisor) && Math.abs(value) >= 1e21 && value % divisor !== 0;
}
