/**
 * One connection of a client of the 2025 protocol (the `initialize` handshake: stdio, or one
 * Streamable HTTP session): the official SDK's `Server`, answering `tools/list` and `tools/call`
 * from the shared roster, asking approvals with `elicitation/create` when the client can, sending
 * the server's log as `notifications/message` and `notifications/tools/list_changed` once it is
 * initialized. Private to the MCP binding.
 *
 * @module
 */

import { Server } from "@modelcontextprotocol/sdk/server";
import { VERSION } from "../version.ts";
import { ELICIT_TIMEOUT_MS } from "./_approver.ts";
import type { ClientAsker, Served } from "./_served.ts";

/** The form as the SDK takes it (the elicitation seam builds it to MCP's shape). */
type ElicitForm = Parameters<Server["elicitInput"]>[0];

/**
 * Makes the SDK server of one 2025 connection; connect it to its transport. What the server logs
 * before the client is initialized is sent once it is (the last 100 lines at most).
 *
 * @param served The roster, the calls, the log.
 * @returns The server, and what stops its notifications (call it when the connection closes).
 */
export function legacyServer(served: Served): { server: Server; detach: () => void } {
  const server = new Server(
    { name: "basis-tools", title: "basis-tools", version: VERSION },
    {
      capabilities: { tools: { listChanged: true }, logging: {} },
      // Read by the client's model, like the tools' descriptions: in the locale too.
      instructions: served.instructions,
    },
  );
  let early: { level: "info" | "warning" | "error"; data: string }[] | undefined = [];
  const notify = (level: "info" | "warning" | "error", data: string) =>
    server.sendLoggingMessage({ level, logger: "basis-tools", data }).catch(() => {});
  const unlog = served.onLog((level, data) => {
    if (early === undefined) notify(level, data);
    else if (early.length < 100) early.push({ level, data });
  });
  server.oninitialized = () => {
    for (const { level, data } of early ?? []) notify(level, data);
    early = undefined;
  };
  const unlist = served.onListChanged(() => {
    if (early === undefined) server.sendToolListChanged().catch(() => {});
  });
  // The two methods of every call, without the SDK's parse of each request and result again.
  server.fallbackRequestHandler = (request, extra) => {
    if (request.method === "tools/list") return Promise.resolve(served.list());
    if (request.method !== "tools/call") {
      throw Object.assign(new Error("Method not found"), { code: -32601 });
    }
    const { name, arguments: args = {} } = request.params as { name: string; arguments?: unknown };
    const token = extra._meta?.progressToken;
    const asker: ClientAsker = {
      elicit: server.getClientCapabilities()?.elicitation?.form === undefined
        ? undefined
        : (form, signal) =>
          server.elicitInput(form as ElicitForm, {
            timeout: ELICIT_TIMEOUT_MS,
            // On Streamable HTTP, the question goes on the stream of the call it is about.
            relatedRequestId: extra.requestId,
            ...(signal && { signal }),
          }),
    };
    return served.call(name, args, {
      signal: extra.signal,
      asker,
      progress: token === undefined ? undefined : (params) =>
        extra.sendNotification({
          method: "notifications/progress",
          params: { progressToken: token, ...params } as never,
        }),
    }) as never;
  };
  return {
    server,
    detach: () => {
      unlog();
      unlist();
    },
  };
}
