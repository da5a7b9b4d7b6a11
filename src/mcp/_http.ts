/**
 * MCP's Streamable HTTP transport at `/mcp`: a request of 2026-07-28 (header
 * `MCP-Protocol-Version: 2026-07-28`) is one POST answered on its own (JSON, or an event stream
 * when it has notifications to send); a client of the 2025 protocol has a session
 * (`Mcp-Session-Id`) made by its `initialize`, served by the official SDK's web-standard transport.
 * Private to the MCP binding.
 *
 * Before anything is read, every request is checked, in this order: the bearer token when the
 * server has one (401 without it), the `Host` (421 unless it names the bound address, or
 * localhost on a loopback address: DNS rebinding), the `Origin` a browser sends (403 unless it is
 * one of those hosts). A body is at most 10 MiB (413), JSON (400 otherwise), one message.
 *
 * @module
 */

// @ts-types="@modelcontextprotocol/sdk/server/webStandardStreamableHttp"
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { BasisError } from "../errors.ts";
import { jsonKind } from "../json_kind.ts";
import { strictJsonProblem } from "../json_text.ts";
import { type Phrase, phrase } from "../locale/messages.ts";
import { ProtocolError, type Served } from "./_served.ts";
import { headerMismatch } from "./_headers.ts";
import { legacyServer } from "./_legacy.ts";
import { CODES, MODERN_VERSION, modernRequest } from "./_modern.ts";
import {
  INVALID_PARAMS,
  INVALID_REQUEST,
  MAX_BYTES,
  paramsProblem,
  PARSE_ERROR,
  shapeProblem,
} from "./_transport.ts";

/** Where and how the server listens. */
export interface HttpOptions {
  /** The address: a name or an IP literal (`[::1]` for IPv6), as the user wrote it. */
  readonly hostname: string;
  /** The port; 0 for any free one. */
  readonly port: number;
  /** The bearer token every request must carry (required on an address that is not loopback). */
  readonly token?: string | undefined;
  /** Told the server's URL once it listens. */
  readonly onListen?: ((url: string) => void) | undefined;
}

/** The most 2025 sessions kept at once; a new one ends the one idle longest. */
const MAX_SESSIONS = 64;
/** The HTTP status of each JSON-RPC error code (200 for any other). */
const STATUS: Readonly<Record<number, number>> = {
  [PARSE_ERROR]: 400,
  [INVALID_REQUEST]: 400,
  [INVALID_PARAMS]: 400,
  [CODES.headerMismatch]: 400,
  [CODES.unsupportedVersion]: 400,
  [CODES.methodNotFound]: 404,
};
const ENCODER = new TextEncoder();

/**
 * Whether an address is this machine's loopback: `localhost`, `127.0.0.0/8`, `::1`.
 *
 * @param hostname The address as the user wrote it.
 * @returns Whether it is.
 */
export function isLoopback(hostname: string): boolean {
  const bare = hostname.replace(/^\[(.*)\]$/, "$1").toLowerCase();
  return bare === "localhost" || bare === "::1" || /^127(\.\d{1,3}){3}$/.test(bare);
}

/**
 * Serves the roster over Streamable HTTP until `stopping` aborts.
 *
 * @param served The roster, the calls, the log.
 * @param options The address and the token.
 * @param stopping Ends the server (and every session and stream) when aborted.
 * @returns Once listening: the URL.
 */
export async function serveHttp(
  served: Served,
  options: HttpOptions,
  stopping: AbortSignal,
): Promise<{ url: string }> {
  const sessions = new Map<string, Session>();
  const listening = Promise.withResolvers<Deno.NetAddr>();
  let port = options.port;
  const bare = options.hostname.replace(/^\[(.*)\]$/, "$1");
  let server: Deno.HttpServer;
  try {
    server = serve();
  } catch (error) {
    // Deno's own words say which permission it refused, or that the port is taken.
    const reason = error instanceof Error ? error.message : String(error);
    const address = JSON.stringify(`${options.hostname}:${options.port}`);
    throw BasisError.of("usage", phrase("mcp.cannot_listen", { address, reason }));
  }
  function serve() {
    return Deno.serve({
      hostname: bare,
      port: options.port,
      signal: stopping,
      onListen: (address) => listening.resolve(address as Deno.NetAddr),
      onError: (error) => {
        served.log(`MCP: ${error instanceof Error ? error.message : String(error)}`);
        return new Response(null, { status: 500 });
      },
    }, async (request) => {
      const refused = screen(request, options, port);
      if (refused !== undefined) return refused;
      if (new URL(request.url).pathname !== "/mcp") {
        return plain(404, served.words.t("http.not_found"));
      }
      const version = request.headers.get("mcp-protocol-version");
      if (version === MODERN_VERSION) return await modern(served, request);
      return await legacy(served, request, sessions);
    });
  }
  port = (await listening.promise).port;
  stopping.addEventListener("abort", () => {
    for (const session of sessions.values()) session.end();
  }, { once: true });
  server.finished.catch(() => {});
  const shown = bare.includes(":") ? `[${bare}]` : bare;
  return { url: `http://${shown}:${port}/mcp` };
}

/** A 2025 client's session: its SDK server and transport. */
interface Session {
  readonly transport: WebStandardStreamableHTTPServerTransport;
  readonly end: () => void;
}

/** The refusal of a request no one may make here, before anything of it is read. */
function screen(request: Request, options: HttpOptions, port: number): Response | undefined {
  if (options.token !== undefined) {
    const given = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get("authorization") ?? "")?.[1];
    if (given === undefined || !sameText(given, options.token)) {
      return new Response(null, {
        status: 401,
        headers: { "www-authenticate": 'Bearer realm="basis-tools"' },
      });
    }
  }
  const names = allowedNames(options.hostname);
  const host = request.headers.get("host")?.toLowerCase() ?? "";
  const [name, hostPort] = splitHost(host);
  if (!names(name) || (hostPort ?? "80") !== String(port)) {
    return new Response(null, { status: 421 });
  }
  const origin = request.headers.get("origin");
  if (origin === null) return undefined;
  try {
    const url = new URL(origin);
    if ((url.protocol === "http:" || url.protocol === "https:") && names(url.hostname)) {
      return undefined;
    }
  } catch {
    // Not an origin at all (`null`, from a sandboxed page or a file).
  }
  return new Response(null, { status: 403 });
}

/**
 * The host names a request may name: the bound one, and on loopback `localhost`, `127.0.0.1` and
 * `[::1]`; bound to every address, any IP literal and `localhost` (a name that resolves here is
 * what DNS rebinding uses).
 */
function allowedNames(hostname: string): (name: string) => boolean {
  const bound = hostname.toLowerCase();
  const shown = bound.includes(":") && !bound.startsWith("[") ? `[${bound}]` : bound;
  const loopback = ["localhost", "127.0.0.1", "[::1]"];
  if (bound === "0.0.0.0" || shown === "[::]") {
    return (name) => name === "localhost" || /^(\d{1,3}\.){3}\d{1,3}$|^\[[\da-f:.]+\]$/.test(name);
  }
  const names = new Set([shown, ...(isLoopback(bound) ? loopback : [])]);
  return (name) => names.has(name);
}

/** `host[:port]` and `[v6][:port]`. */
function splitHost(host: string): [string, string | undefined] {
  const match = /^(\[[^\]]*\]|[^:]*)(?::(\d+))?$/.exec(host);
  return match === null ? ["", undefined] : [match[1]!, match[2]];
}

/** Compares in time that does not depend on where the texts differ. */
function sameText(a: string, b: string): boolean {
  const [x, y] = [ENCODER.encode(a), ENCODER.encode(b)];
  let differ = x.length ^ y.length;
  for (let i = 0; i < y.length; i++) differ |= (x[i] ?? 0) ^ y[i]!;
  return differ === 0;
}

/** A POST's one message: its JSON, or the response refusing it. */
async function readMessage(
  served: Served,
  request: Request,
): Promise<{ message: unknown } | { refused: Response }> {
  const refuse = (status: number, code: number, reason: Phrase) => ({
    refused: rpcError(status, null, code, served.words.say(reason)),
  });
  const type = request.headers.get("content-type") ?? "";
  if (!/^application\/json\s*(;|$)/i.test(type)) {
    return { refused: plain(415, served.words.t("http.content_type")) };
  }
  const limit = phrase("size.mib", { count: MAX_BYTES / (1024 * 1024) });
  const tooLarge = (size: number) =>
    refuse(
      413,
      INVALID_REQUEST,
      phrase("mcp.too_large", { size: phrase("size.bytes", { count: size }), limit }),
    );
  const declared = Number(request.headers.get("content-length") ?? 0);
  if (declared > MAX_BYTES) return tooLarge(declared);
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of request.body ?? []) {
    size += chunk.length;
    if (size > MAX_BYTES) return tooLarge(size);
    chunks.push(chunk);
  }
  const bytes = new Uint8Array(size);
  chunks.reduce((at, chunk) => (bytes.set(chunk, at), at + chunk.length), 0);
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return refuse(400, PARSE_ERROR, phrase("mcp.not_json", { detail: phrase("mcp.not_utf8") }));
  }
  try {
    return { message: JSON.parse(text) };
  } catch {
    const { position, reason } = await strictJsonProblem(text, "input");
    const detail = position ? phrase("json.at", { detail: reason, ...position }) : reason;
    return refuse(400, PARSE_ERROR, phrase("mcp.not_json", { detail }));
  }
}

/** What is wrong with a request's envelope and params, as the response refusing it. */
function requestRefused(served: Served, message: Record<string, unknown>): Response | undefined {
  const method = message.method as string;
  const shape = shapeProblem(message, method);
  const id = typeof message.id === "string" || Number.isSafeInteger(message.id)
    ? message.id as string | number
    : null;
  if (shape !== undefined) return rpcError(400, id, shape.code, served.words.say(shape.reason));
  const params = paramsProblem(message, method);
  if (params !== undefined) return rpcError(400, id, INVALID_PARAMS, served.words.say(params));
  return undefined;
}

/** One 2026-07-28 request: no session, its answer in its own response. */
async function modern(served: Served, request: Request): Promise<Response> {
  if (request.method !== "POST") {
    return new Response(null, { status: 405, headers: { allow: "POST" } });
  }
  const read = await readMessage(served, request);
  if ("refused" in read) return read.refused;
  const message = read.message;
  if (jsonKind(message) !== "object") {
    return rpcError(400, null, INVALID_REQUEST, served.words.t("mcp.invalid_request"));
  }
  const body = message as Record<string, unknown>;
  // A notification: nothing to act on (a 2026 client cancels by closing its request).
  if (typeof body.method === "string" && !("id" in body)) {
    return new Response(null, { status: 202 });
  }
  if (typeof body.method !== "string") {
    return rpcError(400, null, INVALID_REQUEST, served.words.t("mcp.invalid_request"));
  }
  const refused = requestRefused(served, body);
  if (refused !== undefined) return refused;
  const id = body.id as string | number;
  const params = (body.params ?? {}) as Record<string, unknown>;
  const meta = jsonKind(params._meta) === "object" ? params._meta as Record<string, unknown> : {};
  // What an intermediary routes on must say what the body says.
  const tool = body.method === "tools/call"
    ? served.list().tools.find((listed) => listed.name === params.name)
    : undefined;
  const mismatch = headerMismatch(request.headers, body.method, params, tool?.inputSchema);
  if (mismatch !== undefined) {
    const said = served.words.t("http.header_mismatch", { header: mismatch });
    return rpcError(400, id, CODES.headerMismatch, said);
  }
  const streams = (request.headers.get("accept") ?? "").includes("text/event-stream");
  // What may have notifications goes on a stream: a listen, a call's progress, a request's log.
  const wantsStream = body.method === "subscriptions/listen" ||
    meta["io.modelcontextprotocol/logLevel"] !== undefined ||
    (body.method === "tools/call" && meta.progressToken !== undefined);
  if (body.method === "subscriptions/listen" && !streams) {
    return new Response(null, { status: 406 });
  }
  const answer = (notify: (method: string, params: Record<string, unknown>) => unknown) =>
    modernRequest(served, { id, method: body.method as string, params }, {
      notify,
      signal: request.signal,
    }).then(
      (result) => ({ status: 200, message: { jsonrpc: "2.0", id, result } }),
      (error) => {
        if (!(error instanceof ProtocolError)) throw error;
        const { code, message: said, data } = error;
        const failure = { code, message: said, ...(data !== undefined && { data }) };
        return { status: STATUS[code] ?? 200, message: { jsonrpc: "2.0", id, error: failure } };
      },
    );
  if (!(streams && wantsStream)) {
    const { status, message: reply } = await answer(() => {});
    return Response.json(reply, { status });
  }
  // An event stream: the notifications (progress, list changes) as they come, then the answer.
  const events = new TransformStream<Uint8Array, Uint8Array>();
  const writer = events.writable.getWriter();
  const event = (value: unknown) =>
    writer.write(ENCODER.encode(`event: message\ndata: ${JSON.stringify(value)}\n\n`)).catch(
      () => {},
    );
  answer((method, params) => event({ jsonrpc: "2.0", method, params }))
    .then(({ message: reply }) => event(reply), () => {})
    .finally(() => writer.close().catch(() => {}));
  return new Response(events.readable, {
    // A proxy (nginx) would otherwise hold the events back.
    headers: {
      "content-type": "text/event-stream",
      "cache-control": "no-cache",
      "x-accel-buffering": "no",
    },
  });
}

/** A 2025 client's request: its session's, or the `initialize` that makes one. */
async function legacy(
  served: Served,
  request: Request,
  sessions: Map<string, Session>,
): Promise<Response> {
  const id = request.headers.get("mcp-session-id");
  let parsedBody: unknown;
  if (request.method === "POST") {
    const read = await readMessage(served, request);
    if ("refused" in read) return read.refused;
    parsedBody = read.message;
    if (Array.isArray(parsedBody)) {
      return rpcError(400, null, INVALID_REQUEST, served.words.t("mcp.batch"));
    }
    if (
      jsonKind(parsedBody) === "object" &&
      typeof (parsedBody as { method?: unknown }).method === "string" &&
      "id" in (parsedBody as object)
    ) {
      const refused = requestRefused(served, parsedBody as Record<string, unknown>);
      if (refused !== undefined) return refused;
    }
  }
  if (id !== null) {
    const session = sessions.get(id);
    if (session === undefined) {
      return rpcError(404, null, INVALID_REQUEST, served.words.t("http.no_session"));
    }
    // The one used last is kept longest.
    sessions.delete(id);
    sessions.set(id, session);
    return await session.transport.handleRequest(request, { parsedBody });
  }
  const initialize = jsonKind(parsedBody) === "object" &&
    (parsedBody as { method?: unknown }).method === "initialize";
  if (!initialize) {
    return rpcError(400, null, INVALID_REQUEST, served.words.t("http.no_session"));
  }
  const { server, detach } = legacyServer(served);
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: () => crypto.randomUUID(),
    onsessioninitialized: (made) => {
      sessions.set(made, { transport, end: () => void server.close().catch(() => {}) });
      while (sessions.size > MAX_SESSIONS) sessions.values().next().value!.end();
    },
    onsessionclosed: (gone) => void sessions.delete(gone),
  });
  server.onclose = () => {
    detach();
    if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
  };
  server.onerror = (error) => served.log(`MCP: ${error.message}`);
  await server.connect(transport);
  return await transport.handleRequest(request, { parsedBody });
}

function rpcError(status: number, id: string | number | null, code: number, message: string) {
  return Response.json({ jsonrpc: "2.0", id, error: { code, message } }, { status });
}

function plain(status: number, text: string): Response {
  return new Response(`${text}\n`, { status, headers: { "content-type": "text/plain" } });
}
