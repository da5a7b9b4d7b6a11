/**
 * One `tools/call`: through the tool contract (schema gate → preview → rules → approver → run),
 * with the outcome as an MCP result, and progress while it runs. Private to the MCP binding.
 *
 * @module
 */

// @ts-types="@modelcontextprotocol/sdk/types"
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { OutputChunk, Tool } from "../contract/types.ts";
import { ToolError } from "../contract/tool_error.ts";
import { BasisError } from "../errors.ts";
import type { Messages } from "../locale/messages.ts";

/** What a call needs besides the tool and its arguments. */
export interface CallContext {
  /** Aborted when the client cancels the request or goes away. */
  readonly signal: AbortSignal;
  /** Where internal errors are logged. */
  readonly log: (line: string) => void;
  /** The messages of the server's locale, for what the server itself says. */
  readonly words: Messages;
  /** Sends one progress notification (the lines of output so far), when the request asked. */
  readonly progress: ((lines: number) => Promise<void>) | undefined;
  /** The least time between two progress notifications. */
  readonly progressMs: number;
}

/**
 * An error the SDK replies with as is: its `code` and `message` become the JSON-RPC error (the
 * SDK's own `McpError` puts `MCP error <code>: ` in front, and the client's puts it there again).
 *
 * @param code The JSON-RPC error code.
 * @param message One line.
 * @returns The error to throw.
 */
export function protocolError(code: number, message: string): Error {
  return Object.assign(new Error(message), { code });
}

/**
 * Calls a tool. Refused input, a denial, and a failed, killed, timed-out or cancelled run are
 * results with `isError: true` whose text is the contract's user-facing message; an internal
 * error (a tool whose schema cannot be used, a bug) is logged and becomes a protocol error.
 *
 * @param tool The tool.
 * @param args The request's `arguments`.
 * @param context Cancellation, the log, and progress.
 * @returns The result.
 * @throws {Error} JSON-RPC's internal error (-32603) for an internal error.
 */
export async function callTool(
  tool: Tool,
  args: unknown,
  context: CallContext,
): Promise<CallToolResult> {
  let stop: (() => void) | undefined;
  try {
    const execution = await tool.execution(args);
    if (context.progress !== undefined) {
      stop = reportProgress(execution.outputStream(), context.progress, context.progressMs);
    }
    const output = await execution.execute({ signal: context.signal });
    const images = output.images.map(({ data, mimeType }) => ({
      type: "image" as const,
      data,
      mimeType,
    }));
    // A tool with an output schema gives its structured result beside the same JSON as text,
    // for clients that read only the text.
    return {
      ...(output.structuredContent === undefined
        ? {}
        : { structuredContent: output.structuredContent }),
      content: [{ type: "text", text: output.result }, ...images],
    };
  } catch (error) {
    const { words, log } = context;
    if (error instanceof ToolError ? error.isUserFacing() : error instanceof BasisError) {
      return {
        content: [{ type: "text", text: (error as BasisError).wordedIn(words) }],
        isError: true,
      };
    }
    const name = JSON.stringify(tool.name);
    if (error instanceof ToolError && error.code === "manifest_invalid") {
      // A configuration the operator must fix (a schema that does not compile): say which.
      const problem = error.wordedIn(words);
      log(words.t("mcp.tool_unusable", { tool: name, problem }));
      throw protocolError(-32603, problem);
    }
    // A bug: its stack trace, as it is, for whoever fixes it.
    const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
    log(words.t("mcp.tool_bug", { tool: name, detail }));
    throw protocolError(-32603, words.t("mcp.tool_bug_reply", { tool: name }));
  } finally {
    stop?.();
  }
}

/**
 * Reads an execution's output and reports the number of lines written so far (stdout and stderr
 * together; never the output itself, which may hold what the tool's env values are): the first
 * at once, later ones at most once every `intervalMs`, the latest always sent while the call runs.
 *
 * @returns Stops sending (nothing is sent once it returns) and reading.
 */
function reportProgress(
  stream: ReadableStream<OutputChunk>,
  send: (lines: number) => Promise<void>,
  intervalMs: number,
): () => void {
  let [lines, sent, last, stopped] = [0, 0, -Infinity, false];
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = () => {
    timer = undefined;
    if (stopped || lines === sent) return;
    [sent, last] = [lines, performance.now()];
    send(lines).catch(() => {});
  };
  const reader = stream.getReader();
  (async () => {
    for (let read = await reader.read(); !read.done && !stopped; read = await reader.read()) {
      const before = lines;
      const data = read.value.data;
      for (let at = data.indexOf(0x0a); at !== -1; at = data.indexOf(0x0a, at + 1)) lines++;
      if (lines === before || timer !== undefined) continue;
      const wait = last + intervalMs - performance.now();
      if (wait <= 0) flush();
      else timer = setTimeout(flush, wait);
    }
  })().catch(() => {}); // The stream was cancelled: the call is over.
  return () => {
    stopped = true;
    clearTimeout(timer);
    reader.cancel().catch(() => {});
  };
}
