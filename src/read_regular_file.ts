/**
 * Reading one of the files basis-tools is given or keeps (a configuration file, a cached
 * validator, a note in the cache) without ever blocking or exhausting memory: only a regular file
 * is opened (opening a FIFO waits for a writer, and a device may never end), and only one of at
 * most `limit` bytes is read. The path is looked at before the open and the opened file again
 * after it: a file swapped in between (which only someone who can write its directory can do) is
 * refused, not read.
 *
 * Synchronous on purpose: these files are small and local, and each async file operation is a hop
 * to a worker thread on the start-up path.
 *
 * @module
 */

import { isMissing, quietly } from "./quietly.ts";

/** What stands at a path, read when it is a regular file within the limit. */
export type RegularRead =
  | { readonly kind: "missing" }
  | { readonly kind: "not_regular"; readonly directory: boolean }
  | { readonly kind: "too_large" }
  | { readonly kind: "read"; readonly bytes: Uint8Array; readonly info: Deno.FileInfo };

/** Options of {@linkcode readRegularFile}. */
export interface ReadRegularOptions {
  /** The most bytes the file may hold. */
  readonly limit: number;
  /** Whether a symbolic link is followed (else it is `not_regular`). @default true */
  readonly follow?: boolean;
}

/**
 * Reads a regular file of at most `limit` bytes.
 *
 * @param path The file's path.
 * @param options The size limit, and whether a symbolic link is followed.
 * @returns `missing` when nothing is there (a link to nothing among it), `not_regular` for a
 *   directory, FIFO, device, socket (or a link, when not followed, or a file swapped during the
 *   read), `too_large` past the limit, else its bytes and what the opened file's stat says.
 * @throws What the file system throws otherwise (a refused permission, an I/O error).
 * @example A directory is not read
 * ```ts
 * import { readRegularFile } from "./read_regular_file.ts";
 * console.assert(readRegularFile("/", { limit: 1 }).kind === "not_regular");
 * ```
 */
export function readRegularFile(path: string, options: ReadRegularOptions): RegularRead {
  const { limit, follow = true } = options;
  try {
    const info = quietly(() => follow ? Deno.statSync(path) : Deno.lstatSync(path));
    if (!info.isFile) return { kind: "not_regular", directory: info.isDirectory };
    if (info.size > limit) return { kind: "too_large" };
    const file = Deno.openSync(path, { read: true });
    try {
      const opened = file.statSync();
      if (!opened.isFile || opened.ino !== info.ino || opened.dev !== info.dev) {
        return { kind: "not_regular", directory: opened.isDirectory };
      }
      const bytes = readAtMost(file, opened.size, limit);
      return bytes === undefined ? { kind: "too_large" } : { kind: "read", bytes, info: opened };
    } finally {
      file.close();
    }
  } catch (error) {
    if (isMissing(error)) return { kind: "missing" };
    throw error;
  }
}

/** The file's bytes, or `undefined` when it holds more than `limit` (it grew since its stat). */
function readAtMost(file: Deno.FsFile, size: number, limit: number): Uint8Array | undefined {
  // One byte past the size stated, to see the end in one read.
  let buffer = new Uint8Array(Math.min(limit, size) + 1);
  let length = 0;
  for (;;) {
    if (length === buffer.length) {
      if (length > limit) return undefined;
      const bigger = new Uint8Array(Math.min(buffer.length * 2, limit + 1));
      bigger.set(buffer);
      buffer = bigger;
    }
    const count = file.readSync(buffer.subarray(length));
    if (count === null) return buffer.subarray(0, length);
    length += count;
  }
}
