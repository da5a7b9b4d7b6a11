/**
 * Sandbox paths: `~` expanded, links resolved, sorted and each once. Private to the sandbox seam.
 *
 * @module
 */

import { isAbsolutePath, resolvePath } from "../paths.ts";
import { mountPath } from "./_bwrap.ts";

/** Each path absolute and canonical; `undefined` when one needs `~` and there is no home. */
export function expandList(
  paths: readonly string[],
  home: string | undefined,
): string[] | undefined {
  const out: string[] = [];
  for (const path of paths) {
    if (path === "~" || path.startsWith("~/")) {
      if (home === undefined || !isAbsolutePath(home)) return undefined;
      out.push(mountPath(resolvePath(home, `.${path.slice(1)}`)));
    } else {
      out.push(mountPath(resolvePath(path)));
    }
  }
  return out;
}

/** Sorted, each once. */
export function unique(paths: readonly string[]): string[] {
  return [...new Set(paths)].sort();
}
