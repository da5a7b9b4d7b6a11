/**
 * Watching the manifest files for changes: each file's directory is watched (or, while it does
 * not exist, its nearest existing ancestor), events about other files are ignored, and a burst of
 * events becomes one call after a quiet period. Private to the MCP binding.
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
 * missing directory on the way to one appears). The directories watched are worked out again
 * after each change, so a `.basis` directory created later is watched from then on.
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
  const watchers = new Map<string, Deno.FsWatcher>();
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

  const listen = async (dir: string, watcher: Deno.FsWatcher) => {
    try {
      for await (const event of watcher) {
        if (closed) break;
        if (event.kind === "access" || !event.paths.some(relevant)) continue;
        if (timer !== undefined) clearTimeout(timer);
        timer = setTimeout(fire, options.debounceMs);
      }
    } catch (error) {
      if (!closed) options.cannotWatch(dir, reason(error));
    }
    if (watchers.get(dir) === watcher) watchers.delete(dir);
  };

  const arm = () => {
    const wanted = new Set(files.map((file) => existingAncestor(parentPath(file))));
    for (const [dir, watcher] of watchers) {
      if (!wanted.has(dir)) {
        watchers.delete(dir);
        watcher.close();
      }
    }
    for (const dir of wanted) {
      if (watchers.has(dir)) continue;
      try {
        const watcher = Deno.watchFs(dir, { recursive: false });
        watchers.set(dir, watcher);
        listen(dir, watcher);
      } catch (error) {
        options.cannotWatch(dir, reason(error));
      }
    }
  };

  arm();
  return {
    close() {
      closed = true;
      if (timer !== undefined) clearTimeout(timer);
      for (const watcher of watchers.values()) watcher.close();
      watchers.clear();
    },
  };
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

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
