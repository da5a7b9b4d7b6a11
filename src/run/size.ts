/**
 * Byte sizes for people and UTF-8-safe cuts: the runner's, and the spawn seam's and the contract's
 * too ({@linkcode formatSize}), so that a size is worded once in every locale.
 *
 * @module
 */

import { type Messages, messages } from "../locale/messages.ts";

const UNITS = ["size.kib", "size.mib", "size.gib", "size.tib"] as const;

/**
 * Formats a byte count for reading: `512 bytes`, `50 KiB`, `1.5 MiB` (`1,5 МіБ` in Ukrainian).
 *
 * @param bytes A non-negative byte count.
 * @param words The messages of the locale to word it in. @default {messages("en-US")}
 * @returns The size with a unit; one decimal below 10 units, whole numbers above.
 */
export function formatSize(bytes: number, words: Messages = messages("en-US")): string {
  if (bytes === 1) return words.t("size.byte");
  if (bytes < 1024) return words.t("size.bytes", { count: bytes });
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
 * The length of the longest prefix of `bytes` (at most `limit` bytes) that does not end inside a
 * multibyte UTF-8 sequence.
 *
 * @param bytes UTF-8 (possibly invalid) bytes.
 * @param limit The most bytes to keep.
 * @returns A cut index no greater than `limit`.
 */
export function utf8CutIndex(bytes: Uint8Array, limit: number): number {
  if (limit >= bytes.length) return bytes.length;
  // Step back over continuation bytes (10xxxxxx) to the start of the sequence the cut lands in.
  let start = limit;
  while (start > 0 && limit - start < 3 && ((bytes[start] ?? 0) & 0xc0) === 0x80) start--;
  return ((bytes[start] ?? 0) & 0xc0) === 0x80 || start === limit ? limit : start;
}
