/**
 * Bubblewrap (`bwrap`, Linux): its arguments for one call, and whether it can make namespaces on
 * this machine. Private to the sandbox seam.
 *
 * Every call gets its own PID namespace that dies with it (`--die-with-parent`: bwrap's init and
 * everything in the namespace are killed when the program exits or bwrap is killed), a new session,
 * its own IPC and UTS namespaces, no network unless granted, the root file system read-only,
 * a fresh `/dev`, `/proc` and private `/tmp`, the hidden paths covered, and the writable paths
 * bound read-write.
 *
 * @module
 */

import { canonicalPath, isAbsolutePath } from "../paths.ts";

/** Arguments every confined call starts with: the namespaces, then the base file system. */
const NAMESPACES = [
  "--die-with-parent",
  "--new-session",
  "--unshare-pid",
  "--unshare-ipc",
  "--unshare-uts",
  "--unshare-cgroup-try",
] as const;

/** What one call may touch, paths absolute and canonical. */
export interface BwrapLayout {
  /** Whether it may reach the network. */
  readonly network: boolean;
  /** Paths it may write (the workspace among them). */
  readonly write: readonly string[];
  /** Hidden paths it may read. */
  readonly read: readonly string[];
  /** Paths it may not read. */
  readonly hidden: readonly string[];
  /** Paths that must be visible for it to start (its program and working directory). */
  readonly needed: readonly string[];
  /** Its working directory. */
  readonly cwd: string;
  /**
   * Paths kept read-only whatever is granted around or inside them (the config directory, which
   * holds the rules and the policy): bound last, so that no grant can open them.
   */
  readonly protect: readonly string[];
}

/** One mount, in the order bwrap is given them. */
interface Mount {
  readonly path: string;
  /** `hide` covers a path; `read` binds it read-only; `write` read-write. */
  readonly kind: "hide" | "read" | "write" | "tmp";
  /** For `hide`: whether the path is a directory (else a file, covered with /dev/null). */
  readonly directory: boolean;
}

const ORDER = { tmp: 0, hide: 1, read: 2, write: 3 } as const;

/**
 * The arguments of bwrap for one call, up to and including `--`: the program and its arguments
 * follow. Paths that do not exist are left out (a hidden path that is not there hides nothing; a
 * granted one grants nothing), except writable paths, which the caller creates first.
 *
 * Mounts are given parents first, so that a hidden path inside a writable one stays hidden and a
 * path granted inside a hidden one is visible; at the same path a grant wins over the hiding.
 *
 * @param layout What the call may touch.
 * @returns The arguments.
 */
export function bwrapArgs(layout: BwrapLayout): string[] {
  const args: string[] = [...NAMESPACES];
  if (!layout.network) args.push("--unshare-net");
  args.push("--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc");
  const mounts: Mount[] = [{ path: "/tmp", kind: "tmp", directory: true }];
  for (const path of layout.hidden) {
    const kind = kindOf(path);
    // Not allowed to look (Deno's permissions): covered as a directory, so that it is hidden or the
    // call fails to start, never shown.
    if (kind !== undefined) mounts.push({ path, kind: "hide", directory: kind !== "file" });
  }
  for (const path of layout.read) {
    if (isThere(path)) mounts.push({ path, kind: "read", directory: false });
  }
  for (const path of layout.write) mounts.push({ path, kind: "write", directory: false });
  for (const path of layout.needed) {
    if (!isVisible(path, mounts) && isThere(path)) {
      mounts.push({ path, kind: "read", directory: false });
    }
  }
  mounts.sort((a, b) => depth(a.path) - depth(b.path) || ORDER[a.kind] - ORDER[b.kind]);
  for (const mount of dedupe(mounts)) {
    switch (mount.kind) {
      case "tmp":
        args.push("--tmpfs", mount.path);
        break;
      case "hide":
        // An empty directory of its own (writable, gone with the call: a path granted inside a
        // hidden one is bound into it later).
        if (mount.directory) args.push("--tmpfs", mount.path);
        else args.push("--ro-bind", "/dev/null", mount.path);
        break;
      case "read":
        args.push("--ro-bind", mount.path, mount.path);
        break;
      case "write":
        args.push("--bind", mount.path, mount.path);
        break;
    }
  }
  for (const path of layout.protect) {
    if (isThere(path)) args.push("--ro-bind", path, path);
  }
  args.push("--chdir", layout.cwd, "--");
  return args;
}

/**
 * The arguments of the check that bwrap can make the namespaces a call needs here (an
 * unprivileged user may not be allowed to): the same namespaces and base file system, running
 * bwrap's own `--version`.
 *
 * @param bwrap The bwrap program.
 * @returns The arguments.
 */
export function probeArgs(bwrap: string): string[] {
  return [
    ...NAMESPACES,
    "--unshare-net",
    "--ro-bind",
    "/",
    "/",
    "--dev",
    "/dev",
    "--proc",
    "/proc",
    "--tmpfs",
    "/tmp",
    "--",
    bwrap,
    "--version",
  ];
}

/** A mount at a path and one under it: the later one given wins (the same path twice is once). */
function dedupe(mounts: readonly Mount[]): Mount[] {
  const seen = new Map<string, number>();
  const out: Mount[] = [];
  for (const mount of mounts) {
    const at = seen.get(mount.path);
    if (at !== undefined) {
      // Same depth, later in ORDER: the grant replaces the hiding.
      out[at] = mount;
      continue;
    }
    seen.set(mount.path, out.length);
    out.push(mount);
  }
  return out;
}

/** Whether a path would be seen as it is on the host: the deepest mount above it is no cover. */
function isVisible(path: string, mounts: readonly Mount[]): boolean {
  let deepest: Mount | undefined;
  for (const mount of mounts) {
    if (!isInside(path, mount.path)) continue;
    if (deepest === undefined || depth(mount.path) >= depth(deepest.path)) deepest = mount;
  }
  return deepest === undefined || deepest.kind === "read" || deepest.kind === "write";
}

/** What is at a path: `undefined` when nothing, `unknown` when Deno may not look. */
function kindOf(path: string): "directory" | "file" | "unknown" | undefined {
  try {
    return Deno.statSync(path).isDirectory ? "directory" : "file";
  } catch (error) {
    if (error instanceof Deno.errors.NotCapable) return "unknown";
    return undefined;
  }
}

function isThere(path: string): boolean {
  const kind = kindOf(path);
  return kind === "directory" || kind === "file";
}

function depth(path: string): number {
  return path === "/" ? 0 : path.split("/").length - 1;
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

/**
 * A path as bwrap must be given it: absolute, with symbolic links resolved (bwrap follows links
 * inside the new root, where they may point elsewhere).
 *
 * @param path An absolute path.
 * @returns Its canonical form.
 */
export function mountPath(path: string): string {
  return canonicalPath(path);
}
