/**
 * Encoding an entry as one JSON line: fixed key order, a timestamp and the process id first,
 * `null` for what does not apply, and every secret replaced in every string (keys included).
 *
 * @module
 */

import { redactorOf } from "../redact.ts";
import { sha256Hex } from "./_sha256.ts";
import type { AuditEntry } from "./types.ts";

/**
 * Inputs larger than this (compact JSON bytes) are summarised, not copied, in a decision line; so
 * is each argument of the command, and each public variable of `env`, larger than this (UTF-8 bytes).
 */
export const AUDIT_INPUT_LIMIT = 64 * 1024;

const encoder = new TextEncoder();

/**
 * The preview as recorded: a large input is replaced by a sentence giving its size, and a large
 * argument by one giving its size and the SHA-256 of its text with every secret replaced (a digest
 * of a secret would let a short one be guessed).
 */
function recordedPreview(
  preview: unknown,
  inputBytes: number | undefined,
  secrets: readonly string[],
): unknown {
  if (typeof preview !== "object" || preview === null || Array.isArray(preview)) return preview;
  const recorded: Record<string, unknown> = { ...preview };
  if (inputBytes !== undefined && inputBytes > AUDIT_INPUT_LIMIT && "input" in preview) {
    recorded.input = `[input of ${inputBytes} bytes, not recorded]`;
  }
  // A public variable (`NAME=value` in `env`) is shown text of the manifest's, as an argument is.
  for (const key of ["command", "env"]) {
    const list = recorded[key];
    if (Array.isArray(list)) recorded[key] = list.map((arg) => recordedArg(arg, secrets));
  }
  return recorded;
}

function recordedArg(arg: unknown, secrets: readonly string[]): unknown {
  // Four UTF-8 bytes at most a UTF-16 unit: a shorter string is surely within the limit.
  if (typeof arg !== "string" || arg.length * 4 <= AUDIT_INPUT_LIMIT) return arg;
  const bytes = encoder.encode(arg);
  if (bytes.length <= AUDIT_INPUT_LIMIT) return arg;
  const digest = sha256Hex(encoder.encode(redactorOf(secrets).text(arg)));
  return `[argument of ${bytes.length} bytes, sha256 ${digest}, not recorded]`;
}

/** The entry's fields in the order they are written, after `ts`, `type` and `pid`. */
function fields(entry: AuditEntry, secrets: readonly string[]): Record<string, unknown> {
  if (entry.type === "decision") {
    // JSON leaves out what is undefined (a rule's id and reason, the input's size).
    const { tool, preview, allowed, by, rule_id, reason, workspace, input_bytes } = entry;
    const recorded = recordedPreview(preview, input_bytes, secrets);
    return { tool, preview: recorded, allowed, by, rule_id, reason, workspace, input_bytes };
  }
  return {
    tool: entry.tool,
    exit_code: entry.exit_code ?? null,
    signal: entry.signal ?? null,
    timed_out: entry.timed_out,
    duration_ms: entry.duration_ms,
    stdout_bytes: entry.stdout_bytes,
    stderr_bytes: entry.stderr_bytes,
  };
}

/**
 * Encodes one entry as a JSON line ending with `\n`.
 *
 * @param entry The entry.
 * @param ts The timestamp (ISO 8601).
 * @param secrets Values to replace with `[redacted]` wherever they appear.
 * @returns The line.
 */
export function encodeEntry(entry: AuditEntry, ts: string, secrets: readonly string[]): string {
  let body: unknown = fields(entry, secrets);
  if (secrets.length > 0) body = redactorOf(secrets).value(body);
  const head = `{"ts":${JSON.stringify(ts)},"type":"${entry.type}","pid":${Deno.pid},`;
  return `${head}${JSON.stringify(body).slice(1)}\n`;
}
