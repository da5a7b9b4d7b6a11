/**
 * What the tools share of the OS sandbox once a call is approved. Private to the contract.
 *
 * @module
 */

import { type Phrase, phrase } from "../locale/messages.ts";
import type { RunResult } from "../run/types.ts";
import { prepareSandbox, sandboxFailed } from "../sandbox/plan.ts";
import type { SandboxOptions, SandboxPlan } from "../sandbox/types.ts";

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

/**
 * After a run: when bwrap could not set a confined call up, the next call asks again whether it
 * works here.
 *
 * @param plan The call's plan.
 * @param options The tool's sandbox options.
 * @param result How the run ended.
 */
export function checkedRun(
  plan: SandboxPlan,
  options: SandboxOptions | undefined,
  result: RunResult,
): void {
  if (result.startReason?.key === "start.sandbox_failed") sandboxFailed(plan, options);
}
