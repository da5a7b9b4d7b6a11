/**
 * Spill files: where the full stdout of a run cut for a model goes. Each is capped (the run's
 * `maxSpillBytes`); before a new one is made the directory is pruned, oldest first, so that spill
 * files never pile up: at most {@linkcode SPILL_KEEP_FILES} files, none older than
 * {@linkcode SPILL_KEEP_MS}, {@linkcode SPILL_KEEP_BYTES} together. Only files named as the runner
 * names them are ever removed. Private to the runner.
 *
 * @module
 */

import { joinPath } from "../paths.ts";
import { attempt } from "../quietly.ts";

/** The most spill files a directory holds, the new one included. */
export const SPILL_KEEP_FILES = 100;
/** The most bytes the spill files of a directory hold together, the new one's cap included. */
export const SPILL_KEEP_BYTES = 256 * 1024 * 1024;
/** How long a spill file is kept: 7 days. */
export const SPILL_KEEP_MS = 7 * 24 * 60 * 60 * 1000;

/** How the runner names spill files: `<epoch ms>-<8 hex digits>.out`. */
const SPILL_NAME = /^\d+-[0-9a-f]{8}\.out$/;

/**
 * Makes a new spill file (0600) in a directory made private (0700), after pruning the old ones.
 * Synchronous: it happens once a run, when its output passes the cap.
 *
 * @param dir The spill directory.
 * @param capBytes The most the new file will hold (reserved in the directory's budget).
 * @returns The file and its path, or `undefined` when it cannot be made.
 */
export function openSpillFile(
  dir: string,
  capBytes: number,
): { file: Deno.FsFile; path: string } | undefined {
  const path = joinPath(dir, `${Date.now()}-${crypto.randomUUID().slice(0, 8)}.out`);
  try {
    Deno.mkdirSync(dir, { recursive: true, mode: 0o700 });
    tightenMode(dir);
    pruneSpillDir(dir, capBytes);
    return { file: Deno.openSync(path, { write: true, createNew: true, mode: 0o600 }), path };
  } catch {
    return undefined;
  }
}

/**
 * Removes old spill files, oldest first, until at most `SPILL_KEEP_FILES - 1` are left, none is
 * older than `SPILL_KEEP_MS`, and together with `reserveBytes` they hold at most
 * `SPILL_KEEP_BYTES`. Files that are not spill files are left alone. Never throws: a file that
 * cannot be looked at or removed is skipped.
 *
 * @param dir The spill directory.
 * @param reserveBytes Room to leave (the file about to be written).
 * @param now The time to measure ages against.
 * @returns The paths removed.
 */
export function pruneSpillDir(dir: string, reserveBytes = 0, now = Date.now()): string[] {
  let room = SPILL_KEEP_BYTES - reserveBytes;
  const files: { path: string; size: number; time: number }[] = [];
  // Never a permission prompt for housekeeping: prune only where reading is already granted.
  if (!granted({ name: "read", path: dir })) return [];
  for (const entry of attempt(() => [...Deno.readDirSync(dir)], [])) {
    if (!entry.isFile || !SPILL_NAME.test(entry.name)) continue;
    const path = joinPath(dir, entry.name);
    // Undefined when gone meanwhile (another run pruned it).
    const info = attempt(() => Deno.lstatSync(path));
    const time = info?.mtime?.getTime() ?? Number(entry.name.split("-")[0]);
    if (info) files.push({ path, size: info.size, time });
  }
  files.sort((a, b) => b.time - a.time);
  const removed: string[] = [];
  let kept = 0;
  let full = false;
  for (const file of files) {
    full ||= kept >= SPILL_KEEP_FILES - 1 || now - file.time > SPILL_KEEP_MS || file.size > room;
    if (!full) {
      kept++;
      room -= file.size;
      continue;
    }
    // Not when removed by another run meanwhile, or not ours to remove.
    if (attempt(() => Deno.removeSync(file.path), false) !== false) removed.push(file.path);
  }
  return removed;
}

/** Makes an existing spill directory of this user's private (an older version made it 0755). */
function tightenMode(dir: string): void {
  if (Deno.build.os === "windows") return;
  if (!granted({ name: "read", path: dir }) || !granted({ name: "sys", kind: "uid" })) return;
  // Not allowed to look or to change it: it stays as it is.
  attempt(() => {
    const info = Deno.statSync(dir);
    if (info.mode !== null && (info.mode & 0o077) !== 0 && info.uid === Deno.uid()) {
      Deno.chmodSync(dir, 0o700);
    }
  });
}

/**
 * Whether a permission is granted already (so that using it asks nothing).
 *
 * @param descriptor The permission.
 * @returns Whether it is granted; `undefined` when it cannot be asked.
 */
export function granted(descriptor: Deno.PermissionDescriptor): boolean | undefined {
  return attempt(() => Deno.permissions.querySync(descriptor).state === "granted");
}
