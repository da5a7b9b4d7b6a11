/**
 * The disk cache of compiled validators: `<cacheDir>/validators/<key>.js`, one standalone module per
 * schema (or, for a schema that cannot be compiled, why not: a phrase as JSON, worded in the locale
 * of whoever reads it), written atomically. Every failure here means "no cache", never a failed call.
 *
 * @module
 */

import { untrusted } from "../owner.ts";
import { joinPath } from "../paths.ts";
import { concatBytes } from "../bytes.ts";
import type { Phrase } from "../locale/messages.ts";
import { CACHE_FORMAT } from "./_key.ts";
import { problemText, readProblem } from "./_problem.ts";

/** What a cache file holds: standalone code, or why the schema cannot be compiled. */
export type Cached = { code: string } | { problem: Phrase };

/** Result of looking a key up on disk. */
export type CacheRead =
  | ({ kind: "hit" } & Cached)
  | { kind: "missing" }
  | { kind: "rejected"; why: string };

/**
 * `problem` files hold a phrase as JSON. `reason` files, from before problems were phrases, hold
 * English text: they are read as missing, so the schema is compiled again and the file replaced.
 */
type Content = "validator" | "problem" | "reason";

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
 * Reads the cached standalone code (or problem) for `key`, checking its header (content, format,
 * key, length) and that nobody but the owner can write it (the code is executed).
 *
 * @param cacheDir The cache directory.
 * @param key The schema's cache key.
 * @returns The code or problem on a hit; `missing` when there is no readable file (or one in an
 * older layout); `rejected` when a file exists but must not be used.
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
    const unsafe = distrust(file.statSync()) ??
      distrust(Deno.statSync(joinPath(cacheDir, "validators")));
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
  if (newline >= 0 && first === header("problem", key, body)) {
    const problem = readProblem(body);
    return problem === undefined
      ? { kind: "rejected", why: "not a schema problem" }
      : { kind: "hit", problem };
  }
  if (newline >= 0 && first === header("reason", key, body)) return { kind: "missing" };
  return { kind: "rejected", why: "bad header or length" };
}

/**
 * Why a cache file or directory must not be trusted (its code is executed): someone else owns it,
 * or someone else may write it. `undefined` when it is safe. Where this process may not learn its
 * own uid (Windows, or no `--allow-sys=uid`), only the permission bits are checked.
 */
function distrust(info: Deno.FileInfo): string | undefined {
  const why = untrusted(info);
  if (why?.kind === "loose_mode") return "writable by group or others";
  if (why?.kind === "other_owner") return "owned by another user";
  return undefined;
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
 * Writes the standalone code (or problem) for `key` atomically (a temporary file renamed into
 * place), readable and writable by the owner only.
 *
 * @param cacheDir The cache directory.
 * @param key The schema's cache key.
 * @param cached Standalone CommonJS code, or why the schema cannot be compiled.
 * @returns Whether the file was written; `false` when the directory is not writable.
 *
 * @example Write, and ignore failure
 * ```ts ignore
 * import { writeCached } from "./_cache.ts";
 * const problem = { key: "schema_problem.not_json" } as const;
 * const written = await writeCached("/tmp/basis-cache", "k", { problem });
 * ```
 */
export async function writeCached(cacheDir: string, key: string, cached: Cached): Promise<boolean> {
  const path = validatorPath(cacheDir, key);
  const [content, body] = "code" in cached
    ? ["validator" as const, cached.code]
    : ["problem" as const, problemText(cached.problem)];
  const text = header(content, key, body) + body;
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
