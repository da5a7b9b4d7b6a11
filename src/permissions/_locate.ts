/**
 * Finding the file a program runs from, the way the runner will at call time, and every path the
 * runner's lookup stats on the way (so that `--allow-read` can let it look). Private to the
 * permissions seam.
 *
 * @module
 */

import { joinPath } from "../paths.ts";
import { resolveProgram } from "../run/mod.ts";

const IS_WINDOWS = Deno.build.os === "windows";

/** Where a program was found, or why it cannot run. */
export type Located =
  | {
    readonly ok: true;
    /** The absolute file the runner will start. */
    readonly path: string;
    /** The paths the runner stats to find it, `path` last. */
    readonly looked: readonly string[];
  }
  | { readonly ok: false; readonly reason: string };

/**
 * Locates a program as `runProgram` will: an absolute path as is, a bare name on `path` (with
 * `pathExt` on Windows), skipping empty and relative `PATH` entries.
 *
 * @param program The program: absolute, or a bare name (the loader already resolved relative
 *   paths against the workspace root).
 * @param path The `PATH` the call will see.
 * @param pathExt The `PATHEXT` the call will see (Windows only).
 * @returns The file and the paths looked at, or the runner's reason in one line.
 */
export function locateProgram(
  program: string,
  path: string | undefined,
  pathExt: string | undefined,
): Located {
  const resolved = resolveProgram(program, { cwd: "/", path, pathExt });
  if (!resolved.ok) return { ok: false, reason: resolved.message };
  if (resolved.path === program && !isAbsolute(program)) {
    // The runner could not look (reading was refused): only Deno's own lookup would find it.
    return {
      ok: false,
      reason: `program "${program}" could not be looked up on PATH (reading was refused)`,
    };
  }
  return { ok: true, path: resolved.path, looked: lookedAt(program, resolved.path, path, pathExt) };
}

/** The candidates the runner's `PATH` search stats before (and including) the file it found. */
function lookedAt(
  program: string,
  found: string,
  path: string | undefined,
  pathExt: string | undefined,
): string[] {
  if (isAbsolute(program) || hasSeparator(program)) return [found];
  const looked: string[] = [];
  for (const dir of searchDirs(path)) {
    for (const name of candidateNames(program, pathExt)) {
      const candidate = joinPath(dir, name);
      looked.push(candidate);
      if (candidate === found) return looked;
    }
  }
  // The runner's order and this one drifted apart: grant the file alone.
  return [found];
}

function searchDirs(path: string | undefined): string[] {
  return (path ?? "").split(IS_WINDOWS ? ";" : ":").filter((dir) => dir !== "" && isAbsolute(dir));
}

function candidateNames(program: string, pathExt: string | undefined): string[] {
  if (!IS_WINDOWS) return [program];
  const exts = (pathExt || ".COM;.EXE;.BAT;.CMD").split(";").filter((ext) => ext !== "");
  const hasExt = exts.some((ext) => program.toUpperCase().endsWith(ext.toUpperCase()));
  return hasExt ? [program] : exts.map((ext) => program + ext.toLowerCase());
}

function hasSeparator(program: string): boolean {
  return program.includes("/") || (IS_WINDOWS && program.includes("\\"));
}

function isAbsolute(path: string): boolean {
  if (!IS_WINDOWS) return path.startsWith("/");
  return /^[A-Za-z]:[\\/]/.test(path) || /^[\\/]{2}/.test(path);
}
