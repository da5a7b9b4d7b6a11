/**
 * `basis-tools show spawn`: the built-in tool in full: its modes, the environment a command keeps,
 * the configured subagent and targets, the depth limit and the time limits.
 *
 * @module
 */

import { quoteArgv } from "../../approval/shell_quote.ts";
import { loadSpawnConfig } from "../../spawn/config.ts";
import { parseSpawnDepth, SPAWN_DEPTH_VAR } from "../../spawn/depth.ts";
import { KEPT_ENV, spawnTimeout } from "../../spawn/limits.ts";
import { SHELL } from "../../spawn/run_spawn.ts";
import { SPAWN_INPUT_SCHEMA } from "../../spawn/tool_definition.ts";
import { SPAWN_SIDE_EFFECTS } from "../../spawn/types.ts";
import { out, outJson } from "../output.ts";
import { cliMessages } from "../_cli_messages.ts";
import { BUILT_IN, localizedSpawnRow, SPAWN_SIDE_EFFECT_TEXT } from "../_spawn_row.ts";
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
  const row = await localizedSpawnRow(config, settings.locale);
  const targets = Object.fromEntries([...config.targets].sort(([a], [b]) => a < b ? -1 : 1));
  const depth = parseSpawnDepth(settings.envLookup(SPAWN_DEPTH_VAR));
  const timeouts = {
    command: spawnTimeout("command", settings.spawnTimeoutMs),
    agent: spawnTimeout("agent", settings.spawnTimeoutMs),
  };
  if (settings.json) {
    outJson({
      name: row.name,
      description: row.description,
      side_effect: row.side_effect,
      side_effects: SPAWN_SIDE_EFFECTS,
      source: BUILT_IN,
      cwd: root,
      shell: [SHELL, "-c"],
      kept_env: KEPT_ENV,
      commands: !settings.noShell,
      agent: config.agent ?? null,
      targets,
      depth: depth ?? null,
      max_depth: config.maxDepth,
      timeout_ms: timeouts,
      input_schema: SPAWN_INPUT_SCHEMA,
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
  const schema = JSON.stringify(SPAWN_INPUT_SCHEMA, null, 2).replaceAll("\n", "\n  ");
  out(
    [
      `${row.name} — ${row.description}`,
      field(
        labels.effect,
        t("show.spawn_effect", {
          effects: SPAWN_SIDE_EFFECT_TEXT,
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
        targetLines.length === 0 ? t("show.none") : targetLines.join(`\n${" ".repeat(width + 2)}`),
      ),
      field(
        labels.agent,
        config.agent === undefined ? t("show.none_configured") : quoteArgv(config.agent),
      ),
      field(
        labels.depth,
        t("show.depth_value", { depth: depth ?? t("show.depth_unknown"), max: config.maxDepth }),
      ),
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
