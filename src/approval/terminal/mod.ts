/**
 * The terminal approver: asks a person at a terminal whether a call may run.
 *
 * @module
 */

export * from "./types.ts";
export * from "./prompt_approval.ts";
