/**
 * The preview of a spawn call, with the key order pinned (README: "Approval").
 *
 * @module
 */

import type { SpawnCall, SpawnPreview } from "./types.ts";

/** The target a preview names when the call has none. */
export const LOCAL_TARGET = "local";

/**
 * Builds the preview of a spawn call: `{mode, body, cwd, target}`, `target` `"local"` when none
 * was named (for a task: the named agent it is for); then, only when they apply, the command's
 * `sandbox` grants and a task's `reach` and `child`, in that order.
 *
 * @param call The parsed call.
 * @param cwd The absolute working directory (the workspace root).
 * @param extra `sandbox`: the command's grants beyond the default, when it has any; `reach`: the
 *   effective reach, when it is not the policy's default; `child`: what the child will be, when
 *   the child policy overrides anything.
 * @returns The preview, keys in the pinned order.
 *
 * @example The key order is fixed
 * ```ts
 * import { spawnPreview } from "./preview.ts";
 * const preview = spawnPreview({ mode: "command", body: "ls" }, "/w");
 * console.assert(JSON.stringify(preview) === '{"mode":"command","body":"ls","cwd":"/w","target":"local"}');
 * const shown = spawnPreview({ mode: "agent", body: "review", target: "reviewer" }, "/w", {
 *   child: { roster: ["lint"] },
 * });
 * console.assert(JSON.stringify(shown).endsWith(',"target":"reviewer","child":{"roster":["lint"]}}'));
 * ```
 */
export function spawnPreview(
  call: SpawnCall,
  cwd: string,
  extra: { readonly [K in "sandbox" | "reach" | "child"]?: SpawnPreview[K] | undefined } = {},
): SpawnPreview {
  const { sandbox, reach, child } = extra;
  return {
    mode: call.mode,
    body: call.body,
    cwd,
    target: call.target ?? LOCAL_TARGET,
    ...(sandbox === undefined ? {} : {
      sandbox: { network: sandbox.network, write: [...sandbox.write], read: [...sandbox.read] },
    }),
    ...(reach === undefined ? {} : { reach }),
    ...(child === undefined ? {} : { child }),
  };
}
