/**
 * Writing to the terminal: whole strings and raw bytes, synchronously, so that output order is the
 * order of the calls and nothing is lost when the program exits right after.
 *
 * @module
 */

import { formatProblem, type ManifestProblem } from "../errors.ts";
import { english, type Messages } from "../locale/messages.ts";

const encoder = new TextEncoder();

/**
 * Whether stdout's reader went away (`basis-tools call x | head -c 1`). Like a broken sink in a
 * relay, it stops only the writing: what is written from then on is dropped, and the command goes
 * on to its end (a running tool finishes), its exit code its own.
 */
let stdoutGone = false;

function writeAll(target: { writeSync(p: Uint8Array): number }, bytes: Uint8Array): void {
  if (target === Deno.stdout && stdoutGone) return;
  let offset = 0;
  try {
    while (offset < bytes.length) offset += target.writeSync(bytes.subarray(offset));
  } catch (error) {
    if (!(error instanceof Deno.errors.BrokenPipe)) throw error;
    // Stdout: nobody reads the rest. Stderr: there is no one left to tell.
    if (target === Deno.stdout) stdoutGone = true;
  }
}

/**
 * Writes text (or raw bytes, unchanged) to stdout.
 *
 * @param data The text, written as is, or the bytes.
 */
export function out(data: string | Uint8Array): void {
  writeAll(Deno.stdout, typeof data === "string" ? encoder.encode(data) : data);
}

/**
 * Writes text (or raw bytes, unchanged) to stderr.
 *
 * @param data The text, written as is, or the bytes.
 */
export function err(data: string | Uint8Array): void {
  writeAll(Deno.stderr, typeof data === "string" ? encoder.encode(data) : data);
}

/**
 * Prints a value as pretty JSON on stdout.
 *
 * @param value Any JSON value.
 */
export function outJson(value: unknown): void {
  out(JSON.stringify(value, null, 2) + "\n");
}

/**
 * A manifest problem as `--json` prints it: its fields, the reason in English (a stable field),
 * and the whole line in the locale as `message`.
 *
 * @param problem The problem.
 * @param words The locale's messages.
 * @returns The JSON object.
 */
export function problemJson(problem: ManifestProblem, words: Messages): Record<string, unknown> {
  return { ...problem, reason: english(problem.reason), message: formatProblem(problem, words) };
}

/**
 * Why tools are left out (of the definitions, of the permissions): one text a tool, naming every
 * problem it has.
 *
 * @param tools The tools that cannot be used, with their problems.
 * @param words The locale's messages.
 * @returns The texts.
 */
export function leftOut(
  tools: readonly { name: string; problems: readonly ManifestProblem[] }[],
  words: Messages,
): string[] {
  return tools.map(({ name, problems }) => {
    const why = problems.map((problem) => formatProblem(problem, words)).join("; ");
    return words.t("cli.left_out", { tool: JSON.stringify(name), why });
  });
}
