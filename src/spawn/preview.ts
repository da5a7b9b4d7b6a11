/**
 * The preview of a spawn call, with the key order pinned (README: "Approval").
 *
 * @module
 */

import type { ChildPreview } from "./child.ts";
import type { Reach } from "./reach.ts";
import type { SandboxGrants } from "../sandbox/types.ts";
import type { SpawnCall, SpawnPreview } from "./types.ts";

/** The target a preview names when the call has none. */
export const LOCAL_TARGET = "local";

/**
 * Builds the preview of a spawn call: `{mode, body, cwd, target}`, `target` `"local"` when none
 * was named (for a task: the named agent it is for).
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
  const target = call.target ?? LOCAL_TARGET;
  const preview = { mode: call.mode, body: call.body, cwd, target };
  if (sandbox === undefined) return preview;
  const grants = { network: sandbox.network, write: [...sandbox.write], read: [...sandbox.read] };
  return { ...preview, sandbox: grants };
}

/** What a delegated task adds to its preview. */
export interface Delegation {
  /** The effective reach, when it is not the policy's default. */
  readonly reach?: Reach | undefined;
  /** What the child will be, when the child policy overrides anything. */
  readonly child?: ChildPreview | undefined;
}

/**
 * A task's preview with what its delegation adds: `reach` (only when not the default), then
 * `child` (only when the policy overrides something), after every other key. With neither, the
 * preview is returned as it is.
 *
 * @param preview The preview from {@linkcode spawnPreview}.
 * @param delegation The reach and the child, when they apply.
 * @returns The preview.
 *
 * @example A child policy shows; no policy changes nothing
 * ```ts
 * import { spawnPreview, withDelegation } from "./preview.ts";
 * const preview = spawnPreview({ mode: "agent", body: "review", target: "reviewer" }, "/w");
 * console.assert(withDelegation(preview, {}) === preview);
 * const shown = withDelegation(preview, { child: { roster: ["lint"] } });
 * console.assert(JSON.stringify(shown).endsWith(',"target":"reviewer","child":{"roster":["lint"]}}'));
 * ```
 */
export function withDelegation(preview: SpawnPreview, delegation: Delegation): SpawnPreview {
  const { reach, child } = delegation;
  if (reach === undefined && child === undefined) return preview;
  return {
    ...preview,
    ...(reach === undefined ? {} : { reach }),
    ...(child === undefined ? {} : { child }),
  };
}
