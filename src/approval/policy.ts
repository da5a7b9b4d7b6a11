/**
 * The approval policies (`--approve`), apart from the approver itself, so that parsing the command
 * line does not load the rules machinery.
 *
 * @module
 */

/** How calls that no rule answers are decided. */
export type ApprovalPolicy = "prompt" | "always" | "never";

/** The policies, for parsing `--approve` and `BASIS_APPROVE`. */
export const APPROVAL_POLICIES: readonly ApprovalPolicy[] = ["prompt", "always", "never"];
