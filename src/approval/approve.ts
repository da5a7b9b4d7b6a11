/**
 * Deciding whether a call may run. The order is fixed: remembered rules first (none yet), then the
 * approver chosen by `--approve`. With `prompt` and no one to ask, the call is denied: fail closed.
 *
 * @module
 */

import type { SideEffect } from "../manifest/types.ts";
import type { ToolPreview } from "./preview.ts";

/** How calls that no rule answers are decided. */
export type ApprovalPolicy = "prompt" | "always" | "never";

/** The policies, for parsing `--approve` and `BASIS_APPROVE`. */
export const APPROVAL_POLICIES: readonly ApprovalPolicy[] = ["prompt", "always", "never"];

/** What is being asked about. */
export interface ApprovalRequest {
  readonly tool: string;
  readonly sideEffect: SideEffect;
  readonly preview: ToolPreview;
}

/** The answer, and who gave it. */
export interface Decision {
  readonly allowed: boolean;
  /** `policy` (the `--approve` flag), `prompt` (a person), or `rule` (a remembered rule). */
  readonly by: "policy" | "prompt" | "rule";
  /** Why, in one line, for denials: shown to the caller. */
  readonly reason: string | undefined;
}

/** Settings for {@linkcode decide}. */
export interface ApprovalOptions {
  /** @default "prompt" */
  policy?: ApprovalPolicy;
}

/**
 * Decides one call.
 *
 * @param request The tool, its side effect and the preview.
 * @param options The policy.
 * @returns The decision; a denial carries a one-line reason saying how to allow the call.
 * @example A policy of always allows
 * ```ts
 * import { decide } from "./approve.ts";
 * const preview = { tool: "echo", command: ["cat"], cwd: "/w", input: {} };
 * const decision = await decide({ tool: "echo", sideEffect: "process", preview }, { policy: "always" });
 * console.assert(decision.allowed);
 * ```
 */
export function decide(request: ApprovalRequest, options: ApprovalOptions = {}): Promise<Decision> {
  const policy = options.policy ?? "prompt";
  const name = JSON.stringify(request.tool);
  if (policy === "always") {
    return Promise.resolve({ allowed: true, by: "policy", reason: undefined });
  }
  if (policy === "never") {
    return Promise.resolve({
      allowed: false,
      by: "policy",
      reason: `Call of tool ${name} denied by --approve never`,
    });
  }
  return Promise.resolve({
    allowed: false,
    by: "policy",
    reason:
      `Call of tool ${name} denied: no remembered rule allows it and no one can be asked; allow it with --approve always (or BASIS_APPROVE=always)`,
  });
}
