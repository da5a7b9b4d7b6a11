/**
 * The one object `call --json` prints, whether the tool ran or the call stopped before it could.
 *
 * @module
 */

import type { ErrorCode } from "../../errors.ts";
import { redact } from "../../redact.ts";
import type { RunResult } from "../../run/types.ts";

/** What `error` holds when the call did not succeed. */
export interface CallFailure {
  kind: ErrorCode;
  message: string;
}

/**
 * The object for a call that stopped before the tool ran (usage, manifest, schema, denial).
 *
 * @param tool The tool named on the command line, or `null` when none was.
 * @param failure What went wrong.
 * @returns The documented object, run fields `null`.
 */
export function failedCall(tool: string | null, failure: CallFailure): Record<string, unknown> {
  return {
    tool,
    ok: false,
    result: null,
    structured_content: null,
    stdout: null,
    stderr: null,
    exit_code: null,
    signal: null,
    timed_out: false,
    truncated: false,
    duration_ms: null,
    error: failure,
  };
}

/**
 * The object for a call whose tool ran, every secret of the call redacted.
 *
 * @param tool The tool's name.
 * @param result The run's outcome.
 * @param failure What went wrong, or `undefined` when the run succeeded.
 * @param secrets The secrets of the call (`callSecrets(spec.env, settings.env)`).
 * @param text The text for a model (the contract's `ToolOutput.result`), on success.
 * @param structured The structured result, for a tool with an output schema, on success.
 * @returns The documented object.
 */
export function ranCall(
  tool: string,
  result: RunResult,
  failure: CallFailure | undefined,
  secrets: readonly string[],
  text: string,
  structured?: Record<string, unknown>,
): Record<string, unknown> {
  const hide = (text: string) => redact(text, secrets);
  return {
    tool,
    ok: failure === undefined,
    result: failure === undefined ? hide(text) : null,
    // Parsed from stdout after redaction: it holds no secret.
    structured_content: failure === undefined ? (structured ?? null) : null,
    stdout: hide(result.stdout),
    stderr: hide(result.stderr),
    exit_code: result.exitCode ?? null,
    signal: result.signal ?? null,
    timed_out: result.outcome === "timed_out",
    truncated: result.stdoutTruncated,
    duration_ms: Math.round(result.durationMs),
    error: failure === undefined ? null : { kind: failure.kind, message: hide(failure.message) },
  };
}
