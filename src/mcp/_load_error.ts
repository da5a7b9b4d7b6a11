/**
 * Wording a failure to build the roster for the log. Private to the MCP binding.
 *
 * @module
 */

import { BasisError, errorLines } from "../errors.ts";

/**
 * Words why the roster could not be built: each manifest problem on its own line (they never hold
 * a value from the manifest), a user error's message, or a bug's stack trace.
 *
 * @param error What was thrown.
 * @returns The text for the log.
 */
export function describeLoadError(error: unknown): string {
  if (error instanceof BasisError) return errorLines(error).join("\n");
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}
