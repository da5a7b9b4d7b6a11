/**
 * Deno as the outer confinement: the least-privilege permissions a workspace needs, derived from
 * its manifests, and the ways to write them out (flags, JSON, a `deno.json` permission set, a
 * `deno compile` command).
 *
 * @example Print the flags for a workspace
 * ```ts ignore
 * import { loadRoster } from "../manifest/load.ts";
 * import { derivePermissions, formatPermissions } from "./mod.ts";
 * const derived = derivePermissions(await loadRoster({ workspace: "examples" }));
 * console.log(formatPermissions(derived, "flags"));
 * ```
 *
 * @module
 */

export * from "./types.ts";
export * from "./derive.ts";
export * from "./format.ts";
