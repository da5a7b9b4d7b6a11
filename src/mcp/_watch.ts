/**
 * Watching the manifest files for changes: each file's directory is watched (or, while it does
 * not exist, its nearest existing ancestor), and that directory's parent, which sees the directory
 * itself replaced; events about other files are ignored, and a burst of events becomes one call
 * after a quiet period. Private to the MCP binding.
 *
 * @module
 */

import { parentPath } from "../paths.ts";

/**
 * Calls `onChange` when any of the files is created, written, renamed or removed (and when a
 * missing directory on the way to one appears, or a file's directory is replaced). Before each
 * call every watch is made again, for the directories there are then: a `.basis` directory
 * created later, or deleted and made again, is watched from then on (a change in between is read
 * by the call itself).
 *
 * @param files The absolute paths of the files to watch.
 * @param onChange Called after a burst of changes has settled.
 * @param options The quiet period, and whom to tell (with the system's reason) about a directory
 *   that cannot be watched: the roster then no longer reloads from it.
 * @returns The watch; close it when done (no call is made after that).
 */
export function watchFiles(
  files: readonly string[],
  onChange: () => void,
  options: { debounceMs: number; cannotWatch: (dir: string, reason: string) => void },
): { close(): void } {
  let watchers: Deno.FsWatcher[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  let closed = false;
  const relevant = (path: string) =>
    files.some((file) => file === path || file.startsWith(path.endsWith("/") ? path : `${path}/`));
  const soon = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      if (closed) return;
      arm();
      onChange();
    }, options.debounceMs);
  };
  const listen = async (dir: string, parentOnly: boolean, watcher: Deno.FsWatcher) => {
    try {
      for await (const event of watcher) {
        if (event.kind === "access" || !event.paths.some(relevant)) continue;
        soon();
        // The directory itself was removed or moved: unless its watch ends now, Deno never
        // reports what happens in a new directory made at its path, even when watched anew.
        if (event.paths.includes(dir)) break;
      }
    } catch (error) {
      if (!closed && !parentOnly && watchers.includes(watcher)) {
        options.cannotWatch(dir, why(error));
      }
    }
    stop(watcher);
  };
  const arm = () => {
    watchers.forEach(stop);
    watchers = [];
    for (const [dir, parentOnly] of wantedDirs(files)) {
      try {
        const watcher = Deno.watchFs(dir, { recursive: false });
        watchers.push(watcher);
        listen(dir, parentOnly, watcher);
      } catch (error) {
        // A parent the sandbox does not let us read: the directory's own watch still works.
        if (!parentOnly) options.cannotWatch(dir, why(error));
      }
    }
  };
  arm();
  const close = () => {
    closed = true;
    clearTimeout(timer);
    watchers.forEach(stop);
  };
  return { close };
}

/**
 * The directories to watch, each telling whether it is only a parent: each file's directory (or
 * its nearest existing ancestor) and, when the directory exists, its parent too, which sees the
 * directory itself replaced (`rm -r` and `mkdir`, a rename over it) when its own watch cannot.
 */
function wantedDirs(files: readonly string[]): Map<string, boolean> {
  const wanted = new Map<string, boolean>();
  for (const file of files) {
    const home = parentPath(file);
    let dir = home;
    while (!isDirectory(dir) && parentPath(dir) !== dir) dir = parentPath(dir);
    wanted.set(dir, false);
    const parent = parentPath(dir);
    if (dir === home && parent !== dir && !wanted.has(parent)) wanted.set(parent, true);
  }
  return wanted;
}

/** Whether the path is a directory now (not when missing, or not ours to look at). */
function isDirectory(path: string): boolean {
  try {
    return Deno.statSync(path).isDirectory;
  } catch {
    return false;
  }
}

function stop(watcher: Deno.FsWatcher): void {
  try {
    watcher.close();
  } catch {
    // Closed already (its loop failed).
  }
}

function why(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
