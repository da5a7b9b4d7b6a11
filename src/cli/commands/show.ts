/**
 * `basis-tools show NAME`: one tool in full, env values redacted (`show spawn`: the built-in tool).
 *
 * @module
 */

import { quoteArgv } from "../../approval/shell_quote.ts";
import { redact, REDACTED } from "../../redact.ts";
import { SPAWN_TOOL } from "../../spawn/types.ts";
import { out, outJson } from "../output.ts";
import { findTool, rosterFor } from "../_roster.ts";
import type { Settings } from "../settings.ts";

/**
 * Prints one tool.
 *
 * @param settings The run's settings.
 * @param name The tool's name.
 * @returns The exit code.
 */
export async function showCommand(settings: Settings, name: string): Promise<number> {
  if (name === SPAWN_TOOL) {
    const { showSpawnCommand } = await import("./show_spawn.ts");
    return await showSpawnCommand(settings);
  }
  const spec = findTool(await rosterFor(settings), name);
  const env = Object.fromEntries(Object.keys(spec.env).sort().map((key) => [key, REDACTED]));
  // An env value may also have been expanded into the argv or the cwd: hide it there too.
  const secrets = Object.values(spec.env);
  const hide = (text: string) => redact(text, secrets);
  if (settings.json) {
    outJson({
      name: spec.name,
      description: spec.description,
      command: spec.command.map(hide),
      program: hide(spec.program),
      cwd: hide(spec.cwd),
      env,
      side_effect: spec.sideEffect,
      timeout_ms: spec.timeoutMs,
      input_schema: spec.inputSchema,
      source: spec.scope,
      file: spec.file,
    });
    return 0;
  }
  const envText = Object.keys(env).length === 0
    ? "(none)"
    : Object.keys(env).map((key) => `${key}=${REDACTED}`).join(" ");
  const schema = JSON.stringify(spec.inputSchema, null, 2).replaceAll("\n", "\n  ");
  out(
    [
      `${spec.name} — ${spec.description}`,
      `  command:      ${quoteArgv(spec.command.map(hide))}`,
      `  cwd:          ${hide(spec.cwd)}`,
      `  env:          ${envText}`,
      `  side effect:  ${spec.sideEffect}`,
      `  timeout:      ${spec.timeoutMs} ms`,
      `  declared in:  ${spec.file} (${spec.scope})`,
      `  input schema:`,
      `  ${schema}`,
    ].join("\n") + "\n",
  );
  return 0;
}
