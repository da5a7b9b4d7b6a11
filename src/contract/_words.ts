/**
 * How a successful run is worded for a model, in the tool's locale, and the small pieces every
 * message uses: labels, quoted values. The English catalogue words them exactly as `modelResult()`
 * does (a test keeps them equal). Failed runs and spawn calls are worded by the run and spawn seams
 * (`describeFailure()`, `spawnResultText()`), sizes by the runner's `formatSize()`, in any locale.
 * Private to the contract.
 *
 * @module
 */

import type { Messages } from "../locale/messages.ts";
import { formatSize } from "../run/_size.ts";
import type { RunResult } from "../run/types.ts";

/** The caps a declared tool's output is kept to for a model. */
export const MODEL_MAX_BYTES = 51200;
/** The line cap a declared tool's output is kept to for a model. */
export const MODEL_MAX_LINES = 2000;

/**
 * A value as messages quote it: JSON.
 *
 * @param value A name, a path, a field.
 * @returns The quoted text.
 */
export function quote(value: string): string {
  return JSON.stringify(value);
}

/**
 * How messages name a declared tool: `Tool "x"`.
 *
 * @param words The locale's messages.
 * @param name The tool's name.
 * @returns The label.
 */
export function toolLabel(words: Messages, name: string): string {
  return words.t("label.tool", { tool: quote(name) });
}

/**
 * The text a model sees for a successful run of a declared tool: the `modelResult()` of the
 * locale, with the contract's caps.
 *
 * @param words The locale's messages.
 * @param result The run's result.
 * @param label Who ran.
 * @returns The text.
 */
export function modelText(words: Messages, result: RunResult, label: string): string {
  const text = result.stdout.replace(/[\r\n]+$/, "");
  if (!result.stdoutTruncated) {
    return text.trim() === "" ? words.t("run.printed_nothing", { label }) : text;
  }
  const params = {
    size: formatSize(MODEL_MAX_BYTES, words),
    lines: MODEL_MAX_LINES,
    bytes: result.stdoutBytes,
  };
  const note = result.spillPath === undefined
    ? words.t("run.cut_note", params)
    : words.t("run.cut_note_spilled", { ...params, path: result.spillPath });
  return `${text}\n${note}`;
}
