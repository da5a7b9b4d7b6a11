/**
 * Replacing a file atomically: a temporary file in the same directory, written, flushed to disk,
 * then renamed over the target. Readers see the old file or the new one, never a mix; a failure
 * leaves the old file as it was and removes the temporary file.
 *
 * @module
 */

import { joinPath } from "../../paths.ts";
import { attempt } from "../../quietly.ts";

const BASE32 = "abcdefghijklmnopqrstuvwxyz234567";

/**
 * Eight random lowercase base32 characters (40 bits): a rule id's and a temporary file's.
 *
 * @returns The characters.
 */
export function randomId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return Array.from(bytes, (byte) => BASE32[byte & 31]).join("");
}

/**
 * Writes `text` to `dir/name` atomically, with mode 0600.
 *
 * @param dir The target's directory (it must exist).
 * @param name The target's file name.
 * @param text The new content.
 * @throws What the file system throws; the target is then unchanged.
 */
export async function writeFileAtomic(dir: string, name: string, text: string): Promise<void> {
  const temp = joinPath(dir, `.${name}.${Deno.pid}-${randomId()}.tmp`);
  // The umask can only narrow 0600, never widen it.
  const file = await Deno.open(temp, { write: true, createNew: true, mode: 0o600 });
  try {
    try {
      const data = new TextEncoder().encode(text);
      for (let written = 0; written < data.length;) {
        written += await file.write(data.subarray(written));
      }
      await file.sync();
    } finally {
      file.close();
    }
    await Deno.rename(temp, joinPath(dir, name));
  } catch (error) {
    await Deno.remove(temp).catch(() => {});
    throw error;
  }
  // Flush the directory entry of the rename where the platform allows it. Not every file system
  // lets a directory be synced; the rename itself is already atomic.
  if (Deno.build.os === "windows") return;
  const handle = await Deno.open(dir, { read: true }).catch(() => undefined);
  await handle?.sync().catch(() => {}); // Best effort.
  handle?.close();
}

/**
 * Removes temporary files a crashed writer left for `name`. Call only while holding the lock.
 *
 * @param dir The target's directory.
 * @param name The target's file name.
 */
export async function removeStaleTemps(dir: string, name: string): Promise<void> {
  // Cleaning up is a courtesy: a directory that cannot be listed is not an error here.
  for (const entry of attempt(() => [...Deno.readDirSync(dir)], [])) {
    if (entry.isFile && entry.name.startsWith(`.${name}.`) && entry.name.endsWith(".tmp")) {
      await Deno.remove(joinPath(dir, entry.name)).catch(() => {});
    }
  }
}
