/**
 * Finding the file a program runs from, the way the runner will at call time, and every path the
 * runner's lookup stats on the way (so that `--allow-read` can let it look). Private to the
 * permissions seam.
 *
 * @module
 */

import { type Phrase, phrase } from "../locale/messages.ts";
import { isAbsolutePath } from "../paths.ts";
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
  if (!resolved.ok) return { ok: false, reason: resolved.reason };
  if (resolved.path === program && !isAbsolutePath(program)) {
    // The runner could not look (reading was refused): only Deno's own lookup would find it.
    return {
      ok: false,
      reason: phrase("permissions.lookup_refused", { program: `"${program}"` }),
    };
  }
  return { ok: true, path: resolved.path, looked: resolved.looked };
}
