/**
 * Where the audit log is written: `--audit-log PATH`, else `$BASIS_AUDIT_LOG`, else
 * `audit.jsonl` in the state directory. `off` in either place turns it off.
 *
 * @module
 */

import { type EnvLookup, joinPath, readEnv, resolvePath, stateDir } from "../paths.ts";

/** The value of `--audit-log` or `BASIS_AUDIT_LOG` that turns the audit log off. */
export const AUDIT_OFF = "off";

/** The file name inside the state directory. */
export const AUDIT_FILE = "audit.jsonl";

/**
 * Options for {@linkcode auditLogPath}: the `--audit-log` value (a path, or `off`; it wins over the
 * environment), and how to read `BASIS_AUDIT_LOG` and the state directory's variables (default
 * `readEnv`).
 */
export type AuditPathOptions = { path?: string | undefined; env?: EnvLookup };

/**
 * Resolves where the audit log goes. An empty value counts as unset; a relative path is resolved
 * against the current directory.
 *
 * @param options The `--audit-log` value and how to read the environment.
 * @returns The absolute file path, or `undefined` when the audit log is off.
 * @throws {Deno.errors.NotCapable} When the path is relative and reading the current directory is
 *   not permitted.
 * @example Turned off by the environment
 * ```ts
 * import { auditLogPath } from "./audit_path.ts";
 * const env = (name: string) => (name === "BASIS_AUDIT_LOG" ? "off" : undefined);
 * console.assert(auditLogPath({ env }) === undefined);
 * console.assert(auditLogPath({ path: "/tmp/a.jsonl", env }) === "/tmp/a.jsonl");
 * ```
 */
export function auditLogPath(options: AuditPathOptions = {}): string | undefined {
  const env = options.env ?? readEnv;
  const chosen = options.path || env("BASIS_AUDIT_LOG") || joinPath(stateDir(env), AUDIT_FILE);
  return chosen === AUDIT_OFF ? undefined : resolvePath(chosen);
}
