/**
 * How a successful run is worded for a model, in the tool's locale, and the small pieces every
 * message uses: labels, quoted values, sizes. The English catalogue words them exactly as
 * `modelResult()` does (a test keeps them equal). Failures are worded in `_run_words.ts`, loaded
 * only when a run fails. Private to the contract.
 *
 * @module
 */

import type { MessageKey } from "../locale/en_us.ts";
import type { Messages } from "../locale/messages.ts";
import type { JsonKind } from "../json_kind.ts";
import type { RunResult } from "../run/types.ts";
import type { SpawnCall } from "../spawn/types.ts";

/** The caps a declared tool's output is kept to for a model. */
export const MODEL_MAX_BYTES = 51200;
/** The line cap a declared tool's output is kept to for a model. */
export const MODEL_MAX_LINES = 2000;

const UNITS = ["size.kib", "size.mib", "size.gib", "size.tib"] as const;

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
 * A byte count for reading: `512 bytes`, `50 KiB`, `1.5 MiB` (`1,5 МіБ` in Ukrainian).
 *
 * @param words The locale's messages.
 * @param bytes A non-negative byte count.
 * @returns The size with its unit.
 */
export function formatSize(words: Messages, bytes: number): string {
  if (bytes < 1024) {
    return bytes === 1 ? words.t("size.byte") : words.t("size.bytes", { count: bytes });
  }
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  const shown = value < 10 ? Math.round(value * 10) / 10 : Math.round(value);
  const count = String(shown).replace(".", words.t("size.decimal"));
  return words.t(UNITS[unit] ?? "size.tib", { count });
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
 * How messages name a spawn call: `Command`, `Command on target "mac"` or `Subagent`.
 *
 * @param words The locale's messages.
 * @param call The parsed call.
 * @returns The label.
 */
export function spawnCallLabel(words: Messages, call: SpawnCall): string {
  if (call.mode === "agent") return words.t("label.subagent");
  return call.target === undefined
    ? words.t("label.command")
    : words.t("label.command_on", { target: quote(call.target) });
}

/**
 * A JSON value's kind, as messages say what was found.
 *
 * @param words The locale's messages.
 * @param kind The kind.
 * @param value The value, for `other`.
 * @returns `an array`, `a number`, …
 */
export function foundText(words: Messages, kind: JsonKind, value?: unknown): string {
  return kind === "other"
    ? words.t("found.other", { type: typeof value })
    : words.t(`found.${kind}` as MessageKey);
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
    size: formatSize(words, MODEL_MAX_BYTES),
    lines: MODEL_MAX_LINES,
    bytes: result.stdoutBytes,
  };
  const note = result.spillPath === undefined
    ? words.t("run.cut_note", params)
    : words.t("run.cut_note_spilled", { ...params, path: result.spillPath });
  return `${text}\n${note}`;
}
