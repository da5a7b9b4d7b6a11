/**
 * `basis-tools call NAME [INPUT|-]`: parse input, then the tool contract does the rest — schema
 * gate → preview → approval → run. Nothing starts before the approval said yes; bad input never
 * reaches the approver.
 *
 * @module
 */

import { toolProblems } from "../../contract/availability.ts";
import { DeclaredToolBuilder } from "../../contract/declared_tool.ts";
import { ToolError } from "../../contract/tool_error.ts";
import type { DeclaredToolExtra } from "../../contract/types.ts";
import { BasisError, errorLines, ManifestError } from "../../errors.ts";
import { type Messages, messages } from "../../locale/messages.ts";
import { callSecrets, redact } from "../../redact.ts";
import { exitCodeFor } from "../exit_codes.ts";
import { err, out, outJson } from "../output.ts";
import { findTool, requireServed, rosterFor } from "../_roster.ts";
import { parseCallInput, readCallInput, stdinBytes } from "../_call_input.ts";
import { executeOnTerminal } from "../_execute.ts";
import type { Settings } from "../settings.ts";
import { failedCall, ranCall } from "./_call_json.ts";
import { DryRun } from "./_dry_run.ts";
import { loadSandboxPolicy } from "../../sandbox/policy.ts";
import { cliSandbox } from "../_sandbox_note.ts";
import { commandAudit, toolOptions } from "../_tools.ts";
import { type CallPresentation, Notes, withoutGeminiKeys } from "./_presentation.ts";

/** Options of one call. */
export interface CallOptions extends CallPresentation {
  /** Overrides the tool's `timeout_ms`. */
  timeoutMs: number | undefined;
  /** Work out and print the decision, run nothing, record nothing (`--dry-run`, `rules test`). */
  dryRun?: boolean;
}

/**
 * Runs one declared tool and reports its outcome.
 *
 * @param settings The run's settings.
 * @param name The tool's name.
 * @param inputArg The INPUT argument: JSON text, `-`, or `undefined`.
 * @param options Per-call options.
 * @returns The exit code.
 */
export async function callCommand(
  settings: Settings,
  name: string,
  inputArg: string | undefined,
  options: CallOptions,
): Promise<number> {
  // The secrets of the call: the --env values, and the tool's env values once it is known.
  let secrets: readonly string[] = callSecrets(settings.env);
  const words = messages(settings.locale);
  const notes = new Notes(options, words);
  const audit = options.dryRun === true ? undefined : commandAudit(settings, notes.auditWarning);
  try {
    requireServed(settings, name);
    const roster = await rosterFor(settings, { only: name });
    const spec = findTool(roster, name);
    secrets = callSecrets(spec.env, settings.env);
    // A program that cannot be found makes the tool unavailable, as a problem of its declaration
    // does: nothing is asked, nothing runs (exit 6).
    const unusable = await toolProblems(spec, { schemas: false, env: settings.env });
    if (unusable.length > 0) throw new ManifestError(unusable);
    const source = await readCallInput(name, inputArg);
    const parsed = await parseCallInput(name, source.text);
    const input = options.gemini === true ? withoutGeminiKeys(parsed, spec.inputSchema) : parsed;
    const dryRun = options.dryRun === true ? new DryRun(settings, roster.root) : undefined;
    const policy = await loadSandboxPolicy(settings.configDir);
    const { declared } = toolOptions(settings, {
      root: roster.root,
      timeoutMs: options.timeoutMs,
      gemini: options.gemini === true,
      spill: settings.json,
      ...(dryRun === undefined ? {} : { approver: dryRun.approver }),
      ...(audit === undefined ? {} : { audit }),
      sandbox: cliSandbox(settings, policy, { notes }),
    });
    const tool = new DeclaredToolBuilder(spec, declared).build();
    // Numbers as written, unless Gemini CLI's own key was taken out (its text is JavaScript's).
    const encodedInput = input === parsed ? stdinBytes(input, source) : undefined;
    const execution = await tool.execution(
      input,
      encodedInput === undefined ? {} : { encodedInput },
    );
    if (dryRun !== undefined) return await dryRun.report(execution);
    const output = await executeOnTerminal(execution, !settings.json && options.result !== true);
    const run = output.metadata.extra.run;
    if (settings.json) {
      outJson(ranCall(name, run, undefined, secrets, output.result, output.structuredContent));
    } else if (options.result === true) {
      out(`${output.result}\n`);
    } else if (run.stdoutBytes === 0) {
      const label = words.t("label.tool", { tool: JSON.stringify(name) });
      notes.note(words.t("run.printed_nothing", { label }));
    }
    return 0;
  } catch (error) {
    notes.flush();
    // A misuse of the contract is a bug: it keeps its stack trace.
    if (error instanceof ToolError && error.code === "internal") throw error;
    if (!(error instanceof BasisError)) throw error;
    if (error instanceof ToolError && error.output !== undefined) {
      return reportFailedRun(name, error, settings, secrets, words, options);
    }
    if (!settings.json) throw error;
    const message = errorLines(error, words).join("\n");
    // The name is the caller's, and may quote an --env value.
    outJson(
      failedCall(redact(name, secrets), { kind: error.code, message: redact(message, secrets) }),
    );
    return exitCodeFor(error.code);
  } finally {
    audit?.close();
  }
}

/** A run that happened and failed: its `--json` object, or one line after the streamed output. */
function reportFailedRun(
  name: string,
  error: ToolError,
  settings: Settings,
  secrets: readonly string[],
  words: Messages,
  options: CallPresentation,
): number {
  const label = words.t("label.tool", { tool: JSON.stringify(name) });
  const interrupted = error.code === "interrupted";
  if (settings.json) {
    const { run } = (error.output?.metadata.extra ?? {}) as DeclaredToolExtra;
    const message = interrupted ? words.t("run.interrupted", { label }) : error.message;
    outJson(ranCall(name, run, { kind: error.code, message }, secrets, ""));
  } else if (interrupted) {
    err(`basis-tools: ${words.t("run.interrupted_stopped", { label })}\n`);
  } else if (options.result === true) {
    // Nothing was streamed: the whole message, with what the program said.
    err(`basis-tools: ${error.message}\n`);
  } else {
    // Its output was already streamed through: say what happened without repeating it.
    err(`basis-tools: ${error.summary}\n`);
  }
  return exitCodeFor(error.code);
}
