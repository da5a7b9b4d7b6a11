/**
 * Helpers for end-to-end tests of `basis-tools mcp`: the real server started in a scratch workspace
 * and driven over stdio by the MCP SDK's own client, with every message and the server's stderr
 * kept for the test to look at.
 *
 * @module
 */

import { Client } from "@modelcontextprotocol/sdk/client";
// The SDK's "./*" export names no types for "….js" paths: point at them.
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
// @ts-types="@modelcontextprotocol/sdk/shared/transport"
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import {
  type CallToolResult,
  ElicitRequestSchema,
  type ElicitResult,
  type JSONRPCMessage,
} from "@modelcontextprotocol/sdk/types.js";
import { cliCommand, type Scratch } from "./_cli.ts";

/** How long {@linkcode McpSession.stderrContains} waits before it gives up. */
const STDERR_WAIT_MS = 10_000;

/**
 * How long a server may take to answer `initialize` (it takes a second or two, more under load)
 * before {@linkcode connectMcp} gives up saying why it is likely slow. `BASIS_TEST_MCP_READY_MS`
 * changes it.
 */
const READY_MS = Number(Deno.env.get("BASIS_TEST_MCP_READY_MS") ?? 30_000);

/**
 * What the server's Deno needs from this environment to find its packages and reach a registry,
 * beside what the SDK's stdio client passes any server (HOME, PATH, SHELL, TERM, USER, LOGNAME):
 * without them a Deno with a custom cache re-downloads every package, or hangs trying.
 */
export const DENO_ENV: readonly string[] = [
  "DENO_DIR",
  "DENO_CERT",
  "DENO_TLS_CA_STORE",
  "DENO_AUTH_TOKENS",
  "DENO_NO_UPDATE_CHECK",
  "DENO_V8_FLAGS",
  "XDG_CACHE_HOME",
  "NPM_CONFIG_REGISTRY",
  "NODE_EXTRA_CA_CERTS",
  "SSL_CERT_FILE",
  "SSL_CERT_DIR",
  "HTTP_PROXY",
  "HTTPS_PROXY",
  "ALL_PROXY",
  "NO_PROXY",
  "http_proxy",
  "https_proxy",
  "all_proxy",
  "no_proxy",
  "TMPDIR",
];

/** The variables of {@linkcode DENO_ENV} set here, to pass to a server. */
function denoEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of DENO_ENV) {
    const value = Deno.env.get(name);
    if (value !== undefined) env[name] = value;
  }
  return env;
}

/** One message the client sent or received. */
export interface Recorded {
  direction: "sent" | "received";
  message: JSONRPCMessage;
}

/** Passes everything through to the real transport and records each message both ways. */
class RecordingTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  readonly #inner: Transport;
  readonly #log: Recorded[];

  constructor(inner: Transport, log: Recorded[]) {
    this.#inner = inner;
    this.#log = log;
  }

  start(): Promise<void> {
    this.#inner.onmessage = (message) => {
      this.#log.push({ direction: "received", message });
      this.onmessage?.(message);
    };
    this.#inner.onclose = () => this.onclose?.();
    this.#inner.onerror = (error) => this.onerror?.(error);
    return this.#inner.start();
  }

  send(message: JSONRPCMessage, options?: Parameters<Transport["send"]>[1]): Promise<void> {
    this.#log.push({ direction: "sent", message });
    return this.#inner.send(message, options);
  }

  close(): Promise<void> {
    return this.#inner.close();
  }
}

/** A server for one workspace, a client connected to it, and what the client saw. */
export interface McpSession {
  client: Client;
  transport: StdioClientTransport;
  /** Every JSON-RPC message, both ways. */
  messages: Recorded[];
  /** Errors the client's transport or protocol reported (a stray line on stdout would be one). */
  errors: Error[];
  /** What the server wrote on stderr so far. */
  stderr(): string;
  /** Waits until the server's stderr holds the text; rejects after 10 s saying what it holds. */
  stderrContains(text: string): Promise<void>;
  /** Closes stdin (the client goes away) and waits for the server to end. */
  close(): Promise<void>;
}

/** Options of {@linkcode connectMcp}. */
export interface McpOptions {
  /** Extra environment variables for the server. */
  env?: Record<string, string> | undefined;
  /** Deno's permission flags for the server. @default ["-A"] */
  permissions?: string[] | undefined;
  /** Declares form elicitation and answers each request with this. */
  elicit?:
    | ((message: string, schema: unknown) => ElicitResult | Promise<ElicitResult>)
    | undefined;
  /** How long the server may take to answer `initialize`. @default 30 s */
  readyMs?: number | undefined;
}

/**
 * Starts the CLI with the given arguments (one of them `mcp`) and connects a client to it.
 *
 * @example Usage
 * ```ts ignore
 * const session = await connectMcp(dirs, ["mcp", "--approve", "always"]);
 * try {
 *   resultText(await callTool(session, "echo", { text: "hi" }));
 * } finally {
 *   await session.close();
 * }
 * ```
 *
 * @param dirs The scratch workspace.
 * @param args The CLI's arguments.
 * @param options Extra env, Deno's permission flags, an answer to elicitation requests.
 * @returns The connected session.
 */
export async function connectMcp(
  dirs: Scratch,
  args: string[],
  options: McpOptions = {},
): Promise<McpSession> {
  const command = cliCommand(dirs, args, {
    // The SDK's client passes the server only a few variables of its own: Deno's go along.
    env: { ...denoEnv(), ...options.env },
    ...(options.permissions === undefined ? {} : { permissions: options.permissions }),
  });
  const transport = new StdioClientTransport({ ...command, stderr: "pipe" });
  let stderr = "";
  const waiting: { text: string; resolve: () => void }[] = [];
  transport.stderr?.on("data", (chunk: Uint8Array) => {
    stderr += new TextDecoder().decode(chunk);
    for (const wait of waiting.filter((w) => stderr.includes(w.text))) {
      waiting.splice(waiting.indexOf(wait), 1);
      wait.resolve();
    }
  });
  const messages: Recorded[] = [];
  const errors: Error[] = [];
  const answer = options.elicit;
  const client = new Client(
    { name: "basis-tools-test", version: "1.0.0" },
    answer === undefined ? {} : { capabilities: { elicitation: { form: {} } } },
  );
  client.onerror = (error) => errors.push(error);
  if (answer !== undefined) {
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      const params = request.params as { message: string; requestedSchema?: unknown };
      return await answer(params.message, params.requestedSchema);
    });
  }
  const readyMs = options.readyMs ?? READY_MS;
  try {
    await client.connect(new RecordingTransport(transport, messages), { timeout: readyMs });
  } catch (error) {
    await client.close().catch(() => {});
    throw new Error(notReady(error, readyMs, command.env, stderr), { cause: error });
  }
  return {
    client,
    transport,
    messages,
    errors,
    stderr: () => stderr,
    stderrContains: (text) =>
      stderr.includes(text) ? Promise.resolve() : new Promise((resolve, reject) => {
        const wait = {
          text,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
        };
        const timer = setTimeout(() => {
          waiting.splice(waiting.indexOf(wait), 1);
          reject(
            new Error(
              `Timed out after ${STDERR_WAIT_MS} ms waiting for ${JSON.stringify(text)} on ` +
                `stderr; it holds ${JSON.stringify(stderr)}`,
            ),
          );
        }, STDERR_WAIT_MS);
        waiting.push(wait);
      }),
    close: () => client.close(),
  };
}

/** Why a server did not become ready, with what most likely made it slow. */
function notReady(
  error: unknown,
  readyMs: number,
  env: Record<string, string>,
  stderr: string,
): string {
  const passed = DENO_ENV.filter((name) => name in env);
  const reason = error instanceof Error ? error.message : String(error);
  return [
    `The MCP server did not answer initialize within ${readyMs} ms (${reason}).`,
    "A Deno that finds no packages in its cache downloads them (silently, under --quiet), or hangs",
    "when it cannot reach the registry: run the tests with the DENO_DIR, XDG_CACHE_HOME, DENO_CERT,",
    "NPM_CONFIG_REGISTRY or proxy settings the server's Deno needs; connectMcp passes those on.",
    `Passed to the server: ${passed.length === 0 ? "none of them" : passed.join(", ")}.`,
    `Its stderr: ${JSON.stringify(stderr.slice(-2000))}`,
  ].join("\n");
}

/**
 * Calls a tool.
 *
 * @param session The session.
 * @param name The tool's name.
 * @param args Its input.
 * @returns The result; a protocol error rejects.
 */
export function callTool(
  session: McpSession,
  name: string,
  args: Record<string, unknown> = {},
): Promise<CallToolResult> {
  return session.client.callTool({ name, arguments: args }) as Promise<CallToolResult>;
}

/**
 * The text of a result: its text items, one a line, any other item as `[type]`.
 *
 * @param result A tool's result.
 * @returns The text.
 */
export function resultText(result: unknown): string {
  const content = (result as CallToolResult).content;
  return content.map((item) => item.type === "text" ? item.text : `[${item.type}]`).join("\n");
}

/**
 * Resolves with the value, or rejects after `ms` saying what did not happen.
 *
 * @param promise What is awaited.
 * @param ms How long to wait.
 * @param what What is awaited, for the error.
 * @returns The value.
 * @throws {Error} When the time runs out first.
 */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Timed out after ${ms} ms waiting for ${what}`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** One JSON-RPC message the server wrote, as parsed. */
export type RawMessage = {
  jsonrpc?: string;
  id?: string | number | null;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
};

/** The real server driven over its stdin and stdout directly, for what no SDK client would send. */
export interface RawMcp {
  /** The server's pid. */
  pid: number;
  /** Writes a message as one line of JSON. */
  send(message: unknown): Promise<void>;
  /** Writes bytes (or text) as they are: no newline is added. */
  write(data: Uint8Array | string): Promise<void>;
  /**
   * The first message not yet taken that `match` accepts (any, without one): waits for it up to
   * 10 s; rejects at once when the server closes stdout first.
   */
  next(match?: (message: RawMessage) => boolean): Promise<RawMessage>;
  /** The response to request `id`. */
  response(id: string | number | null): Promise<RawMessage>;
  /** The messages received and not yet taken (by `next` or `response`). */
  pending(): RawMessage[];
  /** Every line the server wrote on stdout so far that was not JSON (there must be none). */
  strayLines: string[];
  /** What the server wrote on stderr so far. */
  stderr(): string;
  /** Closes stdin (the client goes away) and waits for the server to exit. */
  close(): Promise<Deno.CommandStatus>;
  /** The exit status, once the server ends. */
  status: Promise<Deno.CommandStatus>;
}

/** How long {@linkcode RawMcp.next} waits for a message. */
const RAW_WAIT_MS = 10_000;

/**
 * Starts the CLI with the given arguments (one of them `mcp`), completes MCP's handshake by hand
 * (unless `handshake` is false), and hands over its stdio.
 *
 * @example Usage
 * ```ts ignore
 * const raw = await rawMcp(dirs, ["mcp"]);
 * try {
 *   await raw.write("not json\n");
 *   assert.equal((await raw.response(null)).error?.code, -32700);
 * } finally {
 *   await raw.close();
 * }
 * ```
 *
 * @param dirs The scratch workspace.
 * @param args The CLI's arguments.
 * @param options Extra env; `handshake: false` to send nothing before handing over.
 * @returns The server, initialized (unless `handshake` is false).
 */
export async function rawMcp(
  dirs: Scratch,
  args: string[],
  options: { env?: Record<string, string>; handshake?: boolean } = {},
): Promise<RawMcp> {
  const { command, ...started } = cliCommand(dirs, args, options.env ? { env: options.env } : {});
  const child = new Deno.Command(command, {
    ...started,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  let stderr = "";
  const stderrDone = (async () => {
    for await (const chunk of child.stderr.pipeThrough(new TextDecoderStream())) stderr += chunk;
  })();
  const queue: RawMessage[] = [];
  const strayLines: string[] = [];
  const waiting = new Set<() => void>();
  let ended = false;
  const wake = () => {
    for (const wait of [...waiting]) wait();
  };
  const stdoutDone = (async () => {
    let buffered = "";
    for await (const chunk of child.stdout.pipeThrough(new TextDecoderStream())) {
      buffered += chunk;
      let newline = buffered.indexOf("\n");
      while (newline !== -1) {
        const line = buffered.slice(0, newline);
        buffered = buffered.slice(newline + 1);
        try {
          queue.push(JSON.parse(line) as RawMessage);
        } catch {
          strayLines.push(line);
        }
        newline = buffered.indexOf("\n");
      }
      wake();
    }
    if (buffered !== "") strayLines.push(buffered);
    ended = true;
    wake();
  })();
  const status = child.status.then(async (status) => {
    await Promise.all([stdoutDone, stderrDone]);
    return status;
  });
  const encoder = new TextEncoder();
  const write = (data: Uint8Array | string) =>
    writer.write(typeof data === "string" ? encoder.encode(data) : data);
  const next = (match: (message: RawMessage) => boolean = () => true) =>
    new Promise<RawMessage>((resolve, reject) => {
      const check = () => {
        const index = queue.findIndex(match);
        if (index !== -1) {
          done();
          resolve(queue.splice(index, 1)[0]!);
        } else if (ended) {
          done();
          reject(
            new Error(`The server closed stdout first; its stderr: ${JSON.stringify(stderr)}`),
          );
        }
      };
      const timer = setTimeout(() => {
        done();
        reject(
          new Error(
            `Timed out after ${RAW_WAIT_MS} ms waiting for a message; unread: ` +
              `${JSON.stringify(queue)}; stderr: ${JSON.stringify(stderr)}`,
          ),
        );
      }, RAW_WAIT_MS);
      const done = () => {
        clearTimeout(timer);
        waiting.delete(check);
      };
      waiting.add(check);
      check();
    });
  const isResponse = (id: string | number | null) => (message: RawMessage) =>
    message.method === undefined && "id" in message && message.id === id;
  const raw: RawMcp = {
    pid: child.pid,
    send: (message) => write(`${JSON.stringify(message)}\n`),
    write,
    next,
    response: (id) => next(isResponse(id)),
    pending: () => [...queue],
    strayLines,
    stderr: () => stderr,
    close: async () => {
      await writer.close().catch(() => {});
      return await status;
    },
    status,
  };
  if (options.handshake === false) return raw;
  try {
    await raw.send({
      jsonrpc: "2.0",
      id: "init",
      method: "initialize",
      params: {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "basis-tools-raw-test", version: "1.0.0" },
      },
    });
    const initialized = await raw.response("init");
    if (initialized.error !== undefined) {
      throw new Error(`initialize failed: ${JSON.stringify(initialized.error)}`);
    }
    await raw.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  } catch (error) {
    await raw.close().catch(() => {});
    throw error;
  }
  return raw;
}
