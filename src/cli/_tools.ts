/**
 * The one place the CLI says how its tools are built: the options of declared tools and of spawn
 * from the run's settings (approval, env, what a subagent inherits, sandbox, spill, audit), for
 * `call`, `spawn`, `schema`, `list`, `show`, `help` and `mcp` alike. Only types of the contract are
 * imported here, so a command's start-up graph holds no builder it does not use.
 *
 * @module
 */

import type { DeclaredToolOptions } from "../contract/declared_tool.ts";
import type { SpawnToolOptions } from "../contract/spawn_tool.ts";
import type { Approver, AuditSink, SpawnToolExtra, Tool } from "../contract/types.ts";
import { type AuditLog, openAuditLog } from "../audit/open_audit_log.ts";
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
  /** The workspace root, absolute. @default the builders' own (the current directory) */
  readonly root?: string;
  /** Where decisions and runs are recorded. @default nothing is recorded (a dry run, `list`) */
  readonly audit?: AuditSink;
  /** Decides instead of the policy (a dry run's recorder, the MCP server's). @default the policy */
  readonly approver?: Approver;
  /** The sandbox of every call. @default the builders' own */
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
}

/** The options of both kinds of tool, from the same settings. */
export interface CliToolOptions {
  /** Options of every declared tool. */
  readonly declared: DeclaredToolOptions;
  /** Options of spawn. */
  readonly spawn: SpawnToolOptions;
}

/**
 * The options every tool of this run is built with.
 *
 * @param settings The run's settings.
 * @param use What this command does with its tools.
 * @returns The declared tools' options and spawn's.
 */
export function toolOptions(settings: Settings, use: ToolUse = {}): CliToolOptions {
  const shared = {
    locale: settings.locale,
    env: settings.env,
    ...(use.root === undefined ? {} : { root: use.root }),
    approval: {
      policy: settings.approve,
      configDir: settings.configDir,
      cacheDir: settings.cacheDir,
      locale: settings.locale,
      ...(use.gemini === true ? { controllingTerminal: false } : {}),
    },
    ...(use.approver === undefined ? {} : { approver: use.approver }),
    ...(use.audit === undefined ? {} : { audit: use.audit }),
    ...(use.sandbox === undefined ? {} : { sandbox: use.sandbox }),
  };
  const spawnTimeoutMs = use.timeoutMs ?? settings.spawnTimeoutMs;
  return {
    declared: {
      ...shared,
      cacheDir: settings.cacheDir,
      spillDir: use.spill === true ? settings.spillDir : false,
      ...(use.timeoutMs === undefined ? {} : { timeoutMs: use.timeoutMs }),
    },
    spawn: {
      ...shared,
      noShell: settings.noShell,
      depth: settings.depth ?? "unknown",
      agentEnv: inheritedSettings(settings),
      ...(settings.roster === undefined ? {} : { roster: settings.roster }),
      ...(spawnTimeoutMs === undefined ? {} : { timeoutMs: spawnTimeoutMs }),
      readEnv: settings.envLookup,
    },
  };
}

/**
 * The spawn tool as `list`, `show` and `help` present it: built by the contract with this run's
 * options, so its name, description and side effects are the ones a model sees. The builder is
 * loaded only here, when spawn is shown.
 *
 * @param settings The run's settings.
 * @param config The user's spawn configuration.
 * @returns The tool.
 */
export async function spawnToolFor(
  settings: Settings,
  config: SpawnConfig,
): Promise<Tool<SpawnToolExtra>> {
  const { SpawnToolBuilder } = await import("../contract/spawn_tool.ts");
  return new SpawnToolBuilder(config, toolOptions(settings).spawn).build();
}

/**
 * What a subagent started through spawn inherits, so that it decides as this run does: the policy,
 * the config directory (rules, targets, agent), commands off, and the audit log.
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
