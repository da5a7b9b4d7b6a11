/**
 * Sets of paths for `--allow-read`/`--allow-write`: a grant of a directory covers everything below
 * it, so a path inside another granted path is dropped. Private to the permissions seam.
 *
 * @module
 */

const IS_WINDOWS = Deno.build.os === "windows";

/**
 * Sorts paths, drops duplicates and every path inside another one of the set.
 *
 * @param paths Absolute, normalised paths.
 * @returns The smallest set granting the same.
 */
export function collapsePaths(paths: Iterable<string>): string[] {
  const sorted = [...new Set(paths)].sort();
  return sorted.filter((path) => !sorted.some((other) => other !== path && isInside(path, other)));
}

/**
 * Whether `path` is `dir` or below it.
 *
 * @param path An absolute path.
 * @param dir An absolute directory.
 * @returns True when a grant of `dir` covers `path`.
 */
export function isInside(path: string, dir: string): boolean {
  const a = IS_WINDOWS ? path.replaceAll("\\", "/").toLowerCase() : path;
  const b = IS_WINDOWS ? dir.replaceAll("\\", "/").toLowerCase() : dir;
  if (a === b) return true;
  return a.startsWith(b.endsWith("/") ? b : `${b}/`);
}
