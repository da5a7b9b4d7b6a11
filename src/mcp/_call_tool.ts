/**
 * One `tools/call`: through the tool contract (schema gate → preview → rules → approver → run),
 * with the outcome as an MCP result. Private to the MCP binding.
 *
 * @module
 */

// @ts-types="@modelcontextprotocol/sdk/types"
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { Tool, ToolOutput } from "../contract/types.ts";
import { ToolError } from "../contract/tool_error.ts";
import { BasisError } from "../errors.ts";
import type { Messages } from "../locale/messages.ts";
import { reportProgress, type SendProgress } from "./_progress.ts";
import { INTERNAL_ERROR, ProtocolError } from "./_protocol_error.ts";

/** What a call needs besides the tool and its arguments. */
export interface CallContext {
  /** Aborted when the client cancels the request or goes away. */
  readonly signal: AbortSignal;
  /** Where internal errors are logged. */
  readonly log: (line: string) => void;
  /** The messages of the server's locale, for what the server itself says. */
  readonly words: Messages;
  /** Set when the request carried a progress token. */
  readonly progress: { readonly send: SendProgress; readonly intervalMs: number } | undefined;
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
 * @throws {ProtocolError} JSON-RPC's internal error for an internal error.
 */
export async function callTool(
  tool: Tool,
  args: unknown,
  context: CallContext,
): Promise<CallToolResult> {
  let reporter: { stop(): void } | undefined;
  try {
    const execution = await tool.execution(args);
    if (context.progress !== undefined) {
      const { send, intervalMs } = context.progress;
      reporter = reportProgress(execution.outputStream(), send, intervalMs);
    }
    return success(await execution.execute({ signal: context.signal }));
  } catch (error) {
    return failure(tool.name, error, context);
  } finally {
    reporter?.stop();
  }
}

/**
 * A successful call's result: the text, any images, and for a tool with an output schema its
 * structured result (`structuredContent`) beside the same JSON as text, for clients that read only
 * the text.
 */
function success(output: ToolOutput<unknown>): CallToolResult {
  return {
    ...(output.structuredContent === undefined
      ? {}
      : { structuredContent: output.structuredContent }),
    content: [
      { type: "text", text: output.result },
      ...output.images.map((image) => ({
        type: "image" as const,
        data: image.data,
        mimeType: image.mimeType,
      })),
    ],
  };
}

function failure(tool: string, error: unknown, context: CallContext): CallToolResult {
  const { words, log } = context;
  const name = JSON.stringify(tool);
  if (error instanceof ToolError ? error.isUserFacing() : error instanceof BasisError) {
    const text = (error as BasisError).wordedIn(words);
    return { content: [{ type: "text", text }], isError: true };
  }
  if (error instanceof ToolError && error.code === "manifest_invalid") {
    // A configuration the operator must fix (a schema that does not compile): say which.
    const problem = error.wordedIn(words);
    log(words.t("mcp.tool_unusable", { tool: name, problem }));
    throw new ProtocolError(INTERNAL_ERROR, problem);
  }
  // A bug: its stack trace, as it is, for whoever fixes it.
  const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
  log(words.t("mcp.tool_bug", { tool: name, detail }));
  throw new ProtocolError(INTERNAL_ERROR, words.t("mcp.tool_bug_reply", { tool: name }));
}
