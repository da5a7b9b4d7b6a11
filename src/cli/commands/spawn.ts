/**
 * `basis-tools spawn STRING` (and `call spawn [INPUT|-]`): the spawn tool through the tool
 * contract — parse the string → refusals that need no one (commands off, unknown target, depth, no
 * subagent) → preview → approval → run. Nothing starts before the approval said yes; bad input
 * never reaches the approver.
 *
 * @module
 */

import { SpawnToolBuilder } from "../../contract/spawn_tool.ts";
import { ToolError } from "../../contract/tool_error.ts";
import type { SpawnToolExtra } from "../../contract/types.ts";
import { BasisError, errorLines } from "../../errors.ts";
import { type Messages, messages } from "../../locale/messages.ts";
import { callSecrets, redact, redactValue } from "../../redact.ts";
import { loadSpawnConfig } from "../../spawn/config.ts";
import { parseSpawnInput } from "../../spawn/grammar.ts";
import { spawnLabel } from "../../spawn/result.ts";
import { SPAWN_TOOL, type SpawnCall } from "../../spawn/types.ts";
import { exitCodeFor } from "../exit_codes.ts";
import { err, out, outJson } from "../output.ts";
import { parseCallInput, readCallInput } from "../_call_input.ts";
import { executeOnTerminal } from "../_execute.ts";
import { requireServed } from "../_roster.ts";
import { workspaceRoot } from "../_workspace_root.ts";
import type { Settings } from "../settings.ts";
import { type CallFailure, failedCall } from "./_call_json.ts";
import { failedSpawn, ranSpawn, ranSpawnAsCall } from "./_spawn_json.ts";
import { DryRun } from "./_dry_run.ts";
import { loadSandboxPolicy } from "../../sandbox/policy.ts";
import { cliSandbox } from "../_sandbox_note.ts";
import { commandAudit, toolOptions } from "../_tools.ts";
import { type CallPresentation, Notes } from "./_presentation.ts";

/** Options of one spawn call from the command line. */
export interface SpawnCommandOptions extends CallPresentation {
  /** `call --timeout MS`: overrides `--spawn-timeout` for this call. */
  timeoutMs?: number | undefined;
  /** Work out and print the decision, run nothing, record nothing (`--dry-run`, `rules test`). */
  dryRun?: boolean;
}

/** Which `--json` object to print: `spawn`'s own, or the one every `call` prints. */
type Shape = "spawn" | "call";

/**
 * `basis-tools spawn STRING`: runs the spawn tool with `{"input": STRING}`.
 *
 * @param settings The run's settings.
 * @param text The spawn string (`!cmd`, `!@target cmd`, or a task).
 * @returns The exit code: 0, 1 failed, 3 timed out, 4 refused input, 5 denied, 6 bad
 *   `spawn.json`, 130 interrupted.
 */
export async function spawnCommand(
  settings: Settings,
  text: string,
  options: SpawnCommandOptions = {},
): Promise<number> {
  return await spawnCall(settings, () => Promise.resolve({ input: text }), "spawn", options);
}

/**
 * `basis-tools call spawn [INPUT|-]`: the spawn tool called like any other tool, with its input
 * as JSON text (`{"input":"!ls"}`), read from the argument or stdin as `call` reads it.
 *
 * @param settings The run's settings.
 * @param inputArg The INPUT argument: JSON text, `-`, or `undefined`.
 * @param options `--timeout`.
 * @returns The exit code, as for {@linkcode spawnCommand}; 2 when INPUT is not JSON.
 */
export async function callSpawnCommand(
  settings: Settings,
  inputArg: string | undefined,
  options: SpawnCommandOptions,
): Promise<number> {
  const read = async () => {
    const { text } = await readCallInput(SPAWN_TOOL, inputArg);
    return await parseCallInput(SPAWN_TOOL, text);
  };
  return await spawnCall(settings, read, "call", options);
}

async function spawnCall(
  settings: Settings,
  readInput: () => Promise<unknown>,
  shape: Shape,
  options: SpawnCommandOptions,
): Promise<number> {
  const words = messages(settings.locale);
  const notes = new Notes(options, words);
  const audit = options.dryRun === true ? undefined : commandAudit(settings, notes.auditWarning);
  let call: SpawnCall | undefined;
  try {
    // A child whose roster leaves spawn out cannot delegate or run commands at all.
    requireServed(settings, SPAWN_TOOL);
    const input = await readInput();
    const parsed = parseSpawnInput(input);
    // Only for the shape of --json: the contract below checks the input itself.
    if (parsed.ok) call = parsed.call;
    const [root, config, policy] = await Promise.all([
      workspaceRoot(settings),
      loadSpawnConfig(settings.configDir),
      loadSandboxPolicy(settings.configDir),
    ]);
    const dryRun = options.dryRun === true ? new DryRun(settings, root) : undefined;
    const { spawn } = toolOptions(settings, {
      root,
      timeoutMs: options.timeoutMs,
      gemini: options.gemini === true,
      ...(dryRun === undefined ? {} : { approver: dryRun.approver }),
      ...(audit === undefined ? {} : { audit }),
      sandbox: cliSandbox(settings, policy, { notes }),
    });
    const tool = new SpawnToolBuilder(config, spawn).build();
    const execution = await tool.execution(input);
    if (dryRun !== undefined) return await dryRun.report(execution);
    const output = await executeOnTerminal(execution, !settings.json && options.result !== true);
    return report(output.metadata.extra, output.result, undefined, settings, shape, words, {
      ...options,
      notes,
    });
  } catch (error) {
    notes.flush();
    // A misuse of the contract is a bug: it keeps its stack trace.
    if (error instanceof ToolError && error.code === "internal") throw error;
    if (!(error instanceof BasisError)) throw error;
    if (error instanceof ToolError && error.output !== undefined) {
      const extra = error.output.metadata.extra as SpawnToolExtra;
      return report(extra, error.output.result, error, settings, shape, words, {
        ...options,
        notes,
      });
    }
    if (!settings.json) throw error;
    // The --env values are the secrets of a spawn call.
    const message = redact(errorLines(error, words).join("\n"), callSecrets(settings.env));
    const failure = { kind: error.code, message };
    const shown = shape === "call" ? failedCall(SPAWN_TOOL, failure) : failedSpawn(call, failure);
    outJson(redactValue(shown, callSecrets(settings.env)));
    return exitCodeFor(error.code);
  } finally {
    audit?.close();
  }
}

/** A call that ran: its `--json` object, or a line after the streamed output when needed. */
function report(
  extra: SpawnToolExtra,
  text: string,
  error: ToolError | undefined,
  settings: Settings,
  shape: Shape,
  words: Messages,
  presentation: CallPresentation & { notes: Notes },
): number {
  const { call, run, output } = extra;
  const label = spawnLabel(call, words);
  const interrupted = error?.code === "interrupted";
  if (settings.json) {
    const failure: CallFailure | undefined = error === undefined ? undefined : {
      kind: error.code,
      message: interrupted ? words.t("run.interrupted", { label }) : error.message,
    };
    const shown = shape === "call"
      ? ranSpawnAsCall(run, failure, output, text)
      : ranSpawn(call, run, failure, output, text);
    // The body and target are the caller's, and may quote an --env value.
    outJson(redactValue(shown, callSecrets(settings.env)));
    return error === undefined ? 0 : exitCodeFor(error.code);
  }
  const { notes } = presentation;
  if (interrupted) {
    err(`basis-tools: ${words.t("run.interrupted_stopped", { label })}\n`);
  } else if (error !== undefined && presentation.result === true) {
    // Nothing was streamed: the whole message, with what the program said.
    err(`basis-tools: ${error.message}\n`);
  } else if (error !== undefined) {
    // Its output was already streamed through: say what happened without repeating it.
    err(`basis-tools: ${error.summary}\n`);
  } else if (presentation.result === true) {
    out(`${text}\n`);
  } else if (call.mode === "agent" && run.stdout.trim() === "") {
    notes.note(words.t("spawn.agent_silent"));
  } else if (run.stdoutBytes === 0 && run.stderrBytes === 0) {
    notes.note(words.t("run.printed_nothing", { label }));
  }
  return error === undefined ? 0 : exitCodeFor(error.code);
}
