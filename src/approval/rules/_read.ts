/**
 * Reading and validating the rules file from disk. Missing means no rules; anything else that
 * stops the file from being trusted is a `RulesFileError`: a file or directory another user owns
 * or may write, a file that is not regular, not UTF-8, not JSON, or not of the expected shape.
 *
 * Synchronous on purpose: one stat of the directory and one read of a small file cost microseconds,
 * where each asynchronous call is a thread hop on every tool call.
 *
 * @module
 */

import { RulesFileError } from "./errors.ts";
import type { RulesDocument } from "./types.ts";
import { field, validateRulesDocument } from "./validate.ts";
import { type Phrase, phrase } from "../../locale/messages.ts";
import { duplicateKeysOf, strictJsonProblem } from "../../json_text.ts";
import { untrusted } from "../../owner.ts";
import { parentPath } from "../../paths.ts";
import { attempt, quietly } from "../../quietly.ts";
import { readRegularFile } from "../../read_regular_file.ts";
import { MAX_CONFIG_BYTES, tooLarge } from "../../read_config_file.ts";

/** The last document read from each file, with its text: parsed and validated once per change. */
const lastRead = new Map<string, { readonly text: string; readonly document: RulesDocument }>();

/**
 * Reads, parses and validates a rules file. The file's ownership and mode are checked and its
 * text read every time; a text read before is not parsed again (a server asks on every call).
 *
 * @param file The rules file's path.
 * @returns The document, or `undefined` when the file does not exist.
 * @throws {RulesFileError} When the file or its directory belongs to another user or may be
 *   written by others, or the file cannot be read, is not a regular file, is not UTF-8, is not
 *   JSON, or does not have the expected shape and version.
 */
export async function readRulesDocument(file: string): Promise<RulesDocument | undefined> {
  const bytes = readTrusted(file);
  if (bytes === undefined) return undefined;
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes); // Strips a byte order mark.
  } catch (error) {
    throw new RulesFileError(file, [phrase("rules_file.not_utf8")], { cause: error });
  }
  const last = lastRead.get(file);
  if (last?.text === text) return last.document;
  const validated = await validateRulesDocument(await parseJson(file, text));
  if (!validated.ok) throw new RulesFileError(file, validated.problems);
  lastRead.set(file, { text, document: validated.value });
  return validated.value;
}

/**
 * Checks that the rules file's directory and the file itself are this user's and not writable by
 * anyone else, then reads the file.
 *
 * @param file The rules file's path.
 * @returns Its bytes, or `undefined` when the file (or its directory) does not exist.
 * @throws {RulesFileError} When either cannot be trusted or the file cannot be read.
 */
function readTrusted(file: string): Uint8Array | undefined {
  const dir = parentPath(file);
  try {
    let dirInfo: Deno.FileInfo;
    try {
      dirInfo = quietly(() => Deno.statSync(dir));
    } catch (error) {
      if (error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory) {
        return undefined;
      }
      throw error;
    }
    const refuse = (problem: Phrase | undefined) => {
      if (problem === undefined) return undefined;
      throw new RulesFileError(file, [problem]);
    };
    refuse(distrust(dirInfo, dir, true));
    // Never a FIFO opened (it would block), never a huge file read.
    const read = readRegularFile(file, { limit: MAX_CONFIG_BYTES });
    if (read.kind === "missing") {
      // A link to nothing is a file meant to be there (an unmounted disk, a moved dotfile repo):
      // reading it as "no rules" would silently drop every deny rule.
      const link = attempt(() => quietly(() => Deno.lstatSync(file)).isSymlink, false);
      const target = link ? attempt(() => Deno.readLinkSync(file)) : undefined;
      if (target === undefined) return undefined;
      refuse(phrase("rules_file.dangling_link", { target: JSON.stringify(target) }));
    }
    if (read.kind !== "read") {
      return refuse(read.kind === "too_large" ? tooLarge() : phrase("rules_file.not_regular"));
    }
    refuse(distrust(read.info, file, false));
    return read.bytes;
  } catch (error) {
    if (error instanceof RulesFileError) throw error;
    throw new RulesFileError(file, [describeReadError(error)], { cause: error });
  }
}

/**
 * Why a rules file or its directory must not be trusted: another user owns it, or others may
 * write it (anyone who can write rules can approve tools). Fails closed when the owner cannot be
 * checked. `undefined` when it is safe.
 */
function distrust(info: Deno.FileInfo, path: string, isDir: boolean): Phrase | undefined {
  const why = untrusted(info);
  if (why === undefined) return undefined;
  if (why.kind === "owner_unknown") return phrase("rules_file.owner_unknown");
  // `rules_file.owner`, `rules_file.dir_owner`, `rules_file.loose_mode`, `rules_file.dir_loose_mode`.
  const what = why.kind === "other_owner" ? "owner" : "loose_mode";
  return phrase(`rules_file.${isDir ? "dir_" : ""}${what}`, { ...why, dir: JSON.stringify(path) });
}

/**
 * Parses the text as strict JSON (no comments, no trailing commas: this program writes it). A key
 * given twice is refused: `JSON.parse` would keep the last one silently (a second `decision`, a
 * second `when`), and a file whose meaning is not what it plainly says cannot be trusted.
 */
async function parseJson(file: string, text: string): Promise<unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    if (text.trim() === "") throw new RulesFileError(file, [phrase("rules_file.empty")]);
    const { position, reason } = await strictJsonProblem(text);
    const detail = position === undefined
      ? reason
      : phrase("json.at", { detail: reason, ...position });
    throw new RulesFileError(file, [phrase("json.invalid_detail", { detail })]);
  }
  const duplicates = (await duplicateKeysOf(text, value)).map(({ path, key, position, first }) => {
    const at = { ...position, first_line: first.line, first_column: first.column };
    return field([...path, key], phrase("rules_file.duplicate_key", at));
  });
  if (duplicates.length > 0) throw new RulesFileError(file, duplicates);
  return value;
}

/** Why the file could not be read; another error's own message is kept as it is. */
function describeReadError(error: unknown): Phrase {
  if (error instanceof Deno.errors.NotCapable) return phrase("rules_file.read_sandbox");
  if (error instanceof Deno.errors.PermissionDenied) return phrase("rules_file.read_permission");
  if (error instanceof Deno.errors.IsADirectory) return phrase("rules_file.not_regular");
  const message = error instanceof Error ? error.message : String(error);
  return phrase("rules_file.read_failed", { reason: message.split("\n")[0] as string });
}
