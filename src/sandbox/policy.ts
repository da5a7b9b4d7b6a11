/**
 * The user's sandbox policy: `sandbox.json` in the global config directory (never in a workspace,
 * so that a repository cannot loosen the confinement of its own tools).
 *
 * ```jsonc
 * {
 *   "mode": "auto",                       // off | auto | required
 *   "network": false,                     // every confined call may reach the network
 *   "write": ["~/.cache/basis-tools"],    // every confined call may write here (and the workspace)
 *   "hidden": ["~/.ssh", "~/.aws"],       // what no call may read unless granted (replaces the built-in list)
 *   "grantable": { "network": true, "write": ["~", "/tmp"], "read": ["/"] }, // what a declaration may ask for
 *   "spawn": { "network": false, "write": [], "read": [], "agent": false },  // spawn commands; subagents too when agent is true
 *   "bwrap": "/opt/bubblewrap/bin/bwrap"  // when it is not where the system keeps it (root's, or on PATH)
 * }
 * ```
 *
 * Every key is optional; a missing file is the defaults ({@linkcode DEFAULT_POLICY}).
 *
 * @module
 */

import schema from "../../schemas/sandbox.schema.json" with { type: "json" };
import { phrase } from "../locale/messages.ts";
import { joinPath, resolvePath } from "../paths.ts";
import { grantPath } from "../manifest/load.ts";
import { loadConfigFile, parseConfigText } from "../read_config_file.ts";
import { configError, type ShapeProblem, shapeProblems } from "../config_shape.ts";
import type { SandboxPolicy } from "./types.ts";

/** The file name inside the config directory. */
export const SANDBOX_CONFIG_FILE = "sandbox.json";

/**
 * The policy of a user who wrote none: the defaults `schemas/sandbox.schema.json` gives, among
 * them the paths hidden from every call unless a declaration names them (where keys and tokens
 * live, and the sockets of agents and container VMs kept in the home directory).
 */
export const DEFAULT_POLICY = defaults(schema) as Omit<SandboxPolicy, "file">;

/** Each property's `default`, in schema order; an object's own defaults for one without. */
function defaults(node: object): Json {
  const properties = Object.entries((node as { properties?: Json }).properties ?? {});
  return Object.freeze(
    Object.fromEntries(
      properties.flatMap(([key, property]) =>
        Object.hasOwn(property as object, "default")
          ? [[key, Object.freeze((property as Json).default)]]
          : Object.hasOwn(property as object, "properties")
          ? [[key, defaults(property as object)]]
          : []
      ),
    ),
  );
}

/**
 * Reads `sandbox.json` from the config directory. A missing file (or a directory in its place) is
 * the default policy.
 *
 * @param configDir The global config directory.
 * @returns The policy.
 * @throws {ManifestError} `manifest_invalid`, one problem per line, when the file cannot be read
 *   or holds anything but the documented keys and values.
 * @example Read the user's policy
 * ```ts ignore
 * import { loadSandboxPolicy } from "./policy.ts";
 * const policy = await loadSandboxPolicy("/home/me/.config/basis");
 * console.log(policy.mode); // "auto"
 * ```
 */
export async function loadSandboxPolicy(configDir: string): Promise<SandboxPolicy> {
  const file = resolvePath(joinPath(configDir, SANDBOX_CONFIG_FILE));
  return await loadConfigFile(file, () => ({ file, ...DEFAULT_POLICY }), parseSandboxPolicy);
}

/**
 * Checks the text of a `sandbox.json` without touching the disk: its shape by
 * `schemas/sandbox.schema.json`, then that no `~` path climbs out of `~` with `..`.
 *
 * @param text The file's text (JSON; comments and trailing commas are accepted).
 * @param file Its absolute path, for messages.
 * @returns The policy, every key not given at its default, every path normalised.
 * @throws {ManifestError} With every problem found, each at its line and column.
 * @example Require the sandbox
 * ```ts
 * import { parseSandboxPolicy } from "./policy.ts";
 * const policy = await parseSandboxPolicy('{"mode": "required"}', "/c/sandbox.json");
 * console.assert(policy.mode === "required" && policy.network === false);
 * ```
 */
export async function parseSandboxPolicy(text: string, file: string): Promise<SandboxPolicy> {
  const parsed = await parseConfigText(text, file, phrase("sandbox_config.empty"));
  const found = await shapeProblems(schema, parsed.value);
  const policy = found.length === 0 ? over(DEFAULT_POLICY, parsed.value as Json, [], found) : {};
  if (!found.length && !parsed.duplicates.length) return { file, ...policy } as SandboxPolicy;
  throw await configError(file, parsed, found);
}

type Json = Record<string, unknown>;

/**
 * What a well-formed file gives, over the defaults, every path normalised (one that climbs out of
 * `~` with ".." is a problem).
 */
function over(defaults: object, given: Json, at: (string | number)[], found: ShapeProblem[]): Json {
  const normal = (path: string, here: (string | number)[]) => {
    const made = grantPath(path, "/");
    if (typeof made === "string") return made;
    found.push({ path: here, at: "value", reason: made });
    return path;
  };
  const out: Json = { ...defaults };
  for (const [key, value] of Object.entries(given)) {
    const here = [...at, key];
    out[key] = Array.isArray(value)
      ? Object.freeze(value.map((path, index) => normal(path, [...here, index])))
      : key === "bwrap"
      ? normal(value as string, here)
      : typeof value === "object"
      ? over((defaults as Record<string, object>)[key]!, value as Json, here, found)
      : value;
  }
  return out;
}
