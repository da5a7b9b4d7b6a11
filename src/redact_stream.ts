/**
 * Redacting a byte stream as it flows: a program's stdout or stderr on its way to a terminal, a
 * model, a spill file. Secrets are matched on bytes (their UTF-8), so output that is not text
 * passes through untouched but for the secrets in it, and a secret split across two reads is
 * still caught.
 *
 * Only what could still turn out to be the start of a secret is held back: the longest tail of
 * what was read that is the beginning of some secret, at most the longest secret's length less one
 * byte. Everything before it goes out at once, so a prompt or a progress line is never delayed
 * unless it ends in what looks like the start of a secret.
 *
 * @module
 */

import { concatBytes } from "./bytes.ts";
import { isSecret, REDACTED } from "./redact.ts";

const encoder = new TextEncoder();
const TOKEN = encoder.encode(REDACTED);
const EMPTY = new Uint8Array(0);

/**
 * Replaces secrets in a stream of byte chunks, with the same rule as `redact()`: every byte of an
 * occurrence of any secret is hidden, and each unbroken run of hidden bytes becomes one
 * `[redacted]`.
 *
 * @example Catch a secret split across two chunks
 * ```ts
 * import { StreamRedactor } from "./redact_stream.ts";
 * const redactor = new StreamRedactor(["s3cr3t"]);
 * const encoder = new TextEncoder();
 * const parts = [
 *   redactor.push(encoder.encode("token=s3c")),
 *   redactor.push(encoder.encode("r3t\n")),
 *   redactor.flush(),
 * ];
 * const text = parts.map((part) => new TextDecoder().decode(part)).join("");
 * console.assert(text === "token=[redacted]\n");
 * ```
 */
export class StreamRedactor {
  readonly #secrets: readonly Uint8Array[];
  /** Each secret's Horspool shift table: how far a window may move on its last byte. */
  readonly #shifts: readonly Int32Array[];
  /** Which bytes start some secret. */
  readonly #starts = new Uint8Array(256);
  readonly #longest: number;
  /** Bytes read but not yet given out: what may still be the start of a secret. */
  #held: Uint8Array = EMPTY;
  /** How many bytes at the start of `#held` an earlier occurrence already hides. */
  #heldHidden = 0;
  /** Whether the last byte given out was hidden (a run that goes on adds no second token). */
  #lastHidden = false;

  /**
   * Prepares a redactor for one stream.
   *
   * @param secrets The values to hide; those that are not secrets (too short, blank) are ignored.
   */
  constructor(secrets: readonly string[]) {
    const unique = [...new Set(secrets.filter(isSecret))];
    this.#secrets = unique.map((secret) => encoder.encode(secret));
    this.#shifts = this.#secrets.map(shiftTable);
    this.#longest = 0;
    for (const bytes of this.#secrets) {
      this.#starts[bytes[0] as number] = 1;
      this.#longest = Math.max(this.#longest, bytes.length);
    }
  }

  /** Whether there is anything to hide: when not, `push` gives every chunk back as it is. */
  get active(): boolean {
    return this.#secrets.length > 0;
  }

  /**
   * Takes the next chunk and gives back what may go out now.
   *
   * @param chunk Bytes as read.
   * @returns The bytes to pass on (possibly empty; the chunk itself when nothing was hidden or held).
   */
  push(chunk: Uint8Array): Uint8Array {
    if (!this.active) return chunk;
    if (chunk.length === 0) return EMPTY;
    const buffer = this.#held.length === 0 ? chunk : concatBytes([this.#held, chunk]);
    return this.#process(buffer, false);
  }

  /**
   * Ends the stream: gives back what was held, redacted.
   *
   * @returns The last bytes to pass on.
   */
  flush(): Uint8Array {
    if (!this.active || this.#held.length === 0) return EMPTY;
    return this.#process(this.#held, true);
  }

  #process(buffer: Uint8Array, final: boolean): Uint8Array {
    const end = buffer.length;
    const spans: [number, number][] = [];
    if (this.#heldHidden > 0) spans.push([0, this.#heldHidden]);
    this.#secrets.forEach((secret, index) => {
      const shifts = this.#shifts[index] as Int32Array;
      for (
        let at = indexOf(buffer, secret, shifts, 0);
        at >= 0;
        at = indexOf(buffer, secret, shifts, at + 1)
      ) {
        spans.push([at, at + secret.length]);
      }
    });
    const cut = final ? end : this.#undecided(buffer);
    if (spans.length === 0) {
      this.#hold(buffer, cut, 0);
      if (cut > 0) this.#lastHidden = false;
      return cut === end ? buffer : buffer.subarray(0, cut);
    }
    spans.sort((a, b) => a[0] - b[0]);
    const parts: Uint8Array[] = [];
    let pos = 0;
    let runEnd = -1;
    const closeRun = () => {
      if (runEnd < 0) return;
      pos = Math.min(runEnd, cut);
    };
    for (const [start, stop] of spans) {
      if (start >= cut) break;
      if (start <= runEnd) {
        runEnd = Math.max(runEnd, stop);
        continue;
      }
      closeRun();
      if (start > pos) parts.push(buffer.subarray(pos, start));
      // A run at the very start that goes on from the last chunk has its token already.
      if (!(start === 0 && this.#lastHidden)) parts.push(TOKEN);
      runEnd = stop;
    }
    closeRun();
    if (pos < cut) parts.push(buffer.subarray(pos, cut));
    if (cut > 0) this.#lastHidden = runEnd >= cut;
    // What is hidden past the cut stays hidden: a run that goes on, or what was carried in.
    this.#hold(buffer, cut, Math.max(0, runEnd - cut, this.#heldHidden - cut));
    return parts.length === 0 ? EMPTY : concatBytes(parts);
  }

  /** Keeps `buffer[cut..]` for the next chunk, its first `hidden` bytes already hidden. */
  #hold(buffer: Uint8Array, cut: number, hidden: number): void {
    this.#held = cut === buffer.length ? EMPTY : buffer.slice(cut);
    this.#heldHidden = hidden;
  }

  /**
   * Where the undecided tail begins: the earliest position from which the rest of the buffer is
   * the beginning of a longer secret. The buffer's length when there is none.
   */
  #undecided(buffer: Uint8Array): number {
    const end = buffer.length;
    for (let at = Math.max(0, end - this.#longest + 1); at < end; at++) {
      if (this.#starts[buffer[at] as number] === 0) continue;
      const left = end - at;
      for (const secret of this.#secrets) {
        if (secret.length > left && startsWith(buffer, at, secret, left)) return at;
      }
    }
    return end;
  }
}

/**
 * Horspool's shift table for a needle: for each byte, how far a window whose last byte it is may
 * move without skipping an occurrence.
 */
function shiftTable(needle: Uint8Array): Int32Array {
  const shifts = new Int32Array(256).fill(needle.length);
  for (let i = 0; i < needle.length - 1; i++) shifts[needle[i] as number] = needle.length - 1 - i;
  return shifts;
}

/**
 * The first position at or after `from` where `needle` occurs whole in `haystack`, else -1
 * (Boyer–Moore–Horspool: about `length / needle length` steps on ordinary output, and no slower on
 * output made of the secret's first byte).
 */
function indexOf(
  haystack: Uint8Array,
  needle: Uint8Array,
  shifts: Int32Array,
  from: number,
): number {
  const span = needle.length - 1;
  const lastByte = needle[span] as number;
  const end = haystack.length - needle.length;
  for (let at = from; at <= end;) {
    const byte = haystack[at + span] as number;
    if (byte === lastByte && startsWith(haystack, at, needle, span)) return at;
    at += shifts[byte] as number;
  }
  return -1;
}

/** Whether `haystack[at..at+count]` equals the first `count` bytes of `needle`. */
function startsWith(haystack: Uint8Array, at: number, needle: Uint8Array, count: number): boolean {
  for (let i = 0; i < count; i++) if (haystack[at + i] !== needle[i]) return false;
  return true;
}
