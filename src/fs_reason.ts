/**
 * Why a file operation failed, for a message: Deno's sandbox refusal, a full disk, a read-only
 * file system, a quota and a refused permission as phrases (so they can be worded in any locale),
 * anything else as the system said it. The one place that knows how Deno reports such failures.
 *
 * @module
 */

import type { MessageKey } from "./locale/en_us.ts";
import { english, type Phrase, phrase } from "./locale/messages.ts";

const SANDBOX_REFUSAL =
  /^Requires (read|write) access to (".*"), run again with the --allow-(?:read|write) flag$/;

/**
 * The failures a user can do something about, by the system's error code. Deno raises a full disk,
 * a quota and a read-only file system as a plain `Error` with that `code` (no class of its own).
 */
const BY_CODE: Readonly<Record<string, MessageKey>> = {
  ...{ ENOSPC: "fs.no_space", EDQUOT: "fs.quota", EROFS: "fs.read_only" },
  ...{ EACCES: "fs.permission", EPERM: "fs.permission" },
};

const DENO_ERRORS: readonly (new (...args: never[]) => Error)[] = Object.values(Deno.errors);

/**
 * Whether an error comes from the file system (or the OS) rather than from a bug: one of
 * `Deno.errors`, or an `Error` carrying an OS error code (`ENOSPC`, `EROFS`, `EDQUOT`, …).
 *
 * @param error What a file operation threw.
 * @returns True for a failure of the file system.
 * @example A full disk, as Deno reports it
 * ```ts
 * import { isFileSystemError } from "./fs_reason.ts";
 * const full = Object.assign(new Error("No space left on device (os error 28)"), { code: "ENOSPC" });
 * console.assert(isFileSystemError(full) && !isFileSystemError(new TypeError("bug")));
 * ```
 */
export function isFileSystemError(error: unknown): boolean {
  return DENO_ERRORS.some((kind) => error instanceof kind) || codeOf(error) !== undefined;
}

/**
 * Why a file operation failed: Deno's sandbox refusal as a phrase when its words are exactly the
 * ones known (a different Deno may word it differently: then its own text is kept); a full disk, a
 * quota, a read-only file system or a refused permission as a phrase; else the first line of the
 * error's message.
 *
 * @param error What the file operation threw.
 * @returns The reason.
 * @example A refusal Deno's sandbox made
 * ```ts
 * import { fsReason } from "./fs_reason.ts";
 * import { english } from "./locale/messages.ts";
 * const refused = new Deno.errors.NotCapable(
 *   'Requires write access to "/x", run again with the --allow-write flag',
 * );
 * const reason = fsReason(refused);
 * console.assert(typeof reason !== "string" && english(reason) === refused.message);
 * ```
 */
export function fsReason(error: unknown): Phrase | string {
  const message = error instanceof Error ? error.message.split("\n")[0] as string : String(error);
  const known = BY_CODE[codeOf(error) ?? ""];
  if (known !== undefined) return phrase(known);
  if (!(error instanceof Deno.errors.NotCapable)) return message;
  const match = SANDBOX_REFUSAL.exec(message);
  if (match === null) return message;
  const key = match[1] === "read" ? "file.sandbox_read" : "file.sandbox_write";
  const refused = phrase(key, { path: match[2] as string });
  return english(refused) === message ? refused : message;
}

/** The OS error code an error carries (`ENOSPC`), if any. */
function codeOf(error: unknown): string | undefined {
  if (!(error instanceof Error)) return undefined;
  const code: unknown = (error as { code?: unknown }).code;
  return typeof code === "string" && /^E[A-Z0-9]+$/.test(code) ? code : undefined;
}
