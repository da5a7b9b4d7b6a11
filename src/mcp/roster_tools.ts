/**
 * Building the roster's tools for the server with the contract: every declared tool, then spawn,
 * each deciding through the server's approver: what the server and the `mcp` command load.
 *
 * @module
 */

import { checkAvailability } from "../contract/availability.ts";
import type { CallContext } from "../contract/context.ts";
import { toolsOf } from "../contract/roster_tools.ts";
import type { Approver, AuditSink, Tool } from "../contract/types.ts";
import { loadRoster } from "../manifest/load.ts";
import type { Roster } from "../manifest/types.ts";
import { joinPath } from "../paths.ts";
import { ManifestError } from "../errors.ts";
import { loadSpawnConfig, SPAWN_CONFIG_FILE } from "../spawn/config.ts";
import { loadSandboxPolicy, SANDBOX_CONFIG_FILE } from "../sandbox/policy.ts";
import type { SandboxOptions, SandboxPolicy } from "../sandbox/types.ts";
import { SPAWN_TOOL } from "../spawn/types.ts";
import { withinRoster } from "../spawn/child.ts";
import type { LoadedRoster, UnavailableEntry } from "./serve_mcp.ts";

/** What the tools are built with (the run's settings, as the CLI resolved them). */
export interface RosterToolSettings {
  /** The workspace root, absolute (fixed for the server's life). */
  readonly root: string;
  /** The user's config directory, absolute. */
  readonly configDir: string;
  /** Where decisions and runs are recorded. */
  readonly audit: AuditSink;
  /**
   * The run context of every tool (locale, directories, `--env` pairs, what spawn needs); the
   * server's approver, audit sink and sandbox take the place of its own.
   */
  readonly context: CallContext;
  /**
   * The only tools to serve (`BASIS_ROSTER`, set for a delegated child), `spawn` among them or
   * not. @default every tool
   */
  readonly roster?: readonly string[];
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
 * Loads the manifests, spawn.json and sandbox.json and builds every usable tool: the declared ones in roster
 * order, then spawn. A tool that cannot be used (a problem of its own, a program that cannot be
 * found, a schema that does not compile; spawn with a broken spawn.json) is left out, with why.
 *
 * @param settings The root, directories, locale, audit sink and each kind's options.
 * @param approver The approver every tool asks.
 * @returns The tools, and those left out.
 * @throws {ManifestError} When a manifest file itself is invalid.
 */
export async function loadRosterTools(
  settings: RosterToolSettings,
  approver: Approver,
): Promise<LoadedRoster> {
  // A sandbox.json that cannot be read fails the whole load: the policy may say "required".
  const [whole, spawn, policy] = await Promise.all([
    loadRoster({ workspace: settings.root, configDir: settings.configDir }),
    loadSpawnConfig(settings.configDir).catch((error) => {
      if (error instanceof ManifestError) return error;
      throw error;
    }),
    loadSandboxPolicy(settings.configDir),
  ]);
  const names = settings.roster;
  const loaded: Roster = names === undefined ? whole : {
    ...whole,
    tools: withinRoster(whole.tools, names),
    unavailable: withinRoster(whole.unavailable, names),
  };
  const served = names === undefined || names.includes(SPAWN_TOOL);
  const roster = await checkAvailability(loaded, {
    env: settings.context.env,
    cacheDir: settings.context.cacheDir,
  });
  const unavailable: UnavailableEntry[] = [...roster.unavailable.values()].map((tool) => ({
    name: tool.name,
    problems: tool.problems,
    // A program can appear later without any file changing: look again from time to time.
    recheck: !loaded.unavailable.has(tool.name) &&
      tool.problems.some((problem) => problem.field === "command[0]"),
  }));
  const context = {
    ...settings.context,
    approver,
    audit: settings.audit,
    sandbox: settings.sandbox(policy),
  };
  if (served && spawn instanceof ManifestError) {
    unavailable.push({ name: SPAWN_TOOL, problems: spawn.problems, recheck: false });
  }
  const config = served && !(spawn instanceof ManifestError) ? spawn : undefined;
  return { tools: toolsOf(roster, config, context) as Tool[], unavailable };
}
