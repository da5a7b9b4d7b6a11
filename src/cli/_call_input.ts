/**
 * The INPUT of `call`: read from its argument or stdin, and the bytes its tool's stdin receives:
 * the compact JSON of the input with every number exactly as the caller wrote it. Reading keeps the
 * bytes it decoded, so that input already in compact form reaches the tool without a second copy
 * (see `_compact_json.ts`).
 *
 * @module
 */

import { compactKeepingNumbers, strictJsonProblem, underflowPointer } from "../json_text.ts";
import { concatBytes } from "../bytes.ts";
import { BasisError } from "../errors.ts";
import { type Phrase, phrase } from "../locale/messages.ts";
import { compactSpan } from "./_compact_json.ts";

/** The input text of a call, and the bytes it was decoded from when it came from stdin. */
export interface CallInput {
  /** The JSON text (`{}` when none was given). */
  readonly text: string;
  /** Exactly the UTF-8 of `text`, when it was read from stdin (a byte order mark left out). */
  readonly bytes: Uint8Array | undefined;
}

const BOM = [0xef, 0xbb, 0xbf];
/** Below this many characters serialising costs microseconds: not worth a check. */
const REUSE_FROM = 64 * 1024;
const encoder = new TextEncoder();

/** The most bytes a call reads from stdin: more is refused before anything is parsed. */
export const MAX_INPUT_BYTES = 128 * 1024 * 1024;

/**
 * Reads the input: the argument itself, else stdin (`-`, or no argument with stdin not a
 * terminal), else `{}`. With no argument, stdin on a device such as `/dev/null` or `/dev/zero`
 * means no input was given (`{}`; nothing is read). Stdin that is empty is refused like an empty
 * argument (by {@linkcode parseCallInput}). A leading byte order mark is dropped; stdin that is not
 * UTF-8, or holds more than {@linkcode MAX_INPUT_BYTES}, is refused.
 *
 * @param tool The tool's name, for the message.
 * @param arg The INPUT argument: JSON text, `-`, or `undefined`.
 * @returns The text, with its bytes when read from stdin.
 * @throws {BasisError} `invalid_json` when stdin is not UTF-8, naming the first bad byte's offset;
 *   `usage` when it holds more than the cap.
 */
export async function readCallInput(tool: string, arg: string | undefined): Promise<CallInput> {
  const none = { text: "{}", bytes: undefined };
  if (arg !== undefined && arg !== "-") return { text: arg, bytes: undefined };
  if (arg === undefined && (Deno.stdin.isTerminal() || stdinIsDevice())) return none;
  const read = await readStdin(tool);
  if (read.length === 0 && arg === undefined && await stdinIsNoSource()) return none;
  const skip = BOM.every((byte, i) => read[i] === byte) ? BOM.length : 0;
  const bytes = read.subarray(skip);
  try {
    return { text: STRICT_UTF8.decode(bytes), bytes };
  } catch {
    const offset = skip + invalidUtf8At(bytes);
    throw BasisError.of(
      "invalid_json",
      phrase("cli.input_not_utf8", { tool: JSON.stringify(tool), offset }),
    );
  }
}

const STRICT_UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** All of stdin, refused once it holds more than {@linkcode MAX_INPUT_BYTES}. */
async function readStdin(tool: string): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  // Leaving the loop early cancels the stream: nothing more is read.
  for await (const chunk of Deno.stdin.readable) {
    size += chunk.length;
    if (size > MAX_INPUT_BYTES) {
      const size = phrase("size.mib", { count: MAX_INPUT_BYTES / (1024 * 1024) });
      throw BasisError.of(
        "usage",
        phrase("cli.input_too_large", { tool: JSON.stringify(tool), size }),
      );
    }
    chunks.push(chunk);
  }
  return concatBytes(chunks);
}

/**
 * Whether stdin is a device (neither a pipe, a socket nor a file), asked of `/dev/stdin` where it
 * may be read: false where that cannot be told (stdin is then read, within the cap).
 */
function stdinIsDevice(): boolean {
  try {
    const path = "/dev/stdin";
    if (Deno.permissions.querySync({ name: "read", path }).state !== "granted") return false;
    const info = Deno.statSync(path);
    return !(info.isFifo || info.isSocket || info.isFile);
  } catch {
    return false;
  }
}

/**
 * Whether stdin is neither a pipe, a socket nor a file (a device such as `/dev/null`, or closed):
 * then an empty read means no input was given. Asked only after an empty read, since the answer
 * takes Node's `fs` (about 15 ms to load).
 */
async function stdinIsNoSource(): Promise<boolean> {
  try {
    const { fstatSync } = await import("node:fs");
    const info = fstatSync(0);
    return !(info.isFIFO() || info.isSocket() || info.isFile());
  } catch {
    return true;
  }
}

/**
 * The offset where the first sequence that is not well-formed UTF-8 starts: where the decoder put
 * its first U+FFFD that the bytes do not spell themselves.
 */
function invalidUtf8At(bytes: Uint8Array): number {
  const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes);
  let offset = 0;
  for (let from = 0, at = text.indexOf("\uFFFD"); at !== -1; at = text.indexOf("\uFFFD", from)) {
    offset += encoder.encode(text.slice(from, at)).length;
    if (bytes[offset] !== 0xef || bytes[offset + 1] !== 0xbf || bytes[offset + 2] !== 0xbd) break;
    [offset, from] = [offset + 3, at + 1];
  }
  return offset;
}

/**
 * The bytes for the tool's stdin: the compact JSON of `value`, every number written as in the
 * text. When a large input text already is that JSON (apart from surrounding whitespace), its own
 * bytes are used rather than a new copy.
 *
 * @param value The input, as parsed from `input.text` (and not modified since).
 * @param input The text it was parsed from.
 * @returns UTF-8 bytes: those of `JSON.stringify(value)`, except that each number is its text.
 */
export function stdinBytes(value: unknown, input: CallInput): Uint8Array {
  const span = input.text.length < REUSE_FROM ? undefined : compactSpan(input.text);
  if (span === undefined) {
    // Numbers written as JavaScript writes them: the compact JSON of the value already has them.
    const kept = numbersAsJavaScriptWrites(input.text)
      ? undefined
      : compactKeepingNumbers(input.text);
    // Too deep to keep (undefined): the gate's nesting limit refuses such an input anyway.
    return encoder.encode(kept ?? JSON.stringify(value));
  }
  const { text, bytes } = input;
  // Surrounding whitespace is ASCII: as many bytes as characters.
  if (bytes !== undefined) {
    return bytes.subarray(span.start, bytes.length - (text.length - span.end));
  }
  return encoder.encode(text.slice(span.start, span.end));
}

/**
 * Parses the input of a call. When it is not JSON, the error says what is wrong and where, by
 * kind (the text is never echoed: it may hold a secret).
 *
 * @param tool The tool's name, for the message.
 * @param text The input text.
 * @param options `argument`: the text was a command-line argument, whose quotes a shell may have
 *   taken (the error then says to put it in single quotes). @default {false}
 * @returns The parsed value.
 * @throws {BasisError} `invalid_json`.
 */
export async function parseCallInput(
  tool: string,
  text: string,
  options: { argument?: boolean } = {},
): Promise<unknown> {
  const name = JSON.stringify(tool);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    const found = await jsonDetail(text, "input");
    const detail = options.argument === true ? withQuoteHint(text, found) : found;
    throw BasisError.of("invalid_json", phrase("cli.invalid_json", { tool: name, detail }));
  }
  // A number read as 0 but written otherwise would reach the program as written, judged as 0.
  const pointer = await underflowPointer(text);
  if (pointer === undefined) return value;
  const refused = { tool: name, pointer: pointer || "/", reason: phrase("schema.underflow") };
  throw BasisError.of("invalid_input", phrase("input.refused", refused));
}

/**
 * What is wrong with a text `JSON.parse` refused, and where, by kind (the text is never echoed: it
 * may hold a secret).
 *
 * @param text The text.
 * @param source Whether it is a file's or a call's input (how its end is named). @default "file"
 * @returns The reason, with its line and column when known.
 */
export async function jsonDetail(text: string, source?: "file" | "input"): Promise<Phrase> {
  const { position, reason } = await strictJsonProblem(text, source);
  return position === undefined ? reason : phrase("json.at", { detail: reason, ...position });
}

/**
 * What is wrong with an argument that is not JSON, with the hint to put it in single quotes when it
 * holds words but no `"`: a shell most likely took them (`{"text":"hi"}` unquoted arrives as
 * `{text:hi}`).
 *
 * @param text The argument.
 * @param detail What is wrong with it.
 * @returns The detail, with the hint when it fits.
 */
export function withQuoteHint(text: string, detail: Phrase): Phrase {
  const unquoted = !text.includes('"') && /\p{L}/u.test(text);
  return unquoted ? phrase("json.quote_hint", { detail }) : detail;
}

/** Where a string or a number may start; nothing else in JSON text holds `"`, `-` or a digit. */
const NEXT_TOKEN = /["\-0-9]/g;
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/**
 * Whether every number in a JSON text is written as `JSON.stringify` writes it (one pass that jumps
 * over strings): then the compact JSON of the parsed value holds every number as written, and no
 * second parse keeping the numbers' text is needed.
 */
function numbersAsJavaScriptWrites(text: string): boolean {
  NEXT_TOKEN.lastIndex = 0;
  for (let match = NEXT_TOKEN.exec(text); match !== null; match = NEXT_TOKEN.exec(text)) {
    const at = match.index;
    if (text.charCodeAt(at) === 0x22) {
      // The closing quote: the next one not escaped (after an even number of backslashes).
      let quote = text.indexOf('"', at + 1);
      let backslashes = 0;
      while (quote > 0) {
        for (backslashes = 0; text.charCodeAt(quote - 1 - backslashes) === 0x5c;) backslashes++;
        if (backslashes % 2 === 0) break;
        quote = text.indexOf('"', quote + 1);
      }
      NEXT_TOKEN.lastIndex = quote < 0 ? text.length : quote + 1;
      continue;
    }
    NUMBER.lastIndex = at;
    const lexeme = NUMBER.exec(text)?.[0] ?? "";
    if (String(Number(lexeme)) !== lexeme) return false;
    NEXT_TOKEN.lastIndex = at + Math.max(lexeme.length, 1);
  }
  return true;
}
