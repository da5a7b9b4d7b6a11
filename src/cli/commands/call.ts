/**
 * `basis-tools call NAME [INPUT|-]`: parse input → schema gate → preview → approval → run.
 * Nothing starts before the approval said yes; bad input never reaches the approver.
 *
 * @module
 */

import { decide } from "../../approval/approve.ts";
import { toolPreview } from "../../approval/preview.ts";
import { openAuditLog } from "../../audit/open_audit_log.ts";
import type { AuditEntry } from "../../audit/types.ts";
import { BasisError, type ErrorCode, formatProblem, ManifestError } from "../../errors.ts";
import type { ToolSpec } from "../../manifest/types.ts";
import { redact } from "../../redact.ts";
import { describeFailure } from "../../run/failure_message.ts";
import { abortOnInterrupt } from "../../run/interrupt.ts";
import { runProgram } from "../../run/run_program.ts";
import type { RunResult } from "../../run/types.ts";
import { checkSchema, validateInput } from "../../schema/gate.ts";
import { EXIT, exitCodeFor } from "../exit_codes.ts";
import { err, errBytes, outBytes, outJson } from "../output.ts";
import { findTool, rosterFor } from "../_roster.ts";
import { readCallInput, stdinBytes } from "../_call_input.ts";
import type { Settings } from "../settings.ts";
import { failedCall, ranCall } from "./_call_json.ts";

/** Options of one call. */
export interface CallOptions {
  /** Overrides the tool's `timeout_ms`. */
  timeoutMs: number | undefined;
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
  let secrets: readonly string[] = [];
  using audit = auditLog(settings);
  try {
    const roster = await rosterFor(settings);
    const spec = findTool(roster, name);
    secrets = Object.values(spec.env);
    audit.secrets = secrets;
    const source = await readCallInput(inputArg);
    const input = parseInput(name, source.text);
    await gate(spec, input, settings.cacheDir);
    const preview = toolPreview(spec, input);
    const stdin = stdinBytes(input, source);
    const decision = await decide(
      { tool: spec.name, sideEffect: spec.sideEffect, preview },
      { policy: settings.approve, configDir: settings.configDir, root: roster.root, secrets },
    );
    audit.record({
      type: "decision",
      tool: spec.name,
      preview,
      allowed: decision.allowed,
      by: decision.by,
      rule_id: decision.ruleId,
      reason: decision.reason,
      workspace: roster.root,
      input_bytes: stdin.length,
    });
    if (!decision.allowed) {
      throw new BasisError("denied", decision.reason ?? `Call of tool "${name}" denied`);
    }
    const result = await run(spec, stdin, settings, options);
    audit.record({
      type: "run",
      tool: spec.name,
      exit_code: result.exitCode,
      signal: result.signal,
      timed_out: result.timedOut,
      duration_ms: Math.round(result.durationMs),
      stdout_bytes: result.stdoutBytes,
      stderr_bytes: result.stderrBytes,
    });
    return report(name, result, settings, secrets);
  } catch (error) {
    if (!(error instanceof BasisError) || !settings.json) throw error;
    const message = error instanceof ManifestError
      ? error.problems.map(formatProblem).join("\n")
      : error.message;
    outJson(failedCall(name, { kind: error.code, message: redact(message, secrets) }));
    return exitCodeFor(error.code);
  }
}

/** The audit trail of this call; every entry is redacted with the tool's env values. */
function auditLog(settings: Settings) {
  const log = openAuditLog({ path: settings.auditLog, env: settings.envLookup });
  const handle = {
    secrets: [] as readonly string[],
    record: (entry: AuditEntry) => log.record(entry, { secrets: handle.secrets }),
    [Symbol.dispose]: () => log.close(),
  };
  return handle;
}

function parseInput(name: string, text: string): Record<string, unknown> {
  let input: unknown;
  try {
    input = JSON.parse(text);
  } catch (error) {
    const detail = error instanceof Error ? error.message.split("\n")[0] : String(error);
    throw new BasisError(
      "invalid_json",
      `Cannot parse the input of tool "${name}" as JSON: ${detail}`,
    );
  }
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    const found = input === null ? "null" : Array.isArray(input) ? "an array" : `a ${typeof input}`;
    throw new BasisError(
      "invalid_input",
      `Input refused by tool "${name}": (root): must be a JSON object, found ${found}`,
    );
  }
  return input as Record<string, unknown>;
}

/** Refuses bad input (exit 4) and a schema that cannot compile (a manifest problem, exit 6). */
async function gate(spec: ToolSpec, input: unknown, cacheDir: string): Promise<void> {
  try {
    await validateInput(spec, input, { cacheDir });
  } catch (error) {
    if (!(error instanceof BasisError) || error.code !== "manifest_invalid") throw error;
    const reason = await checkSchema(spec, { cacheDir }) ?? error.message;
    throw new ManifestError([{ file: spec.file, tool: spec.name, field: "input_schema", reason }]);
  }
}

async function run(
  spec: ToolSpec,
  stdin: Uint8Array,
  settings: Settings,
  options: CallOptions,
): Promise<RunResult> {
  using interrupt = abortOnInterrupt();
  return await runProgram(
    {
      program: spec.program,
      args: spec.command.slice(1),
      cwd: spec.cwd,
      stdin,
      env: [settings.env, spec.env],
      timeoutMs: options.timeoutMs ?? spec.timeoutMs,
    },
    {
      signal: interrupt.signal,
      // With --json the result is for a model: cut, with the full output in a spill file.
      // Otherwise every byte is streamed through and nothing needs saving.
      ...(settings.json
        ? { spillDir: settings.spillDir }
        : { onStdout: outBytes, onStderr: errBytes }),
    },
  );
}

function outcome(result: RunResult): { code: number; kind: ErrorCode | undefined } {
  if (result.cancelled) return { code: EXIT.interrupted, kind: "interrupted" };
  if (result.timedOut) return { code: EXIT.timedOut, kind: "timed_out" };
  if (result.startFailure !== undefined) return { code: EXIT.failed, kind: "spawn_failed" };
  if (result.signal !== undefined || result.exitCode !== 0) {
    return { code: EXIT.failed, kind: "tool_failed" };
  }
  return { code: EXIT.ok, kind: undefined };
}

function report(
  name: string,
  result: RunResult,
  settings: Settings,
  secrets: readonly string[],
): number {
  const label = `Tool ${JSON.stringify(name)}`;
  const { code, kind } = outcome(result);
  if (settings.json) {
    const message = kind === "interrupted"
      ? `${label} was interrupted`
      : describeFailure(result, label);
    const failure = kind === undefined
      ? undefined
      : { kind, message: message ?? `${label} failed` };
    outJson(ranCall(name, result, failure, secrets));
    return code;
  }
  if (kind === "interrupted") {
    err(`basis-tools: ${label} was interrupted; its process group was stopped\n`);
  } else if (kind !== undefined) {
    // Its output was already streamed through: say what happened without repeating it.
    const headline = describeFailure({ ...result, stdout: "", stderr: "" }, label);
    err(`basis-tools: ${redact(headline ?? `${label} failed`, secrets)}\n`);
  } else if (result.stdoutBytes === 0) {
    err(`basis-tools: ${label} finished and printed nothing\n`);
  }
  return code;
}
