/**
 * What every connection of the MCP server, of either revision and transport, serves from: the
 * roster and its calls, the log; how the person behind one call's client is asked; the errors a
 * call answers with. Private to the MCP binding.
 *
 * @module
 */

import { AsyncLocalStorage } from "node:async_hooks";
// The SDK's "./*" export names no types for "….js" paths: point at them.
// @ts-types="@modelcontextprotocol/sdk/types"
import type { ListToolsResult } from "@modelcontextprotocol/sdk/types.js";
import type { ElicitApprovalOptions } from "../approval/elicitation/elicit_approval.ts";
import type { PromptRequest } from "../approval/terminal/types.ts";
import type { Messages } from "../locale/messages.ts";

/** The levels of MCP's `notifications/message` this server uses. */
export type LogLevel = "info" | "warning" | "error";

/** How the person behind the client of one call is asked. */
export interface ClientAsker {
  /** Sends the form and resolves to the reply; absent when the client cannot be asked. */
  readonly elicit?: ElicitApprovalOptions["elicit"] | undefined;
  /**
   * Called before the form is sent (2026-07-28's rounds): throws {@linkcode InputRequired} to ask
   * in a result, or a {@linkcode ProtocolError} for a state that approves nothing.
   */
  readonly before?:
    | ((prompt: PromptRequest, secrets: readonly string[]) => Promise<void>)
    | undefined;
}

/** The asker of the call running in this async context (each transport sets its own). */
export const asking: AsyncLocalStorage<ClientAsker> = new AsyncLocalStorage<ClientAsker>();

/**
 * Where the lines the server logs while it answers one 2026-07-28 request go (to that request's
 * client, when the request asked for them), in the async context of that request.
 */
export const requestLog: AsyncLocalStorage<(level: LogLevel, data: string) => void> =
  new AsyncLocalStorage();

/** An error the server replies with as it is: its `code`, `message` and `data`. */
export class ProtocolError extends Error {
  /**
   * @param code The JSON-RPC error code.
   * @param message The message, in the server's locale.
   * @param data What the error carries beside it.
   */
  constructor(readonly code: number, message: string, readonly data?: unknown) {
    super(message);
  }
}

/** Thrown out of a call to ask in its result (`input_required`): nothing has run. */
export class InputRequired extends Error {
  /** @param result The `input_required` result to send. */
  constructor(readonly result: Record<string, unknown>) {
    super("input required");
  }
}

/** How one call is made: its end, its progress, who is asked. */
export interface CallHow {
  /** Aborted when the client cancels the call or goes away. */
  readonly signal: AbortSignal;
  /** Sends a progress notification (`progress`, `message`), when the call asked for them. */
  readonly progress?:
    | ((params: { progress: number; message: string }) => Promise<unknown>)
    | undefined;
  /** How the person behind the call's client is asked. */
  readonly asker: ClientAsker;
}

/** What every connection, of either revision and transport, serves from. */
export interface Served {
  /** The server's messages. */
  readonly words: Messages;
  /** The server's instructions, for a client's model. */
  readonly instructions: string;
  /** Aborted when the server stops. */
  readonly stopping: AbortSignal;
  /** The `tools/list` result now. */
  list(): ListToolsResult;
  /**
   * Runs one `tools/call`: its result, or the `input_required` result asking for an approval.
   * Throws a {@linkcode ProtocolError} for an unknown tool, a state that approves nothing, a bug.
   */
  call(name: string, args: unknown, how: CallHow): Promise<Record<string, unknown>>;
  /** Called after each change of the tool list; returns what stops it. */
  onListChanged(listener: () => void): () => void;
  /** Called with each line the server logs; returns what stops it. */
  onLog(listener: (level: LogLevel, data: string) => void): () => void;
  /** Logs a warning. */
  log(line: string): void;
}
