/**
 * `basis-tools call NAME [INPUT|-]` and `basis-tools spawn STRING`: read the input, then the tool
 * contract does the rest — schema gate (spawn: its grammar and refusals) → preview → approval → run
 * → record. Nothing starts before the approval said yes; bad input never reaches the approver.
 * Ctrl-C (SIGTERM, SIGHUP) cancels the call; without `--json` or `--result` its output is streamed
 * through byte for byte as it arrives.
 *
 * `call --dry-run` and `rules test` go through the same execution (input, schema gate, program
 * resolution, spawn's refusals, preview), but their approver only works out what would be decided
 * and then refuses, so nothing runs and nothing is recorded.
 *
 * @module
 */

import { type ApprovalRequest, type Verdict, verdictFor } from "../../approval/approve.ts";
import { visibleLines } from "../../approval/shell_quote.ts";
import { programProblem } from "../../contract/availability.ts";
import type { CallContext } from "../../contract/context.ts";
import { declaredTool } from "../../contract/declared_tool.ts";
import { withoutGeminiWait } from "../../contract/gemini_wait.ts";
import { spawnTool } from "../../contract/spawn_tool.ts";
import { ToolError } from "../../contract/tool_error.ts";
import type {
  Approver,
  DeclaredToolExtra,
  SpawnToolExtra,
  ToolExecution,
  ToolOutput,
} from "../../contract/types.ts";
import { BasisError, errorLines, ManifestError } from "../../errors.ts";
import { parseKeepingNumbers } from "../../json_text.ts";
import { messages } from "../../locale/messages.ts";
import { callSecrets, Redactor, secretEnv } from "../../redact.ts";
import { abortOnInterrupt } from "../../run/interrupt.ts";
import { printedNothing } from "../../run/model_result.ts";
import { loadSandboxPolicy } from "../../sandbox/policy.ts";
import { loadSpawnConfig } from "../../spawn/config.ts";
import { parseSpawnInput } from "../../spawn/grammar.ts";
import { spawnLabel } from "../../spawn/result.ts";
import { SPAWN_TOOL, type SpawnCall } from "../../spawn/types.ts";
import { exitCodeFor } from "../exit_codes.ts";
import { err, out, outJson } from "../output.ts";
import { parseCallInput, readCallInput, stdinBytes } from "../_call_input.ts";
import { findTool, requireServed, rosterFor, workspaceRoot } from "../_roster.ts";
import { cliSandbox } from "../_sandbox_note.ts";
import { commandAudit, toolContext } from "../_tools.ts";
import type { Settings } from "../settings.ts";
import { type CallFailure, callJson, spawnJson } from "./_call_json.ts";

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

type Output = ToolOutput<DeclaredToolExtra | SpawnToolExtra>;

/**
 * Runs one tool, declared or `spawn` (called like a declared one, its input JSON text), and
 * reports its outcome; or, with no name, `basis-tools spawn STRING`: the spawn tool with
 * `{"input": STRING}`, printing spawn's own `--json` object.
 *
 * @param settings The run's settings.
 * @param name The tool named on the command line (`call`), or `undefined` for `spawn STRING`.
 * @param arg The INPUT argument (JSON text, `-`, or `undefined`); for `spawn`, the STRING.
 * @param options Per-call options.
 * @returns The exit code: 0, 1 failed, 2 usage, 3 timed out, 4 refused input, 5 denied, 6 an
 *   unusable manifest or `spawn.json`, 130 interrupted.
 */
export async function callCommand(
  settings: Settings,
  name: string | undefined,
  arg: string | undefined,
  options: CallOptions,
): Promise<number> {
  const tool = name ?? SPAWN_TOOL;
  const words = messages(settings.locale);
  // The notes basis-tools adds on stderr: at once, or under `--quiet` held until the call fails.
  const quiet = options.quiet === true;
  const held: string[] = [];
  const say = (line: string) => quiet ? held.push(line) : err(line);
  const notes = { quiet, note: (text: string) => say(`basis-tools: ${text}\n`) };
  const dry = options.dryRun === true ? dryRun(settings) : undefined;
  const audit = dry !== undefined
    ? undefined
    : commandAudit(settings, (message) => say(`${words.t("audit.warning", { message })}\n`));
  // The secrets of the call: the --env values, and the tool's env values once it is known.
  let redactor = new Redactor(callSecrets(settings.env));
  let spawnCall: SpawnCall | undefined;
  // A tool printing content blocks: the text of its blocks is printed once they are read and
  // checked (as with --result), never the JSON it wrote.
  let rendered = false;
  const context = (root: string, more: Partial<CallContext> = {}) =>
    toolContext(settings, {
      root,
      timeoutMs: options.timeoutMs,
      gemini: options.gemini === true,
      programs: new Map(),
      ...(audit === undefined ? {} : { audit }),
      ...(dry === undefined ? {} : { approver: dry.approver(root) }),
      ...more,
    });
  const read = async () => {
    const source = await readCallInput(tool, arg);
    const argument = arg !== undefined && arg !== "-";
    return { source, parsed: await parseCallInput(tool, source.text, { argument }) };
  };
  try {
    requireServed(settings, tool);
    let execution: ToolExecution<unknown>;
    if (tool === SPAWN_TOOL) {
      const input = name === undefined ? { input: arg } : (await read()).parsed;
      const parsed = parseSpawnInput(input);
      // Only for the shape of --json: the contract checks the input itself.
      if (parsed.ok) spawnCall = parsed.call;
      const [root, config, policy] = await Promise.all([
        workspaceRoot(settings),
        loadSpawnConfig(settings.configDir),
        loadSandboxPolicy(settings.configDir),
      ]);
      const sandbox = cliSandbox(settings, policy, notes);
      execution = await spawnTool(config, context(root, { sandbox })).execution(input);
    } else {
      const roster = await rosterFor(settings, { only: tool });
      const spec = findTool(roster, tool);
      redactor = new Redactor(callSecrets(secretEnv(spec), settings.env));
      rendered = spec.output === "content";
      // What is cut from the result a model reads (--json, --result) is kept in a spill file it
      // names; streamed output is never cut.
      const spillDir = settings.json || options.result === true ? settings.spillDir : false;
      const built = context(roster.root, { spillDir });
      // A program that cannot be found makes the tool unavailable, as a problem of its declaration
      // does: nothing is asked, nothing runs (exit 6).
      const problem = programProblem(spec, settings.env, built.programs);
      if (problem !== undefined) throw new ManifestError([problem]);
      const { source, parsed } = await read();
      const input = options.gemini === true ? withoutGeminiWait(parsed, spec.inputSchema) : parsed;
      const sandbox = cliSandbox(settings, await loadSandboxPolicy(settings.configDir), notes);
      // Numbers as written, unless Gemini CLI's own key was taken out (its text is JavaScript's).
      const encodedInput = input === parsed ? stdinBytes(input, source) : undefined;
      execution = await declaredTool(spec, { ...built, sandbox }).execution(
        input,
        encodedInput === undefined ? {} : { encodedInput },
      );
    }
    if (dry !== undefined) return await dry.report(execution);
    using interrupt = abortOnInterrupt();
    // Each chunk is written as it arrives (a callback: no stream object on the path). A reader of
    // stdout that goes away (`| head -1`) stops only the relay (see `output.ts`).
    const output = await execution.execute({
      signal: interrupt.signal,
      ...(settings.json || options.result === true ? {} : {
        onOutput: (chunk) => {
          if (chunk.kind === "stderr") err(chunk.data);
          else if (!rendered) out(chunk.data);
        },
      }),
    });
    return report(output as Output, undefined);
  } catch (error) {
    if (held.length > 0) err(held.splice(0).join(""));
    // A misuse of the contract is a bug: it keeps its stack trace.
    if (
      !(error instanceof BasisError) || (error instanceof ToolError && error.code === "internal")
    ) {
      throw error;
    }
    if (error instanceof ToolError && error.output !== undefined) {
      return report(error.output as Output, error);
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
  function report(output: Output, error: ToolError | undefined): number {
    const extra = output.metadata.extra;
    const run = extra.run;
    const spawned = "call" in extra ? extra : undefined;
    const label = spawned === undefined
      ? words.t("label.tool", { tool: JSON.stringify(tool) })
      : spawnLabel(spawned.call, words);
    const interrupted = error?.code === "interrupted";
    if (settings.json) {
      const hide = (text: string) => redactor.text(text);
      const failure: CallFailure | undefined = error === undefined ? undefined : {
        kind: error.code,
        message: hide(interrupted ? words.t("run.interrupted", { label }) : error.message),
      };
      // A spawn call's body and target are the caller's, and may quote an --env value.
      outJson(
        spawned === undefined
          ? callJson(tool, failure, run, {
            result: hide(output.result),
            // Parsed from stdout after redaction: it holds no secret.
            structured_content: output.structuredContent ?? null,
            // Read and checked with the secrets hidden.
            content: rendered ? output.content : null,
            stdout: hide(run.stdout),
            stderr: hide(run.stderr),
            exit_code: run.exitCode ?? null,
            truncated: run.stdoutTruncated,
          })
          : redactor.value(
            name === undefined
              ? spawnJson(spawned.call, failure, run, spawned.output, output.result)
              : callJson(tool, failure, run, {
                result: output.result,
                structured_content: null,
                content: null,
                stdout: spawned.output.stdout,
                stderr: spawned.output.stderr,
                exit_code: spawned.output.exit_code,
                truncated: spawned.output.stdout_truncated,
              }),
          ),
      );
    } else if (interrupted) {
      err(`basis-tools: ${words.t("run.interrupted_stopped", { label })}\n`);
    } else if (error !== undefined) {
      // With --result nothing was streamed: the whole message, with what the program said; else
      // its output was already streamed through: say what happened without repeating it.
      const whole = options.result === true || rendered;
      err(`basis-tools: ${whole ? error.message : error.summary}\n`);
    } else if (options.result === true || rendered) {
      out(`${output.result}\n`);
    } else if (spawned?.call.mode === "agent" && run.stdout.trim() === "") {
      notes.note(words.t("spawn.agent_silent"));
    } else if (run.stdoutBytes === 0 && (spawned === undefined || run.stderrBytes === 0)) {
      notes.note(printedNothing(run, label, words));
    }
    return error === undefined ? 0 : exitCodeFor(error.code);
  }
}

/**
 * A dry run's approver (for the workspace root rules are scoped to), which records what would be
 * decided and refuses, and its report: the execution run up to its approval, then the preview and
 * the decision printed; exit 0 when the call would run, 5 when not. What the execution throws
 * before approval (a refusal, a program that cannot start) is thrown on.
 */
function dryRun(settings: Settings) {
  let seen: { request: ApprovalRequest; verdict: Verdict; redactor: Redactor } | undefined;
  const { approve: policy, configDir, cacheDir } = settings;
  const approver = (root: string): Approver => async (request, context) => {
    const verdict = await verdictFor(request, { policy, configDir, cacheDir, root });
    seen = { request, verdict, redactor: new Redactor(context.secrets) };
    return { allowed: false, by: "policy", ruleId: undefined, reason: "dry run" };
  };
  const report = async (execution: ToolExecution<unknown>): Promise<number> => {
    try {
      await execution.execute();
    } catch (error) {
      if (seen === undefined || !(error instanceof ToolError) || error.code !== "denied") {
        throw error;
      }
      const { request, verdict: { outcome, by, changed, rule }, redactor } = seen;
      // The preview with its input as the program receives it (every number as written).
      const shown = redactor.value(
        request.kind === "spawn" || request.stdin === undefined ? request.preview : {
          ...request.preview,
          input: parseKeepingNumbers(new TextDecoder().decode(request.stdin)),
        },
      );
      const files = changed?.files.map(({ path, change }) => ({
        path: redactor.text(path),
        change,
      }));
      if (settings.json) {
        outJson({
          preview: shown,
          decision: outcome,
          by,
          rule_id: rule?.id ?? null,
          would_run: outcome === "allow",
          changed: changed === undefined ? null : { rule_id: changed.rule, files },
        });
      } else {
        const { t } = messages(settings.locale);
        const id = rule?.id ?? "";
        const line = outcome === "ask"
          ? id === "" ? t("rules.test_ask") : t("rules.test_ask_rule", { rule: id })
          : by === "rule"
          ? t(outcome === "allow" ? "rules.test_allow_rule" : "rules.test_deny_rule", { rule: id })
          : t(outcome === "allow" ? "rules.test_allow_policy" : "rules.test_deny_policy");
        const lines = [t("rules.test_preview", { preview: JSON.stringify(shown) }), line];
        if (changed !== undefined) {
          const paths = files!.map(({ path }) => JSON.stringify(path)).join(", ");
          lines.push(t("rules.test_changed", { rule: changed.rule, files: paths }));
        }
        // JSON leaves C1 controls and bidi overrides raw: escaped (as JSON reads them) for a
        // terminal.
        out(visibleLines(lines.map((text) => `${text}\n`).join("")));
      }
      return outcome === "allow" ? 0 : 5;
    }
    throw new Error("Bug: a dry run's execution ran");
  };
  return { approver, report };
}
