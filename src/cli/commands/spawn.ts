/**
 * `basis-tools spawn STRING` (and `call spawn [INPUT|-]`): parse the string → refusals that need
 * no one (commands off, unknown target, depth, no subagent) → preview → approval → run.
 * Nothing starts before the approval said yes; bad input never reaches the approver.
 *
 * @module
 */

import { decide, type Decision } from "../../approval/approve.ts";
import { openAuditLog } from "../../audit/open_audit_log.ts";
import { BasisError, type ErrorCode, formatProblem, ManifestError } from "../../errors.ts";
import { resolvePath } from "../../paths.ts";
import { describeFailure } from "../../run/failure_message.ts";
import { abortOnInterrupt } from "../../run/interrupt.ts";
import type { RunResult } from "../../run/types.ts";
import { loadSpawnConfig, type SpawnConfig } from "../../spawn/config.ts";
import { parseSpawnDepth, SPAWN_DEPTH_VAR } from "../../spawn/depth.ts";
import { parseSpawnInput } from "../../spawn/grammar.ts";
import { refuseSpawn } from "../../spawn/guard.ts";
import { spawnPreview } from "../../spawn/preview.ts";
import { spawnLabel } from "../../spawn/result.ts";
import { runSpawn } from "../../spawn/run_spawn.ts";
import { SPAWN_SIDE_EFFECTS, SPAWN_TOOL, type SpawnCall } from "../../spawn/types.ts";
import { EXIT, exitCodeFor } from "../exit_codes.ts";
import { err, errBytes, outBytes, outJson } from "../output.ts";
import { readCallInput } from "../_call_input.ts";
import { workspaceRoot } from "../_workspace_root.ts";
import type { Settings } from "../settings.ts";
import { type CallFailure, failedCall } from "./_call_json.ts";
import { failedSpawn, ranSpawn, ranSpawnAsCall } from "./_spawn_json.ts";

/** Options of one spawn call from the command line. */
export interface SpawnCommandOptions {
  /** `call --timeout MS`: overrides `--spawn-timeout` for this call. */
  timeoutMs?: number | undefined;
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
export async function spawnCommand(settings: Settings, text: string): Promise<number> {
  return await spawnCall(settings, () => Promise.resolve({ input: text }), "spawn", {});
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
    const { text } = await readCallInput(inputArg);
    try {
      return JSON.parse(text) as unknown;
    } catch (error) {
      const detail = error instanceof Error ? error.message.split("\n")[0] : String(error);
      throw new BasisError(
        "invalid_json",
        `Cannot parse the input of tool "spawn" as JSON: ${detail}`,
      );
    }
  };
  return await spawnCall(settings, read, "call", options);
}

async function spawnCall(
  settings: Settings,
  readInput: () => Promise<unknown>,
  shape: Shape,
  options: SpawnCommandOptions,
): Promise<number> {
  using audit = auditLog(settings);
  let call: SpawnCall | undefined;
  try {
    const parsed = parseSpawnInput(await readInput());
    if (!parsed.ok) throw new BasisError("invalid_input", parsed.message);
    call = parsed.call;
    const root = await workspaceRoot(settings);
    const config = await loadSpawnConfig(settings.configDir);
    const depth = parseSpawnDepth(settings.envLookup(SPAWN_DEPTH_VAR));
    const preview = spawnPreview(call, root);
    const record = (decision: Decision) =>
      audit.record({
        type: "decision",
        tool: SPAWN_TOOL,
        preview,
        allowed: decision.allowed,
        by: decision.by,
        rule_id: decision.ruleId,
        reason: decision.reason,
        workspace: root,
      });
    const refusal = refuseSpawn(call, { noShell: settings.noShell, depth, config });
    if (refusal !== undefined) {
      // Refused before anyone is asked: recorded as the policy's answer.
      record({ allowed: false, by: "policy", ruleId: undefined, reason: refusal });
      throw new BasisError("denied", refusal);
    }
    const decision = await decide(
      { tool: SPAWN_TOOL, kind: "spawn", sideEffect: SPAWN_SIDE_EFFECTS[call.mode], preview },
      { policy: settings.approve, configDir: settings.configDir, root },
    );
    record(decision);
    if (!decision.allowed) {
      throw new BasisError("denied", decision.reason ?? 'Call of tool "spawn" denied');
    }
    const result = await run(call, root, config, depth ?? 0, settings, options);
    audit.record({
      type: "run",
      tool: SPAWN_TOOL,
      exit_code: result.exitCode,
      signal: result.signal,
      timed_out: result.timedOut,
      duration_ms: Math.round(result.durationMs),
      stdout_bytes: result.stdoutBytes,
      stderr_bytes: result.stderrBytes,
    });
    return report(call, result, settings, shape);
  } catch (error) {
    if (!(error instanceof BasisError) || !settings.json) throw error;
    const message = error instanceof ManifestError
      ? error.problems.map(formatProblem).join("\n")
      : error.message;
    const failure = { kind: error.code, message };
    outJson(shape === "call" ? failedCall(SPAWN_TOOL, failure) : failedSpawn(call, failure));
    return exitCodeFor(error.code);
  }
}

/** The audit trail of this call, closed when the call ends. */
function auditLog(settings: Settings) {
  const log = openAuditLog({ path: settings.auditLog, env: settings.envLookup });
  return { record: log.record, [Symbol.dispose]: () => log.close() };
}

async function run(
  call: SpawnCall,
  root: string,
  config: SpawnConfig,
  depth: number,
  settings: Settings,
  options: SpawnCommandOptions,
): Promise<RunResult> {
  using interrupt = abortOnInterrupt();
  const timeoutMs = options.timeoutMs ?? settings.spawnTimeoutMs;
  return await runSpawn(call, root, {
    config,
    env: settings.env,
    depth,
    agentEnv: inheritedSettings(settings),
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
    signal: interrupt.signal,
    readEnv: settings.envLookup,
    // With --json the output is collected; otherwise every byte is streamed through.
    ...(settings.json ? {} : { onStdout: outBytes, onStderr: errBytes }),
  });
}

/**
 * What a subagent inherits so that it runs with the parent's approval: the policy, the config
 * directory (rules, targets, agent), commands off, and the audit log.
 */
function inheritedSettings(settings: Settings): Record<string, string> {
  const env: Record<string, string> = {
    BASIS_APPROVE: settings.approve,
    BASIS_CONFIG_DIR: resolvePath(settings.configDir),
  };
  if (settings.noShell) env.BASIS_NO_SHELL = "1";
  if (settings.auditLog !== undefined) {
    env.BASIS_AUDIT_LOG = settings.auditLog === "off" ? "off" : resolvePath(settings.auditLog);
  }
  return env;
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

function report(call: SpawnCall, result: RunResult, settings: Settings, shape: Shape): number {
  const label = spawnLabel(call);
  const { code, kind } = outcome(result);
  if (settings.json) {
    const message = kind === "interrupted"
      ? `${label} was interrupted`
      : describeFailure(result, label);
    const failure: CallFailure | undefined = kind === undefined
      ? undefined
      : { kind, message: message ?? `${label} failed` };
    outJson(
      shape === "call" ? ranSpawnAsCall(call, result, failure) : ranSpawn(call, result, failure),
    );
    return code;
  }
  if (kind === "interrupted") {
    err(`basis-tools: ${label} was interrupted; its process group was stopped\n`);
  } else if (kind !== undefined) {
    // Its output was already streamed through: say what happened without repeating it.
    const headline = describeFailure({ ...result, stdout: "", stderr: "" }, label);
    err(`basis-tools: ${headline ?? `${label} failed`}\n`);
  } else if (call.mode === "agent" && result.stdout.trim() === "") {
    err("basis-tools: The subagent finished without saying anything\n");
  } else if (result.stdoutBytes === 0 && result.stderrBytes === 0) {
    err(`basis-tools: ${label} finished and printed nothing\n`);
  }
  return code;
}
