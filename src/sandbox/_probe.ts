/**
 * Finding bubblewrap and asking whether it can make the namespaces a call needs on this machine.
 * The answer costs a start of bwrap (3–4 ms), so a "yes" is asked once per process and kept in the
 * cache directory (`sandbox-probe.json`) for as long as the same bwrap runs on the same boot as the
 * same user: a CLI call then pays for one bwrap, not two. A "no" is never kept (fixing the machine
 * takes effect at once), and a confined call that bwrap could not set up forgets the "yes"
 * (`forgetProbe`), so the next call asks again. A wrong "yes" in the file can only make a call fail
 * to start, never run unconfined. Private to the sandbox seam.
 *
 * @module
 */

import { type Phrase, phrase } from "../locale/messages.ts";
import { isAbsolutePath, joinPath, parentPath } from "../paths.ts";
import { resolveProgram } from "../run/mod.ts";
import { probeArgs } from "./_bwrap.ts";
import { readRegularFile } from "../read_regular_file.ts";

/** The file in the cache directory that keeps a "yes". */
export const PROBE_FILE = "sandbox-probe.json";

/** Where the kernel says which boot this is (a new one after every reboot). */
export const BOOT_ID = "/proc/sys/kernel/random/boot_id";

/**
 * bwrap on the PATH basis-tools runs with.
 *
 * @param path The `PATH` value.
 * @returns Its absolute path, or `undefined`.
 */
export function findBwrap(path: string | undefined): string | undefined {
  const found = resolveProgram("bwrap", { cwd: "/", path, pathExt: undefined });
  return found.ok && isAbsolutePath(found.path) ? found.path : undefined;
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
    found = probeOnce(bwrap, cacheDir);
    asked.set(bwrap, found);
    // A "no" is asked again by the next call of this process too.
    found.then((said) => {
      if (said !== undefined) asked.delete(bwrap);
    });
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
  if (cacheDir === undefined) return;
  try {
    Deno.removeSync(joinPath(cacheDir, PROBE_FILE));
  } catch {
    // Not there, or not ours to remove: the key no longer matches a changed machine anyway.
  }
}

async function probeOnce(bwrap: string, cacheDir: string | undefined): Promise<Phrase | undefined> {
  const key = cacheDir === undefined ? undefined : probeKey(bwrap);
  const file = cacheDir === undefined ? undefined : joinPath(cacheDir, PROBE_FILE);
  if (key !== undefined && file !== undefined && remembered(file) === key) return undefined;
  const said = await runProbe(bwrap);
  if (said === undefined && key !== undefined && file !== undefined) remember(file, key);
  return said;
}

/** What a kept "yes" must match: the program (and its version on disk), the boot, the user. */
function probeKey(bwrap: string): string | undefined {
  try {
    const info = Deno.statSync(bwrap);
    const boot = Deno.readTextFileSync(BOOT_ID).trim();
    return JSON.stringify([bwrap, info.size, info.mtime?.getTime() ?? 0, boot, Deno.uid()]);
  } catch {
    return undefined;
  }
}

function remembered(file: string): string | undefined {
  try {
    // Never a FIFO opened in its place (it would block every call), never a huge file read.
    const read = readRegularFile(file, { limit: 4096, follow: false });
    if (read.kind !== "read") return undefined;
    const kept = JSON.parse(new TextDecoder().decode(read.bytes)) as unknown;
    return typeof kept === "object" && kept !== null && "works" in kept &&
        typeof kept.works === "string"
      ? kept.works
      : undefined;
  } catch {
    return undefined;
  }
}

function remember(file: string, key: string): void {
  const temp = `${file}.${Deno.pid}.tmp`;
  try {
    Deno.mkdirSync(parentPath(file), { recursive: true, mode: 0o700 });
    Deno.writeTextFileSync(temp, `${JSON.stringify({ works: key })}\n`, {
      mode: 0o600,
      createNew: true,
    });
    Deno.renameSync(temp, file);
  } catch {
    // Asked again next time; a temporary file a full disk left is not kept.
    try {
      Deno.removeSync(temp);
    } catch {
      // Never made.
    }
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
    const detail = said.replace(/^bwrap: /, "").replace(/\.$/, "");
    return phrase("sandbox.bwrap_broken", { detail });
  } catch (error) {
    if (error instanceof Deno.errors.NotCapable || error instanceof Deno.errors.PermissionDenied) {
      return phrase("sandbox.bwrap_refused", { flag: `--allow-run=${bwrap}` });
    }
    const detail = error instanceof Error ? error.message : String(error);
    return phrase("sandbox.bwrap_broken", { detail });
  }
}
