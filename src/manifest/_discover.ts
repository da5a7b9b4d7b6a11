/**
 * Finding the workspace root: the nearest ancestor holding `.basis/tools.json`.
 *
 * @module
 */

import { joinPath, parentPath, resolvePath } from "../paths.ts";
import { attempt } from "../quietly.ts";

/**
 * The nearest directory, from `start` up to the file system root, that holds a
 * `.basis/tools.json` (a directory standing there does not count; a symbolic link to nothing does,
 * so that it is reported); else `start` itself.
 *
 * @param start Where to start looking (relative paths are against the current directory).
 * @returns The workspace root, absolute.
 * @throws Nothing: directories that cannot be looked into are passed over.
 * @example Find the root from a nested directory
 * ```ts ignore
 * import { findWorkspaceRoot } from "./load.ts";
 * const root = findWorkspaceRoot(Deno.cwd());
 * console.log(root);
 * ```
 */
export function findWorkspaceRoot(start: string): string {
  // Synchronous on purpose: a few local `stat` calls are microseconds, an async one a thread hop.
  const origin = resolvePath(start);
  for (let dir = origin;; dir = parentPath(dir)) {
    if (isWorkspaceRoot(dir)) return dir;
    if (parentPath(dir) === dir) return origin;
  }
}

/**
 * Whether a directory is a real workspace: it holds `.basis/tools.json` (a directory standing
 * there does not count; a symbolic link to nothing does). The current directory is the root of
 * commands run outside any workspace without being one: nothing of it is writable from a call.
 *
 * @param dir The directory.
 * @returns True when it holds the manifest.
 * @throws Never.
 */
export function isWorkspaceRoot(dir: string): boolean {
  const path = joinPath(dir, ".basis", "tools.json");
  try {
    return !Deno.statSync(path).isDirectory;
  } catch (error) {
    // A file the OS will not let us stat still exists, and so does a symbolic link to nothing:
    // the loader reports it rather than skip it. Anything else (absent, or outside what Deno's
    // permissions allow) is not a root.
    return error instanceof Deno.errors.PermissionDenied ||
      (error instanceof Deno.errors.NotFound && isSymlink(path));
  }
}

function isSymlink(path: string): boolean {
  return attempt(() => Deno.lstatSync(path).isSymlink, false);
}
