/**
 * The objects `call --json` and `spawn --json` print, whether the tool ran or the call stopped
 * before it could. Small and free of the contract: the CLI's own usage errors print them too.
 *
 * @module
 */

import type { ContentBlock } from "../../contract/types.ts";
import type { ErrorCode } from "../../errors.ts";
import type { RunResult } from "../../run/types.ts";
import { LOCAL_TARGET } from "../../spawn/preview.ts";
import type { SpawnCall, SpawnOutput } from "../../spawn/types.ts";

/** What `error` holds when the call did not succeed. */
export interface CallFailure {
  kind: ErrorCode;
  message: string;
}

/** The run fields of a call's object: the run's, or `null` when nothing ran. */
interface RunFields {
  result: string | null;
  structured_content: Record<string, unknown> | null;
  content: readonly ContentBlock[] | null;
  stdout: string | null;
  stderr: string | null;
  exit_code: number | null;
  truncated: boolean;
}

/**
 * The object of `call`: `{tool, ok, result, structured_content, content, stdout, stderr, exit_code, signal,
 * timed_out, truncated, duration_ms, error}`; the run fields `null` when the call stopped before
 * the tool ran (usage, manifest, schema, denial).
 *
 * @param tool The tool named on the command line, or `null` when none was.
 * @param failure What went wrong, or `undefined` when the run succeeded.
 * @param run The run, when the tool ran.
 * @param fields Its fields as shown.
 * @returns The documented object.
 */
export function callJson(
  tool: string | null,
  failure: CallFailure | undefined,
  run?: RunResult,
  fields?: RunFields,
): Record<string, unknown> {
  const ok = failure === undefined;
  return {
    tool,
    ok,
    result: ok ? fields?.result ?? null : null,
    structured_content: ok ? fields?.structured_content ?? null : null,
    content: ok ? fields?.content ?? null : null,
    stdout: fields?.stdout ?? null,
    stderr: fields?.stderr ?? null,
    exit_code: fields?.exit_code ?? null,
    signal: run?.signal ?? null,
    timed_out: run?.outcome === "timed_out",
    truncated: fields?.truncated ?? false,
    duration_ms: run === undefined ? null : Math.round(run.durationMs),
    error: failure ?? null,
  };
}

/**
 * The object `spawn --json` prints: the spawn tool's structured output (`stdout`, `stderr`,
 * `exit_code`, `stdout_truncated`, `stderr_truncated`) with `ok`, the mode, the target, the text
 * for a model and the duration; run fields `null` when nothing ran.
 *
 * @param call The parsed call, when the input could be read.
 * @param failure What went wrong, or `undefined` on success.
 * @param run The run, when it ran.
 * @param output Its structured output.
 * @param text Its text for a model.
 * @returns The documented object.
 */
export function spawnJson(
  call: SpawnCall | undefined,
  failure: CallFailure | undefined,
  run?: RunResult,
  output?: SpawnOutput,
  text?: string,
): Record<string, unknown> {
  return {
    ok: failure === undefined,
    mode: call?.mode ?? null,
    target: call === undefined ? null : call.target ?? LOCAL_TARGET,
    result: text ?? null,
    stdout: output?.stdout ?? null,
    stderr: output?.stderr ?? null,
    exit_code: output?.exit_code ?? null,
    error: failure ?? null,
    stdout_truncated: output?.stdout_truncated ?? false,
    stderr_truncated: output?.stderr_truncated ?? false,
    duration_ms: run === undefined ? null : Math.round(run.durationMs),
  };
}
