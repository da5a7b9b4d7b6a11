/**
 * The spawn tool as `list`, `show` and `help` present it beside the declared tools: read from the
 * contract's tool, so its name, side effects and description are the ones a model sees.
 *
 * @module
 */

import type { SpawnConfig } from "../spawn/config.ts";
import { SPAWN_SIDE_EFFECTS, SPAWN_TOOL } from "../spawn/types.ts";
import type { Settings } from "./settings.ts";
import { spawnToolFor } from "./_tools.ts";

/** Where `list` says a built-in tool comes from. */
export const BUILT_IN = "built-in";

/**
 * Spawn's side effects as one word list, for a spawn that cannot be built (a broken `spawn.json`):
 * what its tool's `sideEffects` would say.
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
 * Spawn's row in `list`: source `built-in`, its side effects, and the description a model sees in
 * the run's locale (which names the configured targets and named agents).
 *
 * @param settings The run's settings.
 * @param config The user's spawn configuration.
 * @returns The row.
 */
export async function spawnRow(settings: Settings, config: SpawnConfig): Promise<ListRow> {
  const tool = await spawnToolFor(settings, config);
  return {
    name: SPAWN_TOOL,
    side_effect: tool.sideEffects.join(", "),
    source: BUILT_IN,
    description: tool.description(),
  };
}
