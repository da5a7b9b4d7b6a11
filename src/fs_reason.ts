/**
 * Why a file operation failed, for a message: Deno's sandbox refusal as a phrase (so it can be
 * worded in any locale), anything else as the system said it.
 *
 * @module
 */

import { english, type Phrase, phrase } from "./locale/messages.ts";

const SANDBOX_REFUSAL =
  /^Requires (read|write) access to (".*"), run again with the --allow-(?:read|write) flag$/;

/**
 * Why a file operation failed: Deno's sandbox refusal as a phrase when its words are exactly the
 * ones known (a different Deno may word it differently: then its own text is kept), else the first
 * line of the error's message.
 *
 * @param error What the file operation threw.
 * @returns The reason.
 * @example A refusal Deno's sandbox made
 * ```ts
 * import { fsReason } from "./fs_reason.ts";
 * import { english } from "./locale/messages.ts";
 * const refused = new Deno.errors.NotCapable(
 *   'Requires write access to "/x", run again with the --allow-write flag',
 * );
 * const reason = fsReason(refused);
 * console.assert(typeof reason !== "string" && english(reason) === refused.message);
 * ```
 */
export function fsReason(error: unknown): Phrase | string {
  const message = error instanceof Error ? error.message.split("\n")[0] as string : String(error);
  if (!(error instanceof Deno.errors.NotCapable)) return message;
  const match = SANDBOX_REFUSAL.exec(message);
  if (match === null) return message;
  const key = match[1] === "read" ? "file.sandbox_read" : "file.sandbox_write";
  const refused = phrase(key, { path: match[2] as string });
  return english(refused) === message ? refused : message;
}
