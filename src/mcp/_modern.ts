/**
 * MCP 2026-07-28, the stateless revision: every request carries the protocol version and the
 * client's capabilities in `params._meta` (no `initialize`); `server/discover` tells what the
 * server speaks; every result says its `resultType`; `tools/list` carries cache hints; an approval
 * is asked in the call's own result (`input_required`, with a `requestState` bound to the exact
 * call) instead of a request to the client; `subscriptions/listen` is how a client hears that the
 * tool list changed. One function answers one request, whatever the transport (a stdio line, an
 * HTTP POST). Private to the MCP binding.
 *
 * Written here rather than taken from the TypeScript SDK's v2 line: its `McpServer` does not serve
 * this revision yet (the Python SDK's client fails on it as on the v1 server), and the pieces it
 * has are a few lines each behind a second copy of the SDK and of zod.
 *
 * @module
 */

import { elicitationForm } from "../approval/elicitation/elicit_approval.ts";
import { jsonKind } from "../json_kind.ts";
import { phrase } from "../locale/messages.ts";
import { VERSION } from "../version.ts";
import {
  type ClientAsker,
  InputRequired,
  ProtocolError,
  requestLog,
  type Served,
} from "./_served.ts";
import { approvalBinding, RequestStates } from "./_request_state.ts";

/** The revision served here. */
export const MODERN_VERSION = "2026-07-28";
/** The `_meta` keys of 2026-07-28. */
const [VERSION_KEY, CAPABILITIES_KEY, SERVER_INFO_KEY, SUBSCRIPTION_KEY, LOG_LEVEL_KEY] = [
  "io.modelcontextprotocol/protocolVersion",
  "io.modelcontextprotocol/clientCapabilities",
  "io.modelcontextprotocol/serverInfo",
  "io.modelcontextprotocol/subscriptionId",
  "io.modelcontextprotocol/logLevel",
];
/** The levels of `notifications/message` (RFC 5424's), least severe first. */
const LEVELS = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"];
/** JSON-RPC's codes, and 2026-07-28's "unsupported protocol version". */
export const CODES = {
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internal: -32603,
  headerMismatch: -32020,
  unsupportedVersion: -32022,
} as const;
/**
 * How long a client may keep a `tools/list` result: the longest a program installed later takes
 * to be found. A client listening (`subscriptions/listen`) is told at once of any change.
 */
const LIST_TTL_MS = 5_000;
/** The key of the approval question among a result's `inputRequests`. */
const APPROVAL = "approval";

type Id = string | number;
/** A JSON-RPC request, checked by the transport. */
export interface ModernRequest {
  readonly id: Id;
  readonly method: string;
  readonly params?: Record<string, unknown>;
}
/** Where one request's notifications go, and what ends it (the client cancelled or went away). */
export interface Channel {
  readonly notify: (method: string, params: Record<string, unknown>) => unknown;
  readonly signal: AbortSignal;
}

/**
 * Whether a request speaks 2026-07-28: its `_meta` has the protocol version key (a bare `_meta` is
 * no sign; a 2025 request has its `progressToken` there).
 *
 * @param params The request's params.
 * @returns Whether it does.
 */
export function hasModernEnvelope(params: unknown): boolean {
  const meta = isObject(params) ? params._meta : undefined;
  return isObject(meta) && VERSION_KEY in meta;
}

/**
 * The error of an `initialize` on a connection serving 2026-07-28.
 *
 * @param params The `initialize` params.
 * @returns The JSON-RPC error.
 */
export function initializeRefused(params: unknown): ProtocolError {
  const requested = isObject(params) ? params.protocolVersion : undefined;
  return new ProtocolError(CODES.unsupportedVersion, "Unsupported protocol version", {
    supported: [MODERN_VERSION],
    ...(typeof requested === "string" && { requested }),
  });
}

/** The states of the approval questions of one server (its key is made once, at start). */
const STATES = new WeakMap<Served, RequestStates>();

/**
 * Answers one 2026-07-28 request.
 *
 * @param served The server's roster and calls.
 * @param request The request (the transport checked its JSON-RPC shape).
 * @param channel Where its notifications go, and its end.
 * @returns The result, or throws the {@linkcode ProtocolError} to answer with.
 */
export async function modernRequest(
  served: Served,
  request: ModernRequest,
  channel: Channel,
): Promise<Record<string, unknown>> {
  const params = request.params ?? {};
  const meta = isObject(params._meta) ? params._meta : {};
  const missing = [VERSION_KEY, CAPABILITIES_KEY].filter((key) => !(key in meta));
  if (missing.length > 0) {
    const keys = missing.map((key) => JSON.stringify(key)).join(", ");
    throw new ProtocolError(CODES.invalidParams, served.words.t("mcp.envelope", { keys }));
  }
  const version = meta[VERSION_KEY];
  if (version !== MODERN_VERSION) {
    const data = { supported: [MODERN_VERSION], requested: version };
    throw new ProtocolError(CODES.unsupportedVersion, "Unsupported protocol version", data);
  }
  // The log is sent only to a request that asks for it, at its level and above, on its own stream.
  const wanted = meta[LOG_LEVEL_KEY];
  if (wanted !== undefined && !LEVELS.includes(wanted as string)) {
    const field = `params._meta[${JSON.stringify(LOG_LEVEL_KEY)}]`;
    const reason = phrase("mcp.invalid_params", { method: JSON.stringify(request.method), field });
    throw new ProtocolError(CODES.invalidParams, served.words.say(reason));
  }
  const least = wanted === undefined ? LEVELS.length : LEVELS.indexOf(wanted as string);
  return await requestLog.run((level, data) => {
    if (LEVELS.indexOf(level) >= least) {
      channel.notify("notifications/message", { level, logger: "basis-tools", data });
    }
  }, () => answer(served, request, params, meta, channel));
}

/** Answers a request whose envelope was checked. */
async function answer(
  served: Served,
  request: ModernRequest,
  params: Record<string, unknown>,
  meta: Record<string, unknown>,
  channel: Channel,
): Promise<Record<string, unknown>> {
  const stamp = { _meta: { [SERVER_INFO_KEY]: { name: "basis-tools", version: VERSION } } };
  const complete = (result: Record<string, unknown>) => ({
    ...result,
    resultType: "complete",
    ...stamp,
  });
  switch (request.method) {
    case "server/discover":
      return complete({
        supportedVersions: [MODERN_VERSION],
        capabilities: { tools: { listChanged: true }, logging: {} },
        instructions: served.instructions,
        ttlMs: LIST_TTL_MS,
        cacheScope: "private",
      });
    case "tools/list":
      // The roster is this user's workspace: a cache is never shared with another account.
      return complete({ ...served.list(), ttlMs: LIST_TTL_MS, cacheScope: "private" });
    case "tools/call": {
      const capabilities = isObject(meta[CAPABILITIES_KEY]) ? meta[CAPABILITIES_KEY] : {};
      const asker = rounds(served, params, isObject(capabilities.elicitation));
      const token = isObject(params._meta) ? params._meta.progressToken : undefined;
      const progress = token === undefined
        ? undefined
        : async (message: Record<string, unknown>) =>
          await channel.notify("notifications/progress", { progressToken: token, ...message });
      const result = await served.call(params.name as string, params.arguments ?? {}, {
        signal: channel.signal,
        progress,
        asker,
      });
      return result.resultType === "input_required" ? { ...result, ...stamp } : complete(result);
    }
    case "subscriptions/listen":
      return complete(await listen(served, request, channel));
    default:
      throw new ProtocolError(CODES.methodNotFound, "Method not found");
  }
}

/**
 * How a 2026-07-28 call asks: the first round sends the approval form back in an `input_required`
 * result with a state bound to the call; the round answering it comes with that state, which must
 * have been made by this server for exactly this call, and the person's answer.
 */
function rounds(
  served: Served,
  params: Record<string, unknown>,
  canAsk: boolean,
): ClientAsker {
  let states = STATES.get(served);
  if (states === undefined) STATES.set(served, states = new RequestStates());
  const { requestState: state, inputResponses: responses } = params;
  if (state === undefined && !canAsk) return {};
  const reply = isObject(responses) && isObject(responses[APPROVAL])
    ? responses[APPROVAL]
    : undefined;
  return {
    before: async (prompt, secrets) => {
      const binding = approvalBinding(prompt, secrets);
      if (state === undefined) {
        const form = elicitationForm(prompt, secrets, served.words);
        throw new InputRequired({
          resultType: "input_required",
          inputRequests: { [APPROVAL]: { method: "elicitation/create", params: form } },
          requestState: await states.mint(binding),
        });
      }
      const verdict = await states.verify(state, binding);
      if (verdict === "valid") return;
      const tool = JSON.stringify(prompt.tool);
      served.log(served.words.t("mcp.state_refused_log", { tool, verdict }));
      throw new ProtocolError(CODES.invalidParams, served.words.t("mcp.state_refused", { tool }));
    },
    // The answer came with the request: checked as a reply to the form (only what it offered).
    elicit: () =>
      Promise.resolve(
        reply !== undefined && ["accept", "decline", "cancel"].includes(reply.action as string)
          ? reply as { action: "accept" | "decline" | "cancel"; content?: Record<string, unknown> }
          : { action: "cancel" as const },
      ),
  };
}

/**
 * Serves one `subscriptions/listen`: the acknowledgement first, then a `tools/list_changed` each
 * time the roster changes, until the client ends it (or the server stops).
 */
async function listen(served: Served, request: ModernRequest, channel: Channel) {
  const meta = { [SUBSCRIPTION_KEY]: request.id };
  const wanted = isObject(request.params?.notifications) &&
    request.params.notifications.toolsListChanged === true;
  const notifications = wanted ? { toolsListChanged: true } : {};
  await channel.notify("notifications/subscriptions/acknowledged", { notifications, _meta: meta });
  const stop = wanted
    ? served.onListChanged(() =>
      channel.notify("notifications/tools/list_changed", { _meta: meta })
    )
    : () => {};
  const ended = Promise.withResolvers<void>();
  const signal = AbortSignal.any([channel.signal, served.stopping]);
  signal.addEventListener("abort", () => ended.resolve(), { once: true });
  if (signal.aborted) ended.resolve();
  await ended.promise;
  stop();
  return { _meta: meta };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return jsonKind(value) === "object";
}
