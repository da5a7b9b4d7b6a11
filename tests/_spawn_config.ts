/**
 * A spawn configuration for tests: no agent, no targets, the default depth limit, and whatever
 * the test sets.
 *
 * @module
 */

import { DEFAULT_MAX_DEPTH, type SpawnConfig } from "../src/spawn/config.ts";

/**
 * A spawn configuration as `loadSpawnConfig()` would give it.
 *
 * @param fields What the test sets.
 * @returns The configuration.
 */
export function spawnConfig(fields: Partial<SpawnConfig> = {}): SpawnConfig {
  return {
    file: "/c/spawn.json",
    agent: undefined,
    targets: new Map(),
    maxDepth: DEFAULT_MAX_DEPTH,
    ...fields,
  } as SpawnConfig;
}
