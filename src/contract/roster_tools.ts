/**
 * Every tool of a roster under the contract: the declared tools in roster order, then `spawn`.
 *
 * @module
 */

import type { Locale } from "../locale/locale.ts";
import type { Roster } from "../manifest/types.ts";
import type { SpawnConfig } from "../spawn/config.ts";
import { type CallContext, contextOf } from "./context.ts";
import { declaredTool, type DeclaredToolOptions } from "./declared_tool.ts";
import { spawnTool, type SpawnToolOptions } from "./spawn_tool.ts";
import type { DeclaredToolExtra, SpawnToolExtra, Tool } from "./types.ts";

/** A tool of a roster: a declared one or spawn. */
export type RosterTool = Tool<DeclaredToolExtra> | Tool<SpawnToolExtra>;

/** Options of {@linkcode rosterTools}. */
export interface RosterToolsOptions {
  /**
   * The language of every tool (overrides the locale in `declared` and `spawn`).
   *
   * @default {"en-US"}
   */
  locale?: Locale | string;
  /**
   * Options of every declared tool.
   *
   * @default {{ root: roster.root }}
   */
  declared?: DeclaredToolOptions;
  /**
   * Options of spawn.
   *
   * @default {{ root: roster.root }}
   */
  spawn?: SpawnToolOptions;
}

/**
 * Builds every usable tool of a roster: the declared tools in roster order (those in
 * `roster.unavailable` are left out), then `spawn`.
 *
 * @param roster The roster from `loadRoster()`.
 * @param spawnConfig The spawn configuration from `loadSpawnConfig()`; `undefined` leaves spawn
 *   out (its configuration cannot be used).
 * @param options The locale and each kind's options.
 * @returns The tools.
 * @example Print OpenAI definitions of a workspace's tools
 * ```ts ignore
 * import { loadRoster, loadSpawnConfig, rosterTools } from "@basis/tools";
 * const roster = await loadRoster({ workspace: "examples" });
 * const tools = rosterTools(roster, await loadSpawnConfig(roster.configDir));
 * console.log(JSON.stringify(tools.map((tool) => tool.definition("openai"))));
 * ```
 */
export function rosterTools(
  roster: Roster,
  spawnConfig: SpawnConfig | undefined,
  options: RosterToolsOptions = {},
): RosterTool[] {
  const locale = options.locale === undefined ? {} : { locale: options.locale };
  const of = (given: DeclaredToolOptions | SpawnToolOptions = {}) =>
    contextOf({ root: roster.root, ...given, ...locale });
  return toolsOf(roster, spawnConfig, of(options.declared), of(options.spawn));
}

/**
 * Every usable tool of a roster built on run contexts (how the CLI and the MCP server build
 * theirs): the declared tools in roster order, then `spawn` unless its configuration is
 * `undefined`. A context without a root gets the roster's.
 *
 * @param roster The roster.
 * @param spawnConfig The spawn configuration, or `undefined` to leave spawn out.
 * @param context The run context of the declared tools.
 * @param spawnContext Spawn's. @default context
 * @returns The tools.
 */
export function toolsOf(
  roster: Roster,
  spawnConfig: SpawnConfig | undefined,
  context: CallContext,
  spawnContext: CallContext = context,
): RosterTool[] {
  const rooted = (ctx: CallContext) => ctx.root === undefined ? { ...ctx, root: roster.root } : ctx;
  const tools: RosterTool[] = [...roster.tools.values()].map((spec) =>
    declaredTool(spec, rooted(context))
  );
  if (spawnConfig !== undefined) tools.push(spawnTool(spawnConfig, rooted(spawnContext)));
  return tools;
}
