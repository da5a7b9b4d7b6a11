/**
 * The audit trail: every decision and every run's outcome appended as one JSON line. Appends from
 * concurrent processes never interleave within a line: the file is opened in append mode
 * (`O_APPEND`) and each line is written whole with a single write call.
 *
 * @module
 */

import type { Locale } from "../locale/locale.ts";
import { messages, phrase } from "../locale/messages.ts";
import { fsReason } from "../fs_reason.ts";
import { parentPath } from "../paths.ts";
import { attempt } from "../quietly.ts";
import { encodeEntry } from "./_encode.ts";
import { auditLogPath, type AuditPathOptions } from "./audit_path.ts";
import type { AuditEntry } from "./types.ts";

/** Options for {@linkcode openAuditLog}. */
export interface AuditLogOptions extends AuditPathOptions {
  /**
   * Told, once per log, when a line cannot be written: the message in `locale`.
   * @default writes `basis-tools: warning: <message>` to stderr, in `locale`
   */
  warn?: (message: string) => void;
  /**
   * The language of the warning (the system's own reason for the failure stays as it gave it).
   * Its catalogue must be loaded (`loadLocale()`, or the library's `mod.ts`).
   * @default "en-US"
   */
  locale?: Locale;
}

/** Options for one {@linkcode AuditLog.record} call. */
export interface RecordOptions {
  /** Values to redact in this entry (the call's secrets). @default [] */
  secrets?: readonly string[];
}

/** An open audit log. */
export interface AuditLog {
  /** The absolute file path, or `undefined` when the audit log is off. */
  readonly path: string | undefined;
  /**
   * Appends one entry as one JSON line. Never throws for a failure to write: the first failure is
   * reported through `warn`, later ones are silent, and each later entry is tried again.
   *
   * @param entry The decision or run outcome.
   * @param options More secrets to redact in this entry.
   * @returns True when the line was written; false when the log is off or the write failed.
   */
  record(entry: AuditEntry, options?: RecordOptions): boolean;
  /** Closes the file; a later `record` opens it again. */
  close(): void;
}

const ENCODER = new TextEncoder();

const NEWLINE = 0x0a;

/** The log's path names something other than a regular file: it is never opened. */
class NotRegularFile extends Error {}

/**
 * Opens the log for appending without ever blocking: only a regular file is opened (opening a
 * FIFO for writing waits for a reader, and would hold up the call and every signal with it); a
 * missing file is created exclusively, so nothing put there meanwhile is opened instead. `checked`:
 * opened for reading too, so whether it ends a line can be checked (not under a Deno sandbox that
 * grants writing the log but not looking at it).
 */
function openForAppend(path: string, again = true): { file: Deno.FsFile; checked: boolean } {
  let info: Deno.FileInfo | undefined;
  try {
    info = Deno.statSync(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotCapable) {
      return {
        file: openMaking(path, { append: true, create: true, mode: 0o600 }),
        checked: false,
      };
    }
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  if (info !== undefined && !info.isFile) throw new NotRegularFile();
  // A symbolic link to a file not made yet: the file is made where the link points.
  const make = info !== undefined ? {} : isSymlink(path) ? { create: true } : { createNew: true };
  let file: Deno.FsFile;
  try {
    file = openMaking(path, { read: true, append: true, mode: 0o600, ...make });
  } catch (error) {
    if (!again || !(error instanceof Deno.errors.AlreadyExists)) throw error;
    return openForAppend(path, false);
  }
  // What was opened is a regular file (it was not swapped meanwhile), else it is refused.
  let regular = false;
  try {
    regular = file.statSync().isFile;
  } finally {
    if (!regular) file.close();
  }
  if (!regular) throw new NotRegularFile();
  return { file, checked: true };
}

/** Opens a file, making its directory (0700) when it is missing. */
function openMaking(path: string, options: Deno.OpenOptions): Deno.FsFile {
  try {
    return Deno.openSync(path, options);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
    Deno.mkdirSync(parentPath(path), { recursive: true, mode: 0o700 });
    return Deno.openSync(path, options);
  }
}

function isSymlink(path: string): boolean {
  return attempt(() => Deno.lstatSync(path).isSymlink, false);
}

/** A pause of 1 ms at a time, without giving up the thread. */
const PAUSE = new Int32Array(new SharedArrayBuffer(4));

/**
 * A shared lock on the log, waited for while another process's {@linkcode endLine} holds it (for
 * microseconds): a line written meanwhile could be seen half written there, and ended a second
 * time (an empty line). A lock held for more than 100 ms is no one's repair: the line is written
 * without it, as nothing may hold a call up.
 */
function sharedLock(file: Deno.FsFile): boolean {
  for (let tries = 0; tries < 100; tries++) {
    if (file.tryLockSync(false)) return true;
    Atomics.wait(PAUSE, 0, 0, 1);
  }
  return false;
}

/**
 * Appends a line whole or not at all: one write call (with O_APPEND the kernel places it at the
 * end in one piece, so concurrent writers never interleave within a line). A short write (a full
 * disk or quota) is taken back: the file is cut to where it ended before, so no half line stays to
 * glue the next one onto. (On a full disk no other writer's line can land after ours meanwhile.)
 * The write holds a shared lock when it can get one (see {@linkcode endLine}).
 */
function writeWhole(file: Deno.FsFile, bytes: Uint8Array): void {
  const locked = sharedLock(file);
  try {
    const written = file.writeSync(bytes);
    if (written === bytes.length) return;
    // Where it cannot be taken back, the next opening ends the line (see `endLine`).
    attempt(() => file.truncateSync(file.statSync().size - written));
  } finally {
    if (locked) file.unlockSync();
  }
  throw Object.assign(new Error("No space left on device"), { code: "ENOSPC" });
}

/**
 * Ends a line left unfinished at the end of the file (by a crash, or a cut that failed), so that
 * the next line starts on a line of its own. A line another process is appending looks unfinished
 * while it is written, so the end is looked at only under an exclusive lock, which no writer holds
 * its shared one against; when one does, a line is being written whole and nothing is done.
 */
function endLine(file: Deno.FsFile): void {
  if (!file.tryLockSync(true)) return;
  try {
    const size = file.statSync().size;
    if (size === 0) return;
    const last = new Uint8Array(1);
    file.seekSync(size - 1, Deno.SeekMode.Start);
    if (file.readSync(last) !== 1 || last[0] === NEWLINE) return;
    file.writeSync(new Uint8Array([NEWLINE]));
  } finally {
    file.unlockSync();
  }
}

/**
 * Opens the audit log named by `--audit-log`, else `BASIS_AUDIT_LOG`, else `audit.jsonl` in the
 * state directory; `off` turns it off. Nothing touches the disk until the first entry: then the
 * directory is created (mode 0700) if missing, and the file (mode 0600, opened for appending).
 * Only a regular file is ever opened: a FIFO, a device or a socket at the path is refused (opening
 * a FIFO would wait for a reader, holding up the call and the signals that should end it). Under
 * a Deno sandbox that lets the log be written but not read, the path cannot be checked and is
 * opened as it is.
 *
 * A failure to write never fails the call being audited: it is reported once (a warning on
 * stderr by default) and the call goes on.
 *
 * @param options Where the log goes, secrets to redact, where to warn and in which language.
 * @returns The log; call `close()` when done.
 * @throws {Deno.errors.NotCapable} Only when the path is relative and reading the current directory
 *   is not permitted; writing never throws.
 * @throws {Error} When the catalogue of `locale` is not loaded.
 * @example Record a decision and a run
 * ```ts ignore
 * import { openAuditLog } from "./open_audit_log.ts";
 * const log = openAuditLog({ path: "/tmp/audit.jsonl" });
 * const preview = { tool: "echo", command: ["cat"], cwd: "/w", input: {} };
 * log.record({ type: "decision", tool: "echo", preview, allowed: true, by: "policy", workspace: "/w" });
 * log.record({
 *   type: "run", tool: "echo", exit_code: 0, signal: undefined, timed_out: false,
 *   duration_ms: 12, stdout_bytes: 2, stderr_bytes: 0,
 * });
 * log.close();
 * ```
 */
export function openAuditLog(options: AuditLogOptions = {}): AuditLog {
  const path = auditLogPath(options);
  const words = messages(options.locale ?? "en-US");
  // Where stderr is gone, nowhere is left to say it.
  const warn = options.warn ??
    ((message: string) =>
      attempt(() =>
        Deno.stderr.writeSync(ENCODER.encode(`${words.t("audit.warning", { message })}\n`))
      ));
  let file: Deno.FsFile | undefined;
  let warned = false;

  function close(): void {
    attempt(() => file?.close()); // Already closed, or not.
    file = undefined;
  }

  function record(entry: AuditEntry, recordOptions: RecordOptions = {}): boolean {
    if (path === undefined) return false;
    try {
      const line = encodeEntry(entry, new Date().toISOString(), recordOptions.secrets ?? []);
      if (file === undefined) {
        const opened = openForAppend(path);
        file = opened.file;
        if (opened.checked) endLine(file);
      }
      writeWhole(file, ENCODER.encode(line));
      return true;
    } catch (error) {
      close();
      if (!warned) {
        warned = true;
        const reason = error instanceof NotRegularFile
          ? phrase("audit.not_regular_file")
          : fsReason(error);
        warn(words.say(phrase("audit.cannot_write", { path: JSON.stringify(path), reason })));
      }
      return false;
    }
  }

  return { path, record, close };
}
