/**
 * The INPUT of `call`: read from its argument or stdin, and the bytes its tool's stdin receives.
 * Reading keeps the bytes it decoded, so that input already in compact form reaches the tool
 * without a second copy (see `_compact_json.ts`).
 *
 * @module
 */

import { BasisError } from "../errors.ts";
import { phrase } from "../locale/messages.ts";
import { compactSpan } from "./_compact_json.ts";

/** The input text of a call, and the bytes it was decoded from when it came from stdin. */
export interface CallInput {
  /** The JSON text (`{}` when none was given). */
  readonly text: string;
  /** Exactly the UTF-8 of `text`, when it was read from stdin without a byte order mark. */
  readonly bytes: Uint8Array | undefined;
}

const BOM = [0xef, 0xbb, 0xbf];
/** Below this many characters serialising costs microseconds: not worth a check. */
const REUSE_FROM = 64 * 1024;
const encoder = new TextEncoder();

/**
 * Reads the input: the argument itself, else stdin (`-`, or no argument with stdin not a
 * terminal), else `{}`. Blank stdin counts as `{}`; a leading byte order mark is dropped and bytes
 * that are not UTF-8 become U+FFFD.
 *
 * @param arg The INPUT argument: JSON text, `-`, or `undefined`.
 * @returns The text, with its bytes when read from stdin.
 */
export async function readCallInput(arg: string | undefined): Promise<CallInput> {
  if (arg !== undefined && arg !== "-") return { text: arg, bytes: undefined };
  if (arg === undefined && Deno.stdin.isTerminal()) return { text: "{}", bytes: undefined };
  let bytes = await new Response(Deno.stdin.readable).bytes();
  if (BOM.every((byte, i) => bytes[i] === byte)) bytes = bytes.subarray(BOM.length);
  const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes);
  if (!/\S/.test(text)) return { text: "{}", bytes: undefined };
  // A U+FFFD may stand for bytes that were not UTF-8: then the text is not their exact decoding.
  return { text, bytes: text.includes("\uFFFD") ? undefined : bytes };
}

/**
 * The bytes for the tool's stdin: the compact JSON of `value`. When a large input text already is
 * that JSON (apart from surrounding whitespace), its own bytes are used rather than a new copy.
 *
 * @param value The input, as parsed from `input.text` (and not modified since).
 * @param input The text it was parsed from.
 * @returns UTF-8 bytes, equal to those of `JSON.stringify(value)`.
 */
export function stdinBytes(value: unknown, input: CallInput): Uint8Array {
  const span = input.text.length < REUSE_FROM ? undefined : compactSpan(input.text);
  if (span === undefined) return encoder.encode(JSON.stringify(value));
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
 * @returns The parsed value.
 * @throws {BasisError} `invalid_json`.
 */
export async function parseCallInput(tool: string, text: string): Promise<unknown> {
  try {
    return JSON.parse(text);
  } catch {
    // Described below, by a module loaded only now.
  }
  const { strictJsonProblem } = await import("../json_text.ts");
  const { position, reason } = await strictJsonProblem(text, "input");
  const detail = position === undefined
    ? reason
    : phrase("json.at", { detail: reason, ...position });
  throw BasisError.of(
    "invalid_json",
    phrase("cli.invalid_json", { tool: JSON.stringify(tool), detail }),
  );
}
