/**
 * Turns what Deno throws when a program cannot be spawned into a start failure and a one-line reason
 * naming the program. Private to the runner.
 *
 * @module
 */

import type { StartFailure } from "./types.ts";

/** Why the program did not start, in one line. */
export interface StartProblem {
  failure: StartFailure;
  message: string;
}

/**
 * Classifies an error thrown by `Deno.Command#spawn`.
 *
 * @param error What was thrown.
 * @param program The program as it was passed to Deno.
 * @param cwd The working directory.
 * @param loaderVars Names of `LD_*`/`DYLD_*` variables the child would have received.
 * @returns The failure kind and its message.
 */
export function classifySpawnError(
  error: unknown,
  program: string,
  cwd: string,
  loaderVars: readonly string[],
): StartProblem {
  const detail = error instanceof Error ? error.message : String(error);
  if (error instanceof Deno.errors.NotCapable) return refusal(detail, program, loaderVars);
  if (error instanceof Deno.errors.PermissionDenied) {
    if (!/os error/i.test(detail)) return refusal(detail, program, loaderVars);
    return {
      failure: "not_executable",
      message: `program "${program}" could not be executed: permission denied`,
    };
  }
  if (error instanceof Deno.errors.NotFound) {
    if (/cwd/i.test(detail)) return cwdMissing(cwd);
    const where = program.includes("/") ? "does not exist" : "was not found on PATH";
    return { failure: "not_found", message: `program "${program}" ${where}` };
  }
  return {
    failure: "other",
    message: `program "${program}" could not be started: ${oneLine(detail)}`,
  };
}

/**
 * The problem for a working directory that is missing or not a directory.
 *
 * @param cwd The working directory.
 * @param isFile Whether something that is not a directory is there.
 * @returns A start problem of kind `"other"`.
 */
export function cwdMissing(cwd: string, isFile = false): StartProblem {
  return {
    failure: "other",
    message: `working directory "${cwd}" ${isFile ? "is not a directory" : "does not exist"}`,
  };
}

function refusal(detail: string, program: string, loaderVars: readonly string[]): StartProblem {
  const named = /access to "([^"]+)"/.exec(detail)?.[1] ?? program;
  if (/environment variable/i.test(detail)) {
    const fromMessage = /with (\S+) environment variable/.exec(detail)?.[1];
    const vars = loaderVars.length > 0 ? loaderVars : fromMessage ? [fromMessage] : [];
    const list = vars.length > 0 ? vars.join(", ") : "LD_*/DYLD_* variables";
    return {
      failure: "permission_denied",
      message:
        `Deno's sandbox refused to start program "${program}" because the environment holds ` +
        `${list}: under a scoped --allow-run Deno starts no program with LD_* or DYLD_* variables; ` +
        `unset ${list} or grant unscoped --allow-run`,
    };
  }
  const flag = named.includes("/") || named.includes("\\")
    ? `--allow-run=${named}`
    : `--allow-run=<absolute path of ${named}>`;
  return {
    failure: "permission_denied",
    message: `Deno's sandbox refused to start program "${named}"; allow it with ${flag}`,
  };
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, " ").trim();
}
