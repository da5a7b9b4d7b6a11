/**
 * Reading how a program run inside bubblewrap ended: bwrap exits 1 with one `bwrap: …` line when
 * it could not set the sandbox up or exec the program (nothing ran), and reports a program killed
 * by signal N as exit 128 + N. Private to the runner.
 *
 * @module
 */

import { phrase } from "../locale/messages.ts";
import { notStartable, type StartProblem } from "./_start_error.ts";

const BWRAP_LINE = /^bwrap: (.+)$/;
const EXEC_FAILED = /^execvp (.+?): (.+)$/;

/** Linux's signal numbers, for bwrap's 128 + N. */
const SIGNALS: readonly string[] = [
  "SIGHUP",
  "SIGINT",
  "SIGQUIT",
  "SIGILL",
  "SIGTRAP",
  "SIGABRT",
  "SIGBUS",
  "SIGFPE",
  "SIGKILL",
  "SIGUSR1",
  "SIGSEGV",
  "SIGUSR2",
  "SIGPIPE",
  "SIGALRM",
  "SIGTERM",
  "SIGSTKFLT",
  "SIGCHLD",
  "SIGCONT",
  "SIGSTOP",
  "SIGTSTP",
  "SIGTTIN",
  "SIGTTOU",
  "SIGURG",
  "SIGXCPU",
  "SIGXFSZ",
  "SIGVTALRM",
  "SIGPROF",
  "SIGWINCH",
  "SIGIO",
  "SIGPWR",
  "SIGSYS",
];

/**
 * Tells bwrap failing before the program ran (one `bwrap: …` line on stderr, nothing on stdout,
 * exit 1) from a program that ran: the sandbox could not be set up, or the program not executed.
 *
 * @param code The exit code.
 * @param stdoutBytes What was written on stdout.
 * @param stderr The stderr text.
 * @returns The start problem, or `undefined` when the program ran.
 */
export function bwrapFailure(
  code: number | null,
  stdoutBytes: number,
  stderr: string,
): StartProblem | undefined {
  const text = stderr.trim();
  if (code !== 1 || stdoutBytes !== 0 || text.includes("\n")) return undefined;
  const said = BWRAP_LINE.exec(text)?.[1];
  if (said === undefined) return undefined;
  const exec = EXEC_FAILED.exec(said);
  if (exec === null) {
    return { failure: "other", reason: phrase("start.sandbox_failed", { detail: said }) };
  }
  const [, program = "", detail = ""] = exec;
  const failure = /no such file/i.test(detail)
    ? "not_found"
    : /permission denied/i.test(detail)
    ? "not_executable"
    : "other";
  return { failure, reason: notStartable(program, detail) };
}

/**
 * The status as the program ended: exit 128 + N from bwrap becomes signal N.
 *
 * @param status bwrap's status.
 * @returns The program's.
 */
export function signalledStatus(status: Deno.CommandStatus): Deno.CommandStatus {
  if (status.signal !== null || status.code <= 128) return status;
  const name = SIGNALS[status.code - 129];
  if (name === undefined) return status;
  return { success: false, code: status.code, signal: name as Deno.Signal };
}
