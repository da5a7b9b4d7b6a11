/**
 * Reading the environment: one lookup type, and a read that never throws. A leaf every seam may
 * import (the locale's detection, the paths, the runner).
 *
 * @module
 */

import { attempt } from "./quietly.ts";

/** Reads one environment variable. */
export type EnvLookup = (name: string) => string | undefined;

/**
 * Reads an environment variable without throwing when Deno's permissions refuse it.
 *
 * @param name The variable's name.
 * @returns Its value, or `undefined` when unset or not permitted.
 */
export function readEnv(name: string): string | undefined {
  return attempt(() => Deno.env.get(name));
}
