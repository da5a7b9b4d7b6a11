/**
 * Turns what Deno throws when a program cannot be spawned into a start failure and a phrase naming
 * the program. Private to the runner.
 *
 * @module
 */

import { type Phrase, phrase } from "../locale/messages.ts";
import type { StartFailure } from "./types.ts";

/** Why the program did not start: its kind, and the reason as a phrase. */
export interface StartProblem {
  failure: StartFailure;
  reason: Phrase;
}

/**
 * Classifies an error thrown by `Deno.Command#spawn`.
 *
 * @param error What was thrown.
 * @param program The tool's program (not the launcher that may have started it).
 * @param cwd The working directory.
 * @param loaderVars Names of `LD_*`/`DYLD_*` variables the child would have received.
 * @returns The failure kind and its reason.
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
      reason: phrase("start.permission", { program: quote(program) }),
    };
  }
  if (error instanceof Deno.errors.NotFound) {
    if (/cwd/i.test(detail)) return cwdMissing(cwd);
    const key = program.includes("/") ? "start.missing" : "start.not_on_path";
    return { failure: "not_found", reason: phrase(key, { program: quote(program) }) };
  }
  // Deno's "Failed to spawn 'X': " names what it started, which may be a launcher (setsid, bwrap).
  const why = oneLine(detail).replace(/^Failed to spawn '[^']*': /, "");
  return { failure: "other", reason: notStartable(program, why) };
}

/**
 * The problem for a working directory that is missing or not a directory.
 *
 * @param cwd The working directory.
 * @param isFile Whether something that is not a directory is there.
 * @returns A start problem of kind `"other"`.
 */
export function cwdMissing(cwd: string, isFile = false): StartProblem {
  const key = isFile ? "start.cwd_not_dir" : "start.cwd_missing";
  return { failure: "other", reason: phrase(key, { cwd: quote(cwd) }) };
}

/**
 * The reason for a program the system would not start, with the system's own words.
 *
 * @param program The program.
 * @param detail What the system said, in one line.
 * @returns The phrase.
 */
export function notStartable(program: string, detail: string): Phrase {
  return phrase("start.failed", { program: quote(program), detail });
}

function refusal(detail: string, program: string, loaderVars: readonly string[]): StartProblem {
  const named = /access to "([^"]+)"/.exec(detail)?.[1] ?? program;
  if (/environment variable/i.test(detail)) {
    const fromMessage = /with (\S+) environment variable/.exec(detail)?.[1];
    const vars = loaderVars.length > 0 ? loaderVars : fromMessage ? [fromMessage] : [];
    const variables = vars.length > 0 ? vars.join(", ") : phrase("start.loader_variables");
    return {
      failure: "permission_denied",
      reason: phrase("start.loader_env", { program: quote(program), variables }),
    };
  }
  const flag = named.includes("/") || named.includes("\\")
    ? `--allow-run=${named}`
    : phrase("start.sandbox_flag", { program: named });
  return {
    failure: "permission_denied",
    reason: phrase("start.sandbox", { program: quote(named), flag }),
  };
}

/**
 * A program or directory as the reasons name it: between double quotes, as it is.
 *
 * @param value The program or directory.
 * @returns The quoted value.
 */
export function quote(value: string): string {
  return `"${value}"`;
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, " ").trim();
}
