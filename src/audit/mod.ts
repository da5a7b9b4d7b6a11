/**
 * The audit trail: every decision (allowed or denied, by a rule, a person or the policy) and every
 * run's outcome, appended as JSON Lines to `audit.jsonl` in the user's state directory, with no
 * secret in it.
 *
 * @module
 */

export * from "./types.ts";
export * from "./audit_path.ts";
export * from "./open_audit_log.ts";
