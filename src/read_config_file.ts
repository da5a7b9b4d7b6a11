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
import { quietly } from "./quietly.ts";

/** The outcome of reading one configuration file's path. */
export type ConfigFileRead =
  | { readonly kind: "missing" }
  | { readonly kind: "text"; readonly text: string }
  | { readonly kind: "error"; readonly reason: Phrase };

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
  let info: Deno.FileInfo;
  try {
    info = quietly(() => Deno.statSync(path));
  } catch (error) {
    if (isAbsent(error)) return danglingLink(path) ?? { kind: "missing" };
    return { kind: "error", reason: cannotRead(error) };
  }
  if (info.isDirectory) return { kind: "missing" };
  if (!info.isFile) return { kind: "error", reason: phrase("file.read_not_file") };
  let bytes: Uint8Array;
  try {
    bytes = Deno.readFileSync(path);
  } catch (error) {
    if (isAbsent(error)) return { kind: "missing" };
    return { kind: "error", reason: cannotRead(error) };
  }
  try {
    // The lenient decoder is several times faster; only a U+FFFD in its text (a replaced byte, or
    // one the file really holds) needs the strict one to tell.
    const text = lenient.decode(bytes);
    return { kind: "text", text: text.includes("\uFFFD") ? strict.decode(bytes) : text };
  } catch {
    return { kind: "error", reason: phrase("file.read_utf8") };
  }
}

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
  if (a === b) return true;
  try {
    return Deno.realPathSync(a) === Deno.realPathSync(b);
  } catch {
    return false;
  }
}

/** The reason to refuse a symbolic link standing at the path whose target does not exist. */
function danglingLink(path: string): ConfigFileRead | undefined {
  let target: string;
  try {
    if (!quietly(() => Deno.lstatSync(path)).isSymlink) return undefined;
    target = Deno.readLinkSync(path);
  } catch {
    return undefined;
  }
  const reason = phrase("file.read_dangling_link", { target: JSON.stringify(target) });
  return { kind: "error", reason };
}

function isAbsent(error: unknown): boolean {
  return error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory ||
    error instanceof Deno.errors.IsADirectory;
}

function cannotRead(error: unknown): Phrase {
  if (error instanceof Deno.errors.PermissionDenied) return phrase("file.read_permission");
  if (error instanceof Deno.errors.NotCapable) return phrase("file.read_sandbox");
  const message = error instanceof Error ? error.message : String(error);
  // Deno's messages look like "Reason (os error N): op 'path'"; keep the reason.
  const reason = message.split(/ \(os error|:/)[0]?.trim() || "unknown error";
  return phrase("file.read_other", {
    reason: `${reason.charAt(0).toLowerCase()}${reason.slice(1)}`,
  });
}
