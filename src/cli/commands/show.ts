/**
 * `basis-tools show NAME`: one tool in full, env values redacted (`show spawn`: the built-in tool).
 *
 * @module
 */

import { quoteArgv } from "../../approval/shell_quote.ts";
import { redact, REDACTED } from "../../redact.ts";
import { SPAWN_TOOL } from "../../spawn/types.ts";
import { out, outJson } from "../output.ts";
import { cliMessages } from "../_cli_messages.ts";
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
      // As declared (paths resolved against the root, "~" kept): what a call asks the sandbox for.
      sandbox: {
        network: spec.sandbox.network,
        write: spec.sandbox.write,
        read: spec.sandbox.read,
      },
      input_schema: spec.inputSchema,
      source: spec.scope,
      file: spec.file,
    });
    return 0;
  }
  const { t } = await cliMessages(settings.locale);
  const envText = Object.keys(env).length === 0
    ? t("show.none")
    : Object.keys(env).map((key) => `${key}=${REDACTED}`).join(" ");
  const schema = JSON.stringify(spec.inputSchema, null, 2).replaceAll("\n", "\n  ");
  const { network, write, read } = spec.sandbox;
  const grants = [
    ...(network ? [t("prompt.sandbox_network")] : []),
    ...(write.length > 0 ? [t("prompt.sandbox_write", { paths: write.map(hide).join(", ") })] : []),
    ...(read.length > 0 ? [t("prompt.sandbox_read", { paths: read.map(hide).join(", ") })] : []),
  ];
  const sandboxText = grants.length === 0
    ? t("show.sandbox_default")
    : t("show.sandbox_grants", { grants: grants.join("; ") });
  const fields: [string, string][] = [
    [t("show.command"), quoteArgv(spec.command.map(hide))],
    [t("show.cwd"), hide(spec.cwd)],
    [t("show.env"), envText],
    [t("show.side_effect"), spec.sideEffect],
    [t("show.timeout"), t("show.ms", { ms: spec.timeoutMs })],
    [t("show.sandbox"), sandboxText],
    [t("show.declared_in"), `${spec.file} (${spec.scope})`],
  ];
  const width = Math.max(...fields.map(([label]) => label.length + 1)) + 2;
  out(
    [
      `${spec.name} — ${spec.description}`,
      ...fields.map(([label, value]) => `  ${`${label}:`.padEnd(width)}${value}`),
      `  ${t("show.input_schema")}:`,
      `  ${schema}`,
    ].join("\n") + "\n",
  );
  return 0;
}
