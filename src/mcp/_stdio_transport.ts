/**
 * The server's stdio transport, in front of the SDK's protocol: it frames lines itself so that
 * whatever a client sends is answered as JSON-RPC says, and the server never stops serving
 * because of one message. Private to the MCP binding.
 *
 * - A message over {@linkcode MAX_MESSAGE_BYTES} is skipped without being held in memory and
 *   answered with "invalid request" (-32600), carrying its id when the id could be read.
 * - A line that is not JSON is answered with "parse error" (-32700) and id `null`.
 * - JSON that is not a JSON-RPC message, or a batch, is answered with "invalid request".
 * - A request whose id is that of a request still in progress is refused ("invalid request"):
 *   taking it would leave the first call impossible to cancel or to stop when the client goes.
 * - A request whose params are not what its method takes is "invalid params" (-32602), one line.
 * - A request before `initialize` (but `ping`) is refused ("invalid request"): MCP's lifecycle
 *   starts with it.
 * - A response from the client is never answered: one that matches no request is only logged.
 * - The `arguments` of a `tools/call` are kept as they were sent ({@linkcode LineTransport.argumentsOf}):
 *   the SDK's own parse drops a `"__proto__"` key.
 *
 * @module
 */

import type { Readable, Writable } from "node:stream";
// @ts-types="@modelcontextprotocol/sdk/shared/transport"
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import { type JSONRPCMessage, JSONRPCMessageSchema } from "@modelcontextprotocol/sdk/types.js";
import { strictJsonProblem } from "../json_text.ts";
import { type Messages, type Phrase, phrase } from "../locale/messages.ts";
import { paramsProblem } from "./_check_params.ts";
import { IdScanner } from "./_id_scanner.ts";
import { INVALID_PARAMS } from "./_protocol_error.ts";

/** The most bytes one message (one line, without its newline) may hold: 10 MiB. */
export const MAX_MESSAGE_BYTES: number = 10 * 1024 * 1024;

/** JSON-RPC's "parse error": the line is not JSON. */
const PARSE_ERROR = -32700;
/** JSON-RPC's "invalid request": not a request, too large, or an id already in use. */
const INVALID_REQUEST = -32600;

const NEWLINE = 0x0a;
const DECODER = new TextDecoder("utf-8", { fatal: true });
const ENCODER = new TextEncoder();

type RequestId = string | number;

/** Options of {@linkcode LineTransport}. */
export interface LineTransportOptions {
  /** The server's messages: refusals are worded in its locale. */
  readonly words: Messages;
  /** Where each refusal is logged. */
  readonly log: (line: string) => void;
  /** The most bytes one message may hold. @default MAX_MESSAGE_BYTES */
  readonly maxMessageBytes?: number;
}

/** JSON-RPC over stdio, one message per line: MCP's stdio transport, refusing what it must. */
export class LineTransport implements Transport {
  /** Set by the SDK's protocol. */
  onclose?: (() => void) | undefined;
  /** Set by the SDK's protocol. */
  onerror?: ((error: Error) => void) | undefined;
  /** Set by the SDK's protocol. */
  onmessage?: ((message: JSONRPCMessage) => void) | undefined;

  readonly #stdin: Readable;
  readonly #stdout: Writable;
  readonly #words: Messages;
  readonly #log: (line: string) => void;
  readonly #max: number;
  /** The pieces of the line read so far, and their size. */
  #pieces: Uint8Array[] = [];
  #size = 0;
  /** Set while a line over the limit is being skipped. */
  #skipping: IdScanner | undefined;
  #skipped = 0;
  /** The requests taken and not yet answered (nor cancelled): a call's arguments as sent. */
  readonly #open = new Map<RequestId, unknown>();
  /** Whether `initialize` was taken: before it, only `ping` is. */
  #initialized = false;
  #closed = false;

  /**
   * Makes the transport; nothing is read before `start()`.
   *
   * @param stdin Where messages come from.
   * @param stdout Where messages go.
   * @param options The server's messages, its log, the size limit.
   */
  constructor(stdin: Readable, stdout: Writable, options: LineTransportOptions) {
    this.#stdin = stdin;
    this.#stdout = stdout;
    this.#words = options.words;
    this.#log = options.log;
    this.#max = options.maxMessageBytes ?? MAX_MESSAGE_BYTES;
  }

  /** Starts reading stdin. */
  start(): Promise<void> {
    this.#stdin.on("data", this.#onData);
    this.#stdin.on("error", this.#onError);
    return Promise.resolve();
  }

  /**
   * Writes one message as one line.
   *
   * @param message The message.
   * @returns Resolves once written (or once stdout drained).
   */
  send(message: JSONRPCMessage): Promise<void> {
    if (("result" in message || "error" in message) && message.id !== undefined) {
      this.#open.delete(message.id);
    }
    return this.#write(message);
  }

  /**
   * The `arguments` of a `tools/call` in progress exactly as the client sent them (a
   * `"__proto__"` key kept as a key), for the handler to run with.
   *
   * @param id The request's id.
   * @returns The arguments, or `undefined` when the request gave none (or is not in progress).
   */
  argumentsOf(id: RequestId): unknown {
    return this.#open.get(id);
  }

  /** Stops reading; the protocol is told the connection closed. */
  close(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    this.#closed = true;
    this.#stdin.off("data", this.#onData);
    this.#stdin.off("error", this.#onError);
    if (this.#stdin.listenerCount("data") === 0) this.#stdin.pause();
    this.#pieces = [];
    this.#skipping = undefined;
    this.#open.clear();
    this.onclose?.();
    return Promise.resolve();
  }

  readonly #onError = (error: Error): void => {
    this.onerror?.(error);
  };

  readonly #onData = (chunk: Uint8Array | string): void => {
    const bytes = typeof chunk === "string" ? ENCODER.encode(chunk) : chunk;
    let start = 0;
    while (start < bytes.length && !this.#closed) {
      const newline = bytes.indexOf(NEWLINE, start);
      const end = newline === -1 ? bytes.length : newline;
      this.#take(bytes.subarray(start, end));
      if (newline === -1) return;
      this.#endLine();
      start = newline + 1;
    }
  };

  /** Keeps a piece of the current line, or scans it when the line is over the limit. */
  #take(piece: Uint8Array): void {
    if (piece.length === 0) return;
    if (this.#skipping === undefined && this.#size + piece.length > this.#max) {
      // Over the limit: what was kept is scanned for the id and dropped; the rest is scanned only.
      this.#skipping = new IdScanner();
      for (const kept of this.#pieces) this.#skipping.feed(kept);
      this.#skipped = this.#size;
      this.#pieces = [];
      this.#size = 0;
    }
    if (this.#skipping !== undefined) {
      this.#skipping.feed(piece);
      this.#skipped += piece.length;
      return;
    }
    this.#pieces.push(piece);
    this.#size += piece.length;
  }

  #endLine(): void {
    const skipping = this.#skipping;
    if (skipping !== undefined) {
      this.#skipping = undefined;
      skipping.end();
      const reason = phrase("mcp.too_large", {
        size: phrase("size.bytes", { count: this.#skipped }),
        limit: phrase("size.mib", { count: Math.round(this.#max / (1024 * 1024)) }),
      });
      this.#refuse(skipping.id, INVALID_REQUEST, reason);
      return;
    }
    const pieces = this.#pieces;
    const size = this.#size;
    this.#pieces = [];
    this.#size = 0;
    if (size === 0) return;
    const line = pieces.length === 1 ? pieces[0]! : concat(pieces, size);
    this.#line(line);
  }

  #line(bytes: Uint8Array): void {
    let text: string;
    try {
      text = DECODER.decode(bytes);
    } catch {
      this.#refuse(null, PARSE_ERROR, phrase("mcp.not_json", { detail: phrase("mcp.not_utf8") }));
      return;
    }
    if (text.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      this.#notJson(text);
      return;
    }
    this.#message(value);
  }

  #message(value: unknown): void {
    if (Array.isArray(value)) {
      this.#refuse(null, INVALID_REQUEST, phrase("mcp.batch"));
      return;
    }
    const checked = JSONRPCMessageSchema.safeParse(value);
    if (!checked.success) {
      const record = typeof value === "object" && value !== null
        ? value as Record<string, unknown>
        : {};
      const id = record.id;
      const known = answerableId(id);
      if (typeof record.method === "string" && !("id" in record)) {
        // A notification is never answered, not even with an error.
        this.#log(this.#words.t("mcp.refused", { reason: this.#words.t("mcp.bad_notification") }));
        return;
      }
      if (!("method" in record) && ("result" in record || "error" in record)) {
        // Nor is a response, whatever its shape.
        this.#log(this.#words.t("mcp.refused", { reason: this.#words.t("mcp.stray_response") }));
        return;
      }
      // A well-formed request whose params alone are wrong (an array, a `_meta` of the wrong
      // shape): invalid params, as for a method's own fields.
      if (
        known !== null && typeof record.method === "string" &&
        JSONRPCMessageSchema.safeParse({ ...record, params: undefined }).success
      ) {
        const method = JSON.stringify(record.method);
        this.#refuse(
          known,
          INVALID_PARAMS,
          phrase("mcp.invalid_params", { method, field: "params" }),
        );
        return;
      }
      this.#refuse(known, INVALID_REQUEST, phrase("mcp.invalid_request"));
      return;
    }
    const message = checked.data as JSONRPCMessage;
    if ("method" in message && "id" in message && answerableId(message.id) === null) {
      // An id no reply could carry back as sent (digits beyond a double's): refused with id null.
      this.#refuse(null, INVALID_REQUEST, phrase("mcp.invalid_request"));
      return;
    }
    if ("method" in message && "id" in message) {
      const id = message.id;
      if (this.#open.has(id)) {
        this.#refuse(id, INVALID_REQUEST, phrase("mcp.duplicate_id", { id: JSON.stringify(id) }));
        return;
      }
      const method = message.method;
      if (!this.#initialized && method !== "initialize" && method !== "ping") {
        const reason = phrase("mcp.not_initialized", { method: JSON.stringify(method) });
        this.#refuse(id, INVALID_REQUEST, reason);
        return;
      }
      const problem = paramsProblem(message, this.#words);
      if (problem !== undefined) {
        this.#reply(id, INVALID_PARAMS, problem);
        return;
      }
      if (method === "initialize") this.#initialized = true;
      this.#open.set(id, method === "tools/call" ? message.params?.arguments : undefined);
    } else if ("method" in message && message.method === "notifications/cancelled") {
      // A cancelled request is never answered: its id is free again.
      const id = (message.params as { requestId?: unknown } | undefined)?.requestId;
      if (typeof id !== "string" && typeof id !== "number") {
        // The SDK would only log a dump of its schema's complaint: one line, in the locale.
        this.#log(this.#words.t("mcp.refused", { reason: this.#words.t("mcp.bad_notification") }));
        return;
      }
      this.#open.delete(id);
    }
    this.onmessage?.(message);
  }

  #notJson(text: string): void {
    strictJsonProblem(text, "input").then(({ position, reason }) => {
      const detail = position === undefined
        ? reason
        : phrase("json.at", { detail: reason, line: position.line, column: position.column });
      this.#refuse(null, PARSE_ERROR, phrase("mcp.not_json", { detail }));
    }).catch((error) => this.onerror?.(error instanceof Error ? error : new Error(String(error))));
  }

  #refuse(id: RequestId | null, code: number, reason: Phrase): void {
    const message = this.#words.say(reason);
    this.#log(this.#words.t("mcp.refused", { reason: message }));
    this.#reply(id, code, message);
  }

  #reply(id: RequestId | null, code: number, message: string): void {
    if (this.#closed) return;
    this.#write({ jsonrpc: "2.0", id, error: { code, message } }).catch(() => {});
  }

  #write(message: unknown): Promise<void> {
    return new Promise((resolve) => {
      if (this.#stdout.write(`${JSON.stringify(message)}\n`)) resolve();
      else this.#stdout.once("drain", resolve);
    });
  }
}

function concat(pieces: readonly Uint8Array[], size: number): Uint8Array {
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const piece of pieces) {
    bytes.set(piece, at);
    at += piece.length;
  }
  return bytes;
}

/**
 * The id a reply can carry back exactly as the request had it: a string, or a number JavaScript
 * holds exactly (a safe integer); `null` otherwise (JSON-RPC then answers with id null).
 */
function answerableId(id: unknown): RequestId | null {
  if (typeof id === "string") return id;
  return typeof id === "number" && Number.isSafeInteger(id) ? id : null;
}
