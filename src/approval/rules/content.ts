/**
 * Content pins: the files whose bytes decide what a call runs, each by the SHA-256 of its bytes,
 * so that an allow rule stops applying when one of them changes. For a declared tool:
 *
 * - `program`: the resolved program, unless it and every directory above it (and so its real
 *   path's) belong to root and no one else may write them, and this process is not root's (then
 *   the user's own account cannot change it);
 * - `argv[N]`: each argument (not one filled from the input) that names an existing file inside
 *   the workspace, resolved against the cwd: the script an interpreter runs;
 * - `files`: the files the tool's `files` globs match in the workspace, as one digest over their
 *   sorted list of relative paths and digests.
 *
 * For a spawn command, `word[N]`: each word of its simple commands that names an existing file
 * inside the workspace, resolved against the cwd.
 *
 * @module
 */

import { canonicalPath, isAbsolutePath, joinPath, parentPath, resolvePath } from "../../paths.ts";
import { ownUid } from "../../owner.ts";
import { attempt, quietly } from "../../quietly.ts";
import { fileDigest, sha256 } from "./_digest.ts";
import { commandPieces, matchGlob } from "./glob.ts";

/** One pinned file, as a call finds it now. */
export interface ContentEntry {
  /** The file, absolute (for `files`: the workspace root the globs are relative to). */
  readonly path: string;
  /** SHA-256 of its bytes (for `files`: of the listing's JSON); `undefined`: it cannot be read. */
  readonly sha256: string | undefined;
  /** For `files`: each file matched, relative to the root, with its digest, sorted by path. */
  readonly listing?: readonly (readonly [string, string])[];
}

/** What decides a call's code: `program`, `argv[N]`, `files` or `word[N]` → the file found. */
export type CallContent = ReadonlyMap<string, ContentEntry>;

/** What a call runs, as far as its content goes. */
export type ContentSubject =
  | {
    readonly kind: "tool";
    /** The resolved program (absolute). */
    readonly program: string;
    /** The argv, as the preview shows it. */
    readonly command: readonly string[];
    /** The working directory (absolute). */
    readonly cwd: string;
    /** The argv positions filled from the input: never pinned. */
    readonly fromInput?: readonly number[] | undefined;
    /** The manifest's `files` globs, relative to the workspace root. */
    readonly files?: readonly string[] | undefined;
  }
  | { readonly kind: "spawn"; readonly body: string; readonly cwd: string };

/** More files than this under `files` cannot be pinned: the set is treated as unreadable. */
const MAX_FILES = 10_000;

/**
 * The content of a call: every file that decides what it runs and that the user's account or the
 * repository can change, with its digest now.
 *
 * @param subject The program, argv, cwd and `files` of a declared tool, or a spawn body and cwd.
 * @param place The workspace root (only files inside it are pinned as arguments or words) and
 *   where digests of files are cached (`undefined`: no cache).
 * @returns The entries, by where they are pinned.
 * @throws Never: a file that cannot be read has no digest.
 */
export async function callContent(
  subject: ContentSubject,
  place: { readonly root?: string | undefined; readonly cacheDir?: string | undefined },
): Promise<CallContent> {
  const entries = new Map<string, ContentEntry>();
  const root = canonicalPath(place.root ?? subject.cwd);
  const add = async (where: string, path: string | undefined) => {
    if (path !== undefined) {
      entries.set(where, { path, sha256: await fileDigest(path, place.cacheDir) });
    }
  };
  if (subject.kind === "spawn") {
    for (const [index, word] of commandWords(subject.body).entries()) {
      await add(`word[${index}]`, workspaceFile(word, subject.cwd, root));
    }
    return entries;
  }
  if (!rootAlone(subject.program)) await add("program", subject.program);
  const fromInput = new Set(subject.fromInput ?? []);
  for (const [index, arg] of subject.command.entries()) {
    if (index > 0 && !fromInput.has(index)) {
      await add(`argv[${index}]`, workspaceFile(arg, subject.cwd, root));
    }
  }
  const { files } = subject;
  if (files?.length) entries.set("files", await filesEntry(root, files, place.cacheDir));
  return entries;
}

/** The words of a command line's simple commands, quotes around a word taken off. */
function commandWords(body: string): string[] {
  return commandPieces(body).flatMap((piece) =>
    piece.split(/\s+/).filter((word) => word !== "").map((word) =>
      /^(['"]).*\1$/s.test(word) && word.length >= 2 ? word.slice(1, -1) : word
    )
  );
}

function inside(path: string, root: string): boolean {
  return path === root || path.startsWith(root.endsWith("/") ? root : `${root}/`);
}

/**
 * The file an argument names inside the workspace (as written, or through its links), if any.
 *
 * @param arg The argument.
 * @param cwd The directory it is relative to (absolute).
 * @param root The canonical workspace root.
 * @returns The file's absolute path, or `undefined` when it names no existing file inside.
 */
export function workspaceFile(arg: string, cwd: string, root: string): string | undefined {
  if (arg === "" || arg.includes("\0")) return undefined;
  const written = isAbsolutePath(arg) ? arg : joinPath(cwd, arg);
  // `..` after a linked directory goes up from where the link points (as the program's open
  // will), not back to where it was written: such a path is kept as written, never normalised.
  const path = written.split("/").includes("..") ? written : resolvePath(written);
  return attempt(() =>
    quietly(() => Deno.statSync(path)).isFile &&
      (inside(resolvePath(path), root) || inside(Deno.realPathSync(path), root))
      ? path
      : undefined
  );
}

/**
 * Whether only root can change a program: it, its real path, and every directory above either
 * belong to root and are writable by no one else — and this process is not root (whose own account
 * could). Anything that cannot be checked is pinned.
 */
function rootAlone(program: string): boolean {
  if (ownUid() === undefined || ownUid() === 0) return false;
  return attempt(() => {
    const real = Deno.realPathSync(program);
    for (const start of real === program ? [program] : [program, real]) {
      for (let path = start;; path = parentPath(path)) {
        const info = quietly(() => Deno.lstatSync(path));
        if (info.uid !== 0 || (!info.isSymlink && ((info.mode ?? 0o777) & 0o022) !== 0)) {
          return false;
        }
        if (parentPath(path) === path) break;
      }
    }
    return true;
  }, false);
}

/** The `files` pin: the files matched, each with its digest, and one digest over them all. */
async function filesEntry(root: string, patterns: readonly string[], cacheDir?: string) {
  const found = new Set<string>();
  for (const pattern of patterns) {
    walk(root, "", pattern.split("/").filter((part) => part !== "" && part !== "."), found);
  }
  if (found.size > MAX_FILES) return { path: root, sha256: undefined };
  const listing: [string, string][] = [];
  let readable = true;
  for (const rel of [...found].sort()) {
    const digest = await fileDigest(joinPath(root, rel), cacheDir);
    if (digest === undefined) readable = false;
    else listing.push([rel, digest]);
  }
  const digest = readable ? await sha256(JSON.stringify(listing)) : undefined;
  return { path: root, sha256: digest, listing };
}

/**
 * Adds the files under `rel` that the glob's remaining segments match: `*` and `?` within one
 * name, `**` any number of directories (never into `.git`, never through a linked directory).
 */
function walk(root: string, rel: string, segments: readonly string[], found: Set<string>): void {
  const [segment, ...rest] = segments;
  if (segment === undefined || found.size > MAX_FILES) return;
  const entries = attempt(() => [...Deno.readDirSync(rel === "" ? root : joinPath(root, rel))]);
  if (entries === undefined) return;
  const isFile = (path: string) =>
    attempt(() => quietly(() => Deno.statSync(joinPath(root, path))).isFile, false);
  for (const entry of entries) {
    const path = rel === "" ? entry.name : `${rel}/${entry.name}`;
    const any = segment === "**";
    const matched = any || matchGlob(segment, entry.name);
    if (!entry.isDirectory) {
      if (matched && rest.length === 0 && isFile(path)) found.add(path);
    } else if (any ? entry.name !== ".git" : matched && rest.length > 0) {
      walk(root, path, any ? segments : rest, found);
    }
  }
  if (segment === "**" && rest.length > 0) walk(root, rel, rest, found);
}
