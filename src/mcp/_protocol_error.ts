/**
 * A JSON-RPC error for the SDK to send as is. The SDK's own `McpError` puts `MCP error <code>: `
 * in front of its message, and the client's puts it there again: this one keeps the message
 * plain. Private to the MCP binding.
 *
 * @module
 */

/** JSON-RPC's "invalid params": an unknown tool, per the MCP specification. */
export const INVALID_PARAMS = -32602;
/** JSON-RPC's "internal error". */
export const INTERNAL_ERROR = -32603;

/** An error the SDK replies with: its `code` and `message` become the JSON-RPC error. */
export class ProtocolError extends Error {
  /** The JSON-RPC error code. */
  readonly code: number;

  /**
   * Makes an error.
   *
   * @param code The JSON-RPC error code.
   * @param message One line.
   */
  constructor(code: number, message: string) {
    super(message);
    this.name = "ProtocolError";
    this.code = code;
  }
}
