/**
 * The file system one confined call sees, decided in one place for every platform: what is
 * covered (a private `/tmp`, an empty `/run`, the hidden paths, the host sockets the environment
 * names), what is bound from the host (the writable paths, the read grants), and how basis-tools'
 * own directories stay out of reach whatever is granted around them. bubblewrap is given these
 * mounts as they are; the macOS profile is written from the same paths. Private to the sandbox seam.
 *
 * The threat model, each line attacked by tests/sandbox_matrix_test.ts:
 * - A call changes what approves or runs later calls (the config, cache and state directories):
 *   they are never writable, and the config directory is not readable. A writable path around one
 *   of them gets it bound read-only (the config directory: an empty directory) inside; a directory
 *   between the two is bound onto itself, so that it cannot be moved away with them inside (a mount
 *   point cannot be renamed); a writable path inside one of them, or one that holds a link on the
 *   way to one (a link cannot be bound, only replaced), refuses the call.
 * - A call reaches a host socket (tmux, ssh-agent, the session bus, docker): `/tmp` is the call's
 *   own, `/run` is empty but for its links and the DNS configuration, the sockets the environment
 *   names are covered, and a working directory the sandbox covers refuses the call (it is never
 *   bound into it).
 * - A call reads a key: the hidden paths are covered unless a read grant names them.
 *
 * @module
 */

import type { MessageKey } from "../locale/en_us.ts";
import { type Phrase, phrase } from "../locale/messages.ts";
import { canonicalPath, joinPath, linksOnTheWay, parentPath } from "../paths.ts";
import { attempt, exists, quietly } from "../quietly.ts";
import { isInside } from "./_paths.ts";

/** One mount, at a canonical path; given to bubblewrap shallowest first. */
export type Mount =
  /**
   * `tmp` an empty file system of the call's own; `read`/`write` the host's path bound
   * read-only/read-write; `keep` one of basis-tools' own paths bound read-only.
   */
  | { readonly path: string; readonly kind: "tmp" | "read" | "write" | "keep" }
  /**
   * Covered: by an empty directory of the call's own (`sealed`: read-only once every mount is
   * made), or (a file) by `/dev/null`.
   */
  | { readonly path: string; readonly kind: "hide"; directory: boolean; sealed?: boolean }
  /** A symbolic link made inside a `tmp` one. */
  | { readonly path: string; readonly kind: "link"; readonly target: string };

/**
 * One of basis-tools' own paths, absolute as basis-tools uses it (it may not exist yet): `hidden`,
 * a directory no call may read (the config directory); `directory`, `file`: no call may write.
 */
export type TrustedPath = { readonly path: string; readonly kind: "hidden" | "directory" | "file" };

/**
 * What the call may touch, paths absolute and canonical: the paths it may write (the workspace when
 * it is one, the grants, the policy's), the hidden paths it may read, the paths it may not read,
 * the host sockets (and directories of them) to cover (as the hidden paths, but left out where
 * Deno may not look: a variable's socket can be anywhere, and a call must not fail for it),
 * basis-tools' own paths, the program (which must be visible to start), the working directory
 * (visible as the host has it), and the policy's file (for the refusal of a covered working
 * directory).
 */
export type LayoutRequest = Readonly<Record<"write" | "read" | "hidden" | "sockets", Paths>> & {
  readonly trusted: readonly TrustedPath[];
} & Readonly<Record<"program" | "cwd" | "policyFile", string>>;
type Paths = readonly string[];

/**
 * The mounts (in order), the paths to make once the call is approved (writable paths and
 * basis-tools' own directories that do not exist yet) and basis-tools' own paths, canonical (for
 * the macOS profile); or why it may not run.
 */
export type Layout =
  | { readonly mounts: readonly Mount[]; readonly create: readonly string[]; trusted: string[] }
  | { readonly refusal: Phrase };

/** At one path, the later kind wins: a grant over a hiding, basis-tools' own over a grant. */
const ORDER = { tmp: 0, link: 0, hide: 1, read: 2, write: 3, keep: 4 } as const;

/**
 * Lays out one call's file system, or refuses it: a writable path inside basis-tools' own
 * directories (a read one inside the config directory), a link on their way that the call could
 * replace, or a working directory the sandbox covers.
 *
 * @param request What the call may touch.
 * @returns The layout, or the refusal.
 */
export function callLayout(request: LayoutRequest): Layout {
  const mounts = runtimeMounts();
  for (const path of request.read) if (exists(path)) mounts.push({ path, kind: "read" });
  for (const path of request.write) mounts.push({ path, kind: "write" });
  const shown = [...mounts];
  for (const path of [...request.hidden, ...request.sockets]) {
    // Covered already (in /run, say): nothing to add.
    if (!isShown(coverOf(path, shown))) continue;
    const kind = kindOf(path);
    if (kind === undefined || (kind === "unknown" && !request.hidden.includes(path))) continue;
    mounts.push({ path, kind: "hide", directory: kind !== "file" });
  }
  const guarded = guardTrusted(request, mounts);
  if ("refusal" in guarded) return guarded;
  mounts.push(...guarded.mounts);
  const cover = coverOf(request.cwd, mounts);
  if (cover !== undefined && !isShown(cover)) {
    return refused("sandbox.cwd_covered", {
      cwd: request.cwd,
      place: cover.path,
      file: request.policyFile,
    });
  }
  if (!isShown(coverOf(request.program, mounts)) && exists(request.program)) {
    mounts.push({ path: request.program, kind: "read" });
  }
  const create = [...request.write.filter((path) => !exists(path)), ...guarded.create];
  return { mounts: ordered(mounts), create, trusted: guarded.trusted };
}

/** The host's private places: `/tmp`, and `/run` with its links and the DNS configuration. */
function runtimeMounts(): Mount[] {
  const mounts: Mount[] = [{ path: canonicalPath("/tmp"), kind: "tmp" }];
  for (const run of new Set(["/run", canonicalPath("/var/run")])) {
    const entries = attempt(() => [...Deno.readDirSync(run)]);
    if (entries === undefined) continue;
    mounts.push({ path: run, kind: "tmp" });
    for (const entry of entries) {
      if (!entry.isSymlink) continue;
      const path = joinPath(run, entry.name);
      const target = attempt(() => Deno.readLinkSync(path)); // Gone, or not ours to read: left out.
      if (target !== undefined) mounts.push({ path, kind: "link", target });
    }
  }
  // Name lookups read it (`/etc/resolv.conf` is often a link into /run): the file, not its
  // directory, which may hold the resolver's socket.
  const dns = canonicalPath("/etc/resolv.conf");
  if (dns.startsWith("/run/") && exists(dns)) mounts.push({ path: dns, kind: "read" });
  return mounts;
}

/**
 * How basis-tools' own paths stay out of reach (module doc): the refusal, or the mounts to add and
 * the directories to make.
 */
function guardTrusted(
  request: LayoutRequest,
  mounts: readonly Mount[],
): { mounts: Mount[]; create: string[]; trusted: string[] } | { refusal: Phrase } {
  const writer = (path: string) => {
    const cover = coverOf(path, mounts);
    return cover?.kind === "write" ? cover.path : undefined;
  };
  const added: Mount[] = [];
  const create: string[] = [];
  const trusted: string[] = [];
  const ways: string[] = [];
  for (const own of request.trusted) {
    const { path, links } = linksOnTheWay(own.path);
    trusted.push(path);
    const inside = request.write.find((write) => isInside(write, path));
    if (inside !== undefined) return refused("sandbox.trusted_write", { path: inside, dir: path });
    const read = own.kind === "hidden" ? request.read.find((at) => isInside(at, path)) : undefined;
    if (read !== undefined) return refused("sandbox.trusted_read", { path: read, dir: path });
    for (const link of links) {
      const open = writer(parentPath(link));
      if (open) return refused("sandbox.trusted_link", { path: open, link, dir: path });
      ways.push(parentPath(link));
    }
    ways.push(parentPath(path));
    // Covered or kept even with no grant around it, and made when it is not there yet: a grant
    // made a link to it (or around it) after the plan must find it there, out of reach.
    const sealed = { path, kind: "hide", directory: true, sealed: true } as const;
    if (own.kind !== "hidden") added.push({ path, kind: "keep" });
    else if (isShown(coverOf(path, mounts))) added.push(sealed);
    if (own.kind !== "file" && !exists(path)) create.push(path);
  }
  // Every directory on the way that the call may write: bound onto itself, so not movable.
  for (const way of ways) {
    for (let at = way; at !== "/"; at = parentPath(at)) {
      const open = writer(at);
      if (open === undefined || open === at) continue;
      if (!added.some((mount) => mount.path === at)) added.push({ path: at, kind: "write" });
    }
  }
  return { mounts: added, create, trusted };
}

/** A refusal, each path it names quoted. */
function refused(key: MessageKey, paths: Record<string, string>): { refusal: Phrase } {
  const quoted = Object.entries(paths).map(([name, path]) => [name, JSON.stringify(path)]);
  return { refusal: phrase(key, Object.fromEntries(quoted)) };
}

/**
 * The mount that decides what a path shows: the deepest one at or above it (at one path, the last
 * in {@linkcode ORDER}); `undefined` when none is, and the host's root (read-only) shows it.
 *
 * @param path A canonical path.
 * @param mounts The mounts.
 * @returns The mount, or `undefined`.
 */
export function coverOf(path: string, mounts: readonly Mount[]): Mount | undefined {
  let deepest: Mount | undefined;
  for (const mount of mounts) {
    if (!isInside(path, mount.path)) continue;
    if (deepest === undefined || before(deepest, mount) <= 0) deepest = mount;
  }
  return deepest;
}

/** Whether what a mount decides shows the host's files (the host's root when there is none). */
function isShown(mount: Mount | undefined): boolean {
  return mount === undefined || mount.kind === "read" || mount.kind === "write" ||
    mount.kind === "keep";
}

/** Parents first; at one path, in {@linkcode ORDER}; each path once (the last kind wins). */
function ordered(mounts: readonly Mount[]): Mount[] {
  const last = new Map<string, Mount>();
  for (const mount of mounts) {
    const seen = last.get(mount.path);
    if (seen === undefined || ORDER[mount.kind] >= ORDER[seen.kind]) last.set(mount.path, mount);
  }
  return [...last.values()].sort(before);
}

function before(a: Mount, b: Mount): number {
  return depth(a.path) - depth(b.path) || ORDER[a.kind] - ORDER[b.kind];
}

/** What is at a path: `undefined` when nothing, `unknown` when Deno may not look. */
function kindOf(path: string): "directory" | "file" | "unknown" | undefined {
  try {
    return quietly(() => Deno.statSync(path)).isDirectory ? "directory" : "file";
  } catch (error) {
    if (error instanceof Deno.errors.NotCapable) return "unknown";
    return undefined;
  }
}

function depth(path: string): number {
  return path === "/" ? 0 : path.split("/").length - 1;
}
