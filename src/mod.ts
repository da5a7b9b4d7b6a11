/**
 * basis-tools as a library: load the declared tools of a workspace (the roster) and call them
 * through the tool contract — builder → tool → single-use execution: schema gate, preview,
 * approval, run, audit, localized errors — with definitions for OpenAI, Anthropic, MCP and Gemini.
 * The MCP server itself is the `./mcp` entry (`serveMcp`), kept apart so that this one never loads
 * the MCP SDK.
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

// The contract: builder → tool → execution.
export {
  type AvailabilityOptions,
  checkAvailability,
  DeclaredToolBuilder,
  type DeclaredToolOptions,
  OptionsBuilder,
  policyApprover,
  type PolicyApproverOptions,
  type RosterTool,
  rosterTools,
  type RosterToolsOptions,
  SpawnToolBuilder,
  type SpawnToolOptions,
  ToolError,
  type ToolErrorKind,
  type ToolErrorOptions,
  toolProblems,
} from "./contract/mod.ts";
export type {
  Approver,
  ApproverContext,
  AuditSink,
  DeclaredToolExtra,
  ExecuteOptions,
  ExecutionOptions,
  OutputChunk,
  SpawnToolExtra,
  Tool,
  ToolBuilder,
  ToolExecution,
  ToolImage,
  ToolMetadata,
  ToolOutput,
  ToolService,
} from "./contract/mod.ts";
// What an approver is asked, and what it answers.
export type { ApprovalRequest, Asker, Decision } from "./approval/approve.ts";
export type { ApprovalPolicy } from "./approval/policy.ts";
export type { ChangedSinceApproval, ContentChange } from "./approval/rules/types.ts";
export type { ToolPreview } from "./approval/preview.ts";
export type {
  PromptRequest,
  SpawnPromptRequest,
  TerminalAnswer,
  ToolPromptRequest,
} from "./approval/terminal/types.ts";
// Definitions for model APIs.
export {
  type AnthropicToolDefinition,
  DEFINITION_FORMATS,
  type DefinitionFormat,
  type GeminiFunctionDeclaration,
  type McpToolAnnotations,
  type McpToolDefinition,
  type OpenAIToolDefinition,
  type ToolDefinitions,
} from "./contract/mod.ts";
// The roster: the declared tools, spawn's configuration, the sandbox policy, the audit trail.
export {
  type ArgumentType,
  type InputArgument,
  type LoadOptions,
  loadRoster,
  type ManifestScope,
  type ManifestSource,
  type Roster,
  type SideEffect,
  type ToolSandbox,
  type ToolSpec,
  type UnavailableTool,
} from "./manifest/mod.ts";
export {
  type ChildPolicy,
  type ChildPreview,
  loadSpawnConfig,
  type NamedAgent,
  type Reach,
  type ReachPolicy,
  type SpawnCall,
  type SpawnConfig,
  type SpawnOutput,
  type SpawnPreview,
  type SpawnSideEffect,
} from "./spawn/mod.ts";
export {
  type GrantLists,
  loadSandboxPolicy,
  type PreviewSandbox,
  type SandboxGrants,
  type SandboxMode,
  type SandboxOptions,
  type SandboxPolicy,
} from "./sandbox/mod.ts";
export {
  type AuditEntry,
  type AuditLog,
  type AuditLogOptions,
  type DecidedBy,
  type DecisionEntry,
  openAuditLog,
  type RecordOptions,
  type RunEntry,
} from "./audit/mod.ts";
export type { Resolution, RunOutcome, RunResult, StartFailure } from "./run/mod.ts";
// Errors.
export {
  BasisError,
  type ErrorCode,
  errorLines,
  ManifestError,
  type ManifestProblem,
} from "./errors.ts";
// Locale.
export {
  type Counted,
  DEFAULT_LOCALE,
  EN_US,
  loadLocale,
  type Locale,
  localeFromEnv,
  LOCALES,
  type MessageKey,
  type MessageParams,
  type Messages,
  messages,
  type Phrase,
  type PhraseParams,
  resolveLocale,
} from "./locale/mod.ts";
export type { EnvLookup } from "./paths.ts";
export { VERSION } from "./version.ts";
