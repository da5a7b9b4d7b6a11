/**
 * The approver that asks a person through an MCP client's `elicitation/create` request (form
 * mode): allow once, always allow (remembered as a rule, like the terminal prompt's), or deny.
 *
 * @module
 */

export * from "./elicit_approval.ts";
