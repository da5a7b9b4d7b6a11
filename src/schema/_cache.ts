/**
 * The disk cache of compiled validators: `<cacheDir>/validators/<key>.js`, one standalone module per
 * schema, written atomically. Every failure here means "no cache", never a failed call.
 *
 * @module
 */

import { joinPath } from "../paths.ts";
import { CACHE_FORMAT } from "./_key.ts";

/** Result of looking a key up on disk. */
export type CacheRead =
  | { kind: "hit"; code: string }
  | { kind: "missing" }
  | { kind: "rejected"; why: string };

function header(key: string, code: string): string {
  return `// basis-tools validator ${CACHE_FORMAT} ${key} ${code.length}\n`;
}

/**
 * Where the validator for `key` is cached.
 *
 * @param cacheDir The cache directory.
 * @param key The schema's cache key.
 * @returns The file's path.
 */
export function validatorPath(cacheDir: string, key: string): string {
  return joinPath(cacheDir, "validators", `${key}.js`);
}

/**
 * Reads the cached standalone code for `key`, checking its header (format, key, length) and that
 * nobody but the owner can write it (the code is executed).
 *
 * @param cacheDir The cache directory.
 * @param key The schema's cache key.
 * @returns The code on a hit; `missing` when there is no readable file; `rejected` when a file exists
 * but must not be used.
 */
export async function readCached(cacheDir: string, key: string): Promise<CacheRead> {
  const path = validatorPath(cacheDir, key);
  let text: string;
  try {
    const info = await Deno.stat(path);
    if (info.mode !== null && (info.mode & 0o022) !== 0) {
      return { kind: "rejected", why: "writable by group or others" };
    }
    text = await Deno.readTextFile(path);
  } catch {
    return { kind: "missing" };
  }
  const newline = text.indexOf("\n");
  const code = text.slice(newline + 1);
  if (newline < 0 || text.slice(0, newline + 1) !== header(key, code)) {
    return { kind: "rejected", why: "bad header or length" };
  }
  return { kind: "hit", code };
}

/**
 * Writes the standalone code for `key` atomically (a temporary file renamed into place), readable and
 * writable by the owner only.
 *
 * @param cacheDir The cache directory.
 * @param key The schema's cache key.
 * @param code Standalone CommonJS code.
 * @returns Whether the file was written; `false` when the directory is not writable.
 */
export async function writeCached(cacheDir: string, key: string, code: string): Promise<boolean> {
  const path = validatorPath(cacheDir, key);
  const temp = `${path}.${crypto.randomUUID()}.tmp`;
  try {
    await Deno.mkdir(joinPath(cacheDir, "validators"), { recursive: true, mode: 0o700 });
    await Deno.writeTextFile(temp, header(key, code) + code, { mode: 0o600, createNew: true });
    await Deno.rename(temp, path);
    return true;
  } catch {
    await Deno.remove(temp).catch(() => {});
    return false;
  }
}
