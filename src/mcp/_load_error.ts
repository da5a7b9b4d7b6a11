/**
 * Wording a failure to build the roster for the log. Private to the MCP binding.
 *
 * @module
 */

import { BasisError, formatProblem, ManifestError } from "../errors.ts";

/**
 * Words why the roster could not be built: each manifest problem on its own line (they never hold
 * a value from the manifest), a user error's message, or a bug's stack trace.
 *
 * @param error What was thrown.
 * @returns The text for the log.
 */
export function describeLoadError(error: unknown): string {
  if (error instanceof ManifestError) return error.problems.map(formatProblem).join("\n");
  if (error instanceof BasisError) return error.message;
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}
