/**
 * Environment layering for a child: the inherited environment, then each layer in order, later wins.
 * Only the layers are passed to Deno (which adds them over the inherited environment), so the runner
 * needs no permission to read the whole environment. Private to the runner.
 *
 * @module
 */

import { readEnv } from "../paths.ts";

const IS_WINDOWS = Deno.build.os === "windows";

/**
 * Merges environment layers, later wins, into a null-prototype object.
 *
 * @param layers The layers, in order.
 * @returns The variables the layers set.
 */
export function mergeEnvLayers(
  layers: readonly Readonly<Record<string, string>>[],
): Record<string, string> {
  const merged: Record<string, string> = Object.create(null);
  for (const layer of layers) {
    for (const [name, value] of Object.entries(layer)) {
      if (IS_WINDOWS) {
        // Windows names are case-insensitive: the later spelling replaces the earlier one.
        for (const known of Object.keys(merged)) {
          if (known.toUpperCase() === name.toUpperCase()) delete merged[known];
        }
      }
      merged[name] = value;
    }
  }
  return merged;
}

/**
 * One variable as the child will see it: the layers' value, else the inherited one.
 *
 * @param merged The merged layers.
 * @param name The variable's name.
 * @returns Its effective value, or `undefined` when unset or not readable.
 */
export function effectiveVar(
  merged: Readonly<Record<string, string>>,
  name: string,
): string | undefined {
  if (IS_WINDOWS) {
    for (const [key, value] of Object.entries(merged)) {
      if (key.toUpperCase() === name.toUpperCase()) return value;
    }
  } else if (Object.hasOwn(merged, name)) {
    return merged[name];
  }
  return readEnv(name);
}

/**
 * The names of loader variables (`LD_*`, `DYLD_*`) the child would receive; Deno refuses to start
 * programs with them under a scoped `--allow-run`.
 *
 * @param merged The merged layers.
 * @returns Sorted names; the inherited ones only when the environment may be read.
 */
export function loaderVarNames(merged: Readonly<Record<string, string>>): string[] {
  const names = new Set(Object.keys(merged));
  try {
    for (const name of Object.keys(Deno.env.toObject())) names.add(name);
  } catch {
    // Reading the whole environment is not permitted: report what we know.
  }
  return [...names].filter((name) => /^(LD_|DYLD_)/.test(name)).sort();
}
