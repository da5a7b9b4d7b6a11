/**
 * `basis-tools call NAME [INPUT|-]` and `basis-tools spawn STRING`: read the input, then the tool
 * contract does the rest — schema gate (spawn: its grammar and refusals) → preview → approval → run
 * → record. Nothing starts before the approval said yes; bad input never reaches the approver.
 * Ctrl-C (SIGTERM, SIGHUP) cancels the call; without `--json` or `--result` its output is streamed
 * through byte for byte as it arrives.
 *
 * @module
 */

import { programProblem } from "../../contract/availability.ts";
import { declaredTool } from "../../contract/declared_tool.ts";
import { spawnTool } from "../../contract/spawn_tool.ts";
import { ToolError } from "../../contract/tool_error.ts";
import type {
  DeclaredToolExtra,
  OutputChunk,
  SpawnToolExtra,
  ToolOutput,
} from "../../contract/types.ts";
import { BasisError, errorLines, ManifestError } from "../../errors.ts";
import { type Messages, messages } from "../../locale/messages.ts";
import { callSecrets, Redactor } from "../../redact.ts";
import { abortOnInterrupt } from "../../run/interrupt.ts";
import type { RunResult } from "../../run/types.ts";
import { loadSandboxPolicy } from "../../sandbox/policy.ts";
import { loadSpawnConfig } from "../../spawn/config.ts";
import { parseSpawnInput } from "../../spawn/grammar.ts";
import { spawnLabel } from "../../spawn/result.ts";
import { SPAWN_TOOL, type SpawnCall } from "../../spawn/types.ts";
import { exitCodeFor } from "../exit_codes.ts";
import { err, out, outJson } from "../output.ts";
import { parseCallInput, readCallInput, stdinBytes } from "../_call_input.ts";
import { findTool, requireServed, rosterFor } from "../_roster.ts";
import { cliSandbox } from "../_sandbox_note.ts";
import { commandAudit, toolContext } from "../_tools.ts";
import { workspaceRoot } from "../_workspace_root.ts";
import type { Settings } from "../settings.ts";
import { type CallFailure, callJson, spawnJson } from "./_call_json.ts";
import { DryRun } from "./_dry_run.ts";

/** Options of one call from the command line. */
export interface CallOptions {
  /** `--timeout`: overrides the tool's `timeout_ms` (spawn's `--spawn-timeout`). */
  timeoutMs?: number | undefined;
  /** Work out and print the decision, run nothing, record nothing (`--dry-run`, `rules test`). */
  dryRun?: boolean;
  /** `--quiet`: notes of basis-tools' own (an empty output, an audit warning) only on failure. */
  quiet?: boolean;
  /**
   * `--result`: print the result a model reads (stdout trimmed, a sentence when empty, cut at the
   * cap with the spill file named), not the program's streams; its stderr appears only in a
   * failure's message.
   */
  result?: boolean;
  /** Called as Gemini CLI's `callCommand`: its own `wait_for_previous` argument is dropped. */
  gemini?: boolean;
}

/** The argument Gemini CLI adds to every tool's parameters, and passes on to the call command. */
const GEMINI_WAIT = "wait_for_previous";

/**
 * Runs one tool, declared or `spawn` (called like a declared one, its input JSON text), and
 * reports its outcome.
 *
 * @param settings The run's settings.
 * @param name The tool's name.
 * @param inputArg The INPUT argument: JSON text, `-`, or `undefined`.
 * @param options Per-call options.
 * @returns The exit code.
 */
export function callCommand(
  settings: Settings,
  name: string,
  inputArg: string | undefined,
  options: CallOptions,
): Promise<number> {
  return call(settings, name, options, async () => {
    const { text } = await readCallInput(name, inputArg);
    return await parseCallInput(name, text);
  }, inputArg);
}

/**
 * `basis-tools call spawn [INPUT|-]`: the spawn tool called like any other tool.
 *
 * @param settings The run's settings.
 * @param inputArg The INPUT argument: JSON text, `-`, or `undefined`.
 * @param options Per-call options.
 * @returns The exit code.
 */
export function callSpawnCommand(
  settings: Settings,
  inputArg: string | undefined,
  options: CallOptions,
): Promise<number> {
  return callCommand(settings, SPAWN_TOOL, inputArg, options);
}

/**
 * `basis-tools spawn STRING`: runs the spawn tool with `{"input": STRING}`, printing spawn's own
 * `--json` object.
 *
 * @param settings The run's settings.
 * @param text The spawn string (`!cmd`, `!@target cmd`, or a task).
 * @param options Per-call options.
 * @returns The exit code: 0, 1 failed, 3 timed out, 4 refused input, 5 denied, 6 bad
 *   `spawn.json`, 130 interrupted.
 */
export function spawnCommand(
  settings: Settings,
  text: string,
  options: CallOptions = {},
): Promise<number> {
  return call(settings, undefined, options, () => Promise.resolve({ input: text }));
}

/** The notes basis-tools adds on stderr: at once, or under `--quiet` held until the call fails. */
class Notes {
  readonly quiet: boolean;
  readonly #words: Messages;
  readonly #held: string[] = [];

  constructor(quiet: boolean, words: Messages) {
    this.quiet = quiet;
    this.#words = words;
  }

  /** Says one note (`basis-tools: …`), or holds it. */
  note(text: string): void {
    this.#say(`basis-tools: ${text}\n`);
  }

  /** The audit log's warning, as `openAuditLog({ warn })` takes it. */
  readonly auditWarning = (message: string): void => {
    this.#say(`${this.#words.t("audit.warning", { message })}\n`);
  };

  /** Says what was held: the call failed. */
  flush(): void {
    if (this.#held.length > 0) err(this.#held.splice(0).join(""));
  }

  #say(line: string): void {
    if (this.quiet) this.#held.push(line);
    else err(line);
  }
}

/**
 * One call. `name` is the tool named on the command line (`call`), or `undefined` for `spawn
 * STRING`, whose `--json` object is spawn's own.
 */
async function call(
  settings: Settings,
  name: string | undefined,
  options: CallOptions,
  readInput: () => Promise<unknown>,
  inputArg?: string,
): Promise<number> {
  const tool = name ?? SPAWN_TOOL;
  const words = messages(settings.locale);
  const notes = new Notes(options.quiet === true, words);
  const audit = options.dryRun === true ? undefined : commandAudit(settings, notes.auditWarning);
  // The secrets of the call: the --env values, and the tool's env values once it is known.
  let redactor = new Redactor(callSecrets(settings.env));
  let spawnCall: SpawnCall | undefined;
  try {
    requireServed(settings, tool);
    const use = {
      timeoutMs: options.timeoutMs,
      gemini: options.gemini === true,
      once: true,
      ...(audit === undefined ? {} : { audit }),
    };
    let execution;
    let dryRun: DryRun | undefined;
    if (tool === SPAWN_TOOL) {
      const input = await readInput();
      const parsed = parseSpawnInput(input);
      // Only for the shape of --json: the contract checks the input itself.
      if (parsed.ok) spawnCall = parsed.call;
      const [root, config, policy] = await Promise.all([
        workspaceRoot(settings),
        loadSpawnConfig(settings.configDir),
        loadSandboxPolicy(settings.configDir),
      ]);
      dryRun = options.dryRun === true ? new DryRun(settings, root) : undefined;
      const context = toolContext(settings, {
        ...use,
        root,
        sandbox: cliSandbox(settings, policy, { notes }),
        ...(dryRun === undefined ? {} : { approver: dryRun.approver }),
      });
      execution = await spawnTool(config, context).execution(input);
    } else {
      const roster = await rosterFor(settings, { only: tool });
      const spec = findTool(roster, tool);
      redactor = new Redactor(callSecrets(spec.env, settings.env));
      dryRun = options.dryRun === true ? new DryRun(settings, roster.root) : undefined;
      const context = toolContext(settings, {
        ...use,
        root: roster.root,
        spill: settings.json,
        ...(dryRun === undefined ? {} : { approver: dryRun.approver }),
      });
      // A program that cannot be found makes the tool unavailable, as a problem of its declaration
      // does: nothing is asked, nothing runs (exit 6).
      const problem = programProblem(spec, settings.env, context.programs);
      if (problem !== undefined) throw new ManifestError([problem]);
      const source = await readCallInput(tool, inputArg);
      const parsed = await parseCallInput(tool, source.text);
      const input = options.gemini === true ? withoutGeminiKey(parsed, spec.inputSchema) : parsed;
      const sandbox = cliSandbox(settings, await loadSandboxPolicy(settings.configDir), { notes });
      // Numbers as written, unless Gemini CLI's own key was taken out (its text is JavaScript's).
      const encodedInput = input === parsed ? stdinBytes(input, source) : undefined;
      execution = await declaredTool(spec, { ...context, sandbox }).execution(
        input,
        encodedInput === undefined ? {} : { encodedInput },
      );
    }
    if (dryRun !== undefined) return await dryRun.report(execution);
    using interrupt = abortOnInterrupt();
    const stream = !settings.json && options.result !== true;
    // Each chunk is written as it arrives (a callback: no stream object on the path). A reader of
    // stdout that goes away (`| head -1`) stops only the relay (see `output.ts`).
    const onOutput = (chunk: OutputChunk) => (chunk.kind === "stdout" ? out : err)(chunk.data);
    const output = await execution.execute({
      signal: interrupt.signal,
      ...(stream ? { onOutput } : {}),
    });
    return report(output, undefined);
  } catch (error) {
    notes.flush();
    // A misuse of the contract is a bug: it keeps its stack trace.
    if (error instanceof ToolError && error.code === "internal") throw error;
    if (!(error instanceof BasisError)) throw error;
    if (error instanceof ToolError && error.output !== undefined) {
      return report(error.output as ToolOutput<DeclaredToolExtra | SpawnToolExtra>, error);
    }
    if (!settings.json) throw error;
    const failure = { kind: error.code, message: errorLines(error, words).join("\n") };
    // The name and the body are the caller's, and may quote an --env value.
    outJson(
      name === undefined
        ? redactor.value(spawnJson(spawnCall, failure))
        : tool === SPAWN_TOOL
        ? redactor.value(callJson(name, failure))
        : callJson(redactor.text(name), { ...failure, message: redactor.text(failure.message) }),
    );
    return exitCodeFor(error.code);
  } finally {
    audit?.close();
  }

  /** A call that ran: its `--json` object, or what is said after the streamed output. */
  function report(
    output: ToolOutput<DeclaredToolExtra | SpawnToolExtra>,
    error: ToolError | undefined,
  ): number {
    const extra = output.metadata.extra;
    const run: RunResult = extra.run;
    const spawned = "call" in extra ? extra : undefined;
    const label = spawned === undefined
      ? words.t("label.tool", { tool: JSON.stringify(tool) })
      : spawnLabel(spawned.call, words);
    const interrupted = error?.code === "interrupted";
    const code = error === undefined ? 0 : exitCodeFor(error.code);
    if (settings.json) {
      const hide = (text: string) => redactor.text(text);
      const failure: CallFailure | undefined = error === undefined ? undefined : {
        kind: error.code,
        message: hide(interrupted ? words.t("run.interrupted", { label }) : error.message),
      };
      const structured = spawned?.output;
      const fields = structured === undefined
        ? {
          result: hide(output.result),
          // Parsed from stdout after redaction: it holds no secret.
          structured_content: output.structuredContent ?? null,
          stdout: hide(run.stdout),
          stderr: hide(run.stderr),
          exit_code: run.exitCode ?? null,
          truncated: run.stdoutTruncated,
        }
        : {
          result: output.result,
          structured_content: null,
          stdout: structured.stdout,
          stderr: structured.stderr,
          exit_code: structured.exit_code,
          truncated: structured.stdout_truncated,
        };
      const shown = name === undefined && spawned !== undefined
        ? spawnJson(spawned.call, failure, {
          result: run,
          output: spawned.output,
          text: output.result,
        })
        : callJson(tool, failure, { result: run, fields });
      // A spawn call's body and target are the caller's, and may quote an --env value.
      outJson(spawned === undefined ? shown : redactor.value(shown));
    } else if (interrupted) {
      err(`basis-tools: ${words.t("run.interrupted_stopped", { label })}\n`);
    } else if (error !== undefined) {
      // With --result nothing was streamed: the whole message, with what the program said; else
      // its output was already streamed through: say what happened without repeating it.
      err(`basis-tools: ${options.result === true ? error.message : error.summary}\n`);
    } else if (options.result === true) {
      out(`${output.result}\n`);
    } else if (spawned?.call.mode === "agent" && run.stdout.trim() === "") {
      notes.note(words.t("spawn.agent_silent"));
    } else if (run.stdoutBytes === 0 && (spawned === undefined || run.stderrBytes === 0)) {
      notes.note(words.t("run.printed_nothing", { label }));
    }
    return code;
  }
}

/**
 * The input without the `wait_for_previous` flag Gemini CLI adds to every tool's parameters (for
 * its scheduler) and passes on, unless the tool's own schema declares a property of that name.
 */
function withoutGeminiKey(input: unknown, schema: Readonly<Record<string, unknown>>): unknown {
  if (typeof input !== "object" || input === null || Array.isArray(input)) return input;
  if (!Object.hasOwn(input, GEMINI_WAIT)) return input;
  const properties = schema.properties;
  if (
    typeof properties === "object" && properties !== null && Object.hasOwn(properties, GEMINI_WAIT)
  ) {
    return input;
  }
  const { [GEMINI_WAIT]: _, ...rest } = input as Record<string, unknown>;
  return rest;
}
