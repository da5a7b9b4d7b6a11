/**
 * The call pipeline every tool shares once its own checks made a call ready (prepare): decide
 * (the refusals no one is asked about, the approver, then its audit line) → run → record, with the
 * call's redactor hiding its secrets at every output and audit boundary; and the single-use
 * execution that hands it out. Private to the contract.
 *
 * @module
 */

import type { ApprovalRequest, Decision } from "../approval/approve.ts";
import { RulesFileError } from "../approval/rules/errors.ts";
import type { ErrorCode } from "../errors.ts";
import { english, type Messages, type Phrase } from "../locale/messages.ts";
import type { Redactor } from "../redact.ts";
import { describeFailure } from "../run/failure_message.ts";
import type { RunResult, SandboxWrap } from "../run/types.ts";
import { prepareSandbox, sandboxFailed } from "../sandbox/plan.ts";
import type { SandboxPlan } from "../sandbox/types.ts";
import type { CallContext } from "./context.ts";
import { ToolError } from "./tool_error.ts";
import type { ExecuteOptions, OutputChunk, ToolExecution, ToolOutput } from "./types.ts";

/** Where a run's output goes, and what cancels it (as `runProgram` takes them). */
export interface Sinks {
  readonly signal: AbortSignal | undefined;
  readonly onStdout: ((chunk: Uint8Array) => void) | undefined;
  readonly onStderr: ((chunk: Uint8Array) => void) | undefined;
}

/** A call made ready by its tool: everything known before anyone is asked. */
export interface PreparedCall<Extra> {
  /** How messages name the caller (`Tool "x"`). */
  readonly label: string;
  /** Hides the call's secrets. */
  readonly redactor: Redactor;
  /** What the approver is asked, the preview in it. */
  readonly request: ApprovalRequest;
  /** The workspace the audit trail names. */
  readonly workspace: string;
  /** How the call is confined. */
  readonly plan: SandboxPlan;
  /** Why the call is refused before anyone is asked (spawn's guard). */
  readonly refusal?: Phrase | undefined;
  /** Starts the approved call. */
  readonly start: (wrap: SandboxWrap | undefined, sinks: Sinks) => Promise<RunResult>;
  /** The output of a run that ended (throws for one that failed). */
  readonly outcome: (result: RunResult) => Promise<ToolOutput<Extra>>;
  /** How a call that cannot start after approval ends. */
  readonly notStarted: (reason: Phrase) => Promise<ToolOutput<Extra>>;
}

/**
 * Carries a prepared call out: a refusal (recorded), the approver's decision (recorded), the note
 * of an unconfined call, the sandbox's preparation, the run, its record, its outcome.
 *
 * @param context The run context.
 * @param call The prepared call.
 * @param sinks The caller's signal and where output goes.
 * @returns The output.
 * @throws {ToolError} A refusal, a denial, an interruption, or a run that failed.
 */
export async function carryOut<Extra>(
  context: CallContext,
  call: PreparedCall<Extra>,
  sinks: Sinks,
): Promise<ToolOutput<Extra>> {
  const { plan, request: { tool }, redactor, label } = call;
  const words = context.words;
  const deny = (reason: Phrase | string, message: string, cause?: unknown): never => {
    recordDecision(context, call, { allowed: false, by: "policy", ruleId: undefined, reason });
    throw ToolError.user("denied", redactor.text(message), { tool, cause });
  };
  if (call.refusal !== undefined) deny(call.refusal, words.say(call.refusal));
  if (plan.kind === "refused") {
    const reason = words.say(plan.reason);
    deny(plan.reason, words.t("denied.sandbox", { tool: JSON.stringify(tool), reason }));
  }
  const interrupted = () =>
    ToolError.user("interrupted", redactor.text(words.t("run.interrupted", { label })), { tool });
  if (sinks.signal?.aborted) throw interrupted();
  let decision;
  try {
    decision = await context.approver(call.request, {
      signal: sinks.signal,
      secrets: redactor.secrets,
    });
  } catch (error) {
    if (!(error instanceof RulesFileError)) throw error;
    // An unusable rules file denies the call (fail closed): a decision like any other.
    return deny(error.phrase ?? error.message, error.wordedIn(words), error);
  }
  recordDecision(context, call, decision);
  if (!decision.allowed) {
    // The built-in approver gives its reason as a phrase; another approver's is shown as it is.
    const { reason } = decision;
    const message = typeof reason === "object"
      ? words.say(reason)
      : reason ?? words.t("denied.generic", { tool: JSON.stringify(tool) });
    throw ToolError.user("denied", redactor.text(message), { tool });
  }
  if (sinks.signal?.aborted) throw interrupted();
  // Said once something is to run unconfined that the policy wanted confined.
  if (plan.kind === "unconfined" && plan.note !== undefined) {
    context.sandbox?.onUnconfined?.(plan.note);
  }
  const unprepared = await prepareSandbox(plan);
  if (unprepared !== undefined) return await call.notStarted(unprepared);
  const result = await call.start(plan.kind === "confined" ? plan.wrap : undefined, sinks);
  // bwrap could not set the call up: the next call asks again whether it works here.
  if (result.startReason?.key === "start.sandbox_failed") sandboxFailed(plan, context.sandbox);
  recordRun(context, call, result);
  return await call.outcome(result);
}

/** Records a decision; the audit trail is read by tools, so a phrase is recorded in English. */
function recordDecision(
  context: CallContext,
  call: PreparedCall<unknown>,
  { allowed, by, ruleId, reason }: Decision,
): void {
  const { request } = call;
  const bytes = request.kind === "spawn" ? undefined : request.stdin?.length;
  context.audit?.record({
    type: "decision",
    tool: request.tool,
    preview: request.preview,
    allowed,
    by,
    rule_id: ruleId,
    reason: typeof reason === "object" ? english(reason) : reason,
    workspace: call.workspace,
    ...(bytes === undefined ? {} : { input_bytes: bytes }),
  }, { secrets: call.redactor.secrets });
}

/**
 * Records how a run ended.
 *
 * @param context The run context.
 * @param call The call (its request and secrets).
 * @param result The run's result.
 */
export function recordRun(
  context: CallContext,
  call: { readonly request: { readonly tool: string }; readonly redactor: Redactor },
  result: RunResult,
): void {
  context.audit?.record({
    type: "run",
    tool: call.request.tool,
    exit_code: result.exitCode,
    signal: result.signal,
    timed_out: result.outcome === "timed_out",
    duration_ms: Math.round(result.durationMs),
    stdout_bytes: result.stdoutBytes,
    stderr_bytes: result.stderrBytes,
  }, { secrets: call.redactor.secrets });
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

/**
 * The error of a run that failed: the message with what the program said, a summary without it.
 *
 * @param code The failure's code.
 * @param tool The tool's name.
 * @param result The run.
 * @param label How messages name the caller.
 * @param words The messages of the tool's locale.
 * @param output The output the error carries, given the message.
 * @param printed What the program printed on stdout as the tool's result text says it
 *   (`undefined` when blank): kept by the error of a run that timed out.
 * @param hide Hides the call's secrets.
 * @returns The error.
 */
export function runFailed<Extra>(
  code: ErrorCode,
  tool: string,
  result: RunResult,
  label: string,
  words: Messages,
  output: (message: string) => ToolOutput<Extra>,
  printed: string | undefined,
  hide: (text: string) => string = (text) => text,
): ToolError {
  const say = (run: RunResult) => hide(describeFailure(run, label, words) ?? label);
  const message = say(result);
  const summary = say({ ...result, stdout: "", stderr: "" });
  const kept = code === "timed_out" && printed !== undefined ? hide(printed) : undefined;
  return ToolError.user(code, message, { tool, summary, output: output(message), printed: kept });
}

/** A single-use execution around a run: an optional output stream taken first, then one run. */
export class Execution<Extra> implements ToolExecution<Extra> {
  /** The tool's name. */
  readonly tool: string;
  /** The validated arguments. */
  readonly args: unknown;
  readonly #run: (sinks: Sinks) => Promise<ToolOutput<Extra>>;
  #started = false;
  #controller: ReadableStreamDefaultController<OutputChunk> | undefined;
  #stream: ReadableStream<OutputChunk> | undefined;

  /**
   * Wraps a run.
   *
   * @param tool The tool's name.
   * @param args The validated arguments.
   * @param run The run.
   */
  constructor(tool: string, args: unknown, run: (sinks: Sinks) => Promise<ToolOutput<Extra>>) {
    [this.tool, this.args, this.#run] = [tool, args, run];
  }

  /**
   * Takes the output stream; see {@linkcode ToolExecution.outputStream}.
   *
   * @returns The chunks.
   */
  outputStream(): ReadableStream<OutputChunk> {
    const name = JSON.stringify(this.tool);
    if (this.#started || this.#stream !== undefined) {
      throw ToolError.internal(
        this.#started
          ? `Cannot open the output stream of tool ${name}: execute() has already started`
          : `Cannot open the output stream of tool ${name} twice: it has one reader`,
        { tool: this.tool },
      );
    }
    return this.#stream = new ReadableStream({ start: (c) => void (this.#controller = c) });
  }

  /**
   * Runs the call once; see {@linkcode ToolExecution.execute}.
   *
   * @param options The signal that cancels the call, and where output goes as it arrives.
   * @returns The final output.
   */
  async execute(options: ExecuteOptions = {}): Promise<ToolOutput<Extra>> {
    if (this.#started) {
      throw ToolError.internal(
        `Cannot execute tool ${JSON.stringify(this.tool)} twice: an execution runs once`,
        { tool: this.tool },
      );
    }
    this.#started = true;
    const [controller, onOutput] = [this.#controller, options.onOutput];
    const emit = (kind: OutputChunk["kind"]) =>
      onOutput === undefined && controller === undefined ? undefined : (data: Uint8Array) => {
        onOutput?.({ kind, data });
        try {
          controller?.enqueue({ kind, data });
        } catch {
          // The reader cancelled the stream: the run goes on without it.
        }
      };
    try {
      return await this.#run({
        signal: options.signal,
        onStdout: emit("stdout"),
        onStderr: emit("stderr"),
      });
    } finally {
      try {
        controller?.close();
      } catch {
        // Already cancelled by the reader.
      }
    }
  }
}

/**
 * The output of a tool whose result is one text: that text, as the one content block too.
 *
 * @param result The text for a model.
 * @param metadata The run's duration and details.
 * @returns The output.
 */
export function textOutput<Extra>(
  result: string,
  metadata: ToolOutput<Extra>["metadata"],
): ToolOutput<Extra> {
  return { result, content: [{ type: "text", text: result }], metadata };
}
