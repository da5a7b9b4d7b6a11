/**
 * Reading and validating the rules file from disk. Missing means no rules; anything else that
 * stops the file from being trusted is a `RulesFileError`.
 *
 * @module
 */

import { RulesFileError } from "./errors.ts";
import type { RulesDocument } from "./types.ts";
import { validateRulesDocument } from "./validate.ts";
import { concatBytes } from "../../bytes.ts";
import { type Phrase, phrase } from "../../locale/messages.ts";
import { strictJsonProblem } from "../../json_text.ts";

const WINDOWS = Deno.build.os === "windows";

/**
 * Reads, parses and validates a rules file.
 *
 * @param file The rules file's path.
 * @returns The document, or `undefined` when the file does not exist.
 * @throws {RulesFileError} When the file cannot be read, is not a regular file, is writable by
 *   group or others, is not UTF-8, is not JSON, or does not have the expected shape and version.
 */
export async function readRulesDocument(file: string): Promise<RulesDocument | undefined> {
  let bytes: Uint8Array;
  try {
    const found = await readRegularFile(file);
    if (found === undefined) return undefined;
    bytes = found;
  } catch (error) {
    if (error instanceof RulesFileError) throw error;
    throw new RulesFileError(file, [describeReadError(error)], { cause: error });
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes); // Strips a byte order mark.
  } catch (error) {
    throw new RulesFileError(file, [phrase("rules_file.not_utf8")], { cause: error });
  }
  const validated = validateRulesDocument(await parseJson(file, text));
  if (!validated.ok) throw new RulesFileError(file, validated.problems);
  return validated.value;
}

/** Parses the text as strict JSON (no comments, no trailing commas: this program writes it). */
async function parseJson(file: string, text: string): Promise<unknown> {
  try {
    return JSON.parse(text);
  } catch {
    // Described below.
  }
  if (text.trim() === "") throw new RulesFileError(file, [phrase("rules_file.empty")]);
  const { position, reason } = await strictJsonProblem(text);
  const detail = position === undefined
    ? reason
    : phrase("json.at", { detail: reason, ...position });
  throw new RulesFileError(file, [phrase("json.invalid_detail", { detail })]);
}

async function readRegularFile(file: string): Promise<Uint8Array | undefined> {
  let handle: Deno.FsFile;
  try {
    handle = await Deno.open(file, { read: true });
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
  try {
    const info = await handle.stat();
    if (!info.isFile) throw new RulesFileError(file, [phrase("rules_file.not_regular")]);
    if (!WINDOWS && info.mode !== null && (info.mode & 0o022) !== 0) {
      const mode = (info.mode & 0o777).toString(8).padStart(4, "0");
      throw new RulesFileError(file, [phrase("rules_file.loose_mode", { mode })]);
    }
    const chunks: Uint8Array[] = [];
    for await (const chunk of readChunks(handle)) chunks.push(chunk);
    return concatBytes(chunks);
  } finally {
    handle.close();
  }
}

async function* readChunks(handle: Deno.FsFile): AsyncGenerator<Uint8Array> {
  for (;;) {
    const buffer = new Uint8Array(64 * 1024);
    const count = await handle.read(buffer);
    if (count === null) return;
    yield buffer.subarray(0, count);
  }
}

/** Why the file could not be read; another error's own message is kept as it is. */
function describeReadError(error: unknown): Phrase {
  if (error instanceof Deno.errors.NotCapable) return phrase("rules_file.read_sandbox");
  if (error instanceof Deno.errors.PermissionDenied) return phrase("rules_file.read_permission");
  if (error instanceof Deno.errors.IsADirectory) return phrase("rules_file.not_regular");
  const message = error instanceof Error ? error.message : String(error);
  return phrase("rules_file.read_failed", { reason: message.split("\n")[0] as string });
}
