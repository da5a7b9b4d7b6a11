/**
 * Watching the manifest files for changes: each file's directory is watched (or, while it does
 * not exist, its nearest existing ancestor), and that directory's parent, which sees the directory
 * itself replaced; events about other files are ignored, and a burst of events becomes one call
 * after a quiet period. Private to the MCP binding.
 *
 * @module
 */

import { parentPath } from "../paths.ts";

/** A directory watched: which one it is (another may take its path later), and whether it is only
 * a parent watched to see its child replaced (whose failures go unsaid). */
interface Watched {
  readonly identity: string;
  readonly extra: boolean;
  watcher?: Deno.FsWatcher;
}

/**
 * Calls `onChange` when any of the files is created, written, renamed or removed (and when a
 * missing directory on the way to one appears, or a file's directory is replaced). The directories
 * watched are worked out again after each change, so a `.basis` directory created later, or
 * deleted and made again, is watched from then on.
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
  const watched = new Map<string, Watched>();
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
  const drop = (dir: string) => {
    try {
      watched.get(dir)?.watcher?.close();
    } catch {
      // Closed already (leaving its loop closes it).
    }
    watched.delete(dir);
  };
  const listen = async (dir: string, entry: Watched, watcher: Deno.FsWatcher) => {
    let failed = false;
    try {
      for await (const event of watcher) {
        if (closed) break;
        if (event.kind === "access" || !event.paths.some(relevant)) continue;
        soon();
        // The directory itself was removed or moved: its watch sees nothing from now on, even
        // when a new directory takes its path (which may even get the same inode number).
        if (event.paths.includes(dir)) break;
      }
    } catch (error) {
      failed = true;
      if (!closed && !entry.extra) options.cannotWatch(dir, reason(error));
    }
    if (watched.get(dir) !== entry) return;
    drop(dir);
    // Look again at what there is to watch (after a failure, only when something else changes).
    if (!closed && !failed) soon();
  };
  const arm = () => {
    const wanted = wantedDirs(files);
    for (const [dir, entry] of watched) {
      const want = wanted.get(dir);
      if (want?.identity !== entry.identity || want.extra !== entry.extra) drop(dir);
    }
    for (const [dir, entry] of wanted) {
      if (watched.has(dir)) continue;
      try {
        entry.watcher = Deno.watchFs(dir, { recursive: false });
        watched.set(dir, entry);
        listen(dir, entry, entry.watcher);
      } catch (error) {
        // A parent the sandbox does not let us read: the directory's own watch still works.
        if (!entry.extra) options.cannotWatch(dir, reason(error));
      }
    }
  };
  arm();
  return {
    close() {
      closed = true;
      clearTimeout(timer);
      for (const dir of [...watched.keys()]) drop(dir);
    },
  };
}

/**
 * The directories to watch: each file's directory (or its nearest existing ancestor) and, when
 * the directory exists, its parent too, which sees the directory itself replaced (`rm -r` and
 * `mkdir`, a rename over it) when the directory's own watch cannot.
 */
function wantedDirs(files: readonly string[]): Map<string, Watched> {
  const wanted = new Map<string, Watched>();
  const add = (dir: string, extra: boolean) => {
    if (wanted.has(dir) && (extra || !wanted.get(dir)!.extra)) return;
    const info = statOf(dir);
    wanted.set(dir, { identity: info ? `${info.dev}:${info.ino ?? ""}` : "", extra });
  };
  for (const file of files) {
    const home = parentPath(file);
    let dir = home;
    while (!statOf(dir)?.isDirectory && parentPath(dir) !== dir) dir = parentPath(dir);
    add(dir, false);
    if (dir === home && parentPath(dir) !== dir) add(parentPath(dir), true);
  }
  return wanted;
}

/** What a path is now, or `undefined` when it is missing or not ours to look at. */
function statOf(path: string): Deno.FileInfo | undefined {
  try {
    return Deno.statSync(path);
  } catch {
    return undefined;
  }
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
