/**
 * Finding bubblewrap and asking whether it can make the namespaces a call needs on this machine.
 * The answer costs a start of bwrap (3–4 ms), so a "yes" is asked once per process and kept in the
 * cache directory (`sandbox-probe.json`) for as long as the same bwrap runs on the same boot as the
 * same user (the boot only where it can be read: Deno lets nothing short of `--allow-all` read
 * /proc, so the released binary keeps its answer across boots): a CLI call then pays for one bwrap,
 * not two. A "no" is never kept (fixing the machine
 * takes effect at once), and a confined call that bwrap could not set up forgets the "yes"
 * (`forgetProbe`), so the next call asks again. A wrong "yes" in the file can only make a call fail
 * to start, never run unconfined. Private to the sandbox seam.
 *
 * @module
 */

import { type Phrase, phrase } from "../locale/messages.ts";
import { canonicalPath, isAbsolutePath, joinPath, parentPath } from "../paths.ts";
import { attempt, exists, quietly } from "../quietly.ts";
import { resolveProgram } from "../run/mod.ts";
import { probeArgs } from "./_bwrap.ts";
import { expandList } from "./_paths.ts";
import type { SandboxPolicy } from "./types.ts";
import { readRegularFile } from "../read_regular_file.ts";

/** The file in the cache directory that keeps a "yes". */
export const PROBE_FILE = "sandbox-probe.json";

/** Where the kernel says which boot this is (a new one after every reboot). */
export const BOOT_ID = "/proc/sys/kernel/random/boot_id";

/** Where distributions install bubblewrap: looked at before `PATH`, in this order. */
export const BWRAP_PATHS: readonly string[] = [
  "/usr/bin/bwrap",
  "/bin/bwrap",
  "/usr/local/bin/bwrap",
];

/** Where bwrap is: a program only root can have put there, one anyone else could, or none. */
export type BwrapFound = { readonly path: string } | { readonly untrusted: string } | undefined;

const found = new Map<string, BwrapFound>();

/**
 * The bwrap every call runs through, found once per process: the one the policy names, else the
 * first of {@linkcode BWRAP_PATHS} (or else of `PATH`) that is there, taken only when it and every
 * directory above it is owned by root and writable by no one else (a sticky directory such as
 * `/nix/store` counts as not writable: no one else may replace what root put there). So no tool
 * can plant the bwrap a later call runs: a grant of a directory on `PATH` plants nothing that is
 * looked at first, or trusted. (The one the policy names is the user's word, and the sandbox keeps
 * it read-only like the system's.)
 *
 * @param path The `PATH` value.
 * @param named The policy's `bwrap` (absolute), when it names one.
 * @returns Where it is, and whether it can be trusted; `undefined` when it is not there.
 */
export function findBwrap(path: string | undefined, named?: string): BwrapFound {
  const key = `${named}\0${path}`;
  if (!found.has(key)) {
    const chosen = named === undefined
      ? lookUpBwrap(path)
      : exists(named)
      ? { path: canonicalPath(named) }
      : undefined;
    found.set(key, chosen);
  }
  return found.get(key);
}

/**
 * The bwrap the policy names, absolute (as written when `~` cannot be expanded: then it is not
 * there).
 *
 * @param policy The user's policy.
 * @param home The home directory.
 * @returns The path, or `undefined` when the policy names none.
 */
export function namedBwrap(policy: SandboxPolicy, home: string | undefined): string | undefined {
  if (policy.bwrap === undefined) return undefined;
  return expandList([policy.bwrap], home)?.[0] ?? policy.bwrap;
}

function lookUpBwrap(path: string | undefined): BwrapFound {
  for (const candidate of BWRAP_PATHS) if (exists(candidate)) return rootOnly(candidate, true);
  const resolved = resolveProgram("bwrap", { cwd: "/", path, pathExt: undefined });
  return resolved.ok && isAbsolutePath(resolved.path) ? rootOnly(resolved.path, false) : undefined;
}

/**
 * A program, trusted only if no one but root can have changed it: it and every directory above it
 * owned by root and writable by no one else (a sticky directory may be writable).
 *
 * @param program Its path.
 * @param system Whether it is one of {@linkcode BWRAP_PATHS}: there, a directory Deno may not look
 *   at is taken to be the system's.
 * @returns Its canonical path, trusted or not.
 */
export function rootOnly(program: string, system: boolean): BwrapFound {
  const path = canonicalPath(program);
  for (let at = path;; at = parentPath(at)) {
    const info = attempt(() => Deno.statSync(at));
    const mode = info?.mode ?? 0;
    // Writable by others; a sticky directory may be (the program itself may not).
    const loose = (mode & 0o022) !== 0 && (at === path || (mode & 0o1000) === 0);
    if (info === undefined ? !system : info.uid !== 0 || loose) return { untrusted: path };
    if (at === "/") return { path };
  }
}

const asked = new Map<string, Promise<Phrase | undefined>>();

/**
 * Whether bwrap can make the namespaces here: `undefined` when it can, else why not.
 *
 * @param bwrap The bwrap program (absolute).
 * @param cacheDir Where a "yes" is kept, or `undefined` to keep it in this process only.
 * @returns Why it cannot, or `undefined`.
 */
export function probe(bwrap: string, cacheDir: string | undefined): Promise<Phrase | undefined> {
  let found = asked.get(bwrap);
  if (found === undefined) {
    asked.set(bwrap, found = probeOnce(bwrap, cacheDir));
    // A "no" is asked again by the next call of this process too.
    found.then((said) => said === undefined || asked.delete(bwrap));
  }
  return found;
}

/**
 * Forgets that bwrap worked: a confined call it could not set up makes the next call ask again.
 *
 * @param bwrap The bwrap program.
 * @param cacheDir The cache directory the "yes" was kept in.
 */
export function forgetProbe(bwrap: string, cacheDir: string | undefined): void {
  asked.delete(bwrap);
  // Not there, or not ours to remove: the key no longer matches a changed machine anyway.
  if (cacheDir !== undefined) attempt(() => Deno.removeSync(joinPath(cacheDir, PROBE_FILE)));
}

async function probeOnce(bwrap: string, cacheDir: string | undefined): Promise<Phrase | undefined> {
  const file = cacheDir === undefined ? undefined : joinPath(cacheDir, PROBE_FILE);
  const kept = file === undefined ? undefined : keptAnswer(bwrap);
  if (file !== undefined && kept !== undefined && readKept(file) === kept) return undefined;
  const said = await runProbe(bwrap);
  if (said === undefined && file !== undefined && kept !== undefined) keep(file, kept);
  return said;
}

/**
 * The file's text that keeps a "yes": the program (and its version on disk), the boot where it can
 * be read, the user.
 */
function keptAnswer(bwrap: string): string | undefined {
  return attempt(() => {
    const info = Deno.statSync(bwrap);
    // Not readable under scoped permissions: any boot.
    const boot = attempt(() => quietly(() => Deno.readTextFileSync(BOOT_ID)).trim(), "");
    const key = [bwrap, info.size, info.mtime?.getTime() ?? 0, boot, Deno.uid()];
    return `${JSON.stringify({ works: JSON.stringify(key) })}\n`;
  });
}

/** What the file holds: never a FIFO opened in its place (it would block every call), never a huge file read. */
function readKept(file: string): string | undefined {
  const read = attempt(() => readRegularFile(file, { limit: 4096, follow: false }));
  return read?.kind === "read" ? new TextDecoder().decode(read.bytes) : undefined;
}

function keep(file: string, text: string): void {
  const temp = `${file}.${Deno.pid}.tmp`;
  try {
    Deno.mkdirSync(parentPath(file), { recursive: true, mode: 0o700 });
    Deno.writeTextFileSync(temp, text, { mode: 0o600, createNew: true });
    Deno.renameSync(temp, file);
  } catch {
    // Asked again next time; a temporary file a full disk left is not kept (if it was made).
    attempt(() => Deno.removeSync(temp));
  }
}

async function runProbe(bwrap: string): Promise<Phrase | undefined> {
  try {
    const output = await new Deno.Command(bwrap, {
      args: probeArgs(bwrap),
      stdin: "null",
      stdout: "null",
      stderr: "piped",
    }).output();
    if (output.success) return undefined;
    const said = new TextDecoder().decode(output.stderr).trim().split("\n")[0]?.trim() ||
      `exit ${output.code}`;
    // bwrap's own sentence, without its prefix and final period (the phrase goes on after it).
    return phrase("sandbox.bwrap_broken", {
      detail: said.replace(/^bwrap: /, "").replace(/\.$/, ""),
    });
  } catch (error) {
    if (error instanceof Deno.errors.NotCapable || error instanceof Deno.errors.PermissionDenied) {
      return phrase("sandbox.bwrap_refused", { flag: `--allow-run=${bwrap}` });
    }
    const detail = error instanceof Error ? error.message : String(error);
    return phrase("sandbox.bwrap_broken", { detail });
  }
}
