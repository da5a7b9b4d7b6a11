/**
 * What the tools share of the OS sandbox once a call is approved. Private to the contract.
 *
 * @module
 */

import { type Phrase, phrase } from "../locale/messages.ts";
import { prepareSandbox } from "../sandbox/plan.ts";
import type { SandboxPlan } from "../sandbox/types.ts";

/**
 * Creates what a confined call may write and does not exist yet.
 *
 * @param plan The call's plan.
 * @returns `undefined` when ready, else why the call cannot start.
 */
export async function prepared(plan: SandboxPlan): Promise<Phrase | undefined> {
  try {
    await prepareSandbox(plan);
    return undefined;
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return phrase("start.sandbox_failed", { detail: detail.split("\n")[0] ?? detail });
  }
}
