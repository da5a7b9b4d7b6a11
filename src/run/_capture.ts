/**
 * A capped collector for one output stream: keeps the first part in memory (by bytes and lines) and,
 * once the cap is passed, optionally streams the whole output into a spill file. Memory stays bounded
 * however much the program prints. Private to the runner.
 *
 * @module
 */

import { joinPath } from "../paths.ts";
import { concatBytes } from "../bytes.ts";

const NEWLINE = 0x0a;

/** Limits of one capture. */
export interface CaptureLimits {
  /** Most bytes kept in memory. */
  maxBytes: number;
  /** Most lines kept in memory (`Infinity` for no line limit). */
  maxLines: number;
  /** Where to write the full output once it passes the cap; none when `undefined`. */
  spillDir: string | undefined;
}

/** What a capture holds once its stream has ended. */
export interface CaptureResult {
  /** The kept prefix as lossy UTF-8, never ending inside a character when cut. */
  text: string;
  /** Every byte the stream carried. */
  totalBytes: number;
  /** Whether `text` is only the first part. */
  truncated: boolean;
  /** The file holding the full output, when one was written completely. */
  spillPath: string | undefined;
}

/** Collects one stream's bytes under a cap, spilling the full stream to a file past it. */
export class OutputCapture {
  readonly #limits: CaptureLimits;
  readonly #kept: Uint8Array[] = [];
  #keptBytes = 0;
  #keptLines = 0;
  #totalBytes = 0;
  #truncated = false;
  #spill: Deno.FsFile | undefined;
  #spillPath: string | undefined;

  /** @param limits The caps and the spill directory. */
  constructor(limits: CaptureLimits) {
    this.#limits = limits;
  }

  /**
   * Takes the next chunk of the stream. Returns a promise only when the chunk goes to the spill
   * file, resolved once it is written, so awaiting it gives back-pressure; chunks that are kept or
   * only counted cost no promise (a 100 MiB output is 1,600 chunks). Never throws or rejects: a
   * spill file that cannot be written is dropped.
   *
   * @param chunk Bytes as read from the pipe.
   * @returns The pending spill write, if any.
   */
  push(chunk: Uint8Array): Promise<void> | undefined {
    this.#totalBytes += chunk.length;
    if (this.#truncated) return this.#spill ? this.#spillWrite(chunk) : undefined;
    const keep = this.#fits(chunk);
    if (keep === chunk.length) {
      this.#kept.push(chunk);
      this.#keptBytes += chunk.length;
      return undefined;
    }
    this.#truncated = true;
    // The spill file starts with everything before this chunk, then all of it.
    const before = [...this.#kept];
    if (keep > 0) {
      this.#kept.push(chunk.slice(0, keep));
      this.#keptBytes += keep;
    }
    return this.#limits.spillDir === undefined ? undefined : this.#openSpill(before, chunk);
  }

  /**
   * Ends the capture: closes the spill file and decodes the kept bytes.
   *
   * @returns The kept text, the counts and the spill file.
   */
  finish(): CaptureResult {
    if (this.#spill) {
      try {
        this.#spill.close();
      } catch {
        // Already closed after a failed write.
      }
      this.#spill = undefined;
    }
    let bytes = concatBytes(this.#kept);
    if (this.#truncated) bytes = bytes.subarray(0, trimIncompleteTail(bytes));
    return {
      text: new TextDecoder().decode(bytes),
      totalBytes: this.#totalBytes,
      truncated: this.#truncated,
      spillPath: this.#spillPath,
    };
  }

  /** How many bytes of `chunk` fit under the byte and line caps. */
  #fits(chunk: Uint8Array): number {
    let limit = Math.min(chunk.length, this.#limits.maxBytes - this.#keptBytes);
    const linesLeft = this.#limits.maxLines - this.#keptLines;
    if (linesLeft === Infinity) return limit;
    if (linesLeft <= 0) return 0;
    let seen = 0;
    let from = 0;
    while (from < limit) {
      const at = chunk.indexOf(NEWLINE, from);
      if (at < 0 || at >= limit) break;
      seen++;
      from = at + 1;
      if (seen === linesLeft) {
        limit = from;
        break;
      }
    }
    if (limit === chunk.length) this.#keptLines += seen;
    return limit;
  }

  async #openSpill(before: readonly Uint8Array[], chunk: Uint8Array): Promise<void> {
    const dir = this.#limits.spillDir;
    if (dir === undefined) return;
    const name = `${Date.now()}-${crypto.randomUUID().slice(0, 8)}.out`;
    const path = joinPath(dir, name);
    try {
      await Deno.mkdir(dir, { recursive: true });
      this.#spill = await Deno.open(path, { write: true, createNew: true, mode: 0o600 });
      this.#spillPath = path;
    } catch {
      return;
    }
    for (const part of before) await this.#spillWrite(part);
    await this.#spillWrite(chunk);
  }

  async #spillWrite(bytes: Uint8Array): Promise<void> {
    const file = this.#spill;
    if (!file) return;
    try {
      let offset = 0;
      while (offset < bytes.length) offset += await file.write(bytes.subarray(offset));
    } catch {
      // A partial file must not pass for the full output.
      this.#spill = undefined;
      const path = this.#spillPath;
      this.#spillPath = undefined;
      try {
        file.close();
        if (path) await Deno.remove(path);
      } catch {
        // Best effort.
      }
    }
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
