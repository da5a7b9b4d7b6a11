/**
 * The terminal approver: asks a person at a terminal whether a call may run, and says which rule
 * an "always allow" or "never" answer remembers.
 *
 * @module
 */

export * from "./types.ts";
export * from "./prompt_approval.ts";
export * from "./rule_for_always.ts";
