/**
 * The disk cache of compiled validators: `<cacheDir>/validators/<key>.js`, one standalone module per
 * schema (or, for a schema ajv refused, the one-line reason), written atomically. Every failure here
 * means "no cache", never a failed call.
 *
 * @module
 */

import { joinPath } from "../paths.ts";
import { CACHE_FORMAT } from "./_key.ts";

/** What a cache file holds: standalone code, or the reason the schema cannot be compiled. */
export type Cached = { code: string } | { reason: string };

/** Result of looking a key up on disk. */
export type CacheRead =
  | ({ kind: "hit" } & Cached)
  | { kind: "missing" }
  | { kind: "rejected"; why: string };

type Content = "validator" | "reason";

function header(content: Content, key: string, body: string): string {
  return `// basis-tools ${content} ${CACHE_FORMAT} ${key} ${body.length}\n`;
}

/**
 * Where the validator for `key` is cached.
 *
 * @param cacheDir The cache directory.
 * @param key The schema's cache key.
 * @returns The file's path.
 *
 * @example One file per key
 * ```ts
 * import { validatorPath } from "./_cache.ts";
 * console.assert(validatorPath("/c", "ab") === "/c/validators/ab.js");
 * ```
 */
export function validatorPath(cacheDir: string, key: string): string {
  return joinPath(cacheDir, "validators", `${key}.js`);
}

/**
 * Reads the cached standalone code (or reason) for `key`, checking its header (content, format, key,
 * length) and that nobody but the owner can write it (the code is executed).
 *
 * @param cacheDir The cache directory.
 * @param key The schema's cache key.
 * @returns The code or reason on a hit; `missing` when there is no readable file; `rejected` when a
 * file exists but must not be used.
 *
 * @example Read what a compile wrote
 * ```ts ignore
 * import { readCached, writeCached } from "./_cache.ts";
 * await writeCached("/tmp/basis-cache", "k", { code: "module.exports = () => true;" });
 * console.log(readCached("/tmp/basis-cache", "k").kind); // "hit"
 * ```
 */
export function readCached(cacheDir: string, key: string): CacheRead {
  const path = validatorPath(cacheDir, key);
  let text: string;
  try {
    // Synchronous on purpose: one small local file on every call, where an async read would be two
    // hops to a worker thread.
    const info = Deno.statSync(path);
    if (info.mode !== null && (info.mode & 0o022) !== 0) {
      return { kind: "rejected", why: "writable by group or others" };
    }
    text = Deno.readTextFileSync(path);
  } catch {
    return { kind: "missing" };
  }
  const newline = text.indexOf("\n");
  const first = text.slice(0, newline + 1);
  const body = text.slice(newline + 1);
  if (newline >= 0 && first === header("validator", key, body)) return { kind: "hit", code: body };
  if (newline >= 0 && first === header("reason", key, body)) return { kind: "hit", reason: body };
  return { kind: "rejected", why: "bad header or length" };
}

/**
 * Writes the standalone code (or reason) for `key` atomically (a temporary file renamed into place),
 * readable and writable by the owner only.
 *
 * @param cacheDir The cache directory.
 * @param key The schema's cache key.
 * @param cached Standalone CommonJS code, or the reason the schema cannot be compiled.
 * @returns Whether the file was written; `false` when the directory is not writable.
 *
 * @example Write, and ignore failure
 * ```ts ignore
 * import { writeCached } from "./_cache.ts";
 * const written = await writeCached("/tmp/basis-cache", "k", { reason: "invalid JSON Schema" });
 * ```
 */
export async function writeCached(cacheDir: string, key: string, cached: Cached): Promise<boolean> {
  const path = validatorPath(cacheDir, key);
  const text = "code" in cached
    ? header("validator", key, cached.code) + cached.code
    : header("reason", key, cached.reason) + cached.reason;
  const temp = `${path}.${crypto.randomUUID()}.tmp`;
  try {
    await Deno.mkdir(joinPath(cacheDir, "validators"), { recursive: true, mode: 0o700 });
    await Deno.writeTextFile(temp, text, { mode: 0o600, createNew: true });
    await Deno.rename(temp, path);
    return true;
  } catch {
    await Deno.remove(temp).catch(() => {});
    return false;
  }
}
