/**
 * Sandbox paths: `~` expanded, links resolved, sorted and each once. Private to the sandbox seam.
 *
 * @module
 */

import {
  canonicalPath,
  type EnvLookup,
  isAbsolutePath,
  parentPath,
  resolvePath,
} from "../paths.ts";
import { quietly } from "../quietly.ts";

/**
 * Each path absolute and canonical (or, given `resolve`, as it resolves them); `undefined` when
 * one needs `~` and there is no home.
 */
export function expandList(
  paths: readonly string[],
  home: string | undefined,
  resolve: (path: string) => string = canonicalPath,
): string[] | undefined {
  const out: string[] = [];
  for (const path of paths) {
    if (path === "~" || path.startsWith("~/")) {
      if (home === undefined || !isAbsolutePath(home)) return undefined;
      out.push(resolve(resolvePath(home, `.${path.slice(1)}`)));
    } else out.push(resolve(path));
  }
  return out;
}

/**
 * The paths that are there (or that Deno may not look for), found by listing each parent once, and
 * a parent only when the listing above it holds it: a long list of paths that are mostly absent
 * (the hidden ones) costs a few directory reads, not a failed `stat` each.
 *
 * @param paths Absolute, normalised paths.
 * @param listings The directories listed already (shared by the calls of one plan).
 * @returns Those there, in order.
 */
export function present(
  paths: readonly string[],
  listings: Map<string, Set<string> | null | undefined> = new Map(),
): string[] {
  // A directory's names; `null` when it is not there, `undefined` when Deno may not look.
  const namesIn = (dir: string): Set<string> | null | undefined => {
    if (listings.has(dir)) return listings.get(dir);
    const parent = parentPath(dir);
    const above = parent === dir ? undefined : namesIn(parent);
    let names: Set<string> | null | undefined = null;
    if (above === undefined || above?.has(nameIn(dir, parent))) {
      try {
        names = new Set(quietly(() => [...Deno.readDirSync(dir)]).map((entry) => entry.name));
      } catch (error) {
        names = error instanceof Deno.errors.NotCapable ? undefined : null;
      }
    }
    listings.set(dir, names);
    return names;
  };
  return paths.filter((path) => {
    const parent = parentPath(path);
    if (parent === path) return true;
    const names = namesIn(parent);
    return names === undefined || (names !== null && names.has(nameIn(path, parent)));
  });
}

function nameIn(path: string, parent: string): string {
  return path.slice(parent.length + (parent === "/" ? 0 : 1));
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

/** Daemons' sockets outside `/run` and `/tmp` that give whoever connects a machine of their own. */
export const SYSTEM_SOCKETS: readonly string[] = [
  "/var/snap/lxd/common/lxd/unix.socket",
  "/var/lib/lxd/unix.socket",
  "/nix/var/nix/daemon-socket",
];

/**
 * The host sockets the environment names (the ssh agent, tmux, the session bus), the runtime
 * directory, and {@linkcode SYSTEM_SOCKETS}: covered, wherever they are, so that a program that
 * looks where its variable says finds nothing.
 *
 * @param env How variables are read.
 * @returns The paths, absolute.
 */
export function hostSockets(env: EnvLookup): string[] {
  const bus = /^unix:path=([^,;]+)/.exec(env("DBUS_SESSION_BUS_ADDRESS") ?? "")?.[1];
  const named = [env("SSH_AUTH_SOCK"), env("TMUX")?.split(",")[0], bus, env("XDG_RUNTIME_DIR")];
  const paths = [...named, ...SYSTEM_SOCKETS];
  return paths.filter((path): path is string => path !== undefined && isAbsolutePath(path))
    .map((path) => resolvePath(path));
}
