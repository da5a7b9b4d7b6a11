/**
 * `basis-tools show spawn`: the built-in tool in full: its modes, the environment a command keeps,
 * the configured subagent, named agents and targets, the depth limit, the reach policy, the child
 * policy and the time limits.
 *
 * @module
 */

import { quoteArgv } from "../../approval/shell_quote.ts";
import type { ChildPolicy } from "../../spawn/child.ts";
import { loadSpawnConfig, namedAgents, reachPolicy } from "../../spawn/config.ts";
import { KEPT_ENV, spawnTimeout } from "../../spawn/limits.ts";
import { SHELL } from "../../spawn/run_spawn.ts";
import { showValue } from "../../text.ts";
import { SPAWN_SIDE_EFFECTS } from "../../spawn/types.ts";
import { out, outJson } from "../output.ts";
import { cliMessages } from "../_cli_messages.ts";
import { BUILT_IN } from "../_spawn_row.ts";
import { spawnToolFor } from "../_tools.ts";
import { workspaceRoot } from "../_workspace_root.ts";
import type { Settings } from "../settings.ts";

/**
 * Prints the spawn tool.
 *
 * @param settings The run's settings.
 * @returns The exit code.
 */
export async function showSpawnCommand(settings: Settings): Promise<number> {
  const [root, config] = await Promise.all([
    workspaceRoot(settings),
    loadSpawnConfig(settings.configDir),
  ]);
  const tool = await spawnToolFor(settings, config);
  const effects = tool.sideEffects.join(", ");
  const targets = Object.fromEntries([...config.targets].sort(([a], [b]) => a < b ? -1 : 1));
  const agents = [...namedAgents(config)].sort(([a], [b]) => a < b ? -1 : 1);
  const reach = reachPolicy(config);
  const topChild = config.child ?? {};
  const inputSchema = tool.inputSchema();
  const depth = settings.depth;
  const timeouts = {
    command: spawnTimeout("command", settings.spawnTimeoutMs),
    agent: spawnTimeout("agent", settings.spawnTimeoutMs),
  };
  if (settings.json) {
    outJson({
      name: tool.name,
      description: tool.description(),
      side_effect: effects,
      side_effects: SPAWN_SIDE_EFFECTS,
      source: BUILT_IN,
      cwd: root,
      shell: [SHELL, "-c"],
      kept_env: KEPT_ENV,
      commands: !settings.noShell,
      agent: config.agent ?? null,
      agents: Object.fromEntries(
        agents.map(([name, agent]) => [name, { argv: agent.argv, child: childJson(agent.child) }]),
      ),
      targets,
      depth: depth ?? null,
      max_depth: config.maxDepth,
      reach: { allow: reach.allow, default: reach.default },
      child: childJson(topChild),
      timeout_ms: timeouts,
      input_schema: inputSchema,
      file: config.file,
    });
    return 0;
  }
  const { t } = await cliMessages(settings.locale);
  const labels = {
    effect: t("show.side_effect"),
    source: t("show.source"),
    commands: t("show.commands"),
    cwd: t("show.cwd"),
    targets: t("show.targets"),
    agent: t("show.agent"),
    agents: t("show.agents"),
    reach: t("show.reach"),
    child: t("show.child"),
    depth: t("show.depth"),
    timeout: t("show.timeout"),
    configured: t("show.configured_in"),
  };
  // English keeps its layout ("configured in:" sticks out by one); others align every value.
  const width = settings.locale === "en-US"
    ? 14
    : Math.max(...Object.values(labels).map((label) => label.length + 1)) + 2;
  const field = (label: string, value: string) => {
    const head = `${label}:`;
    return `  ${head.length < width ? head.padEnd(width) : `${head} `}${value}`;
  };
  const targetLines = Object.entries(targets).map(([name, prefix]) =>
    t("show.target_line", { name, prefix: quoteArgv(prefix) })
  );
  const indent = `\n${" ".repeat(width + 2)}`;
  const agentLines = agents.map(([name, agent]) => `@${name}: ${quoteArgv(agent.argv)}`);
  const childText = (policy: ChildPolicy) => {
    const parts: string[] = [];
    if (policy.roster !== undefined) {
      parts.push(
        policy.roster.length === 0
          ? t("show.child_no_tools")
          : t("show.child_roster", { names: policy.roster.join(", ") }),
      );
    }
    if (policy.model !== undefined) parts.push(t("show.child_model", { model: policy.model }));
    if (policy.systemPrompt !== undefined) {
      parts.push(t("show.child_system_prompt", { text: showValue(policy.systemPrompt, 40) }));
    }
    return parts.length === 0 ? t("show.child_inherits") : parts.join("; ");
  };
  // Named as spawn.json names them: "agent", then each "@name".
  const childLines = [
    `agent: ${childText(topChild)}`,
    ...agents.map(([name, agent]) => `@${name}: ${childText(agent.child)}`),
  ];
  const schema = JSON.stringify(inputSchema, null, 2).replaceAll("\n", "\n  ");
  out(
    [
      `${tool.name} — ${tool.description()}`,
      field(
        labels.effect,
        t("show.spawn_effect", {
          effects,
          command: SPAWN_SIDE_EFFECTS.command,
          agent: SPAWN_SIDE_EFFECTS.agent,
        }),
      ),
      field(labels.source, BUILT_IN),
      field(
        labels.commands,
        t("show.commands_env", {
          commands: settings.noShell
            ? t("show.commands_off")
            : t("show.commands_on", { shell: SHELL }),
          env: KEPT_ENV.join(", "),
        }),
      ),
      field(labels.cwd, root),
      field(
        labels.targets,
        targetLines.length === 0 ? t("show.none") : targetLines.join(indent),
      ),
      field(
        labels.agent,
        config.agent === undefined ? t("show.none_configured") : quoteArgv(config.agent),
      ),
      field(labels.agents, agentLines.length === 0 ? t("show.none") : agentLines.join(indent)),
      field(
        labels.depth,
        t("show.depth_value", { depth: depth ?? t("show.depth_unknown"), max: config.maxDepth }),
      ),
      field(
        labels.reach,
        t("show.reach_value", {
          allowed: reach.allow.map((value) => JSON.stringify(value)).join(", "),
          default: JSON.stringify(reach.default),
        }),
      ),
      field(labels.child, childLines.join(indent)),
      field(
        labels.timeout,
        t("show.spawn_timeout", { command: timeouts.command, agent: timeouts.agent }),
      ),
      field(labels.configured, config.file),
      `  ${t("show.input_schema")}:`,
      `  ${schema}`,
    ].join("\n") + "\n",
  );
  return 0;
}

/** A child policy as `--json` shows it: what it overrides, with the preview's key names. */
function childJson(policy: ChildPolicy): Record<string, unknown> {
  return {
    ...(policy.roster === undefined ? {} : { roster: policy.roster }),
    ...(policy.model === undefined ? {} : { model: policy.model }),
    ...(policy.systemPrompt === undefined ? {} : { system_prompt: policy.systemPrompt }),
  };
}
