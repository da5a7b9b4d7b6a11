/**
 * The one table that maps error codes to the exit codes documented in the README: 0 success, 1
 * failed, 2 usage, 3 timed out, 4 input refused, 5 denied, 6 manifest invalid, 130 interrupted.
 *
 * @module
 */

import type { ErrorCode } from "../errors.ts";

const BY_CODE: Readonly<Record<ErrorCode, number>> = {
  usage: 2,
  unknown_tool: 2,
  invalid_json: 2,
  invalid_input: 4,
  denied: 5,
  timed_out: 3,
  tool_failed: 1,
  spawn_failed: 1,
  invalid_output: 1,
  manifest_invalid: 6,
  interrupted: 130,
  internal: 70,
};

/**
 * The exit code for an error code.
 *
 * @param code The error's code.
 * @returns The documented exit code.
 * @example Denials exit 5
 * ```ts
 * import { exitCodeFor } from "./exit_codes.ts";
 * console.assert(exitCodeFor("denied") === 5);
 * ```
 */
export function exitCodeFor(code: ErrorCode): number {
  return BY_CODE[code];
}
