/**
 * Keeping secrets out of output: every manifest `env` value is replaced before text leaves the
 * program through anything basis-tools writes itself (messages, `--json`, results for a model).
 *
 * @module
 */

/** What replaces a secret. */
export const REDACTED = "[redacted]";

/** Values shorter than this are not treated as secrets: replacing them would mangle any text. */
const MIN_SECRET_LENGTH = 4;

/**
 * Replaces every occurrence of each secret in a text.
 *
 * @param text The text to clean.
 * @param secrets The values to hide (manifest env values).
 * @returns The text with each secret replaced by `[redacted]`.
 * @example Hide a token
 * ```ts
 * import { redact } from "./redact.ts";
 * console.assert(redact("token=abc123", ["abc123"]) === "token=[redacted]");
 * ```
 */
export function redact(text: string, secrets: readonly string[]): string {
  let result = text;
  // Longest first: a secret that contains another must not leave its tail behind.
  const ordered = secrets.length > 1 ? [...secrets].sort((a, b) => b.length - a.length) : secrets;
  for (const secret of ordered) {
    if (secret.length >= MIN_SECRET_LENGTH && result.includes(secret)) {
      result = result.replaceAll(secret, REDACTED);
    }
  }
  return result;
}
