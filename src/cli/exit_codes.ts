/**
 * The one table that maps error codes to the exit codes documented in the README.
 *
 * @module
 */

import type { ErrorCode } from "../errors.ts";

/** Exit codes by name, as documented. */
export const EXIT = {
  ok: 0,
  failed: 1,
  usage: 2,
  timedOut: 3,
  invalidInput: 4,
  denied: 5,
  manifestInvalid: 6,
  interrupted: 130,
  internal: 70,
} as const;

const BY_CODE: Readonly<Record<ErrorCode, number>> = {
  usage: EXIT.usage,
  unknown_tool: EXIT.usage,
  invalid_json: EXIT.usage,
  invalid_input: EXIT.invalidInput,
  denied: EXIT.denied,
  timed_out: EXIT.timedOut,
  tool_failed: EXIT.failed,
  spawn_failed: EXIT.failed,
  invalid_output: EXIT.failed,
  manifest_invalid: EXIT.manifestInvalid,
  interrupted: EXIT.interrupted,
  internal: EXIT.internal,
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
