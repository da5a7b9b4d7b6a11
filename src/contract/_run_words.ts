/**
 * How failed runs are worded for a model or a person, in the tool's locale (in the fixed order
 * timed out → cancelled → killed by a signal → non-zero exit → could not start), and the text of a
 * spawn call. The English catalogue words them exactly as `describeFailure()` and
 * `spawnResultText()` do (a test keeps them equal). Private to the contract (the permissions seam
 * also words the runner's PATH search with {@linkcode startPhrase}).
 *
 * @module
 */

import { type Messages, type Phrase, phrase } from "../locale/messages.ts";
import type { RunResult } from "../run/types.ts";
import type { SpawnCall } from "../spawn/types.ts";
import { formatSize, spawnCallLabel } from "./_words.ts";

/** How much of stderr (or stdout) a failure message quotes. */
const FAILURE_DETAIL_BYTES = 4096;
/** Each of a spawn call's streams is kept up to this many bytes. */
const SPAWN_CAP = 65_536;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Cuts text to at most `maxBytes` of UTF-8 without splitting a character. */
function cutUtf8(text: string, maxBytes: number): { text: string; cut: boolean } {
  const bytes = encoder.encode(text);
  if (bytes.length <= maxBytes) return { text, cut: false };
  let end = maxBytes;
  let start = maxBytes;
  while (start > 0 && maxBytes - start < 3 && ((bytes[start] ?? 0) & 0xc0) === 0x80) start--;
  if (!(((bytes[start] ?? 0) & 0xc0) === 0x80 || start === maxBytes)) end = start;
  return { text: decoder.decode(bytes.subarray(0, end)), cut: true };
}

/** The output a failure quotes: blank → `undefined`; long or already cut → 4 KiB and the size. */
function detail(
  words: Messages,
  text: string,
  totalBytes: number,
  truncated: boolean,
): string | undefined {
  const trimmed = text.trimEnd();
  if (trimmed.trim() === "") return undefined;
  const cut = cutUtf8(trimmed, FAILURE_DETAIL_BYTES);
  if (!cut.cut && !truncated) return trimmed;
  return words.t("run.cut", { text: cut.text.trimEnd(), size: formatSize(words, totalBytes) });
}

function withDetail(head: string, text: string | undefined): string {
  return text === undefined ? head : `${head}: ${text}`;
}

const START_REASONS: readonly [RegExp, (match: RegExpExecArray) => Phrase][] = [
  [
    /^program (".*") was not found on PATH$/s,
    (m) => phrase("start.not_on_path", { program: m[1] ?? "" }),
  ],
  [/^program (".*") does not exist$/s, (m) => phrase("start.missing", { program: m[1] ?? "" })],
  [/^program (".*") is a directory$/s, (m) => phrase("start.directory", { program: m[1] ?? "" })],
  [
    /^program (".*") is not executable \(no execute permission\)$/s,
    (m) => phrase("start.not_executable", { program: m[1] ?? "" }),
  ],
  [
    /^program (".*") could not be executed: permission denied$/s,
    (m) => phrase("start.permission", { program: m[1] ?? "" }),
  ],
  [/^the program name is blank$/, () => phrase("start.blank")],
  [
    /^working directory (".*") does not exist$/s,
    (m) => phrase("start.cwd_missing", { cwd: m[1] ?? "" }),
  ],
  [
    /^working directory (".*") is not a directory$/s,
    (m) => phrase("start.cwd_not_dir", { cwd: m[1] ?? "" }),
  ],
  [
    /^Deno's sandbox refused to start program (".*"); allow it with (\S+)$/s,
    (m) => phrase("start.sandbox", { program: m[1] ?? "", flag: m[2] ?? "" }),
  ],
];

/**
 * Why a program did not start, as a phrase: the runner's English reason when it is one of the known
 * kinds (the permissions seam words the runner's PATH search with it too).
 *
 * @param reason The runner's `startError`, or a resolution's message.
 * @returns The phrase, or `undefined` for a reason from the system (it stays as it is).
 */
export function startPhrase(reason: string): Phrase | undefined {
  for (const [pattern, word] of START_REASONS) {
    const match = pattern.exec(reason);
    if (match) return word(match);
  }
  return undefined;
}

/**
 * Why a program did not start, in the locale: the runner's English reason, reworded when it is
 * one of the known kinds (other reasons come from the system and stay as they are).
 *
 * @param words The locale's messages.
 * @param reason The runner's `startError`.
 * @returns The reason.
 */
export function startReason(words: Messages, reason: string | undefined): string {
  if (reason === undefined) return words.t("run.no_reason");
  const found = startPhrase(reason);
  return found === undefined ? reason : words.say(found);
}

/**
 * Words a failed run: the `describeFailure()` of the locale.
 *
 * @param words The locale's messages.
 * @param result The run's result.
 * @param label Who ran (`toolLabel()` or `spawnCallLabel()`).
 * @returns The message, or `undefined` when the run succeeded.
 */
export function describeRun(
  words: Messages,
  result: RunResult,
  label: string,
): string | undefined {
  const stderr = detail(words, result.stderr, result.stderrBytes, result.stderrTruncated);
  if (result.timedOut) {
    return withDetail(words.t("run.timed_out", { label, ms: result.timeoutMs }), stderr);
  }
  if (result.cancelled) return withDetail(words.t("run.cancelled", { label }), stderr);
  if (result.signal !== undefined) {
    return withDetail(words.t("run.signal", { label, signal: result.signal }), stderr);
  }
  if (result.exitCode !== undefined && result.exitCode !== 0) {
    const output = stderr ??
      detail(words, result.stdout, result.stdoutBytes, result.stdoutTruncated);
    return withDetail(words.t("run.exit", { label, code: result.exitCode }), output);
  }
  if (result.startFailure !== undefined || result.exitCode === undefined) {
    return words.t("run.not_started", { label, reason: startReason(words, result.startError) });
  }
  return undefined;
}

/** A spawn stream as model text: `undefined` when blank; a note when it was cut. */
function spawnStream(
  words: Messages,
  text: string,
  truncated: boolean,
  totalBytes: number,
): string | undefined {
  const trimmed = text.replace(/[\r\n]+$/, "");
  if (trimmed.trim() === "") return undefined;
  if (!truncated) return trimmed;
  const note = words.t("spawn.cut_note", {
    size: formatSize(words, SPAWN_CAP),
    bytes: totalBytes,
  });
  return `${trimmed}\n${note}`;
}

/**
 * Whether a spawn run succeeded: it exited on its own with code 0.
 *
 * @param result The run's result.
 * @returns True on success.
 */
export function spawnRunSucceeded(result: RunResult): boolean {
  return result.exitCode === 0 && !result.timedOut && !result.cancelled;
}

/**
 * The text a model sees for a spawn call: the `spawnResultText()` of the locale.
 *
 * @param words The locale's messages.
 * @param call The parsed call.
 * @param result The run's result.
 * @returns The text.
 */
export function spawnText(words: Messages, call: SpawnCall, result: RunResult): string {
  const ok = spawnRunSucceeded(result);
  const out = spawnStream(words, result.stdout, result.stdoutTruncated, result.stdoutBytes);
  const err = spawnStream(words, result.stderr, result.stderrTruncated, result.stderrBytes);
  const label = spawnCallLabel(words, call);
  if (call.mode === "agent") {
    if (ok) return out ?? words.t("spawn.agent_silent");
    return describeRun(words, result, label) ?? words.t("spawn.agent_failed");
  }
  if (ok) return out ?? err ?? words.t("run.printed_nothing", { label });
  const found = err ?? out;
  if (found !== undefined) return found;
  if (result.timedOut) return words.t("run.timed_out", { label, ms: result.timeoutMs });
  if (result.cancelled) return words.t("run.cancelled", { label });
  if (result.signal !== undefined) return words.t("run.signal", { label, signal: result.signal });
  if (result.exitCode === undefined) {
    return words.t("run.not_started", { label, reason: startReason(words, result.startError) });
  }
  return words.t("spawn.exit_status", { label, code: result.exitCode });
}
