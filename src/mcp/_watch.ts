/**
 * Watching the manifest files for changes: each file's directory is watched (or, while it does
 * not exist, its nearest existing ancestor), and that directory's parent, which sees the directory
 * itself replaced; events about other files are ignored, and a burst of events becomes one call
 * after a quiet period. Private to the MCP binding.
 *
 * @module
 */

import { parentPath } from "../paths.ts";

/** A running watch. */
export interface FileWatch {
  /** Stops watching; no call is made after it returns. */
  close(): void;
}

/** Options of {@linkcode watchFiles}. */
export interface WatchOptions {
  /** Quiet time after the last event before `onChange` is called, in milliseconds. */
  readonly debounceMs: number;
  /**
   * Told when a directory cannot be watched (the roster then no longer reloads from it), with the
   * system's reason.
   */
  readonly cannotWatch: (dir: string, reason: string) => void;
}

/**
 * Calls `onChange` when any of the files is created, written, renamed or removed (and when a
 * missing directory on the way to one appears, or a file's directory is replaced). The directories
 * watched are worked out again after each change, so a `.basis` directory created later, or
 * deleted and made again, is watched from then on.
 *
 * @param files The absolute paths of the files to watch.
 * @param onChange Called after a burst of changes has settled.
 * @param options The quiet period and whom to tell about a directory that cannot be watched.
 * @returns The watch; close it when done.
 */
export function watchFiles(
  files: readonly string[],
  onChange: () => void,
  options: WatchOptions,
): FileWatch {
  const watchers = new Map<string, Watched>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let closed = false;

  const relevant = (path: string) =>
    files.some((file) => file === path || file.startsWith(path.endsWith("/") ? path : `${path}/`));

  const fire = () => {
    timer = undefined;
    if (closed) return;
    arm();
    onChange();
  };
  const soon = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(fire, options.debounceMs);
  };

  const listen = async (dir: string, watched: Watched) => {
    let failed = false;
    try {
      for await (const event of watched.watcher) {
        if (closed) break;
        if (event.kind === "access" || !event.paths.some(relevant)) continue;
        soon();
        // The directory itself was removed or moved: its watch sees nothing from now on, even
        // when a new directory takes its path (which may even get the same inode number).
        if (event.paths.includes(dir)) break;
      }
    } catch (error) {
      failed = true;
      if (!closed && !watched.extra) options.cannotWatch(dir, reason(error));
    }
    if (watchers.get(dir) !== watched) return;
    watchers.delete(dir);
    stop(watched.watcher);
    // Look again at what there is to watch (after a failure, only when something else changes).
    if (!closed && !failed) soon();
  };

  const arm = () => {
    const wanted = wantedDirs(files);
    for (const [dir, watched] of watchers) {
      // A directory deleted and made again is another directory: its old watch sees nothing.
      const want = wanted.get(dir);
      if (want?.identity !== watched.identity || want.extra !== watched.extra) {
        watchers.delete(dir);
        stop(watched.watcher);
      }
    }
    for (const [dir, { identity, extra }] of wanted) {
      if (watchers.has(dir)) continue;
      try {
        const watched = { watcher: Deno.watchFs(dir, { recursive: false }), identity, extra };
        watchers.set(dir, watched);
        listen(dir, watched);
      } catch (error) {
        // A parent the sandbox does not let us read: the directory's own watch still works.
        if (!extra) options.cannotWatch(dir, reason(error));
      }
    }
  };

  arm();
  return {
    close() {
      closed = true;
      if (timer !== undefined) clearTimeout(timer);
      for (const watched of watchers.values()) stop(watched.watcher);
      watchers.clear();
    },
  };
}

/**
 * A directory to watch: which one it is (a new one may take its path), and whether it is only a
 * parent watched to see its child replaced.
 */
interface Wanted {
  readonly identity: string;
  readonly extra: boolean;
}

/** One directory's watch. */
interface Watched extends Wanted {
  readonly watcher: Deno.FsWatcher;
}

/**
 * The directories to watch, each with its identity: each file's directory (or its nearest
 * existing ancestor) and, when the directory exists, its parent too, which sees the directory
 * itself replaced (`rm -r` and `mkdir`, a rename over it) when the directory's own watch cannot.
 */
function wantedDirs(files: readonly string[]): Map<string, Wanted> {
  const wanted = new Map<string, Wanted>();
  const add = (dir: string, extra: boolean) => {
    const known = wanted.get(dir);
    if (known === undefined) wanted.set(dir, { identity: identityOf(dir), extra });
    else if (known.extra && !extra) wanted.set(dir, { ...known, extra });
  };
  for (const file of files) {
    const home = parentPath(file);
    const dir = existingAncestor(home);
    add(dir, false);
    if (dir === home && parentPath(dir) !== dir) add(parentPath(dir), true);
  }
  return wanted;
}

/** Which directory a path names now: device and inode where the system tells them. */
function identityOf(dir: string): string {
  try {
    const info = Deno.statSync(dir);
    return `${info.dev}:${info.ino ?? ""}`;
  } catch {
    return "";
  }
}

/** The path itself when it is a directory, else its nearest ancestor that is one. */
function existingAncestor(path: string): string {
  let dir = path;
  while (true) {
    try {
      if (Deno.statSync(dir).isDirectory) return dir;
    } catch {
      // Missing, or not ours to look at: go up.
    }
    const parent = parentPath(dir);
    if (parent === dir) return dir;
    dir = parent;
  }
}

function stop(watcher: Deno.FsWatcher): void {
  try {
    watcher.close();
  } catch {
    // Closed already (leaving its loop closes it).
  }
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
