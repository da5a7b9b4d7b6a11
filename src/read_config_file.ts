/**
 * Reading one configuration file (a manifest, `spawn.json`): missing and directory paths are "not
 * there", anything else that cannot be read (a symbolic link to nothing among them) becomes a
 * one-line reason (never an empty list, never a stack trace).
 *
 * Synchronous on purpose: such a file is small, local and read once per command, and each async
 * file operation is a hop to a worker thread (about 0.1 to 0.5 ms each on the start-up path).
 *
 * @module
 */

import { type Phrase, phrase } from "./locale/messages.ts";
import { attempt, quietly } from "./quietly.ts";
import { ManifestError, type ManifestProblem, problemOf } from "./errors.ts";
import { parseJsonc } from "./json_text.ts";
import { fieldName } from "./text.ts";
import { readRegularFile, type RegularRead } from "./read_regular_file.ts";

/** The outcome of reading one configuration file's path. */
export type ConfigFileRead =
  | { readonly kind: "missing" }
  | { readonly kind: "text"; readonly text: string }
  | { readonly kind: "error"; readonly reason: Phrase };

/**
 * The most bytes a configuration file (a manifest, `spawn.json`, `sandbox.json`, `rules.json`) may
 * hold: 4 MiB. A larger one is refused unread, so no file can exhaust memory.
 */
export const MAX_CONFIG_BYTES = 4 * 1024 * 1024;

const lenient = new TextDecoder("utf-8");
const strict = new TextDecoder("utf-8", { fatal: true });

/**
 * Reads a configuration file as UTF-8 text.
 *
 * @param path The file's path.
 * @returns `missing` when there is no file (or a directory stands there), the text, or a reason
 *   (a symbolic link whose target does not exist is one: the file was meant to be there).
 * @example A path with nothing there
 * ```ts
 * import { readConfigFile } from "./read_config_file.ts";
 * console.assert(readConfigFile("/no/such/dir/tools.json").kind === "missing");
 * ```
 */
export function readConfigFile(path: string): ConfigFileRead {
  let read: RegularRead;
  try {
    read = readRegularFile(path, { limit: MAX_CONFIG_BYTES });
  } catch (error) {
    return { kind: "error", reason: cannotRead(error) };
  }
  if (read.kind === "missing") return danglingLink(path) ?? MISSING;
  if (read.kind === "not_regular") return read.directory ? MISSING : NOT_FILE;
  if (read.kind === "too_large") return { kind: "error", reason: tooLarge() };
  // The lenient decoder is several times faster; only a U+FFFD in its text (a replaced byte, or
  // one the file really holds) needs the strict one to tell.
  const fast = lenient.decode(read.bytes);
  const text = fast.includes("\uFFFD") ? attempt(() => strict.decode(read.bytes)) : fast;
  if (text === undefined) return { kind: "error", reason: phrase("file.read_utf8") };
  return { kind: "text", text };
}

/**
 * Why a configuration file larger than {@linkcode MAX_CONFIG_BYTES} is refused (before it is
 * read, let alone parsed).
 *
 * @returns The reason.
 */
export function tooLarge(): Phrase {
  return phrase("file.too_large", { limit: phrase("size.mib", { count: MAX_CONFIG_BYTES >> 20 }) });
}

const MISSING: ConfigFileRead = { kind: "missing" };
const NOT_FILE: ConfigFileRead = { kind: "error", reason: phrase("file.read_not_file") };

/**
 * Whether two paths name the same existing file (compared by real path).
 *
 * @param a One path.
 * @param b The other path.
 * @returns True when both exist and resolve to the same file.
 * @example The same file by two paths
 * ```ts
 * import { sameFile } from "./read_config_file.ts";
 * console.assert(sameFile(".", Deno.cwd()));
 * ```
 */
export function sameFile(a: string, b: string): boolean {
  return a === b || attempt(() => Deno.realPathSync(a) === Deno.realPathSync(b), false);
}

/** The reason to refuse a symbolic link standing at the path whose target does not exist. */
function danglingLink(path: string): ConfigFileRead | undefined {
  // Not a link (or nothing there, or not allowed to look): it throws.
  const target = attempt(() => JSON.stringify(quietly(() => Deno.readLinkSync(path))));
  if (target === undefined) return undefined;
  return { kind: "error", reason: phrase("file.read_dangling_link", { target }) };
}

function cannotRead(error: unknown): Phrase {
  if (error instanceof Deno.errors.PermissionDenied) return phrase("file.read_permission");
  if (error instanceof Deno.errors.NotCapable) return phrase("file.read_sandbox");
  const message = error instanceof Error ? error.message : String(error);
  // Deno's messages look like "Reason (os error N): op 'path'"; keep the reason.
  const reason = message.split(/ \(os error|:/)[0]?.trim() || "unknown error";
  return phrase("file.read_other", { reason: reason.charAt(0).toLowerCase() + reason.slice(1) });
}

/**
 * A configuration file's text, parsed: the text without its byte order mark (what positions count
 * in), what the file says (JSONC read as JSON), and each key it gives twice, at the second, naming
 * the first (`json.duplicate_key`).
 */
export type ParsedConfig = { source: string; value: unknown; duplicates: ManifestProblem[] };

/**
 * Parses the text of one of the user's JSONC configuration files (`spawn.json`, `sandbox.json`):
 * a byte order mark dropped, the text parsed, keys given twice found.
 *
 * @param text The file's text.
 * @param file Its absolute path, for problems.
 * @param empty Why an empty file is refused.
 * @returns The value and the duplicate keys.
 * @throws {ManifestError} When the text is not JSON or JSONC (one problem, at its line:column).
 * @example A key given twice
 * ```ts
 * import { parseConfigText } from "./read_config_file.ts";
 * import { phrase } from "./locale/messages.ts";
 * const { duplicates } = await parseConfigText('{"a": 1, "a": 2}', "/c/x.json", phrase("spawn_config.empty"));
 * console.assert(duplicates[0]?.field === "a");
 * ```
 */
export async function parseConfigText(
  text: string,
  file: string,
  empty: Phrase,
): Promise<ParsedConfig> {
  const source = text.replace(/^\uFEFF/, "");
  const parsed = await parseJsonc(source, empty);
  if (!parsed.ok) throw new ManifestError([problemOf({ file, ...parsed.position }, parsed.reason)]);
  const duplicates = parsed.duplicates.map(({ path, key, position, first }) => {
    const field = fieldName([...path, key]);
    return problemOf({ file, ...position, field }, phrase("json.duplicate_key", { ...first }));
  });
  return { source, value: parsed.value, duplicates };
}

/**
 * Loads one of the user's configuration files: its defaults when it is missing, a problem when it
 * cannot be read, else what `parse` makes of its text.
 *
 * @param file The file's absolute path.
 * @param missing What a missing file means.
 * @param parse Parses the text.
 * @returns The configuration.
 * @throws {ManifestError} When the file cannot be read, or `parse` refuses it.
 */
export async function loadConfigFile<T>(
  file: string,
  missing: (file: string) => T,
  parse: (text: string, file: string) => Promise<T>,
): Promise<T> {
  const read = readConfigFile(file);
  if (read.kind === "missing") return missing(file);
  if (read.kind === "error") throw new ManifestError([problemOf({ file }, read.reason)]);
  return await parse(read.text, file);
}
