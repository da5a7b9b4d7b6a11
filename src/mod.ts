/**
 * basis-tools as a library: load the declared tools of a workspace and call them through the tool
 * contract (builder → tool → execution: schema gate, approval, run, localized errors, definitions
 * for OpenAI, Anthropic, MCP and Gemini), or use the seams one by one: check input against a
 * tool's schema, decide a call, run a program with JSON on stdin, parse and run `spawn`.
 *
 * @example Embed a declared tool in a host
 * ```ts ignore
 * import { DeclaredToolBuilder, loadRoster, policyApprover, ToolError } from "@basis/tools";
 * const roster = await loadRoster({ workspace: "examples" });
 * const tool = new DeclaredToolBuilder(roster.tools.get("word_count")!, {
 *   root: roster.root,
 *   approver: policyApprover({ policy: "always" }),
 * }).build();
 * console.log(tool.definition("anthropic")); // {name, description, input_schema}
 * try {
 *   const output = await (await tool.execution({ text: "one two three" })).execute();
 *   console.log(output.result);
 * } catch (error) {
 *   if (error instanceof ToolError && error.isUserFacing()) console.log(error.message);
 *   else throw error;
 * }
 * ```
 *
 * @example Load a workspace's roster and call one tool
 * ```ts ignore
 * import { loadRoster, runProgram, validateInput } from "@basis/tools";
 * const roster = await loadRoster({ workspace: "examples" });
 * const tool = roster.tools.get("word_count")!;
 * const input = { text: "one two three" };
 * await validateInput(tool, input);
 * const result = await runProgram({
 *   program: tool.program,
 *   args: tool.command.slice(1),
 *   cwd: tool.cwd,
 *   stdin: new TextEncoder().encode(JSON.stringify(input)),
 *   env: [tool.env],
 *   timeoutMs: tool.timeoutMs,
 * });
 * console.log(result.stdout);
 * ```
 *
 * @module
 */

export * from "./errors.ts";
export * from "./manifest/mod.ts";
export * from "./schema/mod.ts";
export * from "./run/mod.ts";
export * from "./approval/preview.ts";
export * from "./approval/approve.ts";
export * from "./approval/shell_quote.ts";
export * from "./permissions/mod.ts";
export * from "./spawn/mod.ts";
export * from "./audit/mod.ts";
export * from "./sandbox/mod.ts";
export type * from "./approval/terminal/types.ts";
export type {
  ArgMatcher,
  InputMatcher,
  OperandMatcher,
  RestMarker,
  Rule,
  RuleConditions,
  RuleDecision,
  RuleScope,
  SpawnConditions,
  TextMatcher,
  ToolConditions,
} from "./approval/rules/types.ts";
export * from "./locale/mod.ts";
export * from "./contract/mod.ts";
export { callSecrets, isSecret, MIN_SECRET_LENGTH, redact, REDACTED } from "./redact.ts";
export { VERSION } from "./version.ts";
export type { EnvLookup } from "./paths.ts";
