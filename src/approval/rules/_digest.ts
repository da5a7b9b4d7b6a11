/**
 * Digests: SHA-256 of bytes or text (Web Crypto, free to load, unlike `node:crypto`; so digests
 * are asynchronous); salted digests that pin a value without storing it (SHA-256 over a random
 * salt's bytes, then the value's UTF-8); and the digest of a file's bytes, cached by what `stat`
 * says of it.
 *
 * The file digest cache is one small entry per file in `<cacheDir>/digests/`, named by a digest of
 * the file's path, holding the device, inode, size, mtime and ctime it was read with. A call of a large
 * program then costs a `stat` and one small read, not a read of the program. An entry is trusted
 * only as far as those fields go: it is written only for a file whose ctime was at least
 * {@linkcode SETTLED_MS} old when it was read (a file changed again within the same timestamp tick
 * would otherwise keep its old entry), only used when every field matches, and ignored when the
 * entry is another user's or writable by others. A file that cannot be stat'ed or read has no
 * digest: the caller treats it as changed.
 *
 * @module
 */

import { joinPath } from "../../paths.ts";
import { untrusted } from "../../owner.ts";
import { attempt, quietly } from "../../quietly.ts";
import { readRegularFile } from "../../read_regular_file.ts";
import { writeFileAtomic } from "./_atomic.ts";
import type { Digest } from "./types.ts";

/** How old a file's last change must be before its digest is cached (Deno gives ctime in s). */
const SETTLED_MS = 2000;
/** Above this size a file is hashed as a stream (not read whole into memory). */
const WHOLE_LIMIT = 16 << 20;

/** The fields a cached digest is bound to. */
const stampOf = ({ dev, ino, size, mtime, ctime }: Deno.FileInfo) =>
  [dev, ino, size, mtime?.getTime(), ctime?.getTime()].join(":");
const hex = (bytes: Uint8Array) =>
  Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");

/**
 * SHA-256 of bytes or text, as lowercase hex.
 *
 * @param data The bytes, or text (its UTF-8).
 * @returns 64 hex digits.
 */
export async function sha256(data: Uint8Array | string): Promise<string> {
  const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
  return hex(new Uint8Array(await crypto.subtle.digest("SHA-256", bytes as BufferSource)));
}

/**
 * The digest of a value under a salt.
 *
 * @param salt 32 lowercase hex digits (16 bytes).
 * @param value The value.
 * @returns 64 lowercase hex digits.
 */
export function saltedSha256(salt: string, value: string): Promise<string> {
  const text = new TextEncoder().encode(value);
  const data = new Uint8Array(salt.length / 2 + text.length);
  for (let i = 0; i < salt.length / 2; i++) data[i] = parseInt(salt.slice(i * 2, i * 2 + 2), 16);
  data.set(text, salt.length / 2);
  return sha256(data);
}

/**
 * The values of the digests this process made, for {@linkcode samePin} only: never stored, never
 * shown (a digest pins a secret).
 */
const PINNED = new WeakMap<object, string>();

/**
 * A digest matcher for a value: a fresh salt (16 random bytes) and the value's digest under it.
 *
 * @param value The value to pin.
 * @returns `{sha256, salt}`.
 */
export async function digestOf(value: string): Promise<Digest> {
  const salt = hex(crypto.getRandomValues(new Uint8Array(16)));
  const digest = { sha256: await saltedSha256(salt, value), salt };
  PINNED.set(digest, value);
  return digest;
}

/**
 * Whether a stored digest pins the same value as one {@linkcode digestOf} made in this process
 * (their salts differ: the value is digested again under the stored one's).
 *
 * @param stored A digest read from the rules file.
 * @param made A digest made here.
 * @returns True when both pin one value; false when `made` was not made here.
 */
export async function samePin(stored: Digest, made: Digest): Promise<boolean> {
  const value = PINNED.get(made);
  return value !== undefined && await saltedSha256(stored.salt, value) === stored.sha256;
}

/**
 * The digest of a file's bytes, from the cache when its entry still fits the file.
 *
 * @param path The file (links followed).
 * @param cacheDir Where digests are cached; `undefined`: no cache.
 * @returns 64 hex digits, or `undefined` when it is no regular file or cannot be read.
 */
export async function fileDigest(path: string, cacheDir?: string): Promise<string | undefined> {
  const info = attempt(() => quietly(() => Deno.statSync(path)));
  if (!info?.isFile) return undefined;
  const stamp = stampOf(info);
  // `<cacheDir>/digests/<16 hex digits of the path's digest>` (the entry holds the path too).
  const dir = cacheDir === undefined ? undefined : joinPath(cacheDir, "digests");
  const name = (await sha256(path)).slice(0, 16);
  const cached = dir === undefined ? undefined : readEntry(joinPath(dir, name), path);
  if (cached !== undefined && cached.stamp === stamp) return cached.sha256;
  const started = Date.now();
  let digest: string | undefined;
  try {
    digest = await hashFile(path, info.size);
    // Changed while it was read: what was hashed may be neither version.
    if (digest === undefined || stampOf(Deno.statSync(path)) !== stamp) return undefined;
  } catch {
    return undefined;
  }
  const changedAt = Math.max(info.ctime?.getTime() ?? started, info.mtime?.getTime() ?? started);
  if (dir !== undefined && started - changedAt >= SETTLED_MS) {
    // A temporary file renamed over the entry (0600); a cache that fails is no error.
    await Deno.mkdir(dir, { recursive: true, mode: 0o700 }).catch(() => {});
    await writeFileAtomic(dir, name, JSON.stringify({ path, stamp, sha256: digest })).catch(
      () => {},
    );
  }
  return digest;
}

/**
 * The digest of exactly the `size` bytes the file's stat states; `undefined` when it holds more
 * (it grew, or it is a /proc file: those state 0 bytes, and /proc/self/pagemap never ends).
 */
async function hashFile(path: string, size: number): Promise<string | undefined> {
  if (size <= WHOLE_LIMIT) {
    const read = readRegularFile(path, { limit: size });
    return read.kind === "read" ? await sha256(read.bytes) : undefined;
  }
  const { createHash } = await import("node:crypto");
  const hash = createHash("sha256");
  using file = await Deno.open(path, { read: true });
  const buffer = new Uint8Array(1 << 20);
  let total = 0;
  for (;;) {
    const count = await file.read(buffer);
    if (count === null) break;
    total += count;
    if (total > size) return undefined;
    hash.update(buffer.subarray(0, count));
  }
  return hash.digest("hex");
}

/** A cache entry for `path`, when it is there, this user's own, and well formed. */
function readEntry(file: string, path: string): { stamp: string; sha256: string } | undefined {
  return attempt(() => {
    // Looked at before it is opened: a FIFO put in its place would block the call.
    const read = readRegularFile(file, { limit: 4096, follow: false });
    if (read.kind !== "read" || untrusted(read.info) !== undefined) return undefined;
    const entry: unknown = JSON.parse(new TextDecoder().decode(read.bytes));
    if (typeof entry !== "object" || entry === null) return undefined;
    const { path: named, stamp, sha256 } = entry as Record<string, unknown>;
    if (named !== path || typeof stamp !== "string" || typeof sha256 !== "string") return undefined;
    return /^[0-9a-f]{64}$/.test(sha256) ? { stamp, sha256 } : undefined;
  });
}
