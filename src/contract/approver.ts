/**
 * The approver a tool uses unless its host brings its own: remembered rules, then a policy
 * (`prompt`, `always`, `never`), then a person at the terminal — the same decision the CLI makes.
 *
 * @module
 */

import { decide, type PolicyApproverOptions } from "../approval/approve.ts";
import type { Approver } from "./types.ts";

export type { PolicyApproverOptions } from "../approval/approve.ts";

/**
 * An approver that decides as the CLI does: a remembered rule first, then the policy; with
 * `prompt`, a person at the terminal (no terminal: denied, saying how to allow the call).
 *
 * @param options The policy, where rules live, the workspace root, and how to ask.
 * @returns The approver.
 * @example Allow every call no rule denies
 * ```ts ignore
 * import { policyApprover } from "./approver.ts";
 * import { DeclaredToolBuilder } from "./declared_tool.ts";
 * // spec: a ToolSpec from loadRoster()
 * const tool = new DeclaredToolBuilder(spec, {
 *   approver: policyApprover({ policy: "always", configDir: "/home/me/.config/basis" }),
 * }).build();
 * ```
 */
export function policyApprover(options: PolicyApproverOptions = {}): Approver {
  return (request, context) =>
    decide(request, { ...options, secrets: context.secrets, signal: context.signal });
}
