/**
 * The preview of a spawn call, with the key order pinned (README: "Approval").
 *
 * @module
 */

import type { SandboxGrants } from "../sandbox/types.ts";
import type { SpawnCall, SpawnPreview } from "./types.ts";

/** The target a preview names when the call has none. */
export const LOCAL_TARGET = "local";

/**
 * Builds the preview of a spawn call: `{mode, body, cwd, target}`, `target` `"local"` when none
 * was named.
 *
 * @param call The parsed call.
 * @param cwd The absolute working directory (the workspace root).
 * @param sandbox The command's grants beyond the default, when it has any (else no key).
 * @returns The preview, keys in the pinned order.
 *
 * @example The key order is fixed
 * ```ts
 * import { spawnPreview } from "./preview.ts";
 * const preview = spawnPreview({ mode: "command", body: "ls" }, "/w");
 * console.assert(JSON.stringify(preview) === '{"mode":"command","body":"ls","cwd":"/w","target":"local"}');
 * ```
 */
export function spawnPreview(
  call: SpawnCall,
  cwd: string,
  sandbox?: SandboxGrants,
): SpawnPreview {
  const target = call.mode === "command" && call.target !== undefined ? call.target : LOCAL_TARGET;
  const preview = { mode: call.mode, body: call.body, cwd, target };
  if (sandbox === undefined) return preview;
  const grants = { network: sandbox.network, write: [...sandbox.write], read: [...sandbox.read] };
  return { ...preview, sandbox: grants };
}
