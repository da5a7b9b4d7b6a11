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
  const transport = new StdioClientTransport({
    ...cliCommand(dirs, args, {
      ...(options.env === undefined ? {} : { env: options.env }),
      ...(options.permissions === undefined ? {} : { permissions: options.permissions }),
    }),
    stderr: "pipe",
  });
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
  await client.connect(new RecordingTransport(transport, messages));
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
