/**
 * The text a model sees for a successful run.
 *
 * @module
 */

import { formatSize } from "./_size.ts";
import type { RunResult } from "./types.ts";

/** The caps the run used, to name them in the truncation note. */
export interface ModelResultOptions {
  /** The run's `maxBytes`. @default 51200 */
  maxBytes?: number;
  /** The run's `maxLines`. @default 2000 */
  maxLines?: number;
}

/**
 * Builds the model-facing text of a successful run: stdout without trailing newlines; a sentence when
 * it printed nothing; when stdout was cut, a note with the caps, the total size and the spill file.
 *
 * @param result The run's result.
 * @param label Who ran, as the sentence should name it (`Tool "x"`).
 * @param options The caps the run used.
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
export function modelResult(
  result: RunResult,
  label: string,
  options: ModelResultOptions = {},
): string {
  const text = result.stdout.replace(/[\r\n]+$/, "");
  if (!result.stdoutTruncated) {
    return text.trim() === "" ? `${label} finished and printed nothing` : text;
  }
  const caps = `${formatSize(options.maxBytes ?? 51200)} / ${options.maxLines ?? 2000} lines`;
  const where = result.spillPath === undefined ? "" : `; full output: ${result.spillPath}`;
  return `${text}\n[output cut at ${caps}; ${result.stdoutBytes} bytes in all${where}]`;
}
