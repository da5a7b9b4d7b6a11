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
  const targetLines = Object.entries(targets).map(([name, prefix]) =>
    `${name}: ${quoteArgv(prefix)} <command>`
  );
  const schema = JSON.stringify(SPAWN_INPUT_SCHEMA, null, 2).replaceAll("\n", "\n  ");
  out(
    [
      `${row.name} — ${row.description}`,
      `  side effect:  ${SPAWN_SIDE_EFFECT_TEXT} (a command is ${SPAWN_SIDE_EFFECTS.command}, ` +
      `a subagent ${SPAWN_SIDE_EFFECTS.agent})`,
      `  source:       ${BUILT_IN}`,
      `  commands:     ${
        settings.noShell ? "off (--no-shell)" : `${SHELL} -c <command>`
      }, keeping only ${KEPT_ENV.join(", ")} and the --env pairs`,
      `  cwd:          ${root}`,
      `  targets:      ${
        targetLines.length === 0 ? "(none)" : targetLines.join("\n                ")
      }`,
      `  agent:        ${
        config.agent === undefined ? "(none configured)" : quoteArgv(config.agent)
      }`,
      `  depth:        ${depth ?? "unknown"} (subagents refused at ${config.maxDepth})`,
      `  timeout:      ${timeouts.command} ms for a command, ${timeouts.agent} ms for a subagent`,
      `  configured in: ${config.file}`,
      `  input schema:`,
      `  ${schema}`,
    ].join("\n") + "\n",
  );
  return 0;
}
