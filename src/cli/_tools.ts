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
import { messages } from "../locale/messages.ts";
import { resolvePath } from "../paths.ts";
import type { Settings } from "./settings.ts";

/**
 * The audit trail a command's calls are recorded in.
 *
 * @param settings The run's settings (`--audit-log`, the environment, the locale).
 * @param warn Where a warning about the log goes. @default stderr
 * @returns The log.
 */
export function commandAudit(settings: Settings, warn?: (message: string) => void): AuditLog {
  const { auditLog: path, envLookup: env, locale } = settings;
  return openAuditLog({ path, env, locale, ...(warn === undefined ? {} : { warn }) });
}

/**
 * The run context every tool of this command is built on: by default nothing recorded, the
 * policy's approver, no spill files, the built-in sandbox policy, the tool's own time limit.
 *
 * @param settings The run's settings.
 * @param use What this command does differently: any field of the context, and `gemini` (Gemini
 *   CLI runs the call from its own screen: its terminal is not ours). `timeoutMs` is spawn's too,
 *   over `--spawn-timeout`.
 * @returns The context.
 */
export function toolContext(
  settings: Settings,
  use: Partial<CallContext> & { gemini?: boolean } = {},
): CallContext {
  const { gemini, ...given } = use;
  const { locale, env, cacheDir, approve: policy, configDir, noShell, depth, roster } = settings;
  const root = use.root;
  // What a subagent started through spawn inherits, so that it decides as this run does: the
  // policy, the config directory (rules, targets, agent), commands off, and the audit log.
  const agentEnv: Record<string, string> = {
    BASIS_APPROVE: policy,
    BASIS_CONFIG_DIR: resolvePath(configDir),
  };
  if (noShell) agentEnv.BASIS_NO_SHELL = "1";
  if (settings.auditLog !== undefined) {
    agentEnv.BASIS_AUDIT_LOG = settings.auditLog === "off" ? "off" : resolvePath(settings.auditLog);
  }
  return {
    locale,
    words: messages(locale),
    root,
    env,
    cacheDir,
    spillDir: false,
    timeoutMs: undefined,
    spawnTimeoutMs: use.timeoutMs ?? settings.spawnTimeoutMs,
    approver: policyApprover({
      policy,
      configDir,
      cacheDir,
      locale,
      ...(root === undefined ? {} : { root }),
      ...(gemini === true ? { controllingTerminal: false } : {}),
    }),
    audit: undefined,
    sandbox: undefined,
    noShell,
    depth,
    agentEnv,
    roster,
    readEnv: settings.envLookup,
    programs: undefined,
    ...given,
  };
}
