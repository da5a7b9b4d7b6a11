/**
 * basis-tools as a library: load the declared tools of a workspace (the roster) and call them
 * through the tool contract — builder → tool → single-use execution: schema gate, preview,
 * approval, run, audit, localized errors — with definitions for OpenAI, Anthropic, MCP and Gemini.
 * `serveWorkspace()` serves a workspace's tools over MCP in one call, loading the MCP SDK only
 * then; the `./mcp` entry (`serveMcp`) serves tools a host builds itself.
 *
 * The first group below is what a host uses; the second, the types those signatures name.
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
 * @module
 */

// What a host uses: the roster, the builders and their tools, approvers, definitions, errors.
export { type LoadOptions, loadRoster } from "./manifest/load.ts";
export { loadSpawnConfig, type NamedAgent, type SpawnConfig } from "./spawn/config.ts";
export { loadSandboxPolicy } from "./sandbox/policy.ts";
export { DeclaredToolBuilder, type DeclaredToolOptions } from "./contract/declared_tool.ts";
export { SpawnToolBuilder, type SpawnToolOptions } from "./contract/spawn_tool.ts";
export { type RosterTool, rosterTools, type RosterToolsOptions } from "./contract/roster_tools.ts";
export { checkAvailability, toolProblems } from "./contract/availability.ts";
export { policyApprover, type PolicyApproverOptions } from "./contract/approver.ts";
export { ToolError, type ToolErrorKind } from "./contract/tool_error.ts";
export { DEFINITION_FORMATS } from "./contract/types.ts";
export type { ApprovalRequest, Decision, InputSlot } from "./approval/approve.ts";
export { BasisError, type ErrorCode, ManifestError } from "./errors.ts";
export { english, type Locale, messages, type Phrase } from "./locale/mod.ts";
export { type ServeOptions, serveWorkspace } from "./serve.ts";
export { VERSION } from "./version.ts";
// The tool contract's types (`Tool`, its execution and output, `Approver`, definitions) and the
// roster's (`Roster`, `ToolSpec`), then the other types the signatures above name.
export type * from "./contract/types.ts";
export type * from "./manifest/types.ts";
export type * from "./audit/types.ts";
export type { AvailabilityOptions } from "./contract/availability.ts";
export type { OptionsBuilder } from "./contract/options_builder.ts";
export type { Asker } from "./approval/approve.ts";
export type { ApprovalPolicy } from "./approval/policy.ts";
export type { ToolPreview } from "./approval/preview.ts";
export type { ChangedSinceApproval, ContentChange } from "./approval/rules/types.ts";
export type {
  PromptRequest,
  SpawnPromptRequest,
  TerminalAnswer,
  ToolPromptRequest,
} from "./approval/terminal/types.ts";
export type { ChildPolicy, ChildPreview } from "./spawn/child.ts";
export type { Reach, ReachPolicy } from "./spawn/reach.ts";
export type { SpawnCall, SpawnOutput, SpawnPreview, SpawnSideEffect } from "./spawn/types.ts";
export type {
  GrantLists,
  PreviewSandbox,
  SandboxGrants,
  SandboxMode,
  SandboxOptions,
  SandboxPolicy,
} from "./sandbox/types.ts";
export type { RecordOptions } from "./audit/open_audit_log.ts";
export type { RunOutcome, RunResult, StartFailure } from "./run/mod.ts";
export type { ManifestProblem } from "./errors.ts";
export type {
  Counted,
  EN_US,
  MessageKey,
  MessageParams,
  Messages,
  PhraseParams,
} from "./locale/mod.ts";
export type { EnvLookup } from "./env.ts";
