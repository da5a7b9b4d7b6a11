/**
 * A finished, successful run result to vary in tests of messages and results.
 *
 * @module
 */

import type { RunResult } from "../src/run/types.ts";
import { runOutcome } from "../src/run/run_program.ts";
import { phrase } from "../src/locale/messages.ts";

/**
 * A run of `/bin/x` in `/` that exited 0 and printed nothing, with `fields` laid over it; its
 * outcome classified from them as the runner does, unless `fields` gives one.
 *
 * @param fields The fields that differ.
 * @returns The result.
 */
export function runResult(fields: Partial<RunResult> = {}): RunResult {
  const result: Omit<RunResult, "outcome"> = {
    command: ["/bin/x"],
    cwd: "/",
    durationMs: 1,
    exitCode: 0,
    signal: undefined,
    timedOut: false,
    cancelled: false,
    isForcefullyTerminated: false,
    startFailure: undefined,
    startReason: undefined,
    stdout: "",
    stderr: "",
    stdoutBytes: 0,
    stderrBytes: 0,
    stdoutTruncated: false,
    stderrTruncated: false,
    spillPath: undefined,
    spillTruncated: false,
    timeoutMs: 150,
    ...fields,
  };
  return { outcome: fields.outcome ?? runOutcome(result), ...result };
}

/**
 * Runs of every kind a message words: ok, with output, failed with and without output, cut,
 * killed, timed out, cancelled, not started, spilled.
 */
export const RUNS: readonly RunResult[] = [
  runResult(),
  runResult({ stdout: "out\n\n", stdoutBytes: 5 }),
  runResult({ exitCode: 4, stderr: "bad thing\n", stderrBytes: 10 }),
  runResult({ exitCode: 4, stdout: "only stdout", stdoutBytes: 11 }),
  runResult({ exitCode: 7 }),
  runResult({ exitCode: 1, stderr: "é".repeat(3000), stderrBytes: 6000 }),
  runResult({ exitCode: 1, stderr: "cut", stderrBytes: 70_000, stderrTruncated: true }),
  runResult({ exitCode: undefined, signal: "SIGKILL", stderr: "x", stderrBytes: 1 }),
  runResult({ exitCode: undefined, timedOut: true, signal: "SIGTERM" }),
  runResult({ exitCode: undefined, cancelled: true, stderr: "partial", stderrBytes: 7 }),
  runResult({
    exitCode: undefined,
    startFailure: "not_found",
    startReason: phrase("start.not_on_path", { program: '"nope"' }),
  }),
  runResult({ exitCode: undefined, startFailure: "other" }),
  runResult({ stdout: "a".repeat(100), stdoutBytes: 90_000, stdoutTruncated: true }),
  runResult({
    stdout: "a\n",
    stdoutBytes: 3_000_000,
    stdoutTruncated: true,
    spillPath: "/s/1.out",
  }),
  runResult({ stdout: "", stderr: "only stderr\n", stderrBytes: 12 }),
];
