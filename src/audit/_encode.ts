/**
 * Encoding an entry as one JSON line: fixed key order, a timestamp and the process id first,
 * `null` for what does not apply, and every secret replaced in every string (keys included).
 *
 * @module
 */

import { redact } from "../redact.ts";
import type { AuditEntry } from "./types.ts";

/** One array or object being copied: its entries, how far the copy is, and the copy. */
interface Frame {
  readonly source: object;
  readonly entries: readonly [key: string, value: unknown][];
  readonly target: Record<string, unknown> | unknown[];
  next: number;
}

/**
 * Copies a JSON-like value with every string (and key) redacted, without recursion: an input of
 * any depth cannot exhaust the stack while its decision is recorded. A value met again inside
 * itself (a cycle, which JSON cannot hold) is recorded as `"[circular]"`.
 */
function redactDeep(value: unknown, secrets: readonly string[]): unknown {
  const frames: Frame[] = [];
  const open = new Set<object>();
  const copy = (item: unknown): unknown => {
    if (typeof item === "string") return redact(item, secrets);
    if (item === null || typeof item !== "object") return item;
    if (open.has(item)) return "[circular]";
    open.add(item);
    const isArray = Array.isArray(item);
    // A null prototype: a key "__proto__" stays a key.
    const target = isArray ? [] : Object.create(null) as Record<string, unknown>;
    const entries = isArray
      ? [...item.entries()].map(([i, v]) => [String(i), v] as [string, unknown])
      : Object.entries(item);
    frames.push({ source: item, entries, target, next: 0 });
    return target;
  };
  const root = copy(value);
  while (frames.length > 0) {
    const frame = frames[frames.length - 1]!;
    if (frame.next >= frame.entries.length) {
      open.delete(frame.source);
      frames.pop();
      continue;
    }
    const [key, item] = frame.entries[frame.next++]!;
    if (Array.isArray(frame.target)) frame.target.push(copy(item));
    else frame.target[redact(key, secrets)] = copy(item);
  }
  return root;
}

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
  if (secrets.length > 0) body = redactDeep(body, secrets);
  const head = `{"ts":${JSON.stringify(ts)},"type":"${entry.type}","pid":${Deno.pid},`;
  return `${head}${JSON.stringify(body).slice(1)}\n`;
}
