/**
 * Serving the roster with the contract: every declared tool, then spawn, each deciding through
 * the server's approver, loaded again when a watched file changes: what `basis-tools mcp` and
 * `serveWorkspace()` serve.
 *
 * @module
 */

import { checkAvailability } from "../contract/availability.ts";
import type { CallContext } from "../contract/context.ts";
import { toolsOf } from "../contract/roster_tools.ts";
import type { Approver } from "../contract/types.ts";
import { loadRoster } from "../manifest/load.ts";
import { joinPath } from "../paths.ts";
import { ManifestError } from "../errors.ts";
import { loadSpawnConfig, SPAWN_CONFIG_FILE } from "../spawn/config.ts";
import { loadSandboxPolicy, SANDBOX_CONFIG_FILE } from "../sandbox/policy.ts";
import type { SandboxOptions, SandboxPolicy } from "../sandbox/types.ts";
import { SPAWN_TOOL } from "../spawn/types.ts";
import { withinRoster } from "../spawn/child.ts";
import type { ApprovalPolicy } from "../approval/policy.ts";
import {
  type HttpOptions,
  type LoadedRoster,
  serveMcp,
  type UnavailableEntry,
} from "./serve_mcp.ts";

/** What the tools are built with (the run's settings, as the CLI resolved them). */
export interface RosterToolSettings {
  /** The workspace root, absolute (fixed for the server's life). */
  readonly root: string;
  /** The user's config directory, absolute. */
  readonly configDir: string;
  /**
   * The run context of every tool (locale, directories, `--env` pairs, the audit sink, the only
   * tools to serve, what spawn needs); the server's approver and sandbox take the place of its own.
   */
  readonly context: CallContext;
  /** The sandbox of every call, given the policy as `sandbox.json` says it now. */
  readonly sandbox: (policy: SandboxPolicy) => SandboxOptions;
  /** `--approve`: `prompt` asks through the client when it can, else denies. @default "prompt" */
  readonly policy?: ApprovalPolicy | undefined;
  /** Ends the server as if the client had gone away. */
  readonly signal?: AbortSignal | undefined;
  /** Serves Streamable HTTP at this address instead of stdio. */
  readonly http?: HttpOptions | undefined;
}

/**
 * Serves the roster over MCP's stdio transport until the client goes away, loading it again when
 * one of its files changes: the workspace manifest, the global one, spawn.json, sandbox.json.
 *
 * @param settings The root, the config directory, the run context, the sandbox, the policy.
 * @returns Whether calls were still running when the client went (they were stopped).
 * @throws {ManifestError} When a manifest file itself is invalid at start.
 */
export function serveRoster(settings: RosterToolSettings): Promise<{ interrupted: boolean }> {
  const { root, configDir, context } = settings;
  const files = ["tools.json", SPAWN_CONFIG_FILE, SANDBOX_CONFIG_FILE];
  return serveMcp({
    load: (approver) => loadRosterTools(settings, approver),
    policy: settings.policy,
    configDir,
    cacheDir: context.cacheDir,
    root,
    locale: context.locale,
    watch: [
      joinPath(root, ".basis", "tools.json"),
      ...files.map((file) => joinPath(configDir, file)),
    ],
    signal: settings.signal,
    http: settings.http,
  });
}

/**
 * Loads the manifests, spawn.json and sandbox.json and builds every usable tool: the declared ones
 * in roster order, then spawn (unless the context's roster leaves it out). A tool that cannot be
 * used (a problem of its own, a program that cannot be found, a schema that does not compile;
 * spawn with a broken spawn.json) is left out, with why.
 *
 * @param settings The root, the config directory, the run context and the sandbox.
 * @param approver The approver every tool asks.
 * @returns The tools, and those left out.
 */
async function loadRosterTools(
  settings: RosterToolSettings,
  approver: Approver,
): Promise<LoadedRoster> {
  const { root, configDir, context } = settings;
  // A sandbox.json that cannot be read fails the whole load: the policy may say "required".
  const [whole, spawn, policy] = await Promise.all([
    loadRoster({ workspace: root, configDir }),
    loadSpawnConfig(configDir).catch((error) => {
      if (error instanceof ManifestError) return error;
      throw error;
    }),
    loadSandboxPolicy(configDir),
  ]);
  const names = context.roster;
  const left = withinRoster(whole.unavailable, names);
  const loaded = { ...whole, tools: withinRoster(whole.tools, names), unavailable: left };
  const roster = await checkAvailability(loaded, { env: context.env, cacheDir: context.cacheDir });
  const unavailable: UnavailableEntry[] = [...roster.unavailable.values()].map((tool) => ({
    name: tool.name,
    problems: tool.problems,
    // A program can appear later without any file changing: look again from time to time.
    recheck: !left.has(tool.name) && tool.problems.some(({ field }) => field === "command[0]"),
  }));
  const spawned = names === undefined || names.includes(SPAWN_TOOL);
  const broken = spawn instanceof ManifestError;
  if (spawned && broken) unavailable.push({ name: SPAWN_TOOL, problems: spawn.problems });
  const served = { ...context, approver, sandbox: settings.sandbox(policy) };
  return { tools: toolsOf(roster, spawned && !broken ? spawn : undefined, served), unavailable };
}
