/**
 * Replacing a file atomically: a temporary file in the same directory, written, flushed to disk,
 * then renamed over the target. Readers see the old file or the new one, never a mix; a failure
 * leaves the old file as it was and removes the temporary file.
 *
 * @module
 */

import { joinPath } from "../../paths.ts";
import { newRuleId } from "./id.ts";

const WINDOWS = Deno.build.os === "windows";

/**
 * The prefix and suffix of temporary files for `name`, so stale ones can be found.
 *
 * @param name The target's file name.
 * @returns `[prefix, suffix]`.
 */
export function tempAffixes(name: string): [string, string] {
  return [`.${name}.`, ".tmp"];
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
  const [prefix, suffix] = tempAffixes(name);
  const temp = joinPath(dir, `${prefix}${Deno.pid}-${newRuleId().slice(2)}${suffix}`);
  let created = false;
  try {
    // The umask can only narrow 0600, never widen it.
    const file = await Deno.open(temp, { write: true, createNew: true, mode: 0o600 });
    created = true;
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
    created = false;
  } finally {
    if (created) await Deno.remove(temp).catch(() => {});
  }
  await syncDirectory(dir);
}

/** Flushes the directory entry of the rename, where the platform allows it (best effort). */
async function syncDirectory(dir: string): Promise<void> {
  if (WINDOWS) return;
  try {
    const handle = await Deno.open(dir, { read: true });
    try {
      await handle.sync();
    } finally {
      handle.close();
    }
  } catch {
    // Not every file system lets a directory be synced; the rename itself is already atomic.
  }
}

/**
 * Removes temporary files a crashed writer left for `name`. Call only while holding the lock.
 *
 * @param dir The target's directory.
 * @param name The target's file name.
 */
export async function removeStaleTemps(dir: string, name: string): Promise<void> {
  const [prefix, suffix] = tempAffixes(name);
  try {
    for await (const entry of Deno.readDir(dir)) {
      if (entry.isFile && entry.name.startsWith(prefix) && entry.name.endsWith(suffix)) {
        await Deno.remove(joinPath(dir, entry.name)).catch(() => {});
      }
    }
  } catch {
    // Cleaning up is a courtesy: a directory that cannot be listed is not an error here.
  }
}
