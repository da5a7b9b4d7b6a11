/**
 * Wording a failure to build the roster for the log. Private to the MCP binding.
 *
 * @module
 */

import { BasisError, errorLines } from "../errors.ts";
import type { Messages } from "../locale/messages.ts";

/**
 * Words why the roster could not be built: each manifest problem on its own line (they never hold
 * a value from the manifest), a user error's message, both in the locale, or a bug's stack trace.
 *
 * @param error What was thrown.
 * @param words The locale's messages.
 * @returns The text for the log.
 */
export function describeLoadError(error: unknown, words: Messages): string {
  if (error instanceof BasisError) return errorLines(error, words).join("\n");
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}
