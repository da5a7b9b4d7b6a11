/**
 * The request headers of MCP 2026-07-28's Streamable HTTP that mirror its body (SEP-2243), so an
 * intermediary can route on them: `MCP-Protocol-Version`, `Mcp-Method` (every request), `Mcp-Name`
 * (a `tools/call`'s tool), and `Mcp-Param-{Name}` for each argument the tool's input schema marks
 * with `x-mcp-header`. A header missing, malformed or saying something else than the body is
 * refused (400, -32020) before anything runs: a proxy that routed, rate-limited or authorized on
 * the header must never see the server act on another body. Private to the MCP binding.
 *
 * @module
 */

import { jsonKind } from "../json_kind.ts";

const VERSION_KEY = "io.modelcontextprotocol/protocolVersion";
/** What a header value may hold as it is (else it is base64 in the sentinel). */
const SAFE = /^[\x20-\x7e\t]*$/;
const SENTINEL = /^=\?base64\?(.*)\?=$/;
/** RFC 9110's token: what an `x-mcp-header` name must be. */
const TOKEN = /^[!#$%&'*+\-.^_`|~\w]+$/;
const PRIMITIVE = new Set(["string", "integer", "boolean"]);

/**
 * The first mirror header that does not say what the request's body says, if any.
 *
 * @param headers The request's headers.
 * @param method The body's method.
 * @param params The body's params.
 * @param inputSchema The input schema of the tool a `tools/call` names, when it is served.
 * @returns The header's name, or `undefined` when every one agrees.
 */
export function headerMismatch(
  headers: Headers,
  method: string,
  params: Record<string, unknown>,
  inputSchema: unknown,
): string | undefined {
  const meta = isObject(params._meta) ? params._meta : {};
  // Without the version in the body the envelope is refused as incomplete (-32602).
  if (VERSION_KEY in meta && headers.get("mcp-protocol-version") !== meta[VERSION_KEY]) {
    return "MCP-Protocol-Version";
  }
  // Two copies are joined with ", ", which says no method: refused too.
  if (headers.get("mcp-method") !== method) return "Mcp-Method";
  if (method !== "tools/call") return undefined;
  if (decoded(headers.get("mcp-name")) !== params.name) return "Mcp-Name";
  const args = isObject(params.arguments) ? params.arguments : {};
  for (const [path, name, type] of annotated(inputSchema)) {
    const header = `Mcp-Param-${name}`;
    const raw = headers.get(header);
    const value = path.reduce<unknown>((at, key) => isObject(at) ? at[key] : undefined, args);
    const shown = typeof value === "string" || typeof value === "boolean" ||
        (typeof value === "number" && Number.isFinite(value))
      ? String(value)
      : undefined;
    // No value in the body (or none a header can carry): no header either.
    if (shown === undefined) {
      if (raw !== null) return header;
      continue;
    }
    const said = raw === null || !SAFE.test(raw) ? undefined : decoded(raw);
    const same = type === "integer" && Number.isInteger(value) && said !== undefined &&
        /^-?\d+(\.0+)?$/.test(said)
      ? BigInt(said.split(".")[0]!) === BigInt(value as number)
      : said === shown;
    if (!same) return header;
  }
  return undefined;
}

/** A header's value, its base64 sentinel decoded (UTF-8); `undefined` when malformed or absent. */
function decoded(value: string | null): string | undefined {
  if (value === null) return undefined;
  const payload = SENTINEL.exec(value)?.[1];
  if (payload === undefined) return value;
  try {
    const bytes = Uint8Array.from(atob(payload), (c) => c.charCodeAt(0));
    if (btoa(String.fromCharCode(...bytes)) !== payload) return undefined;
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * The arguments an input schema marks with `x-mcp-header`: each property reached from the root
 * through `properties` alone, of type string, integer or boolean, with a token for a name (any
 * other annotation makes a client drop the tool, and is not expected here).
 */
function annotated(schema: unknown, path: string[] = []): [string[], string, string][] {
  if (!isObject(schema) || !isObject(schema.properties)) return [];
  return Object.entries(schema.properties).flatMap(([key, property]) => {
    if (!isObject(property)) return [];
    const { "x-mcp-header": name, type } = property;
    const own: [string[], string, string][] =
      typeof name === "string" && TOKEN.test(name) && PRIMITIVE.has(type as string)
        ? [[[...path, key], name, type as string]]
        : [];
    return [...own, ...annotated(property, [...path, key])];
  });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return jsonKind(value) === "object";
}
