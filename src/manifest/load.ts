/**
 * Loading the roster: the workspace manifest, then the global one, both fully checked, layered
 * into one ordered map of tools.
 *
 * @module
 */

import { BasisError, ManifestError, type ManifestProblem, problemOf } from "../errors.ts";
import { configDir as defaultConfigDir, readEnv, resolvePath as absolute } from "../paths.ts";
import { fsReason } from "../fs_reason.ts";
import { type Phrase, phrase } from "../locale/messages.ts";
import { quietly } from "../quietly.ts";
import { readConfigFile, sameFile } from "../read_config_file.ts";
import type { ManifestScope, ManifestSource, Roster, ToolSpec, UnavailableTool } from "./types.ts";
import { findWorkspaceRoot, isWorkspaceRoot } from "./_discover.ts";
import { DEFAULT_RESERVED, parseManifestText } from "./parse.ts";
import { grantPath } from "./_validate.ts";

export { findWorkspaceRoot, grantPath, isWorkspaceRoot };

/** Options of {@linkcode loadRoster}. */
export interface LoadOptions {
  /**
   * The `-C/--workspace` directory (absolute, or relative to `cwd`); it must exist.
   *
   * @default {the nearest ancestor of `cwd` holding `.basis/tools.json`, else `cwd`}
   */
  workspace?: string;
  /**
   * The directory the search starts from and relative paths are against.
   *
   * @default {Deno.cwd()}
   */
  cwd?: string;
  /**
   * The global config directory, already resolved (relative paths are against `cwd`).
   *
   * @default {configDir(undefined, env) from src/paths.ts}
   */
  configDir?: string;
  /**
   * How variables are read, for `${VAR}` expansion (and the default config directory).
   *
   * @default {readEnv}
   */
  env?: (name: string) => string | undefined;
  /**
   * Names the program already answers to; a manifest declaring one is refused.
   *
   * @default {["spawn"]}
   */
  reserved?: readonly string[];
  /**
   * The one tool a run uses (`call`): only its entry is checked, and of the others only what a
   * whole file must get right; they are left out of the roster. When no file declares it, every
   * tool is checked (the roster then says which names are close).
   *
   * @default {every tool}
   */
  only?: string;
}

/**
 * Loads and checks `<root>/.basis/tools.json` and `<configDir>/tools.json`. A missing file (or a
 * directory where the file should be) declares nothing; both files are fully checked even when the
 * workspace shadows a global tool, and the workspace wins a shared name. When both paths are the
 * same file it is read once, as the workspace's.
 *
 * A problem confined to one tool (a field, an unset `${VAR}`, a key given twice inside it) makes
 * that tool unavailable, with its reasons, and leaves the others usable; a problem of a file itself
 * (unreadable, not JSON, its `schema` version, a tool's name, a tool declared twice) refuses the
 * whole roster, since any name that file declares could shadow another.
 *
 * @param options The workspace, directories, environment and reserved names.
 * @returns The roster: workspace tools by name, then unshadowed global tools by name; the tools
 *   that cannot be used in `unavailable`, in the same order.
 * @throws {ManifestError} With every problem of both files, when a file itself is invalid or
 *   unreadable.
 * @throws {BasisError} Code `usage`, when `workspace` is given and is not a directory basis-tools
 *   may read (see {@linkcode explicitWorkspace}).
 * @example Load the roster of the current directory
 * ```ts ignore
 * import { loadRoster } from "./load.ts";
 * const roster = await loadRoster({ workspace: "examples" });
 * for (const tool of roster.tools.values()) console.log(tool.name, tool.description);
 * ```
 */
export async function loadRoster(options: LoadOptions = {}): Promise<Roster> {
  const cwd = absolute(Deno.cwd(), options.cwd ?? ".");
  const env = options.env ?? readEnv;
  const root = options.workspace === undefined
    ? findWorkspaceRoot(cwd)
    : explicitWorkspace(absolute(cwd, options.workspace), options.workspace);
  const config = absolute(cwd, options.configDir ?? defaultConfigDir(undefined, env));
  const reserved = options.reserved ?? DEFAULT_RESERVED;

  const workspacePath = absolute(root, ".basis/tools.json");
  const globalPath = absolute(config, "tools.json");
  const paths: [string, ManifestScope][] = [[workspacePath, "workspace"]];
  if (!sameFile(workspacePath, globalPath)) paths.push([globalPath, "global"]);

  const only = options.only === undefined ? {} : { only: options.only };
  const loaded = await Promise.all(paths.map(async ([path, scope]) => {
    const read = readConfigFile(path);
    const source: ManifestSource = { path, scope, found: read.kind !== "missing" };
    const none = { source, tools: [], unavailable: [] };
    if (read.kind === "missing") return { ...none, problems: [], refused: false };
    if (read.kind === "error") {
      return { ...none, problems: [problemOf({ file: path }, read.reason)], refused: true };
    }
    const checks = { scope, root, env, reserved, ...only };
    return { source, ...await parseManifestText(read.text, path, checks) };
  }));

  const problems: ManifestProblem[] = loaded.flatMap((entry) => entry.problems);
  if (loaded.some((entry) => entry.refused)) throw new ManifestError(problems);
  const declares = ({ tools, unavailable }: (typeof loaded)[number]) =>
    [...tools, ...unavailable].some((tool) => tool.name === options.only);
  if (options.only !== undefined && !loaded.some(declares)) {
    // Declared nowhere: the whole roster, for the names close to it.
    const { only: _, ...whole } = options;
    return await loadRoster(whole);
  }

  // One name, one tool: the first file to declare it wins, usable or not (a broken workspace
  // tool never lets a global one of its name take its place).
  const tools = new Map<string, ToolSpec>();
  const unavailable = new Map<string, UnavailableTool>();
  const taken = (name: string) => tools.has(name) || unavailable.has(name);
  for (const entry of loaded) {
    const usable = entry.tools.filter((tool) => !taken(tool.name));
    const broken = entry.unavailable.filter((tool) => !taken(tool.name));
    for (const tool of usable.sort(byName)) tools.set(tool.name, tool);
    for (const tool of broken.sort(byName)) unavailable.set(tool.name, tool);
  }
  const sources = loaded.map((entry) => entry.source);
  return { root, configDir: config, sources, tools, unavailable, problems };
}

function byName(a: { name: string }, b: { name: string }): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/**
 * The workspace a `-C DIR` names, as an absolute path: it must be a directory that Deno's
 * permissions let basis-tools read.
 *
 * @param path The directory, absolute.
 * @param given The `-C` value as given, for the message.
 * @returns `path`.
 * @throws {BasisError} Code `usage`, saying why: it does not exist, it is not a directory, Deno's
 *   permissions refuse to read it, or what the system said.
 */
export function explicitWorkspace(path: string, given: string): string {
  let reason: Phrase | string;
  try {
    if (quietly(() => Deno.statSync(path)).isDirectory) return path;
    reason = phrase("workspace.not_directory");
  } catch (error) {
    reason = error instanceof Deno.errors.NotFound
      ? phrase("workspace.missing")
      : error instanceof Deno.errors.NotADirectory
      ? phrase("workspace.not_directory")
      : error instanceof Deno.errors.NotCapable
      ? phrase("workspace.refused")
      : fsReason(error);
  }
  throw BasisError.of(
    "usage",
    phrase("cli.bad_workspace", { path: JSON.stringify(given), reason }),
  );
}
