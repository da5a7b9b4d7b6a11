/**
 * A capped collector for one output stream: keeps the first part in memory (by bytes and lines) and,
 * once the cap is passed, optionally streams the output into a spill file, up to the spill cap.
 * Memory and disk stay bounded however much the program prints. Private to the runner.
 *
 * @module
 */

import { concatBytes } from "../bytes.ts";
import { utf8CutIndex } from "./size.ts";
import { openSpillFile } from "./_spill.ts";
import { attempt } from "../quietly.ts";

const NEWLINE = 0x0a;

/** Limits of one capture. */
export interface CaptureLimits {
  /** Most bytes kept in memory. */
  maxBytes: number;
  /** Most lines kept in memory (`Infinity` for no line limit). */
  maxLines: number;
  /** Where to write the full output once it passes the cap; none when `undefined`. */
  spillDir?: string | undefined;
  /** Most bytes a spill file holds; past them the file ends (`spillTruncated`). */
  maxSpillBytes?: number;
}

/** Collects one stream's bytes under a cap, spilling the full stream to a file past it. */
export class OutputCapture {
  readonly #limits: CaptureLimits;
  readonly #kept: Uint8Array[] = [];
  #keptBytes = 0;
  #keptLines = 0;
  #truncated = false;
  #spill: Deno.FsFile | undefined;
  #spillPath: string | undefined;
  #spilled = 0;
  #spillTruncated = false;

  /** @param limits The caps and the spill directory. */
  constructor(limits: CaptureLimits) {
    this.#limits = limits;
  }

  /**
   * Takes the next chunk of the stream. Writes to the spill file are synchronous: a file write is
   * short, and a promise per chunk is not (a 100 MiB output is 1,600 chunks). Never throws: a
   * spill file that cannot be written is dropped.
   *
   * @param chunk Bytes as read from the pipe.
   */
  push(chunk: Uint8Array): void {
    if (this.#truncated) return this.#spillWrite(chunk);
    const keep = this.#fits(chunk);
    if (keep === chunk.length) {
      this.#kept.push(chunk);
      this.#keptBytes += chunk.length;
      return;
    }
    this.#truncated = true;
    const { spillDir: dir, maxSpillBytes: cap = 0 } = this.#limits;
    // The spill file starts with everything before this chunk, then all of it.
    const opened = dir === undefined ? undefined : openSpillFile(dir, cap);
    this.#spill = opened?.file;
    this.#spillPath = opened?.path;
    for (const part of this.#kept) this.#spillWrite(part);
    this.#spillWrite(chunk);
    if (keep > 0) {
      this.#kept.push(chunk.slice(0, keep));
      this.#keptBytes += keep;
    }
  }

  /**
   * Ends the capture: closes the spill file and decodes the kept bytes.
   *
   * @returns The kept text (lossy UTF-8, never ending inside a character when cut), whether it is
   *   only the first part, and the file holding the output when one was written (completely, or
   *   its first `maxSpillBytes` when `spillTruncated`).
   */
  finish() {
    this.#closeSpill();
    let bytes = concatBytes(this.#kept);
    if (this.#truncated) bytes = bytes.subarray(0, trimIncompleteTail(bytes));
    return {
      text: new TextDecoder().decode(bytes),
      truncated: this.#truncated,
      spillPath: this.#spillPath,
      spillTruncated: this.#spillPath !== undefined && this.#spillTruncated,
    };
  }

  /** How many bytes of `chunk` fit under the byte and line caps. */
  #fits(chunk: Uint8Array): number {
    let limit = Math.min(chunk.length, this.#limits.maxBytes - this.#keptBytes);
    const linesLeft = this.#limits.maxLines - this.#keptLines;
    if (linesLeft === Infinity) return limit;
    if (linesLeft <= 0) return 0;
    let seen = 0;
    for (let from = 0; from < limit;) {
      const at = chunk.indexOf(NEWLINE, from);
      if (at < 0 || at >= limit) break;
      from = at + 1;
      if (++seen === linesLeft) limit = from;
    }
    if (limit === chunk.length) this.#keptLines += seen;
    return limit;
  }

  /** Writes to the spill file, up to its cap (then it ends, at a character boundary). */
  #spillWrite(bytes: Uint8Array): void {
    const file = this.#spill;
    if (!file) return;
    const room = (this.#limits.maxSpillBytes ?? 0) - this.#spilled;
    const full = bytes.length > room;
    const part = full ? bytes.subarray(0, utf8CutIndex(bytes, room)) : bytes;
    try {
      for (let offset = 0; offset < part.length;) offset += file.writeSync(part.subarray(offset));
      this.#spilled += part.length;
    } catch {
      // A partial file must not pass for the output.
      const path = this.#spillPath;
      this.#closeSpill();
      this.#spillPath = undefined;
      if (path) attempt(() => Deno.removeSync(path)); // Best effort.
      return;
    }
    if (full) {
      this.#spillTruncated = true;
      this.#closeSpill();
    }
  }

  #closeSpill(): void {
    const file = this.#spill;
    this.#spill = undefined;
    attempt(() => file?.close()); // Or already closed.
  }
}

/** The length of `bytes` without a trailing, incomplete UTF-8 sequence. */
function trimIncompleteTail(bytes: Uint8Array): number {
  const end = bytes.length;
  for (let back = 1; back <= 3 && back <= end; back++) {
    const byte = bytes[end - back] ?? 0;
    if ((byte & 0xc0) === 0x80) continue; // continuation: keep looking for the lead byte
    const need = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return need > back ? end - back : end;
  }
  return end;
}
