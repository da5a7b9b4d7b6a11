/**
 * The spawn tool as `list` and `show` present it beside the declared tools.
 *
 * @module
 */

import type { Locale } from "../locale/locale.ts";
import { namedAgents, type SpawnConfig } from "../spawn/config.ts";
import { spawnDescription } from "../spawn/tool_definition.ts";
import { SPAWN_SIDE_EFFECTS, SPAWN_TOOL } from "../spawn/types.ts";

/** Where `list` says a built-in tool comes from. */
export const BUILT_IN = "built-in";

/**
 * Spawn's side effect as one word list: it depends on the mode (`process` for a command,
 * `local state` for a subagent).
 */
export const SPAWN_SIDE_EFFECT_TEXT = `${SPAWN_SIDE_EFFECTS.command}, ${SPAWN_SIDE_EFFECTS.agent}`;

/** One row of `list`. */
export interface ListRow {
  name: string;
  side_effect: string;
  source: string;
  description: string;
}

/**
 * Spawn's row in `list`: source `built-in`, both side effects, and the description a model sees
 * (which names the configured targets and named agents).
 *
 * @param config The user's spawn configuration.
 * @returns The row.
 */
export function spawnRow(config: SpawnConfig): ListRow {
  return {
    name: SPAWN_TOOL,
    side_effect: SPAWN_SIDE_EFFECT_TEXT,
    source: BUILT_IN,
    description: spawnDescription([...config.targets.keys()], [...namedAgents(config).keys()]),
  };
}

/**
 * Spawn's row in the run's locale: the description a model sees in that language (the contract's,
 * loaded only for a locale other than English).
 *
 * @param config The user's spawn configuration.
 * @param locale The run's locale.
 * @returns The row.
 */
export async function localizedSpawnRow(config: SpawnConfig, locale: Locale): Promise<ListRow> {
  const row = spawnRow(config);
  if (locale === "en-US") return row;
  const { SpawnToolBuilder } = await import("../contract/spawn_tool.ts");
  return { ...row, description: new SpawnToolBuilder(config, { locale }).build().description() };
}
