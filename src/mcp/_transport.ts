/**
 * The server's stdio transport: one JSON-RPC message a line, answering what the SDK's own stdio
 * transport cannot (it closes on a line over 10 MiB, and a line that is not JSON, or a request it
 * cannot parse, gets no answer or a schema dump), so that the server never stops serving because
 * of one message. Private to the MCP binding.
 *
 * - A line over 10 MiB is skipped without being held and refused (-32600) with its id, when the
 *   first or last bytes of the line show one.
 * - A line that is not JSON (or not UTF-8) is a parse error (-32700), id `null`.
 * - JSON that is not a JSON-RPC message, a batch, or an id no reply can carry as sent is -32600.
 * - A request whose id is that of one still in progress is refused (-32600): taking it would
 *   leave the first call impossible to cancel or to stop when the client goes.
 * - The first `initialize`, or request carrying 2026-07-28's envelope (`_meta` with the protocol
 *   version), decides the connection's revision, once. A 2025 connection starts with `initialize`:
 *   any other request (but `ping`) before it is refused (-32600), and so is one with the 2026
 *   envelope. A 2026-07-28 connection's requests are answered by `modern`, each on its own (an
 *   `initialize` there is -32022, naming the version served); `notifications/cancelled` stops one.
 * - Params a method does not take are -32602, in one line naming the first wrong field.
 * - A notification or a response that is not one is only logged: neither is ever answered.
 *
 * A request's params are checked once, by the SDK's schema of its method (the SDK's protocol
 * does not parse a `tools/call` again: the server takes it in its fallback handler). A message goes
 * on to the SDK as parsed, so a call's arguments keep a `"__proto__"` key.
 *
 * @module
 */

import { Buffer } from "node:buffer";
import type { Readable, Writable } from "node:stream";
// The SDK's "./*" export names no types for "….js" paths: point at them.
// @ts-types="@modelcontextprotocol/sdk/shared/transport"
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import {
  CallToolRequestSchema,
  InitializeRequestSchema,
  type JSONRPCMessage,
  JSONRPCNotificationSchema,
  JSONRPCResponseSchema,
  ListToolsRequestSchema,
  PingRequestSchema,
  SetLevelRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { foundPhrase, jsonKind } from "../json_kind.ts";
import { strictJsonProblem } from "../json_text.ts";
import { type Messages, type Phrase, phrase } from "../locale/messages.ts";
import { ProtocolError } from "./_served.ts";
import {
  type Channel,
  hasModernEnvelope,
  initializeRefused,
  type ModernRequest,
} from "./_modern.ts";

/** JSON-RPC's "parse error" and "invalid request". */
export const [PARSE_ERROR, INVALID_REQUEST] = [-32700, -32600];
/** JSON-RPC's "invalid params". */
export const INVALID_PARAMS = -32602;

/** The most bytes one message (one line) may hold; of a longer one, the first and last are kept. */
export const [MAX_BYTES, KEPT] = [10 * 1024 * 1024, 1024];
const [DECODER, LOOSE] = [new TextDecoder("utf-8", { fatal: true }), new TextDecoder()];

type Id = string | number;
type Check = { safeParse(value: unknown): { success: boolean; error?: unknown } };
type Issue = { code: string; path: PropertyKey[]; expected?: string };

/** The methods whose params are checked here, each with the SDK's schema of its request. */
const SCHEMAS: ReadonlyMap<string, Check> = new Map<string, Check>([
  ["initialize", InitializeRequestSchema],
  ["ping", PingRequestSchema],
  ["tools/list", ListToolsRequestSchema],
  ["tools/call", CallToolRequestSchema],
  ["logging/setLevel", SetLevelRequestSchema],
]);
const REQUEST_KEYS = new Set(["jsonrpc", "id", "method", "params"]);
/** What zod expected, as messages say what was found. */
const EXPECTED: Record<string, unknown> = { object: {}, record: {}, array: [], string: "" };
Object.assign(EXPECTED, { number: 0, int: 0, boolean: false });

// A string or a number, in JSON; the id of a line too large to parse is the top level's first
// key after scalars only, or its last before scalars only.
const STRING = String.raw`"(?:[^"\\]|\\.)*"`;
const VALUE = String.raw`(${STRING}|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)`;
const SCALARS = String.raw`(?:\s*${STRING}\s*:\s*(?:${STRING}|[-+.\w]+)\s*,)*?`;
const ID_FIRST = new RegExp(String.raw`^\s*\{${SCALARS}\s*"id"\s*:\s*${VALUE}\s*[,}]`);
const ID_LAST = new RegExp(
  String.raw`[{,]\s*"id"\s*:\s*${VALUE}(?:\s*,\s*${STRING}\s*:\s*(?:${STRING}|[-+.\w]+))*\s*\}\s*$`,
);

/** JSON-RPC over stdio, one message a line: MCP's stdio transport, refusing what it must. */
export class LineTransport implements Transport {
  /** Set by the SDK's protocol. */
  onclose?: (() => void) | undefined;
  /** Set by the SDK's protocol. */
  onerror?: ((error: Error) => void) | undefined;
  /** Set by the SDK's protocol. */
  onmessage?: ((message: JSONRPCMessage) => void) | undefined;

  /** The line read so far; once it is too large, only its first and last bytes. */
  #pieces: Uint8Array[] = [];
  #size = 0;
  #head: Uint8Array | undefined;
  #tail: Uint8Array = new Uint8Array();
  /** The ids of the requests taken and not yet answered (nor cancelled). */
  readonly #open = new Set<Id>();
  /** The revision this connection speaks, once its first request said. */
  #era: "legacy" | "modern" | undefined;
  /** The 2026-07-28 requests running, each stopped by its controller. */
  readonly #modern = new Map<Id, AbortController>();
  #closed = false;

  /**
   * Makes the transport; nothing is read before `start()`.
   *
   * @param stdin Where messages come from.
   * @param stdout Where messages go.
   * @param words The server's messages (refusals are worded in its locale).
   * @param log Where each refusal is logged.
   * @param modern Answers one 2026-07-28 request (or throws the error to answer with).
   */
  constructor(
    readonly stdin: Readable,
    readonly stdout: Writable,
    readonly words: Messages,
    readonly log: (line: string) => void,
    readonly modern: (request: ModernRequest, channel: Channel) => Promise<unknown>,
  ) {}

  /** Starts reading stdin. */
  start(): Promise<void> {
    this.stdin.on("data", this.#onData).on("error", this.#onError);
    return Promise.resolve();
  }

  /**
   * Writes one message as one line.
   *
   * @param message The message.
   * @returns Resolves once written (or once stdout drained).
   */
  send(message: JSONRPCMessage): Promise<void> {
    if (!("method" in message) && message.id !== undefined) this.#open.delete(message.id);
    return new Promise((resolve) => {
      if (this.stdout.write(`${JSON.stringify(message)}\n`)) resolve();
      else this.stdout.once("drain", resolve);
    });
  }

  /** Stops reading; the protocol is told the connection closed. */
  close(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    this.#closed = true;
    this.stdin.off("data", this.#onData).off("error", this.#onError);
    if (this.stdin.listenerCount("data") === 0) this.stdin.pause();
    this.#pieces = [];
    for (const controller of this.#modern.values()) controller.abort();
    this.onclose?.();
    return Promise.resolve();
  }

  readonly #onError = (error: Error): void => this.onerror?.(error);

  readonly #onData = (chunk: Uint8Array | string): void => {
    let bytes = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
    while (!this.#closed) {
      const newline = bytes.indexOf(0x0a);
      const piece = newline === -1 ? bytes : bytes.subarray(0, newline);
      this.#size += piece.length;
      if (this.#head !== undefined) this.#tail = Buffer.concat([this.#tail, piece]).slice(-KEPT);
      else if (this.#size <= MAX_BYTES) this.#pieces.push(piece);
      else {
        // Over the limit: from now on only the line's first and last bytes are kept.
        const held = Buffer.concat([...this.#pieces, piece]);
        this.#head = new Uint8Array(held.subarray(0, KEPT));
        this.#tail = new Uint8Array(held.subarray(-KEPT));
        this.#pieces = [];
      }
      if (newline === -1) return;
      this.#line(this.#head, Buffer.concat(this.#pieces), this.#size);
      [this.#pieces, this.#size, this.#head] = [[], 0, undefined];
      bytes = bytes.subarray(newline + 1);
    }
  };

  #line(head: Uint8Array | undefined, bytes: Uint8Array, size: number): void {
    if (head !== undefined) {
      const id = ID_FIRST.exec(LOOSE.decode(head)) ?? ID_LAST.exec(LOOSE.decode(this.#tail));
      const limit = phrase("size.mib", { count: MAX_BYTES / (1024 * 1024) });
      const reason = phrase("mcp.too_large", {
        size: phrase("size.bytes", { count: size }),
        limit,
      });
      return this.#refuse(answerable(id && JSON.parse(id[1]!)), INVALID_REQUEST, reason);
    }
    const notJson = (detail: Phrase) =>
      this.#refuse(null, PARSE_ERROR, phrase("mcp.not_json", { detail }));
    let text: string;
    try {
      text = DECODER.decode(bytes);
    } catch {
      return notJson(phrase("mcp.not_utf8"));
    }
    if (text.trim() === "") return;
    let message: Record<string, unknown>;
    try {
      message = JSON.parse(text);
    } catch {
      strictJsonProblem(text, "input").then(({ position, reason }) => {
        notJson(position ? phrase("json.at", { detail: reason, ...position }) : reason);
      }, (error) => this.onerror?.(error));
      return;
    }
    if (Array.isArray(message)) return this.#refuse(null, INVALID_REQUEST, phrase("mcp.batch"));
    if (!isObject(message)) message = {};
    const { method, id } = message;
    if (typeof method === "string" && "id" in message) return this.#request(message, method);
    let problem: "mcp.bad_notification" | "mcp.stray_response" | undefined;
    if (typeof method === "string") {
      // A notification is never answered, not even with an error.
      const cancel = method === "notifications/cancelled";
      const { requestId } = cancel && isObject(message.params) ? message.params : {};
      const unknownId = typeof requestId !== "string" && typeof requestId !== "number";
      if (!JSONRPCNotificationSchema.safeParse(message).success || (cancel && unknownId)) {
        problem = "mcp.bad_notification";
      } else if (cancel && this.#era === "modern") {
        this.#modern.get(requestId as Id)?.abort();
        return;
      } else if (cancel) this.#open.delete(requestId as Id); // Never answered: its id is free.
      else if (this.#era === "modern") return; // 2026-07-28 has no other notification to take.
    } else if (!("method" in message) && ("result" in message || "error" in message)) {
      // Nor is a response, whatever its shape.
      if (!JSONRPCResponseSchema.safeParse(message).success) problem = "mcp.stray_response";
    } else return this.#refuse(answerable(id), INVALID_REQUEST, phrase("mcp.invalid_request"));
    if (problem === undefined) this.onmessage?.(message as JSONRPCMessage);
    else this.log(this.words.t("mcp.refused", { reason: this.words.t(problem) }));
  }

  #request(message: Record<string, unknown>, method: string): void {
    const id = answerable(message.id);
    const invalid = (reason: Phrase) => this.#refuse(id, INVALID_REQUEST, reason);
    const shape = shapeProblem(message, method);
    if (shape !== undefined) return this.#refuse(id, shape.code, shape.reason);
    const quoted = JSON.stringify(method);
    if (this.#open.has(id!)) {
      return invalid(phrase("mcp.duplicate_id", { id: JSON.stringify(id) }));
    }
    const enveloped = hasModernEnvelope(message.params);
    if (this.#era === undefined && (method === "initialize" || enveloped)) {
      this.#era = method !== "initialize" && enveloped ? "modern" : "legacy";
    }
    if (this.#era === "modern" && method === "initialize") {
      const { code, message: said, data } = initializeRefused(message.params);
      return this.#reply(id, code, said, data);
    }
    if (this.#era === "legacy" && enveloped && method !== "initialize") {
      return invalid(phrase("mcp.legacy_connection", { method: quoted }));
    }
    if (this.#era === undefined && method !== "ping") {
      return invalid(phrase("mcp.not_initialized", { method: quoted }));
    }
    const problem = paramsProblem(message, method);
    if (problem !== undefined) return this.#reply(id, INVALID_PARAMS, this.words.say(problem));
    this.#open.add(id!);
    if (this.#era === "modern") void this.#answer(message as unknown as ModernRequest);
    else this.onmessage?.(message as JSONRPCMessage);
  }

  /** Answers a 2026-07-28 request; its notifications go out before its response. */
  async #answer(request: ModernRequest): Promise<void> {
    const controller = new AbortController();
    this.#modern.set(request.id, controller);
    const channel = {
      notify: (method: string, params: Record<string, unknown>) =>
        !this.#closed && this.send({ jsonrpc: "2.0", method, params } as JSONRPCMessage),
      signal: controller.signal,
    };
    try {
      const result = await this.modern(request, channel);
      if (!this.#closed && !controller.signal.aborted) {
        await this.send({ jsonrpc: "2.0", id: request.id, result } as JSONRPCMessage);
      }
    } catch (error) {
      // The server answers what it can; anything else is a bug, told as one (never a crash).
      const refused = error instanceof ProtocolError
        ? error
        : new ProtocolError(-32603, error instanceof Error ? error.message : String(error));
      if (!(error instanceof ProtocolError)) this.onerror?.(error as Error);
      if (!controller.signal.aborted) {
        this.#reply(request.id, refused.code, refused.message, refused.data);
      }
    } finally {
      this.#modern.delete(request.id);
      this.#open.delete(request.id);
    }
  }

  #refuse(id: Id | null, code: number, reason: Phrase): void {
    const message = this.words.say(reason);
    this.log(this.words.t("mcp.refused", { reason: message }));
    this.#reply(id, code, message);
  }

  #reply(id: Id | null, code: number, message: string, data?: unknown): void {
    if (!this.#closed) {
      const error = { code, message, ...(data !== undefined && { data }) };
      this.send({ jsonrpc: "2.0", id, error } as JSONRPCMessage);
    }
  }
}

/**
 * What is wrong with a request's envelope, if anything: an id no reply can carry as sent, a
 * `jsonrpc` other than 2.0, a member JSON-RPC lacks (-32600); params that are no object, or a
 * `_meta` MCP does not take (-32602).
 *
 * @param message The request (it has a `method` and an `id`).
 * @param method Its method.
 * @returns The code and reason, or `undefined`.
 */
export function shapeProblem(
  message: Record<string, unknown>,
  method: string,
): { code: number; reason: Phrase } | undefined {
  const keys = Object.keys(message).filter((key) => !REQUEST_KEYS.has(key));
  if (answerable(message.id) === null || message.jsonrpc !== "2.0" || keys.length > 0) {
    return { code: INVALID_REQUEST, reason: phrase("mcp.invalid_request") };
  }
  if (baseParams(message.params)) return undefined;
  const reason = phrase("mcp.invalid_params", { method: JSON.stringify(method), field: "params" });
  return { code: INVALID_PARAMS, reason };
}

/**
 * What is wrong with a request's params for its method, by the SDK's schema of its request (a
 * method without one is not checked here), naming the first wrong field.
 *
 * @param message The request.
 * @param method Its method.
 * @returns The reason (its code is -32602), or `undefined`.
 */
export function paramsProblem(
  message: Record<string, unknown>,
  method: string,
): Phrase | undefined {
  const checked = SCHEMAS.get(method)?.safeParse(message);
  if (checked?.success !== false) return undefined;
  const issue = (checked.error as { issues: Issue[] }).issues[0];
  const path = issue?.path ?? [];
  const params = { method: JSON.stringify(method), field: fieldName(path) };
  const expected = issue?.code === "invalid_type" ? EXPECTED[issue.expected ?? ""] : undefined;
  let found: unknown = message;
  for (const key of path) found = typeof found === "object" ? found?.[key as never] : undefined;
  return expected === undefined
    ? phrase("mcp.invalid_params", params)
    : phrase("mcp.invalid_params_type", {
      ...params,
      expected: foundPhrase(expected),
      found: foundPhrase(found),
    });
}

/** Whether a request's params are an object whose `_meta` (any request's) is what MCP takes. */
function baseParams(params: unknown): boolean {
  if (params === undefined || (isObject(params) && params._meta === undefined)) return true;
  const meta = isObject(params) ? params._meta : undefined;
  if (!isObject(meta)) return false;
  const task = meta["io.modelcontextprotocol/related-task"];
  return (meta.progressToken === undefined || answerable(meta.progressToken) !== null) &&
    (task === undefined || (isObject(task) && typeof task.taskId === "string"));
}

/** `params.arguments`, `params.items[2]`. */
function fieldName(path: readonly PropertyKey[]): string {
  let name = "";
  for (const key of path) {
    name += typeof key === "number" ? `[${key}]` : name === "" ? String(key) : `.${String(key)}`;
  }
  return name || "params";
}

function isObject(value: unknown): value is Record<string, unknown> {
  return jsonKind(value) === "object";
}

/**
 * The id a reply can carry back exactly as the request had it: a string, or a number JavaScript
 * holds exactly; `null` otherwise (JSON-RPC then answers with id null).
 */
function answerable(id: unknown): Id | null {
  return typeof id === "string" || Number.isSafeInteger(id) ? id as Id : null;
}
