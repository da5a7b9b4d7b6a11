/**
 * Rule ids: short, random, and stable once written.
 *
 * @module
 */

const BASE32 = "abcdefghijklmnopqrstuvwxyz234567";

/**
 * A fresh rule id: `r-` and 8 lowercase base32 characters (40 random bits). The store draws again
 * in the unlikely case it is already taken.
 *
 * @returns The id.
 * @throws Never.
 * @example Shape of an id
 * ```ts
 * import { newRuleId } from "./id.ts";
 * console.assert(/^r-[a-z2-7]{8}$/.test(newRuleId()));
 * ```
 */
export function newRuleId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  let id = "r-";
  for (const byte of bytes) id += BASE32[byte & 31];
  return id;
}
