/**
 * Redacting a byte stream as it flows: a program's stdout or stderr on its way to a terminal, a
 * model, a spill file. Secrets are matched on bytes (their UTF-8), so output that is not text
 * passes through untouched but for the secrets in it, and a secret split across two reads is
 * still caught.
 *
 * Only what could still turn out to be the start of a secret is held back: the longest tail of
 * what was read that is the beginning of some secret (one that may still go on), at most the
 * longest secret's length less one byte. Everything before it goes out at once, so a prompt or a progress line is never delayed
 * unless it ends in what looks like the start of a secret.
 *
 * @module
 */

import { concatBytes } from "./bytes.ts";
import { isSecret, REDACTED } from "./redact.ts";
import { SecretAutomaton } from "./secret_automaton.ts";

const encoder = new TextEncoder();
const TOKEN = encoder.encode(REDACTED);
const EMPTY = new Uint8Array(0);

/**
 * Replaces secrets in a stream of byte chunks, with the same rule as `redact()`: every byte of an
 * occurrence of any secret is hidden, and each unbroken run of hidden bytes becomes one
 * `[redacted]`. One automaton reads every byte once, whatever the number of secrets.
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
  readonly #automaton: SecretAutomaton | undefined;
  /** Where the automaton is after the bytes read so far. */
  #node = 0;
  /** Bytes read but not yet given out: what may still be the start of a secret. */
  #held: Uint8Array = EMPTY;
  /** The runs of hidden bytes in `#held` (flat `start, end` pairs). */
  #spans: number[] = [];
  /** Whether the last byte given out was hidden (a run that goes on adds no second token). */
  #lastHidden = false;

  /**
   * Prepares a redactor for one stream.
   *
   * @param secrets The values to hide; those that are not secrets (too short, blank) are ignored.
   */
  constructor(secrets: readonly string[]) {
    const unique = [...new Set(secrets.filter(isSecret))].map((secret) => encoder.encode(secret));
    this.#automaton = unique.length === 0 ? undefined : new SecretAutomaton(unique, 256, true);
  }

  /** Whether there is anything to hide: when not, `push` gives every chunk back as it is. */
  get active(): boolean {
    return this.#automaton !== undefined;
  }

  /**
   * Takes the next chunk and gives back what may go out now.
   *
   * @param chunk Bytes as read.
   * @returns The bytes to pass on (possibly empty; the chunk itself when nothing was hidden or held).
   */
  push(chunk: Uint8Array): Uint8Array {
    const automaton = this.#automaton;
    if (automaton === undefined) return chunk;
    if (chunk.length === 0) return EMPTY;
    const held = this.#held.length;
    const buffer = held === 0 ? chunk : concatBytes([this.#held, chunk]);
    this.#node = automaton.scan(buffer, held, buffer.length, this.#node, this.#spans);
    return this.#giveOut(buffer, buffer.length - automaton.hold[this.#node]!);
  }

  /**
   * Ends the stream: gives back what was held, redacted.
   *
   * @returns The last bytes to pass on.
   */
  flush(): Uint8Array {
    if (this.#held.length === 0) return EMPTY;
    return this.#giveOut(this.#held, this.#held.length);
  }

  /** Gives out `buffer[..cut]`, each hidden run as one token, and keeps the rest. */
  #giveOut(buffer: Uint8Array, cut: number): Uint8Array {
    const parts: Uint8Array[] = [];
    const kept: number[] = [];
    let at = 0;
    let hiddenAtCut = false;
    const spans = this.#spans;
    for (let k = 0; k < spans.length; k += 2) {
      const start = spans[k]!;
      const end = spans[k + 1]!;
      if (start >= cut) {
        kept.push(start - cut, end - cut);
        continue;
      }
      if (start > at) parts.push(buffer.subarray(at, start));
      // A run at the very start that goes on from what was given out has its token already.
      if (!(start === 0 && this.#lastHidden)) parts.push(TOKEN);
      at = Math.min(end, cut);
      hiddenAtCut = end >= cut;
      if (end > cut) kept.push(0, end - cut);
    }
    if (at < cut) {
      parts.push(buffer.subarray(at, cut));
      hiddenAtCut = false;
    }
    if (cut > 0) this.#lastHidden = hiddenAtCut;
    this.#held = cut === buffer.length ? EMPTY : buffer.slice(cut);
    this.#spans = kept;
    return parts.length === 0 ? EMPTY : concatBytes(parts);
  }
}
