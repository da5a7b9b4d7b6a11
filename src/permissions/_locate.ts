/**
 * Finding the file a program runs from, the way the runner will at call time, and every path the
 * runner's lookup stats on the way (so that `--allow-read` can let it look). Private to the
 * permissions seam.
 *
 * @module
 */

import type { Phrase } from "../locale/messages.ts";
import { resolveProgram } from "../run/mod.ts";

/** Where a program was found, or why it cannot run. */
export type Located =
  | {
    readonly ok: true;
    /** The absolute file the runner will start. */
    readonly path: string;
    /** The paths the runner stats to find it, `path` last. */
    readonly looked: readonly string[];
  }
  | {
    readonly ok: false;
    /** Why, as a phrase (the runner's own, for a program it would not start). */
    readonly reason: Phrase;
  };

/**
 * Locates a program as `runProgram` will: an absolute path as is, a bare name on `path` (with
 * `pathExt` on Windows), skipping empty and relative `PATH` entries.
 *
 * @param program The program: absolute, or a bare name (the loader already resolved relative
 *   paths against the workspace root).
 * @param path The `PATH` the call will see.
 * @param pathExt The `PATHEXT` the call will see (Windows only).
 * @returns The file and the paths looked at, or why it cannot run, as a phrase.
 */
export function locateProgram(
  program: string,
  path: string | undefined,
  pathExt: string | undefined,
): Located {
  const resolved = resolveProgram(program, { cwd: "/", path, pathExt });
  // A lookup Deno's sandbox refused is a failure with its own reason: the runner never hands on
  // a bare name.
  if (!resolved.ok) return { ok: false, reason: resolved.reason };
  return { ok: true, path: resolved.path, looked: resolved.looked };
}
