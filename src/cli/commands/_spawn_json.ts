/**
 * The objects `spawn --json` and `call spawn --json` print.
 *
 * @module
 */

import type { RunResult } from "../../run/types.ts";
import type { SpawnCall, SpawnOutput } from "../../spawn/types.ts";
import { LOCAL_TARGET } from "../../spawn/preview.ts";
import type { CallFailure } from "./_call_json.ts";

/**
 * The object `spawn --json` prints once the call ran: the spawn tool's structured output
 * (`stdout`, `stderr`, `exit_code`, `stdout_truncated`, `stderr_truncated`) with `ok`, the mode,
 * the target, the text for a model and the duration; `error` is `null` or `{kind, message}`.
 *
 * @param call The parsed call.
 * @param result The run's result.
 * @param failure What went wrong, or `undefined` on success.
 * @param output The structured output (the contract's, localized).
 * @param text The text for a model (the contract's, localized).
 * @returns The documented object.
 */
export function ranSpawn(
  call: SpawnCall,
  result: RunResult,
  failure: CallFailure | undefined,
  output: SpawnOutput,
  text: string,
): Record<string, unknown> {
  return {
    ok: failure === undefined,
    mode: call.mode,
    target: targetOf(call),
    result: text,
    stdout: output.stdout,
    stderr: output.stderr,
    exit_code: output.exit_code,
    error: failure ?? null,
    stdout_truncated: output.stdout_truncated,
    stderr_truncated: output.stderr_truncated,
    duration_ms: Math.round(result.durationMs),
  };
}

/**
 * The object `spawn --json` prints when the call stopped before anything ran.
 *
 * @param call The parsed call, when the input could be read.
 * @param failure What went wrong.
 * @returns The documented object, run fields `null`.
 */
export function failedSpawn(
  call: SpawnCall | undefined,
  failure: CallFailure,
): Record<string, unknown> {
  return {
    ok: false,
    mode: call?.mode ?? null,
    target: call === undefined ? null : targetOf(call),
    result: null,
    stdout: null,
    stderr: null,
    exit_code: null,
    error: failure,
    stdout_truncated: false,
    stderr_truncated: false,
    duration_ms: null,
  };
}

/**
 * The object `call spawn --json` prints once the call ran: the same shape as any `call`.
 *
 * @param result The run's result.
 * @param failure What went wrong, or `undefined` on success.
 * @param output The structured output (the contract's, localized).
 * @param text The text for a model (the contract's, localized).
 * @returns `{tool, ok, result, stdout, stderr, exit_code, signal, timed_out, truncated,
 *   duration_ms, error}`.
 */
export function ranSpawnAsCall(
  result: RunResult,
  failure: CallFailure | undefined,
  output: SpawnOutput,
  text: string,
): Record<string, unknown> {
  return {
    tool: "spawn",
    ok: failure === undefined,
    result: failure === undefined ? text : null,
    structured_content: null,
    stdout: output.stdout,
    stderr: output.stderr,
    exit_code: output.exit_code,
    signal: result.signal ?? null,
    timed_out: result.outcome === "timed_out",
    truncated: output.stdout_truncated,
    duration_ms: Math.round(result.durationMs),
    error: failure ?? null,
  };
}

function targetOf(call: SpawnCall): string {
  return call.target ?? LOCAL_TARGET;
}
