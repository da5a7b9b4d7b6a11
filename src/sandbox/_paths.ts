/**
 * Sandbox paths: `~` expanded, links resolved, sorted and each once. Private to the sandbox seam.
 *
 * @module
 */

import { canonicalPath, isAbsolutePath, resolvePath } from "../paths.ts";

/** Each path absolute and canonical; `undefined` when one needs `~` and there is no home. */
export function expandList(
  paths: readonly string[],
  home: string | undefined,
): string[] | undefined {
  const out: string[] = [];
  for (const path of paths) {
    if (path === "~" || path.startsWith("~/")) {
      if (home === undefined || !isAbsolutePath(home)) return undefined;
      out.push(canonicalPath(resolvePath(home, `.${path.slice(1)}`)));
    } else {
      out.push(canonicalPath(path));
    }
  }
  return out;
}

/** Sorted, each once. */
export function unique(paths: readonly string[]): string[] {
  return [...new Set(paths)].sort();
}

/**
 * Whether `path` is `base` or inside it (both absolute and normalised).
 *
 * @param path The path.
 * @param base The directory.
 * @returns True when inside or equal.
 */
export function isInside(path: string, base: string): boolean {
  if (base === "/") return isAbsolutePath(path);
  return path === base || path.startsWith(`${base}/`);
}
