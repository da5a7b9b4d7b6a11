/**
 * The small pieces the contract's messages use: labels, quoted values, the caps of a model's
 * output. Runs are worded by the run and spawn seams (`modelResult()`, `describeFailure()`,
 * `spawnResultText()`), in any locale. Private to the contract.
 *
 * @module
 */

import type { Messages } from "../locale/messages.ts";

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
 * @param name The tool's name.
 * @param words The locale's messages.
 * @returns The label.
 */
export function toolLabel(name: string, words: Messages): string {
  return words.t("label.tool", { tool: quote(name) });
}
