/**
 * One call of the built-in `spawn` tool, from its refusals to its outcome: the preview, the
 * refusals that need no one, remembered rules and the approver, the sandbox, then the command or
 * the subagent. Loaded by the tool with its first call: describing the tool needs none of it.
 *
 * @module
 */

import type { ApprovalRequest } from "../approval/approve.ts";
import type { Messages } from "../locale/messages.ts";
import { canonicalPath } from "../paths.ts";
import { callSecrets, redact } from "../redact.ts";
import { describeFailure } from "../run/failure_message.ts";
import type { RunResult } from "../run/types.ts";
import { childPreview } from "../spawn/child.ts";
import { childPolicy, namedAgents, reachPolicy, type SpawnConfig } from "../spawn/config.ts";
import { spawnRefusal } from "../spawn/guard.ts";
import { spawnPreview, withDelegation } from "../spawn/preview.ts";
import { spawnLabel, spawnOutput, spawnResultText } from "../spawn/result.ts";
import { runSpawn, SHELL } from "../spawn/run_spawn.ts";
import { planOptionsOf, planSandbox, policyOf, spawnPreviewGrants } from "../sandbox/plan.ts";
import type { SandboxPlan } from "../sandbox/types.ts";
import {
  SPAWN_SIDE_EFFECTS,
  SPAWN_TOOL,
  type SpawnCall,
  type SpawnOutput,
  type SpawnPreview,
} from "../spawn/types.ts";
import { checkedRun, prepared } from "./_sandbox.ts";
import type { RunContext } from "./_execution.ts";
import { approve, failureCode, type FlowSettings, recordRefusal, recordRun } from "./_flow.ts";
import { ToolError } from "./tool_error.ts";
import type { SpawnToolExtra, ToolOutput } from "./types.ts";
import type { SpawnSettings } from "./spawn_tool.ts";

/** What a call needs of its tool: the configuration, the settled options, the locale's words. */
export interface SpawnToolParts {
  readonly config: SpawnConfig;
  readonly settings: SpawnSettings;
  readonly words: Messages;
}

/**
 * Runs one parsed call.
 *
 * @param call The parsed call.
 * @param context The caller's signal and where output goes.
 * @param tool The tool's configuration, options and words.
 * @returns The output.
 * @throws {ToolError} A refusal, a denial, or a run that failed.
 */
export async function runSpawnCall(
  call: SpawnCall,
  context: RunContext,
  tool: SpawnToolParts,
): Promise<ToolOutput<SpawnToolExtra>> {
  const { config, settings, words } = tool;
  const flow: FlowSettings = {
    words,
    approver: settings.approver,
    audit: settings.audit,
    workspace: settings.root,
    // The --env values: hidden from the prompt, the audit trail and (in runSpawn) the run.
    secrets: callSecrets(settings.env),
  };
  const plan = await planOf(call, tool);
  // The real directory: one spelling for the preview and rules, whatever -C said.
  const preview = previewOf(call, canonicalPath(settings.root), plan, tool);
  const refusal = spawnRefusal(call, {
    noShell: settings.noShell,
    depth: settings.depth,
    config,
  });
  if (refusal !== undefined) {
    // Refused before anyone is asked: recorded as the policy's answer, in English.
    recordRefusal(flow, SPAWN_TOOL, preview, refusal);
    const text = redact(words.say(refusal), flow.secrets);
    throw ToolError.user("denied", text, { tool: SPAWN_TOOL });
  }
  const request: ApprovalRequest = {
    tool: SPAWN_TOOL,
    kind: "spawn",
    sideEffect: SPAWN_SIDE_EFFECTS[call.mode],
    preview,
  };
  const label = spawnLabel(call, words);
  if (plan.kind === "refused") {
    recordRefusal(flow, SPAWN_TOOL, preview, plan.reason);
    const text = words.t("denied.sandbox", {
      tool: JSON.stringify(SPAWN_TOOL),
      reason: words.say(plan.reason),
    });
    throw ToolError.user("denied", redact(text, flow.secrets), { tool: SPAWN_TOOL });
  }
  if (plan.kind === "unavailable") {
    const message = words.t("run.not_started", { label, reason: words.say(plan.reason) });
    throw ToolError.user("spawn_failed", message, { tool: SPAWN_TOOL });
  }
  await approve(flow, request, label, context.signal);
  // Said once something is to run unconfined that the policy wanted confined.
  if (plan.kind === "unconfined" && plan.note !== undefined) {
    settings.sandbox?.onUnconfined?.(plan.note);
  }
  const unprepared = await prepared(plan);
  if (unprepared !== undefined) {
    const message = words.t("run.not_started", { label, reason: words.say(unprepared) });
    throw ToolError.user("spawn_failed", message, { tool: SPAWN_TOOL });
  }
  const result = await runSpawn(call, settings.root, {
    ...(plan.kind === "confined" ? { sandbox: plan.wrap } : {}),
    config,
    env: settings.env,
    depth: settings.depth ?? 0,
    agentEnv: settings.agentEnv,
    // What was approved is what the child gets.
    ...(preview.child === undefined ? {} : { child: preview.child }),
    ...(settings.timeoutMs === undefined ? {} : { timeoutMs: settings.timeoutMs }),
    ...(context.signal === undefined ? {} : { signal: context.signal }),
    ...(context.onStdout === undefined ? {} : { onStdout: context.onStdout }),
    ...(context.onStderr === undefined ? {} : { onStderr: context.onStderr }),
    ...(settings.readEnv === undefined ? {} : { readEnv: settings.readEnv }),
  });
  checkedRun(plan, settings.sandbox, result);
  recordRun(flow, SPAWN_TOOL, result);
  return outcomeOf(call, result, label, words);
}

/**
 * The preview: for a task, the effective reach when the call chose one other than the policy's
 * default, and what the child will be when the child policy overrides anything.
 */
function previewOf(
  call: SpawnCall,
  cwd: string,
  plan: SandboxPlan,
  tool: SpawnToolParts,
): SpawnPreview {
  const preview = spawnPreview(call, cwd, spawnPreviewGrants(plan));
  if (call.mode !== "agent") return preview;
  const config = tool.config;
  const reach = call.reach === reachPolicy(config).default ? undefined : call.reach;
  const child = childPreview(childPolicy(config, call.target), tool.settings.roster);
  return withDelegation(preview, { reach, child });
}

/**
 * The sandbox of a call: a local command gets the default plus the policy's spawn grants; a
 * subagent is confined only when the policy says so; a command on a target is not (it runs on
 * another machine).
 */
async function planOf(call: SpawnCall, tool: SpawnToolParts): Promise<SandboxPlan> {
  if (call.mode === "command" && call.target !== undefined) {
    return { kind: "unconfined", note: undefined };
  }
  const settings = tool.settings;
  // A task's program: the named agent's, or the configured subagent's.
  const agent = call.mode === "agent" && call.target !== undefined
    ? namedAgents(tool.config).get(call.target)?.argv
    : tool.config.agent;
  const program = call.mode === "command" ? SHELL : agent?.[0] ?? SHELL;
  return await planSandbox(policyOf(settings.sandbox), {
    caller: { kind: call.mode === "command" ? "spawn" : "agent" },
    root: settings.root,
    cwd: settings.root,
    program,
  }, planOptionsOf(settings.sandbox));
}

function outcomeOf(
  call: SpawnCall,
  result: RunResult,
  label: string,
  words: Messages,
): ToolOutput<SpawnToolExtra> {
  const code = failureCode(result);
  const output: SpawnOutput = spawnOutput(call, result, words);
  const text = spawnResultText(call, result, words);
  const metadata = { durationMs: result.durationMs, extra: { call, run: result, output } };
  if (code === undefined) return { result: text, images: [], metadata };
  const message = output.error ?? label;
  const summary = describeFailure({ ...result, stdout: "", stderr: "" }, label, words) ?? label;
  throw ToolError.user(code, message, {
    tool: SPAWN_TOOL,
    summary,
    output: { result: text, images: [], metadata },
  });
}
