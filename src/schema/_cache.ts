/**
 * The disk cache of compiled validators: `<cacheDir>/validators/<key>.js`, one standalone module per
 * schema (or, for a schema that cannot be compiled, why not: a phrase as JSON, worded in the locale
 * of whoever reads it), written atomically. Every failure here means "no cache", never a failed call.
 *
 * A cached validator is code this process runs, so it is used only when (1) the directory and the
 * file are this user's and writable by no one else, (2) the file is a regular file (looked at before
 * it is opened: a FIFO would block the call; a link is not followed), and (3) its header holds the
 * SHA-256 of the code that follows, and the code has that digest: a file changed in any way, even
 * to the same length and still valid JavaScript, is refused and compiled again.
 *
 * The digest is kept in the file, not elsewhere, on purpose. What it guards against is a file that
 * changed by accident (a torn write, a disk error, an edit). A planted file needs write access to a
 * directory only this user can write, which calls never have (the sandbox keeps the cache read-only
 * to them): whoever has it runs as this user outside any sandbox, and could as well change
 * `rules.json` or the programs themselves. A key elsewhere (a digest list, or a keyed MAC with its
 * secret in the config directory) would be readable by that same user, so it would add a file and
 * a read per call without keeping out anyone who is not already in.
 *
 * @module
 */

import { untrusted } from "../owner.ts";
import { joinPath } from "../paths.ts";
import type { Phrase } from "../locale/messages.ts";
import { readRegularFile } from "../read_regular_file.ts";
import { CACHE_FORMAT } from "./_key.ts";
import { problemText, readProblem } from "./_problem.ts";

/** What a cache file holds: standalone code, or why the schema cannot be compiled. */
export type Cached = { code: string } | { problem: Phrase };

/** Result of looking a key up on disk. */
export type CacheRead =
  | ({ kind: "hit" } & Cached)
  | { kind: "missing" }
  | { kind: "rejected"; why: string };

/** `validator` files hold standalone code; `problem` files a phrase as JSON. */
type Content = "validator" | "problem";

/** The most bytes a cache file may hold: a larger one is not read. */
const MAX_CACHED_BYTES = 16 * 1024 * 1024;

function header(content: Content, key: string, digest: string): string {
  return `// basis-tools ${content} ${CACHE_FORMAT} ${key} ${digest}\n`;
}

async function sha256(text: string): Promise<string> {
  const digest = new Uint8Array(
    await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)),
  );
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("");
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
 * Reads the cached standalone code (or problem) for `key`, checking that it is a regular file,
 * that nobody but the owner can write it or its directory (the code is executed), and its header
 * (content, format, key, the digest of what follows).
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
 * console.log((await readCached("/tmp/basis-cache", "k")).kind); // "hit"
 * ```
 */
export async function readCached(cacheDir: string, key: string): Promise<CacheRead> {
  let text: string;
  try {
    // The directory first: once it is known that only this user can write it, nobody else can
    // swap the file between the look at its path and the open. Synchronous on purpose: one small
    // local file on every call, where an async read would be two hops to a worker thread.
    const dir = Deno.lstatSync(joinPath(cacheDir, "validators"));
    if (!dir.isDirectory) return { kind: "rejected", why: "not a directory" };
    const unsafeDir = distrust(dir);
    if (unsafeDir !== undefined) return { kind: "rejected", why: unsafeDir };
    const read = readRegularFile(validatorPath(cacheDir, key), {
      limit: MAX_CACHED_BYTES,
      follow: false,
    });
    if (read.kind === "missing") return { kind: "missing" };
    if (read.kind !== "read") return { kind: "rejected", why: read.kind };
    const unsafe = distrust(read.info);
    if (unsafe !== undefined) return { kind: "rejected", why: unsafe };
    text = new TextDecoder().decode(read.bytes);
  } catch {
    return { kind: "missing" };
  }
  const newline = text.indexOf("\n");
  if (newline < 0) return { kind: "rejected", why: "bad header" };
  const first = text.slice(0, newline + 1);
  const body = text.slice(newline + 1);
  const digest = await sha256(body);
  if (first === header("validator", key, digest)) return { kind: "hit", code: body };
  if (first === header("problem", key, digest)) {
    const problem = readProblem(body);
    return problem === undefined
      ? { kind: "rejected", why: "not a schema problem" }
      : { kind: "hit", problem };
  }
  return { kind: "rejected", why: "bad header or digest" };
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
  const text = header(content, key, await sha256(body)) + body;
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
