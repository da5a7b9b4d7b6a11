/**
 * `basis-tools show NAME`: one tool in full, env values redacted (`show spawn`: the built-in tool).
 *
 * @module
 */

import { displayArg, visibleLines } from "../../approval/shell_quote.ts";
import { callSecrets, redact, REDACTED, redactValue } from "../../redact.ts";
import { SPAWN_TOOL } from "../../spawn/types.ts";
import { out, outJson } from "../output.ts";
import { cliMessages } from "../_cli_messages.ts";
import { findTool, requireServed, rosterFor } from "../_roster.ts";
import type { Settings } from "../settings.ts";
import { showSpawnCommand } from "./show_spawn.ts";

/**
 * Prints one tool.
 *
 * @param settings The run's settings.
 * @param name The tool's name.
 * @returns The exit code.
 */
export async function showCommand(settings: Settings, name: string): Promise<number> {
  requireServed(settings, name);
  if (name === SPAWN_TOOL) {
    return await showSpawnCommand(settings);
  }
  const spec = findTool(await rosterFor(settings), name);
  const env = Object.fromEntries(Object.keys(spec.env).sort().map((key) => [key, REDACTED]));
  // An env value (or an --env one) may also be in the argv, the cwd, the description, a schema or
  // the file's path: everything shown is hidden through the same secrets.
  const secrets = callSecrets(spec.env, settings.env);
  const hide = (text: string) => redact(text, secrets);
  const fromInput = new Map((spec.inputArguments ?? []).map((arg) => [arg.index, arg.field]));
  if (settings.json) {
    outJson(redactValue({
      name: spec.name,
      ...(spec.title === undefined ? {} : { title: spec.title }),
      description: spec.description,
      // An argument taken from the input as the manifest writes it.
      command: spec.command.map((arg, index) => {
        const field = fromInput.get(index);
        return field === undefined ? hide(arg) : { input: field };
      }),
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
      ...(spec.files === undefined ? {} : { files: spec.files }),
      input_schema: spec.inputSchema,
      ...(spec.outputSchema === undefined ? {} : { output_schema: spec.outputSchema }),
      source: spec.scope,
      file: spec.file,
    }, secrets));
    return 0;
  }
  const { t } = await cliMessages(settings.locale);
  const envText = Object.keys(env).length === 0
    ? t("show.none")
    : Object.keys(env).map((key) => `${key}=${REDACTED}`).join(" ");
  const indented = (value: unknown) => JSON.stringify(value, null, 2).replaceAll("\n", "\n  ");
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
    ...(spec.title === undefined ? [] : [[t("show.title"), spec.title] as [string, string]]),
    // An argument taken from the input shows as <name>, unquoted: a literal "<name>" is quoted.
    [
      t("show.command"),
      spec.command.map((arg, i) => fromInput.has(i) ? arg : displayArg(hide(arg))).join(" "),
    ],
    [t("show.cwd"), hide(spec.cwd)],
    [t("show.env"), envText],
    [t("show.side_effect"), spec.sideEffect],
    [t("show.timeout"), t("show.ms", { ms: spec.timeoutMs })],
    [t("show.sandbox"), sandboxText],
    ...(spec.files === undefined
      ? []
      : [[t("show.files"), spec.files.join(", ")] as [string, string]]),
    [t("show.declared_in"), `${spec.file} (${spec.scope})`],
  ];
  const width = Math.max(...fields.map(([label]) => label.length + 1)) + 2;
  // Nothing the manifest wrote reaches the terminal as a control character (escapes instead).
  out(visibleLines(hide(
    [
      `${spec.name} — ${spec.description}`,
      ...fields.map(([label, value]) => `  ${`${label}:`.padEnd(width)}${value}`),
      `  ${t("show.input_schema")}:`,
      `  ${indented(spec.inputSchema)}`,
      ...(spec.outputSchema === undefined
        ? []
        : [`  ${t("show.output_schema")}:`, `  ${indented(spec.outputSchema)}`]),
    ].join("\n") + "\n",
  )));
  return 0;
}
