/**
 * basis-tools as a library: load the declared tools of a workspace, check input against a tool's
 * schema, decide a call, and run a program with JSON on stdin.
 *
 * @example Load a workspace's roster
 * ```ts ignore
 * import { loadRoster } from "@basis/tools";
 * const roster = await loadRoster({ workspace: "examples" });
 * console.log([...roster.tools.keys()]);
 * ```
 *
 * @module
 */

export * from "./errors.ts";
export type * from "./manifest/types.ts";
export type * from "./run/types.ts";
export * from "./approval/preview.ts";
export * from "./approval/approve.ts";
export * from "./approval/shell_quote.ts";
