/**
 * `basis-tools mcp [--http HOST:PORT]`: serve the roster to an MCP client over stdio (stdout
 * carries the protocol and nothing else; everything this program has to say goes to stderr), or
 * over Streamable HTTP.
 *
 * @module
 */

import { BasisError, errorLines } from "../../errors.ts";
import { messages, phrase } from "../../locale/messages.ts";
import { type HttpOptions, isLoopback } from "../../mcp/serve_mcp.ts";
import { serveRoster } from "../../mcp/roster_tools.ts";
import { exitCodeFor } from "../exit_codes.ts";
import { err } from "../output.ts";
import { resolvePath } from "../../paths.ts";
import { workspaceRoot } from "../_roster.ts";
import { cliSandbox } from "../_sandbox_note.ts";
import { commandAudit, toolContext } from "../_tools.ts";
import type { Settings } from "../settings.ts";
import type { SandboxPolicy } from "../../sandbox/types.ts";

/**
 * Serves the roster until the client closes stdin (or SIGINT/SIGTERM arrives).
 *
 * @param settings The run's settings (`--approve` decides calls no rule and no person answers).
 * @param http `--http HOST:PORT`, when given.
 * @returns 0 once an idle server is stopped (the client closed stdin, or SIGINT, SIGTERM or
 *   SIGHUP: clients stop servers that way); 130 when that interrupted a call that was running; 6
 *   when a manifest file is invalid at start; 2 for a bad `-C`, a bad `--http`, a short
 *   `BASIS_MCP_TOKEN` or an address it cannot listen on.
 */
export async function mcpCommand(settings: Settings, http?: string): Promise<number> {
  // Whatever a dependency logs must not corrupt the protocol.
  console.log = console.info = console.debug = console.error;
  const audit = commandAudit(settings);
  const stop = new AbortController();
  const signals: Deno.Signal[] = Deno.build.os === "windows"
    ? ["SIGINT", "SIGBREAK"]
    : ["SIGINT", "SIGTERM", "SIGHUP"];
  const onSignal = () => stop.abort();
  for (const name of signals) Deno.addSignalListener(name, onSignal);
  try {
    const address = http === undefined ? undefined : httpOptions(settings, http);
    const root = await workspaceRoot(settings);
    const configDir = resolvePath(settings.configDir);
    const context = toolContext(settings, { spillDir: settings.spillDir, audit });
    // The server's approver, audit sink and sandbox are set for every tool by the loader; the
    // sandbox note is said once per server start, in its log.
    const sandbox = (policy: SandboxPolicy) => cliSandbox(settings, policy);
    const served = await serveRoster({
      root,
      configDir,
      context,
      sandbox,
      policy: settings.approve,
      signal: stop.signal,
      http: address,
    });
    // Stopped while a call ran: that call was interrupted. An idle server stopped did what was
    // asked.
    return served.interrupted ? 130 : 0;
  } catch (error) {
    // Stdout is the protocol's alone, even with --json.
    if (!(error instanceof BasisError)) throw error;
    err(
      errorLines(error, messages(settings.locale)).map((line) => `basis-tools: ${line}\n`).join(""),
    );
    return exitCodeFor(error.code);
  } finally {
    for (const name of signals) Deno.removeSignalListener(name, onSignal);
    audit.close();
  }
}

/**
 * The address of `--http HOST:PORT` and its token: `BASIS_MCP_TOKEN` when set (at least 32
 * characters), else, on an address that is not loopback, one made now and printed once on stderr.
 */
function httpOptions(settings: Settings, value: string): HttpOptions {
  const match = /^(\[[\da-fA-F:.]+\]|[^\s:/[\]]+):(\d{1,5})$/.exec(value);
  const port = Number(match?.[2]);
  if (match === null || port > 65535) {
    throw BasisError.of("usage", phrase("cli.bad_http", { value: JSON.stringify(value) }));
  }
  const hostname = match[1]!;
  let token = settings.envLookup("BASIS_MCP_TOKEN") || undefined;
  if (token !== undefined && token.length < 32) {
    throw BasisError.of("usage", phrase("cli.short_token"));
  }
  if (token === undefined && !isLoopback(hostname)) {
    const bytes = crypto.getRandomValues(new Uint8Array(32));
    token = btoa(String.fromCharCode(...bytes)).replace(
      /[+/=]/g,
      (c) => c === "+" ? "-" : c === "/" ? "_" : "",
    );
    const words = messages(settings.locale);
    err(`basis-tools: ${words.t("http.token", { token })}\n`);
  }
  return { hostname, port, token };
}
