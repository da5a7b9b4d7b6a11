/**
 * `basis-tools show NAME`: one tool in full, env values redacted; `show spawn`: the built-in tool
 * in full: its modes, the environment a command keeps, the configured subagent, named agents and
 * targets, the depth limit, the reach policy, the child policy and the time limits.
 *
 * @module
 */

import { displayArg, quoteArgv, visibleLines } from "../../approval/shell_quote.ts";
import { type Messages, messages } from "../../locale/messages.ts";
import { callSecrets, REDACTED, redactorOf, secretEnv } from "../../redact.ts";
import type { ChildPolicy } from "../../spawn/child.ts";
import { loadSpawnConfig, namedAgents, reachPolicy } from "../../spawn/config.ts";
import { KEPT_ENV, spawnTimeout } from "../../spawn/limits.ts";
import { SHELL } from "../../spawn/run_spawn.ts";
import { SPAWN_SIDE_EFFECTS, SPAWN_TOOL } from "../../spawn/types.ts";
import { showValue } from "../../text.ts";
import { out, outJson } from "../output.ts";
import { findTool, requireServed, rosterFor, workspaceRoot } from "../_roster.ts";
import { toolContext } from "../_tools.ts";
import { spawnTool } from "../../contract/spawn_tool.ts";
import type { Settings } from "../settings.ts";
import type { ToolSpec } from "../../manifest/types.ts";

/** A labelled field; without a value it is left out, with several lines they are aligned. */
type Field = [label: string, value: string | readonly string[] | undefined];

/**
 * Prints one tool.
 *
 * @param settings The run's settings.
 * @param name The tool's name.
 * @returns The exit code.
 */
export async function showCommand(settings: Settings, name: string): Promise<number> {
  requireServed(settings, name);
  if (name === SPAWN_TOOL) return await showSpawn(settings);
  const spec = findTool(await rosterFor(settings), name);
  // An env value (or an --env one) may also be in the argv, the cwd, the description, a schema or
  // the file's path: everything shown is hidden through the same secrets.
  const redactor = redactorOf(callSecrets(secretEnv(spec), settings.env));
  const hide = (text: string) => redactor.text(text);
  const fromInput = new Map((spec.inputArguments ?? []).map((arg) => [arg.index, arg]));
  const { network, write, read } = spec.sandbox;
  if (settings.json) {
    outJson(redactor.value({
      name: spec.name,
      title: spec.title,
      description: spec.description,
      // An argument taken from the input as the manifest writes it.
      command: spec.command.map((arg, i) => {
        const { field, flag, prefix } = fromInput.get(i) ?? {};
        return field === undefined ? arg : { input: field, flag, prefix };
      }),
      program: spec.program,
      cwd: spec.cwd,
      // A public value as it is (any secret inside it hidden with the rest), a secret one never.
      env: Object.fromEntries(
        Object.keys(spec.env).sort().map((key) => [
          key,
          spec.publicEnv?.includes(key) ? spec.env[key] : REDACTED,
        ]),
      ),
      side_effect: spec.sideEffect,
      timeout_ms: spec.timeoutMs,
      success_exit_codes: spec.successExitCodes ?? [0],
      // As declared (paths resolved against the root, "~" kept): what a call asks the sandbox for.
      sandbox: { network, write, read },
      files: spec.files,
      input_schema: spec.inputSchema,
      output_schema: spec.outputSchema,
      output: spec.output ?? "text",
      source: spec.scope,
      file: spec.file,
    }));
    return 0;
  }
  const words = messages(settings.locale);
  const { t } = words;
  const env = envText(spec, hide);
  const success = spec.successExitCodes?.join(", ");
  const lines = [
    `${spec.name} — ${spec.description}`,
    ...fieldLines([
      [t("show.title"), spec.title],
      [t("show.command"), commandText(spec, hide)],
      [t("show.cwd"), spec.cwd],
      [t("show.env"), env === "" ? t("show.none") : env],
      [t("show.side_effect"), spec.sideEffect],
      [t("show.timeout"), t("show.ms", { ms: spec.timeoutMs })],
      [t("show.success"), success],
      [t("show.output"), spec.output && t("show.output_content")],
      [t("show.sandbox"), sandboxText(spec, words)],
      [t("show.files"), spec.files?.join(", ")],
      [t("show.declared_in"), `${spec.file} (${spec.scope})`],
    ]),
    ...schemaLines(t("show.input_schema"), spec.inputSchema),
    ...(spec.outputSchema === undefined
      ? []
      : schemaLines(t("show.output_schema"), spec.outputSchema)),
  ];
  // Nothing the manifest wrote reaches the terminal as a control character (escapes instead).
  out(visibleLines(hide(`${lines.join("\n")}\n`)));
  return 0;
}

/**
 * A tool's command as help and show print it: an argument taken from the input as `<name>`,
 * unquoted (a literal "<name>" is quoted), an optional one in brackets (`[-i]`,
 * `[--max-count=<max>]`), the others hidden and quoted for a shell.
 *
 * @param spec The tool.
 * @param hide What hides its secrets.
 * @returns The command line.
 */
export function commandText(spec: ToolSpec, hide: (text: string) => string): string {
  const fromInput = new Map(spec.inputArguments?.map((arg) => [arg.index, arg]));
  return spec.command.map((arg, i) => {
    const { field, flag, prefix } = fromInput.get(i) ?? {};
    if (field === undefined) return displayArg(hide(arg));
    if (flag !== undefined) return `[${displayArg(hide(flag))}]`;
    return prefix === undefined ? `<${field}>` : `[${displayArg(hide(prefix))}<${field}>]`;
  }).join(" ");
}

/**
 * A tool's `env` as help and show print it: `NAME=value` for a public variable (hidden, then
 * quoted for a shell), `NAME=[redacted]` for a secret one, sorted by name.
 *
 * @param spec The tool.
 * @param hide What hides its secrets.
 * @returns The pairs, joined by spaces (`""` when it sets none).
 */
export function envText(spec: ToolSpec, hide: (text: string) => string): string {
  return Object.keys(spec.env).sort().map((key) =>
    spec.publicEnv?.includes(key)
      ? displayArg(hide(`${key}=${spec.env[key]}`))
      : `${key}=${REDACTED}`
  ).join(" ");
}

/**
 * What a tool's sandbox grants beyond the default, as show and help print it.
 *
 * @param spec The tool.
 * @param words The messages of the run's locale.
 * @returns The grants in a few words, or that it has none.
 */
export function sandboxText(spec: ToolSpec, { t }: Messages): string {
  const { network, write, read } = spec.sandbox;
  const grants = [
    network ? [t("prompt.sandbox_network")] : [],
    write.length > 0 ? [t("prompt.sandbox_write", { paths: write.join(", ") })] : [],
    read.length > 0 ? [t("prompt.sandbox_read", { paths: read.join(", ") })] : [],
  ].flat();
  return grants.length === 0
    ? t("show.sandbox_default")
    : t("show.sandbox_grants", { grants: grants.join("; ") });
}

/** A schema under its label, as indented JSON. */
function schemaLines(label: string, schema: unknown): string[] {
  return [`  ${label}:`, `  ${JSON.stringify(schema, null, 2).replaceAll("\n", "\n  ")}`];
}

/**
 * The fields, two spaces in, their values aligned `width` cells after that (a label too long for
 * it takes one space); a value of several lines goes on under the first.
 */
function fieldLines(fields: readonly Field[], width?: number): string[] {
  width ??= Math.max(...fields.map(([label, value]) => value === undefined ? 0 : label.length)) + 3;
  return fields.flatMap(([label, value]) => {
    if (value === undefined) return [];
    const head = `${label}:`;
    const lines = typeof value === "string" ? value : value.join(`\n${" ".repeat(width! + 2)}`);
    return [`  ${head.length < width! ? head.padEnd(width!) : `${head} `}${lines}`];
  });
}

async function showSpawn(settings: Settings): Promise<number> {
  const [root, config] = await Promise.all([
    workspaceRoot(settings),
    loadSpawnConfig(settings.configDir),
  ]);
  const tool = spawnTool(config, toolContext(settings));
  const effects = tool.sideEffects.join(", ");
  const targets = Object.fromEntries([...config.targets].sort(([a], [b]) => a < b ? -1 : 1));
  const agents = [...namedAgents(config)].sort(([a], [b]) => a < b ? -1 : 1);
  const reach = reachPolicy(config);
  const { depth, noShell } = settings;
  const limit = (mode: "command" | "agent") => spawnTimeout(mode, settings.spawnTimeoutMs);
  const timeouts = { command: limit("command"), agent: limit("agent") };
  if (settings.json) {
    // A child policy as the preview names it: what it overrides.
    const childJson = ({ roster, model, systemPrompt }: ChildPolicy) => ({
      roster,
      model,
      system_prompt: systemPrompt,
    });
    outJson({
      name: tool.name,
      description: tool.description(),
      side_effect: effects,
      side_effects: SPAWN_SIDE_EFFECTS,
      source: "built-in",
      cwd: root,
      shell: [SHELL, "-c"],
      kept_env: KEPT_ENV,
      commands: !noShell,
      agent: config.agent ?? null,
      agents: Object.fromEntries(
        agents.map(([name, agent]) => [name, { argv: agent.argv, child: childJson(agent.child) }]),
      ),
      targets,
      depth: depth ?? null,
      max_depth: config.maxDepth,
      reach: { allow: reach.allow, default: reach.default },
      child: childJson(config.child ?? {}),
      timeout_ms: timeouts,
      input_schema: tool.inputSchema(),
      file: config.file,
    });
    return 0;
  }
  const { t } = messages(settings.locale);
  const childText = ({ roster, model, systemPrompt }: ChildPolicy) => {
    const parts = [
      roster === undefined
        ? undefined
        : roster.length === 0
        ? t("show.child_no_tools")
        : t("show.child_roster", { names: roster.join(", ") }),
      model === undefined ? undefined : t("show.child_model", { model }),
      systemPrompt === undefined
        ? undefined
        : t("show.child_system_prompt", { text: showValue(systemPrompt, 40) }),
    ].filter((part) => part !== undefined);
    return parts.length === 0 ? t("show.child_inherits") : parts.join("; ");
  };
  const orNone = (lines: string[]) => lines.length === 0 ? t("show.none") : lines;
  const targetLines = orNone(
    Object.entries(targets).map(([name, prefix]) =>
      t("show.target_line", { name, prefix: quoteArgv(prefix) })
    ),
  );
  const agentLines = orNone(agents.map(([name, agent]) => `@${name}: ${quoteArgv(agent.argv)}`));
  const { command, agent } = SPAWN_SIDE_EFFECTS;
  const fields: Field[] = [
    [t("show.side_effect"), t("show.spawn_effect", { effects, command, agent })],
    [t("show.source"), "built-in"],
    [
      t("show.commands"),
      t("show.commands_env", {
        commands: noShell ? t("show.commands_off") : t("show.commands_on", { shell: SHELL }),
        env: KEPT_ENV.join(", "),
      }),
    ],
    [t("show.cwd"), root],
    [t("show.targets"), targetLines],
    [
      t("show.agent"),
      config.agent === undefined ? t("show.none_configured") : quoteArgv(config.agent),
    ],
    [t("show.agents"), agentLines],
    [
      t("show.depth"),
      t("show.depth_value", { depth: depth ?? t("show.depth_unknown"), max: config.maxDepth }),
    ],
    [
      t("show.reach"),
      t("show.reach_value", {
        allowed: reach.allow.map((value) => JSON.stringify(value)).join(", "),
        default: JSON.stringify(reach.default),
      }),
    ],
    // Named as spawn.json names them: "agent", then each "@name".
    [t("show.child"), [
      `agent: ${childText(config.child ?? {})}`,
      ...agents.map(([name, agent]) => `@${name}: ${childText(agent.child)}`),
    ]],
    [t("show.timeout"), t("show.spawn_timeout", timeouts)],
    [t("show.configured_in"), config.file],
  ];
  // English keeps its layout ("configured in:" sticks out by one); others align every value.
  const lines = fieldLines(fields, settings.locale === "en-US" ? 14 : undefined);
  const head = `${tool.name} — ${tool.description()}`;
  out(
    [head, ...lines, ...schemaLines(t("show.input_schema"), tool.inputSchema())].join("\n") + "\n",
  );
  return 0;
}
