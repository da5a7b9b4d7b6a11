/**
 * A finished, successful run result to vary in tests of messages and results.
 *
 * @module
 */

import type { RunResult } from "../src/run/types.ts";
import { runOutcome } from "../src/run/run_program.ts";

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
