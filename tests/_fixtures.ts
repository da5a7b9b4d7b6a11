/**
 * The tests' fixtures in one place: the folder of fixture programs (`tests/fixtures/`) and the
 * builders of what several tests declare (a one-tool manifest, a tool spec, a spawn
 * configuration, a stand-in program).
 *
 * @module
 */

import type { ToolSpec } from "../src/mod.ts";
import { DEFAULT_MAX_DEPTH, type SpawnConfig } from "../src/spawn/config.ts";
import { DEFAULT_POLICY } from "../src/sandbox/policy.ts";

/** The repository root, with a trailing slash. */
export const ROOT: string = new URL("..", import.meta.url).pathname;

/**
 * A folder of fixtures under `tests/fixtures/` (no trailing slash).
 *
 * @param group The folder: `cli`, `run`, `spawn`, `mcp`, `sandbox`, …
 * @returns Its path.
 */
export function fixtures(group: string): string {
  return `${ROOT}tests/fixtures/${group}`;
}

/** Tiny programs the end-to-end tests declare as tools. */
export const FIXTURES: string = fixtures("cli");

/**
 * A one-tool manifest.
 *
 * @param name The tool's name.
 * @param tool Its fields; `description` and `input_schema` get defaults.
 * @returns The manifest object.
 */
export function oneTool(name: string, tool: Record<string, unknown>): unknown {
  return {
    schema: 1,
    tools: {
      [name]: { description: `The ${name} tool`, input_schema: { type: "object" }, ...tool },
    },
  };
}

/** A workspace declaring `echo`: `cat` with an optional string `text` (the MCP tests' tool). */
export const ECHO_MANIFEST: unknown = oneTool("echo", {
  description: "Echo the input",
  input_schema: { type: "object", properties: { text: { type: "string" } } },
  command: ["cat"],
});

/**
 * A workspace tool that runs `command` in the repository root with no extra environment, as the
 * manifest loader would give it: for tests that build tools without a manifest.
 *
 * @example Usage
 * ```ts ignore
 * const spec = toolSpec("echo", ["cat"], { timeoutMs: 100 });
 * ```
 *
 * @param name The tool's name.
 * @param command Its argv; the first word is the program.
 * @param fields The fields that differ.
 * @returns The spec.
 */
export function toolSpec(
  name: string,
  command: string[],
  fields: Partial<ToolSpec> = {},
): ToolSpec {
  return {
    name,
    description: `The ${name} tool`,
    inputSchema: { type: "object" },
    command,
    program: command[0] as string,
    cwd: ROOT,
    env: {},
    sideEffect: "process",
    timeoutMs: 20_000,
    sandbox: { network: false, write: [], read: [] },
    file: `${ROOT}.basis/tools.json`,
    scope: "workspace",
    ...fields,
  };
}

/**
 * A spawn configuration as `loadSpawnConfig()` would give it: no agent, no targets, the default
 * depth limit, and whatever the test sets.
 *
 * @param fields What the test sets.
 * @returns The configuration.
 */
export function spawnConfig(fields: Partial<SpawnConfig> = {}): SpawnConfig {
  return {
    file: "/c/spawn.json",
    agent: undefined,
    targets: new Map(),
    maxDepth: DEFAULT_MAX_DEPTH,
    ...fields,
  } as SpawnConfig;
}

/**
 * Writes a stand-in program that does nothing and exits 0 (`#!/bin/sh`).
 *
 * @param path Where.
 * @param mode Its file mode. @default 0o755
 * @returns The path.
 */
export async function executable(path: string, mode = 0o755): Promise<string> {
  await Deno.writeTextFile(path, "#!/bin/sh\nexit 0\n");
  await Deno.chmod(path, mode);
  return path;
}

/**
 * The OS sandbox off, for in-process tests of something else: a tool whose working directory is
 * the repository would be refused where the repository is a clone in the host's /tmp (it is no
 * workspace, and the sandbox covers /tmp).
 */
export const UNCONFINED_SANDBOX = {
  policy: { ...DEFAULT_POLICY, file: "/c/sandbox.json", mode: "off" },
} as const;
