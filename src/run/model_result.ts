/**
 * The text a model sees for a successful run.
 *
 * @module
 */

import { type Messages, messages } from "../locale/messages.ts";
import { formatSize } from "./size.ts";
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES, DEFAULT_MAX_SPILL_BYTES } from "./run_program.ts";
import type { RunResult } from "./types.ts";

/**
 * Builds the model-facing text of a successful run: stdout without trailing newlines; a sentence when
 * it printed nothing (with its exit code when that is not 0); when stdout was cut, a note with the caps, the total size and the spill file
 * (and how much of the output it holds, when it reached its own cap). The caps named are the
 * runner's defaults, the ones a tool's run has.
 *
 * @param result The run's result.
 * @param label Who ran, as the sentence should name it (`Tool "x"`).
 * @param words The messages of the locale to word the sentence and the note in.
 *   @default {messages("en-US")}
 * @returns The text for the model.
 *
 * @example Turn a run into model text
 * ```ts ignore
 * import { modelResult } from "./model_result.ts";
 * import { runProgram } from "./run_program.ts";
 * const result = await runProgram({
 *   program: "true", args: [], cwd: "/", stdin: new Uint8Array(), timeoutMs: 5000,
 * });
 * console.assert(modelResult(result, 'Tool "x"') === 'Tool "x" finished and printed nothing');
 * ```
 */
export function modelResult(result: RunResult, label: string, words = messages("en-US")): string {
  const text = result.stdout.replace(/[\r\n]+$/, "");
  if (!result.stdoutTruncated) {
    return text.trim() === "" ? printedNothing(result, label, words) : text;
  }
  const params = {
    size: formatSize(DEFAULT_MAX_BYTES, words),
    lines: DEFAULT_MAX_LINES,
    bytes: result.stdoutBytes,
  };
  const path = result.spillPath;
  const spilled = formatSize(DEFAULT_MAX_SPILL_BYTES, words);
  const note = path === undefined
    ? words.t("run.cut_note", params)
    : result.spillTruncated
    ? words.t("run.cut_note_spill_cut", { ...params, path, spilled })
    : words.t("run.cut_note_spilled", { ...params, path });
  return `${text}\n${note}`;
}

/**
 * The sentence for a successful run that printed nothing, naming its exit code when that is not
 * 0 (another code the tool declares a success, such as grep's 1 for no match).
 *
 * @param result The run's result.
 * @param label Who ran, as the sentence should name it (`Tool "x"`).
 * @param words The messages of the locale to word it in.
 * @returns The sentence.
 */
export function printedNothing(
  result: Pick<RunResult, "exitCode">,
  label: string,
  words: Messages,
): string {
  const code = result.exitCode;
  return code
    ? words.t("run.printed_nothing_code", { label, code })
    : words.t("run.printed_nothing", { label });
}
