/**
 * Checking a request's params before the SDK sees them: the SDK parses them with its own schemas
 * and answers a mismatch with JSON-RPC's internal error (-32603) and a dump of every issue; here a
 * mismatch is "invalid params" (-32602) in one line that names the first wrong field and what was
 * found there, in the server's locale. Private to the MCP binding.
 *
 * @module
 */

// @ts-types="@modelcontextprotocol/sdk/types"
import {
  CallToolRequestSchema,
  InitializeRequestSchema,
  ListToolsRequestSchema,
  PingRequestSchema,
  SetLevelRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { foundPhrase } from "../json_kind.ts";
import { type Messages, phrase } from "../locale/messages.ts";

/** What a schema's check says: enough of zod's result to name the first issue. */
interface Checked {
  readonly success: boolean;
  readonly error?: {
    readonly issues: readonly {
      readonly code: string;
      readonly path: readonly PropertyKey[];
      readonly expected?: string;
    }[];
  } | undefined;
}

/** A schema, as far as it is used here. */
type Check = (value: unknown) => Checked;

/** The methods the server answers, each with the SDK's schema of its request. */
const SCHEMAS: ReadonlyMap<string, Check> = new Map<string, Check>([
  ["initialize", (value) => InitializeRequestSchema.safeParse(value)],
  ["ping", (value) => PingRequestSchema.safeParse(value)],
  ["tools/list", (value) => ListToolsRequestSchema.safeParse(value)],
  ["tools/call", (value) => CallToolRequestSchema.safeParse(value)],
  ["logging/setLevel", (value) => SetLevelRequestSchema.safeParse(value)],
]);

/** What zod expected, as messages say what was found. */
const EXPECTED: Readonly<Record<string, unknown>> = {
  object: {},
  record: {},
  array: [],
  string: "",
  number: 0,
  int: 0,
  boolean: false,
};

/**
 * Why a request's params are not what its method takes, in one line; `undefined` when they are
 * (or when the method is not one the server checks: the SDK answers an unknown one itself).
 *
 * @param request The request (`method` and `params` as received).
 * @param words The server's messages.
 * @returns The message of an "invalid params" error, or `undefined`.
 */
export function paramsProblem(
  request: { readonly method: string; readonly params?: unknown },
  words: Messages,
): string | undefined {
  const check = SCHEMAS.get(request.method);
  if (check === undefined) return undefined;
  const checked = check(request);
  if (checked.success) return undefined;
  const issue = checked.error?.issues[0];
  const method = JSON.stringify(request.method);
  const path = issue?.path ?? ["params"];
  const field = fieldName(path);
  const expected = issue?.code === "invalid_type" && issue.expected !== undefined
    ? EXPECTED[issue.expected]
    : undefined;
  if (expected === undefined) {
    return words.say(phrase("mcp.invalid_params", { method, field }));
  }
  return words.say(
    phrase("mcp.invalid_params_type", {
      method,
      field,
      expected: foundPhrase(expected),
      found: foundPhrase(valueAt(request, path)),
    }),
  );
}

/** `params.arguments`, `params.items[2]`. */
function fieldName(path: readonly PropertyKey[]): string {
  let name = "";
  for (const segment of path) {
    if (typeof segment === "number") name += `[${segment}]`;
    else name += name === "" ? String(segment) : `.${String(segment)}`;
  }
  return name || "params";
}

function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let at = value;
  for (const segment of path) {
    if (typeof at !== "object" || at === null) return undefined;
    at = (at as Record<PropertyKey, unknown>)[segment];
  }
  return at;
}
