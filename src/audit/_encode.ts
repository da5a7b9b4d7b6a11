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
 * is each argument of the command larger than this (UTF-8 bytes).
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
  if (preview === null || typeof preview !== "object") return preview;
  const recorded: Record<string, unknown> = { ...preview };
  let changed = false;
  if (inputBytes !== undefined && inputBytes > AUDIT_INPUT_LIMIT && "input" in preview) {
    recorded.input = `[input of ${inputBytes} bytes, not recorded]`;
    changed = true;
  }
  if (Array.isArray(recorded.command)) {
    const args = recorded.command.map((arg) => recordedArg(arg, secrets));
    changed ||= args.some((arg, i) => arg !== (recorded.command as unknown[])[i]);
    recorded.command = args;
  }
  return changed ? recorded : preview;
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
    const out: Record<string, unknown> = {
      tool: entry.tool,
      preview: recordedPreview(entry.preview, entry.input_bytes, secrets),
      allowed: entry.allowed,
      by: entry.by,
    };
    if (entry.rule_id !== undefined) out.rule_id = entry.rule_id;
    if (entry.reason !== undefined) out.reason = entry.reason;
    out.workspace = entry.workspace;
    if (entry.input_bytes !== undefined) out.input_bytes = entry.input_bytes;
    return out;
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
