/**
 * `basis-tools mcp`: serve the roster to an MCP client over stdio. Stdout carries the protocol
 * and nothing else; everything this program has to say goes to stderr.
 *
 * @module
 */

import { BasisError, errorLines } from "../../errors.ts";
import { messages } from "../../locale/messages.ts";
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
 * @returns 0 once an idle server is stopped (the client closed stdin, or SIGINT, SIGTERM or
 *   SIGHUP: clients stop servers that way); 130 when that interrupted a call that was running; 6
 *   when a manifest file is invalid at start; 2 for a bad `-C`.
 */
export async function mcpCommand(settings: Settings): Promise<number> {
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
