/**
 * Where the user's files live: the config directory (global manifest, rules), the cache directory
 * (compiled validators) and the state directory (audit log). Each resolves from an explicit option,
 * then a `BASIS_*` variable, then the XDG variable, then `$HOME`.
 *
 * @module
 */

import { BasisError } from "./errors.ts";
import { phrase } from "./locale/messages.ts";
import { type EnvLookup, readEnv } from "./env.ts";
import { quietly } from "./quietly.ts";

export { type EnvLookup, readEnv };

/**
 * A user directory from an XDG variable or the home directory. Relative values are ignored (as the
 * XDG spec says): a directory relative to the current one could be a repository's, and a
 * repository must never supply the user's rules, global tools or cached validators. With no
 * absolute base at all this fails rather than guess.
 */
function homeBased(env: EnvLookup, xdgName: string, homeSuffix: string, override: string): string {
  const xdg = env(xdgName);
  if (xdg && isAbsolutePath(xdg)) return joinPath(xdg, "basis");
  const home = env("HOME") || env("USERPROFILE");
  if (home && isAbsolutePath(home)) return joinPath(home, homeSuffix);
  throw BasisError.of("usage", phrase("error.no_home", { override, variable: xdgName }));
}

/**
 * The global config directory: `explicit`, else `$BASIS_CONFIG_DIR`, else
 * `$XDG_CONFIG_HOME/basis`, else `$HOME/.config/basis`.
 *
 * @param explicit The `--config-dir` value, when given.
 * @param env How to read variables. @default readEnv
 * @returns The directory (may not exist).
 * @throws {BasisError} `usage` when no variable gives an absolute base (HOME unset or relative).
 */
export function configDir(explicit?: string, env: EnvLookup = readEnv): string {
  if (explicit) return explicit;
  return env("BASIS_CONFIG_DIR") ||
    homeBased(env, "XDG_CONFIG_HOME", ".config/basis", "BASIS_CONFIG_DIR");
}

/**
 * The cache directory: `$BASIS_CACHE_DIR`, else `$XDG_CACHE_HOME/basis`, else `$HOME/.cache/basis`.
 *
 * @param env How to read variables. @default readEnv
 * @returns The directory (may not exist).
 * @throws {BasisError} `usage` when no variable gives an absolute base (HOME unset or relative).
 */
export function cacheDir(env: EnvLookup = readEnv): string {
  return env("BASIS_CACHE_DIR") ||
    homeBased(env, "XDG_CACHE_HOME", ".cache/basis", "BASIS_CACHE_DIR");
}

/**
 * The state directory: `$BASIS_STATE_DIR`, else `$XDG_STATE_HOME/basis`, else
 * `$HOME/.local/state/basis`.
 *
 * @param env How to read variables. @default readEnv
 * @returns The directory (may not exist).
 * @throws {BasisError} `usage` when no variable gives an absolute base (HOME unset or relative).
 */
export function stateDir(env: EnvLookup = readEnv): string {
  return env("BASIS_STATE_DIR") ||
    homeBased(env, "XDG_STATE_HOME", ".local/state/basis", "BASIS_STATE_DIR");
}

/**
 * Where full outputs that were cut for a model are saved: `spill/` in the state directory.
 *
 * @param env How to read variables. @default readEnv
 * @returns The directory (may not exist).
 * @throws {BasisError} `usage` when no variable gives an absolute base (HOME unset or relative).
 */
export function spillDir(env: EnvLookup = readEnv): string {
  return joinPath(stateDir(env), "spill");
}

/**
 * Joins path segments with `/`, without normalising `..`.
 *
 * @param base The first segment.
 * @param rest Further segments.
 * @returns The joined path.
 */
export function joinPath(base: string, ...rest: string[]): string {
  return rest.reduce(
    (out, part) => part === "" ? out : out.endsWith("/") ? out + part : `${out}/${part}`,
    base,
  );
}

const WINDOWS = Deno.build.os === "windows";

/**
 * Whether a path is absolute (`/x`; on Windows also `C:\x` and `\\server\share`).
 *
 * @param path The path.
 * @returns True when absolute.
 */
export function isAbsolutePath(path: string): boolean {
  if (path.startsWith("/")) return true;
  return WINDOWS && (/^[A-Za-z]:[\\/]/.test(path) || path.startsWith("\\\\"));
}

/**
 * Resolves segments to one normalised absolute path, like `node:path`'s `resolve` but without
 * loading Deno's Node compatibility layer (about 4 ms of start-up): the last absolute segment
 * starts over, `.` and `..` are folded, and the current directory is the base when none is absolute.
 *
 * @param segments Paths, left to right.
 * @returns The absolute path.
 * @example Fold `..`
 * ```ts
 * import { resolvePath } from "./paths.ts";
 * console.assert(resolvePath("/a/b", "../c", "./d") === "/a/c/d");
 * ```
 */
export function resolvePath(...segments: string[]): string {
  let path = "";
  for (let i = segments.length - 1; i >= 0 && !isAbsolutePath(path); i--) {
    const segment = segments[i] as string;
    if (segment !== "") path = path === "" ? segment : `${segment}/${path}`;
  }
  if (!isAbsolutePath(path)) path = `${Deno.cwd()}/${path}`;
  const [head = "", ...rest] = path.split(WINDOWS ? /[\\/]+/ : /\/+/);
  const parts: string[] = [];
  for (const part of rest) {
    if (part === "" || part === ".") continue;
    if (part === "..") parts.pop();
    else parts.push(part);
  }
  return `${head}/${parts.join("/")}`;
}

/**
 * The directory part of an absolute, normalised path (`/a/b` → `/a`; `/` → `/`).
 *
 * @param path The path.
 * @returns Its parent directory.
 */
export function parentPath(path: string): string {
  const cut = Math.max(path.lastIndexOf("/"), WINDOWS ? path.lastIndexOf("\\") : -1);
  if (cut <= 0) return path.slice(0, cut + 1) || "/";
  if (WINDOWS && /^[A-Za-z]:$/.test(path.slice(0, cut))) return path.slice(0, cut + 1);
  return path.slice(0, cut);
}

/**
 * The canonical form of a path: absolute, normalised, symbolic links resolved, so every spelling
 * of a directory is one string (the key of workspace-scoped rules, the cwd a preview shows). A path
 * that does not exist yet is resolved through its nearest existing ancestor, so that what is later
 * made there is made where the canonical form says, never through a link.
 *
 * @param path An absolute path.
 * @returns Its real path; the normalised path from the first ancestor that cannot be resolved
 *   (not readable under Deno's permissions) on.
 * @throws Never.
 * @example A path that does not exist is only normalised
 * ```ts
 * import { canonicalPath } from "./paths.ts";
 * console.assert(canonicalPath("/no/such/./dir/") === "/no/such/dir");
 * ```
 */
export function canonicalPath(path: string): string {
  const normal = resolvePath(path);
  try {
    return resolvePath(quietly(() => Deno.realPathSync(normal)));
  } catch (error) {
    const parent = parentPath(normal);
    if (!(error instanceof Deno.errors.NotFound) || parent === normal) return normal;
    const name = normal.slice(parent.length + (/[\\/]$/.test(parent) ? 0 : 1));
    return joinPath(canonicalPath(parent), name);
  }
}

/**
 * A path resolved as {@linkcode canonicalPath} does, with every symbolic link met on the way: the
 * links whose replacement would move the path elsewhere. Where Deno may not look at a component,
 * that component and every one after it count as links (they cannot be shown not to be).
 *
 * @param path An absolute path.
 * @returns The canonical path and the links, in the order met.
 * @throws Never.
 */
export function linksOnTheWay(path: string): { path: string; links: string[] } {
  const normal = resolvePath(path);
  const real = canonicalPath(normal);
  const links: string[] = [];
  if (real === normal) return { path: real, links };
  let done = "/";
  let rest = normal.split("/").filter((part) => part !== "");
  for (let hops = 0; rest.length > 0 && hops < 40;) {
    const next = joinPath(done, rest[0] as string);
    let target: string | undefined;
    try {
      if (quietly(() => Deno.lstatSync(next)).isSymlink) target = Deno.readLinkSync(next);
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) break;
      // Not allowed to look: this component and every one after it may be links.
      let at = done;
      for (const part of rest) links.push(at = joinPath(at, part));
      break;
    }
    rest = rest.slice(1);
    if (target === undefined) {
      done = next;
      continue;
    }
    links.push(next);
    hops++;
    rest = [...resolvePath(done, target).split("/").filter((part) => part !== ""), ...rest];
    done = "/";
  }
  return { path: real, links };
}

/**
 * The canonical form of a file's path with its last component kept: the directory's links are
 * resolved, the file's own name is not (a multi-call program such as busybox tells its applets
 * apart by the name it was started under, and `python3` stays `python3`).
 *
 * @param path An absolute path to a file.
 * @returns The path through the canonical directory.
 * @throws Never.
 */
export function canonicalFilePath(path: string): string {
  const normal = resolvePath(path);
  const parent = parentPath(normal);
  if (parent === normal) return normal;
  const name = normal.slice(parent.length + (parent.endsWith("/") ? 0 : 1));
  return joinPath(canonicalPath(parent), name);
}

/** The controlling terminal on POSIX systems: where a prompt asks when stdin is piped. */
export const CONTROLLING_TERMINAL = "/dev/tty";
