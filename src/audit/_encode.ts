/**
 * Encoding an entry as one JSON line: fixed key order, a timestamp and the process id first,
 * `null` for what does not apply, and every secret replaced in every string (keys included).
 *
 * @module
 */

import { redactValue } from "../redact.ts";
import type { AuditEntry } from "./types.ts";

/** Inputs larger than this (compact JSON bytes) are summarised, not copied, in a decision line. */
export const AUDIT_INPUT_LIMIT = 64 * 1024;

/** The preview as recorded: a large input is replaced by a sentence giving its size. */
function recordedPreview(preview: unknown, inputBytes: number | undefined): unknown {
  if (inputBytes === undefined || inputBytes <= AUDIT_INPUT_LIMIT) return preview;
  if (preview === null || typeof preview !== "object" || !("input" in preview)) return preview;
  return { ...preview, input: `[input of ${inputBytes} bytes, not recorded]` };
}

/** The entry's fields in the order they are written, after `ts`, `type` and `pid`. */
function fields(entry: AuditEntry): Record<string, unknown> {
  if (entry.type === "decision") {
    const out: Record<string, unknown> = {
      tool: entry.tool,
      preview: recordedPreview(entry.preview, entry.input_bytes),
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
  let body: unknown = fields(entry);
  if (secrets.length > 0) body = redactValue(body, secrets);
  const head = `{"ts":${JSON.stringify(ts)},"type":"${entry.type}","pid":${Deno.pid},`;
  return `${head}${JSON.stringify(body).slice(1)}\n`;
}
