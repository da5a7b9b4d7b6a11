/**
 * Bubblewrap (`bwrap`, Linux): its arguments for one call, and whether it can make namespaces on
 * this machine. Private to the sandbox seam.
 *
 * Every call gets its own PID namespace that dies with it (`--die-with-parent`: bwrap's init and
 * everything in the namespace are killed when the program exits or bwrap is killed), a new session,
 * its own user (so not the kernel keyrings), IPC and UTS namespaces, no capabilities, no network unless granted, the root file system
 * read-only, a fresh `/dev` and `/proc`, and the mounts of its layout (`_layout.ts`).
 *
 * @module
 */

import { ownUid } from "../owner.ts";
import type { Mount } from "./_layout.ts";

/**
 * The arguments of bwrap for one call, up to and including `--`: the program and its arguments
 * follow.
 *
 * @param mounts The call's mounts, parents first (`callLayout()`).
 * @param network Whether it may reach the network.
 * @param cwd Its working directory.
 * @returns The arguments.
 */
export function bwrapArgs(mounts: readonly Mount[], network: boolean, cwd: string): string[] {
  const uid = ownUid();
  const args = [
    "--die-with-parent",
    "--new-session",
    "--unshare-pid",
    "--unshare-ipc",
    "--unshare-uts",
    "--unshare-cgroup-try",
    // For root, no capabilities and a user namespace of its own. bwrap run by root leaves the
    // program root's capabilities, with which it could unmount what covers the host or remount
    // the root writable; and it makes no user namespace for root (it does for everyone else),
    // without which the call shares root's kernel keyrings (keys, tickets and cached passwords no
    // mount hides). (bwrap refuses `--cap-drop` when it is setuid and run by another user, who
    // has none to drop.)
    ...(uid === 0 || uid === undefined ? ["--unshare-user-try", "--cap-drop", "ALL"] : []),
  ];
  if (!network) args.push("--unshare-net");
  args.push("--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc");
  // basis-tools' own paths last: whatever a grant's bind turned out to be (a link put there since
  // the plan by another call), they are covered on top of it.
  const own = (mount: Mount) => mount.kind === "keep" || (mount.kind === "hide" && mount.sealed);
  for (const mount of [...mounts.filter((at) => !own(at)), ...mounts.filter(own)]) {
    const { path, kind } = mount;
    if (kind === "link") args.push("--symlink", mount.target, path);
    // An empty directory of its own (gone with the call: a path granted inside a hidden one is
    // bound into it later), or /dev/null over a file (or a socket).
    else if (kind === "tmp" || (kind === "hide" && mount.directory)) args.push("--tmpfs", path);
    else if (kind === "hide") args.push("--ro-bind", "/dev/null", path);
    else if (kind === "read") args.push("--ro-bind", path, path);
    else if (kind === "write") args.push("--bind", path, path);
    // Made before the call when a directory; a file that is not there has nothing to keep.
    else args.push("--ro-bind-try", path, path);
  }
  for (const mount of mounts) {
    if (mount.kind === "hide" && mount.sealed) args.push("--remount-ro", mount.path);
  }
  args.push("--chdir", cwd, "--");
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
  return [...bwrapArgs([{ path: "/tmp", kind: "tmp" }], false, "/"), bwrap, "--version"];
}
