/**
 * The disk cache of compiled validators: `<cacheDir>/validators/<key>.js`, one standalone module per
 * schema (or, for a schema ajv refused, the one-line reason), written atomically. Every failure here
 * means "no cache", never a failed call.
 *
 * @module
 */

import { joinPath } from "../paths.ts";
import { concatBytes } from "../bytes.ts";
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
  let file: Deno.FsFile | undefined;
  try {
    // Synchronous on purpose: one small local file on every call, where an async read would be two
    // hops to a worker thread. The checks look at the opened file, not the path, so a file swapped
    // in between cannot slip through.
    file = Deno.openSync(path);
    const unsafe = untrusted(file.statSync()) ??
      untrusted(Deno.statSync(joinPath(cacheDir, "validators")));
    if (unsafe !== undefined) return { kind: "rejected", why: unsafe };
    text = new TextDecoder().decode(readAll(file));
  } catch {
    return { kind: "missing" };
  } finally {
    file?.close();
  }
  const newline = text.indexOf("\n");
  const first = text.slice(0, newline + 1);
  const body = text.slice(newline + 1);
  if (newline >= 0 && first === header("validator", key, body)) return { kind: "hit", code: body };
  if (newline >= 0 && first === header("reason", key, body)) return { kind: "hit", reason: body };
  return { kind: "rejected", why: "bad header or length" };
}

/**
 * Why a cache file or directory must not be trusted (its code is executed): someone else owns it,
 * or someone else may write it. `undefined` when it is safe. Where this process may not learn its
 * own uid (Windows, or no `--allow-sys=uid`), only the permission bits are checked.
 */
function untrusted(info: Deno.FileInfo): string | undefined {
  if (info.mode !== null && (info.mode & 0o022) !== 0) return "writable by group or others";
  const uid = ownUid();
  if (uid !== undefined && info.uid !== null && info.uid !== uid) return "owned by another user";
  return undefined;
}

let cachedUid: number | null | undefined;

function ownUid(): number | undefined {
  if (cachedUid === undefined) {
    try {
      cachedUid = Deno.uid();
    } catch {
      cachedUid = null;
    }
  }
  return cachedUid ?? undefined;
}

function readAll(file: Deno.FsFile): Uint8Array {
  const chunks: Uint8Array[] = [];
  const buffer = new Uint8Array(64 * 1024);
  while (true) {
    const read = file.readSync(buffer);
    if (read === null || read === 0) break;
    chunks.push(buffer.slice(0, read));
  }
  return concatBytes(chunks);
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
