/**
 * What a spawn call gives back: the text for a model and the structured output, in any locale.
 *
 * @module
 */

import { type Messages, messages } from "../locale/messages.ts";
import { formatSize } from "../run/size.ts";
import { describeFailure } from "../run/failure_message.ts";
import type { RunResult } from "../run/types.ts";
import { SPAWN_OUTPUT_CAP, TIMEOUT_EXIT_CODE } from "./limits.ts";
import type { SpawnCall, SpawnOutput } from "./types.ts";

/**
 * How messages name a call: `Command`, `Command on target "mac"` or `Subagent`.
 *
 * @param call The parsed call.
 * @param words The messages of the locale to name it in. @default {messages("en-US")}
 * @returns The label.
 */
export function spawnLabel(call: SpawnCall, words: Messages = messages("en-US")): string {
  if (call.mode === "agent") return words.t("label.subagent");
  return call.target === undefined
    ? words.t("label.command")
    : words.t("label.command_on", { target: JSON.stringify(call.target) });
}

/**
 * The text a model sees for a spawn call.
 *
 * For a command: on success its stdout, else its stderr (a sentence when both are blank); on
 * failure its stderr, else its stdout, else that it timed out, was killed, could not start, or
 * `Command exited with status N`. For a subagent: on success its stdout (its answer; a sentence when
 * blank); on failure an error with its stderr. Trailing newlines are trimmed, and output cut at
 * 64 KiB says so.
 *
 * @param call The parsed call.
 * @param result The run's result.
 * @param words The messages of the locale to word it in. @default {messages("en-US")}
 * @returns The text.
 *
 * @example A command that failed quietly
 * ```ts ignore
 * import { spawnResultText } from "./result.ts";
 * // result: a run of "exit 3" that printed nothing
 * console.log(spawnResultText({ mode: "command", body: "exit 3" }, result)); // "Command exited with status 3"
 * ```
 */
export function spawnResultText(
  call: SpawnCall,
  result: RunResult,
  words: Messages = messages("en-US"),
): string {
  const ok = result.outcome === "ok";
  const out = spawnStdout(result, words);
  const err = stream(result.stderr, result.stderrBytes, result.stderrTruncated, words);
  const label = spawnLabel(call, words);
  if (call.mode === "agent") {
    if (ok) return out ?? words.t("spawn.agent_silent");
    return describeFailure(result, label, words) ?? words.t("spawn.agent_failed");
  }
  const found = ok ? out ?? err : err ?? out;
  if (found !== undefined) return found;
  if (ok) return words.t("run.printed_nothing", { label });
  // Nothing printed: a quiet exit code is its status; anything else is worded as any failed run.
  if (result.outcome !== "exit_code" || result.exitCode === undefined) {
    return describeFailure(result, label, words) ?? label;
  }
  return words.t("spawn.exit_status", { label, code: result.exitCode });
}

/**
 * The structured output of a spawn call: `{stdout, stderr, exit_code, error, stdout_truncated,
 * stderr_truncated}`, exit code 124 on a time-out.
 *
 * @param call The parsed call.
 * @param result The run's result.
 * @param words The messages of the locale to word `error` in. @default {messages("en-US")}
 * @returns The output object, keys in that order.
 *
 * @example A timed-out command
 * ```ts ignore
 * import { spawnOutput } from "./result.ts";
 * // result: a run of "sleep 30" stopped after 150 ms
 * console.log(spawnOutput({ mode: "command", body: "sleep 30" }, result).exit_code); // 124
 * ```
 */
export function spawnOutput(
  call: SpawnCall,
  result: RunResult,
  words: Messages = messages("en-US"),
): SpawnOutput {
  const exitCode = result.outcome === "timed_out" ? TIMEOUT_EXIT_CODE : result.exitCode;
  return {
    stdout: result.stdout,
    stderr: result.stderr,
    exit_code: exitCode ?? null,
    error: describeFailure(result, spawnLabel(call, words), words) ?? null,
    stdout_truncated: result.stdoutTruncated,
    stderr_truncated: result.stderrTruncated,
  };
}

/**
 * What a call printed on stdout, as its result text says it: trailing newlines trimmed, a note
 * when it was cut.
 *
 * @param result The run's result.
 * @param words The messages of the locale to word the note in. @default {messages("en-US")}
 * @returns The text, or `undefined` when stdout is blank.
 */
export function spawnStdout(result: RunResult, words: Messages = messages("en-US")) {
  return stream(result.stdout, result.stdoutBytes, result.stdoutTruncated, words);
}

/** A stream as model text: `undefined` when blank; a note when it was cut. */
function stream(
  text: string,
  bytes: number,
  truncated: boolean,
  words: Messages,
): string | undefined {
  const trimmed = text.replace(/[\r\n]+$/, "");
  if (trimmed.trim() === "") return undefined;
  if (!truncated) return trimmed;
  const size = formatSize(SPAWN_OUTPUT_CAP, words);
  return `${trimmed}\n${words.t("spawn.cut_note", { size, bytes })}`;
}
