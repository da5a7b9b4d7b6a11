/**
 * The one function that words a failed run, in any locale.
 *
 * @module
 */

import { type Messages, messages } from "../locale/messages.ts";
import { formatSize, utf8CutIndex } from "./size.ts";
import type { RunResult } from "./types.ts";

/** How much of stderr (or stdout) a failure message quotes. */
export const FAILURE_DETAIL_BYTES = 4096;

/**
 * Words a failed run in one message, checking in a fixed order: timed out → cancelled → killed by a
 * signal → non-zero exit → could not start. The program's stderr (or its stdout when stderr is blank,
 * for an exit code) follows a colon, cut to 4 KiB with the total size noted. Why a program did not
 * start is its `startReason` in the locale.
 *
 * @param result The run's result.
 * @param label Who ran, as the message should name it, in the same locale (`Tool "slow"`).
 * @param words The messages of the locale to word it in. @default {messages("en-US")}
 * @returns The message, or `undefined` when the run succeeded (outcome `ok`).
 *
 * @example Word a timed-out run
 * ```ts ignore
 * import { describeFailure } from "./failure_message.ts";
 * import { runProgram } from "./run_program.ts";
 * const result = await runProgram({
 *   program: "sleep", args: ["30"], cwd: "/", stdin: new Uint8Array(), timeoutMs: 150,
 * });
 * console.assert(describeFailure(result, 'Tool "slow"') === 'Tool "slow" timed out after 150 ms');
 * ```
 */
export function describeFailure(
  result: RunResult,
  label: string,
  words: Messages = messages("en-US"),
): string | undefined {
  const stderr = () => detail(result.stderr, result.stderrBytes, result.stderrTruncated, words);
  switch (result.outcome) {
    case "ok":
      return undefined;
    case "timed_out":
      return withDetail(words.t("run.timed_out", { label, ms: result.timeoutMs }), stderr());
    case "cancelled":
      return withDetail(words.t("run.cancelled", { label }), stderr());
    case "killed":
      return withDetail(words.t("run.signal", { label, signal: result.signal ?? "" }), stderr());
    case "exit_code": {
      const output = stderr() ??
        detail(result.stdout, result.stdoutBytes, result.stdoutTruncated, words);
      return withDetail(words.t("run.exit", { label, code: result.exitCode ?? "" }), output);
    }
    case "not_started": {
      const reason = result.startReason === undefined
        ? words.t("run.no_reason")
        : words.say(result.startReason);
      return words.t("run.not_started", { label, reason });
    }
  }
}

function withDetail(head: string, text: string | undefined): string {
  return text === undefined ? head : `${head}: ${text}`;
}

/** The quoted output: blank → `undefined`; long or already cut → its first 4 KiB and the size. */
function detail(text: string, totalBytes: number, truncated: boolean, words: Messages) {
  const trimmed = text.trimEnd();
  if (trimmed.trim() === "") return undefined;
  const bytes = new TextEncoder().encode(trimmed);
  if (bytes.length <= FAILURE_DETAIL_BYTES && !truncated) return trimmed;
  const end = utf8CutIndex(bytes, FAILURE_DETAIL_BYTES);
  const cut = new TextDecoder().decode(bytes.subarray(0, end));
  return words.t("run.cut", { text: cut.trimEnd(), size: formatSize(totalBytes, words) });
}
