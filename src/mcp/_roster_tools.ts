/**
 * Building the roster's tools for the server with the contract: every declared tool, then spawn,
 * each deciding through the server's approver. Private to the MCP binding.
 *
 * @module
 */

import { rosterTools } from "../contract/roster_tools.ts";
import type { Approver, AuditSink, Tool } from "../contract/types.ts";
import type { DeclaredToolOptions } from "../contract/declared_tool.ts";
import type { SpawnToolOptions } from "../contract/spawn_tool.ts";
import { loadRoster } from "../manifest/load.ts";
import { joinPath } from "../paths.ts";
import { loadSpawnConfig, SPAWN_CONFIG_FILE } from "../spawn/config.ts";
import { loadSandboxPolicy, SANDBOX_CONFIG_FILE } from "../sandbox/policy.ts";
import type { SandboxOptions, SandboxPolicy } from "../sandbox/types.ts";

/** What the tools are built with (the run's settings, as the CLI resolved them). */
export interface RosterToolSettings {
  /** The workspace root, absolute (fixed for the server's life). */
  readonly root: string;
  /** The user's config directory, absolute. */
  readonly configDir: string;
  /** The language of texts and user-facing errors. */
  readonly locale: string;
  /** Where decisions and runs are recorded. */
  readonly audit: AuditSink;
  /** Options of every declared tool (directories, `--env` pairs). */
  readonly declared: Omit<DeclaredToolOptions, "approver" | "audit" | "root" | "locale">;
  /** Options of spawn (commands off, depth, timeout, what a subagent inherits). */
  readonly spawn: Omit<SpawnToolOptions, "approver" | "audit" | "root" | "locale" | "sandbox">;
  /** The sandbox of every call, given the policy as `sandbox.json` says it now. */
  readonly sandbox: (policy: SandboxPolicy) => SandboxOptions;
}

/**
 * The files whose change reloads the roster: the workspace manifest, the global one, spawn.json,
 * sandbox.json.
 *
 * @param settings The root and the config directory.
 * @returns Absolute paths.
 */
export function watchedFiles(settings: Pick<RosterToolSettings, "root" | "configDir">): string[] {
  return [
    joinPath(settings.root, ".basis", "tools.json"),
    joinPath(settings.configDir, "tools.json"),
    joinPath(settings.configDir, SPAWN_CONFIG_FILE),
    joinPath(settings.configDir, SANDBOX_CONFIG_FILE),
  ];
}

/**
 * Loads the manifests, spawn.json and sandbox.json and builds every tool: the declared ones in roster order,
 * then spawn.
 *
 * @param settings The root, directories, locale, audit sink and each kind's options.
 * @param approver The approver every tool asks.
 * @returns The tools.
 * @throws {ManifestError} When a manifest or spawn.json is invalid.
 */
export async function loadRosterTools(
  settings: RosterToolSettings,
  approver: Approver,
): Promise<Tool[]> {
  const [roster, spawnConfig, policy] = await Promise.all([
    loadRoster({ workspace: settings.root, configDir: settings.configDir }),
    loadSpawnConfig(settings.configDir),
    loadSandboxPolicy(settings.configDir),
  ]);
  const shared = { approver, audit: settings.audit, sandbox: settings.sandbox(policy) };
  return rosterTools(roster, spawnConfig, {
    locale: settings.locale,
    declared: { ...settings.declared, ...shared },
    spawn: { ...settings.spawn, ...shared },
  }) as Tool[];
}
