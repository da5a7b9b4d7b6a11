/**
 * The steps every tool's execution shares after its own checks: ask the approver and record the
 * decision, record the run, and classify how the run ended. Private to the contract.
 *
 * @module
 */

import type { ApprovalRequest } from "../approval/approve.ts";
import { RulesFileError } from "../approval/rules/errors.ts";
import type { ErrorCode } from "../errors.ts";
import { english, type Messages, type Phrase } from "../locale/messages.ts";
import { redact } from "../redact.ts";
import type { RunResult } from "../run/types.ts";
import { ToolError } from "./tool_error.ts";
import type { Approver, AuditSink } from "./types.ts";

/** What a tool's execution needs beside its own configuration. */
export interface FlowSettings {
  /** The locale's messages. */
  readonly words: Messages;
  /** Decides calls. */
  readonly approver: Approver;
  /** Records decisions and runs. */
  readonly audit: AuditSink | undefined;
  /** The workspace root, as the audit trail names it. */
  readonly workspace: string;
  /** Values never to show: the secrets of the call (`callSecrets()`). */
  readonly secrets: readonly string[];
  /** The size of the input as the program receives it, for the audit trail. */
  readonly inputBytes?: number | undefined;
}

/**
 * Asks the approver, records its decision, and throws unless the call may run.
 *
 * @param flow The settings.
 * @param request The tool, its side effect and the preview.
 * @param label How messages name the caller (`Tool "x"`).
 * @param signal The caller's cancellation.
 * @throws {ToolError} `denied` (a denial or an unusable rules file) or `interrupted`.
 */
export async function approve(
  flow: FlowSettings,
  request: ApprovalRequest,
  label: string,
  signal: AbortSignal | undefined,
): Promise<void> {
  const { tool } = request;
  const hide = (text: string) => redact(text, flow.secrets);
  if (signal?.aborted) {
    throw ToolError.user("interrupted", hide(flow.words.t("run.interrupted", { label })), { tool });
  }
  let decision;
  try {
    decision = await flow.approver(request, { signal, secrets: flow.secrets });
  } catch (error) {
    if (!(error instanceof RulesFileError)) throw error;
    // An unusable rules file denies the call (fail closed): a decision like any other.
    recordRefusal(flow, tool, request.preview, error.phrase ?? error.message);
    throw ToolError.user("denied", hide(error.wordedIn(flow.words)), { tool, cause: error });
  }
  flow.audit?.record({
    type: "decision",
    tool,
    preview: request.preview,
    allowed: decision.allowed,
    by: decision.by,
    rule_id: decision.ruleId,
    // The audit trail is read by tools: English (a reason phrase's English), whatever the caller is
    // shown.
    reason: typeof decision.reason === "object" ? english(decision.reason) : decision.reason,
    workspace: flow.workspace,
    ...(flow.inputBytes === undefined ? {} : { input_bytes: flow.inputBytes }),
  }, { secrets: flow.secrets });
  if (!decision.allowed) {
    // The built-in approver gives its reason as a phrase; another approver's is shown as it is.
    const { reason } = decision;
    const message = typeof reason === "object"
      ? flow.words.say(reason)
      : reason ?? flow.words.t("denied.generic", { tool: JSON.stringify(tool) });
    throw ToolError.user("denied", hide(message), { tool });
  }
  if (signal?.aborted) {
    throw ToolError.user("interrupted", hide(flow.words.t("run.interrupted", { label })), { tool });
  }
}

/**
 * Records a refusal no approver gave: the spawn guard's, or an unusable rules file's.
 *
 * @param flow The settings.
 * @param tool The tool's name.
 * @param preview The preview.
 * @param reason Why (the audit trail records its English).
 */
export function recordRefusal(
  flow: FlowSettings,
  tool: string,
  preview: unknown,
  reason: Phrase | string,
): void {
  flow.audit?.record({
    type: "decision",
    tool,
    preview,
    allowed: false,
    by: "policy",
    rule_id: undefined,
    reason: typeof reason === "object" ? english(reason) : reason,
    workspace: flow.workspace,
    ...(flow.inputBytes === undefined ? {} : { input_bytes: flow.inputBytes }),
  }, { secrets: flow.secrets });
}

/**
 * Records how a run ended.
 *
 * @param flow The settings.
 * @param tool The tool's name.
 * @param result The run's result.
 */
export function recordRun(flow: FlowSettings, tool: string, result: RunResult): void {
  flow.audit?.record({
    type: "run",
    tool,
    exit_code: result.exitCode,
    signal: result.signal,
    timed_out: result.outcome === "timed_out",
    duration_ms: Math.round(result.durationMs),
    stdout_bytes: result.stdoutBytes,
    stderr_bytes: result.stderrBytes,
  }, { secrets: flow.secrets });
}

/** The error code of each way a run fails. */
const FAILURE_CODES = {
  ok: undefined,
  timed_out: "timed_out",
  cancelled: "interrupted",
  killed: "tool_failed",
  exit_code: "tool_failed",
  not_started: "spawn_failed",
} as const satisfies Record<RunResult["outcome"], ErrorCode | undefined>;

/**
 * How a run failed, as an error code: its outcome's.
 *
 * @param result The run's result.
 * @returns The code, or `undefined` when the run succeeded.
 */
export function failureCode(result: RunResult): ErrorCode | undefined {
  return FAILURE_CODES[result.outcome];
}
