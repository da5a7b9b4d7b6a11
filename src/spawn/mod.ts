/**
 * The `spawn` tool: one string that is either a command (`!cmd`, `!@target cmd`) or a task for a
 * subagent (`@name task` for a named agent), with the typed `reach` beside it. Parsing the string, the preview, the refusals that come before approval, running an
 * approved call, and its result.
 *
 * @example Parse, guard, run
 * ```ts ignore
 * import { loadSpawnConfig, parseSpawnInput, runSpawn, spawnOutput, spawnRefusal } from "./mod.ts";
 * import { english } from "../locale/messages.ts";
 * const parsed = parseSpawnInput({ input: "!ls" });
 * if (!parsed.ok) throw new Error(english(parsed.phrase));
 * const config = await loadSpawnConfig("/home/me/.config/basis");
 * const refusal = spawnRefusal(parsed.call, { noShell: false, depth: 0, config });
 * if (refusal !== undefined) throw new Error(english(refusal));
 * // …ask the approver with spawnPreview(parsed.call, cwd), then:
 * const result = await runSpawn(parsed.call, "/w", { config });
 * console.log(spawnOutput(parsed.call, result));
 * ```
 *
 * @module
 */

export * from "./types.ts";
export * from "./reach.ts";
export * from "./child.ts";
export * from "./grammar.ts";
export * from "./tool_definition.ts";
export * from "./preview.ts";
export * from "./config.ts";
export * from "./lineage.ts";
export * from "./guard.ts";
export * from "./limits.ts";
export * from "./run_spawn.ts";
export * from "./result.ts";
