/**
 * The one place the CLI turns its settings into the run context its tools are built on (approval,
 * env, what a subagent inherits, sandbox, spill, audit), for `call`, `spawn`, `schema`, `list`,
 * `show`, `help` and `mcp` alike.
 *
 * @module
 */

import { type AuditLog, openAuditLog } from "../audit/open_audit_log.ts";
import { policyApprover } from "../contract/approver.ts";
import type { CallContext } from "../contract/context.ts";
import { spawnTool } from "../contract/spawn_tool.ts";
import type { Approver, AuditSink, SpawnToolExtra, Tool } from "../contract/types.ts";
import { messages } from "../locale/messages.ts";
import { resolvePath } from "../paths.ts";
import type { SandboxOptions } from "../sandbox/types.ts";
import type { SpawnConfig } from "../spawn/config.ts";
import type { Settings } from "./settings.ts";

/**
 * The audit trail a command's calls are recorded in.
 *
 * @param settings The run's settings (`--audit-log`, the environment, the locale).
 * @param warn Where a warning about the log goes. @default stderr
 * @returns The log.
 */
export function commandAudit(settings: Settings, warn?: (message: string) => void): AuditLog {
  return openAuditLog({
    path: settings.auditLog,
    env: settings.envLookup,
    locale: settings.locale,
    ...(warn === undefined ? {} : { warn }),
  });
}

/** How one command uses its tools: what differs between `call`, `spawn`, `mcp` and the rest. */
export interface ToolUse {
  /** The workspace root, absolute. @default the roster's (spawn: the current directory) */
  readonly root?: string;
  /** Where decisions and runs are recorded. @default nothing is recorded (a dry run, `list`) */
  readonly audit?: AuditSink;
  /** Decides instead of the policy (a dry run's recorder, the MCP server's). @default the policy */
  readonly approver?: Approver;
  /** The sandbox of every call. @default the built-in policy */
  readonly sandbox?: SandboxOptions;
  /** `--timeout` of this call (spawn's falls back to `--spawn-timeout`). @default the tool's */
  readonly timeoutMs?: number | undefined;
  /** Gemini CLI runs the call from its own screen: its terminal is not ours. @default false */
  readonly gemini?: boolean;
  /**
   * Whether a result for a model is cut, with the full output in a spill file (`--json`, MCP);
   * otherwise every byte is streamed through and nothing needs saving. @default false
   */
  readonly spill?: boolean;
  /** Whether the program of a call is looked up once for the run (one CLI call). @default false */
  readonly once?: boolean;
}

/**
 * The run context every tool of this command is built on.
 *
 * @param settings The run's settings.
 * @param use What this command does with its tools.
 * @returns The context.
 */
export function toolContext(settings: Settings, use: ToolUse = {}): CallContext {
  const root = use.root;
  // What a subagent started through spawn inherits, so that it decides as this run does: the
  // policy, the config directory (rules, targets, agent), commands off, and the audit log.
  const agentEnv: Record<string, string> = {
    BASIS_APPROVE: settings.approve,
    BASIS_CONFIG_DIR: resolvePath(settings.configDir),
  };
  if (settings.noShell) agentEnv.BASIS_NO_SHELL = "1";
  if (settings.auditLog !== undefined) {
    agentEnv.BASIS_AUDIT_LOG = settings.auditLog === "off" ? "off" : resolvePath(settings.auditLog);
  }
  return {
    locale: settings.locale,
    words: messages(settings.locale),
    root,
    env: settings.env,
    cacheDir: settings.cacheDir,
    spillDir: use.spill === true ? settings.spillDir : false,
    timeoutMs: use.timeoutMs,
    spawnTimeoutMs: use.timeoutMs ?? settings.spawnTimeoutMs,
    approver: use.approver ?? policyApprover({
      policy: settings.approve,
      configDir: settings.configDir,
      cacheDir: settings.cacheDir,
      locale: settings.locale,
      ...(root === undefined ? {} : { root }),
      ...(use.gemini === true ? { controllingTerminal: false } : {}),
    }),
    audit: use.audit,
    sandbox: use.sandbox,
    noShell: settings.noShell,
    depth: settings.depth,
    agentEnv,
    roster: settings.roster,
    readEnv: settings.envLookup,
    programs: use.once === true ? new Map() : undefined,
  };
}

/**
 * The spawn tool as `list`, `show` and `help` present it: built by the contract with this run's
 * context, so its name, description and side effects are the ones a model sees.
 *
 * @param settings The run's settings.
 * @param config The user's spawn configuration.
 * @returns The tool.
 */
export function spawnToolFor(
  settings: Settings,
  config: SpawnConfig,
): Promise<Tool<SpawnToolExtra>> {
  return Promise.resolve(spawnTool(config, toolContext(settings)));
}
