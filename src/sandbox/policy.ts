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

import { phrase } from "../locale/messages.ts";
import { joinPath, resolvePath } from "../paths.ts";
import { loadConfigFile, parseConfigText } from "../read_config_file.ts";
import { configError, type ShapeProblem, shapeProblems } from "../config_shape.ts";
import type { SandboxMode, SandboxPolicy } from "./types.ts";

/** The file name inside the config directory. */
export const SANDBOX_CONFIG_FILE = "sandbox.json";

/** The policies, in the order documented. */
export const SANDBOX_MODES: readonly SandboxMode[] = ["off", "auto", "required"];

/**
 * What the sandbox hides from every call unless a declaration's `read` (or `write`) names it:
 * where keys and tokens live — ssh and gpg, the clouds' and clusters' CLIs, container registries,
 * package managers' publish tokens, git hosts' CLIs, password managers — and the agents' and
 * container VMs' sockets kept in the home directory. (`/run`, where the sockets
 * of agents and daemons are, is empty in every call whatever this list says; so is `/tmp`.)
 */
export const DEFAULT_HIDDEN: readonly string[] = [
  "~/.ssh",
  "~/.gnupg",
  "~/.aws",
  "~/.azure",
  "~/.config/gcloud",
  "~/.oci",
  "~/.kube",
  "~/.docker",
  "~/.config/containers/auth.json",
  "~/.netrc",
  "~/.git-credentials",
  "~/.config/git/credentials",
  "~/.config/gh",
  "~/.config/hub",
  "~/.config/glab-cli",
  "~/.npmrc",
  "~/.yarnrc.yml",
  "~/.pypirc",
  "~/.cargo/credentials",
  "~/.cargo/credentials.toml",
  "~/.gem/credentials",
  "~/.m2/settings.xml",
  "~/.m2/settings-security.xml",
  "~/.gradle/gradle.properties",
  "~/.nuget/NuGet/NuGet.Config",
  "~/.composer/auth.json",
  "~/.config/composer/auth.json",
  "~/.terraform.d/credentials.tfrc.json",
  "~/.vault-token",
  "~/.config/op",
  "~/.password-store",
  "~/.local/share/keyrings",
  "~/.1password",
  "~/.bitwarden-ssh-agent.sock",
  "~/.colima",
  "~/.lima",
  "~/.orbstack",
  "~/.pgpass",
  "~/.my.cnf",
];

/** The policy of a user who wrote none. */
export const DEFAULT_POLICY: Omit<SandboxPolicy, "file"> = Object.freeze({
  mode: "auto",
  network: false,
  write: [],
  hidden: DEFAULT_HIDDEN,
  grantable: Object.freeze({ network: true, write: ["~", "/tmp", "/var/tmp"], read: ["/"] }),
  spawn: Object.freeze({ network: false, write: [], read: [], agent: false }),
});

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
  const schema = await import("../../schemas/sandbox.schema.json", { with: { type: "json" } });
  const found = await shapeProblems(schema.default, parsed.value);
  if (found.length === 0) {
    const policy = build(parsed.value as Raw, found);
    if (found.length === 0 && parsed.duplicates.length === 0) return { file, ...policy };
  }
  throw await configError(file, parsed, found);
}

/** A file the schema accepted. */
interface Raw {
  mode?: SandboxMode;
  network?: boolean;
  write?: string[];
  hidden?: string[];
  grantable?: { network?: boolean; write?: string[]; read?: string[] };
  spawn?: { network?: boolean; write?: string[]; read?: string[]; agent?: boolean };
  bwrap?: string;
}

/** The policy a well-formed file says, paths normalised; a `~` path climbing out is a problem. */
function build(raw: Raw, found: ShapeProblem[]): Omit<SandboxPolicy, "file"> {
  const normal = (path: string, where: (string | number)[]) => {
    if (!path.startsWith("~")) return resolvePath(path);
    // No pattern can count "..": the path may not climb out of the home directory.
    let depth = 0;
    for (const part of path.slice(1).split("/")) {
      depth += part === ".." ? -1 : part === "" || part === "." ? 0 : 1;
      if (depth < 0) {
        const reason = phrase("manifest.sandbox_escapes", { base: "~" });
        found.push({ path: where, at: "value", reason });
        break;
      }
    }
    const normal = resolvePath("/", path.slice(1));
    return normal === "/" ? "~" : `~${normal}`;
  };
  const paths = (list: string[] | undefined, at: string[], fallback: readonly string[]) =>
    list === undefined
      ? fallback
      : Object.freeze(list.map((path, index) => normal(path, [...at, index])));
  const { grantable = {}, spawn = {} } = raw;
  const defaults = DEFAULT_POLICY;
  return {
    ...(raw.bwrap === undefined ? {} : { bwrap: normal(raw.bwrap, ["bwrap"]) }),
    mode: raw.mode ?? defaults.mode,
    network: raw.network ?? defaults.network,
    write: paths(raw.write, ["write"], defaults.write),
    hidden: paths(raw.hidden, ["hidden"], defaults.hidden),
    grantable: {
      network: grantable.network ?? defaults.grantable.network,
      write: paths(grantable.write, ["grantable", "write"], defaults.grantable.write),
      read: paths(grantable.read, ["grantable", "read"], defaults.grantable.read),
    },
    spawn: {
      network: spawn.network ?? defaults.spawn.network,
      write: paths(spawn.write, ["spawn", "write"], defaults.spawn.write),
      read: paths(spawn.read, ["spawn", "read"], defaults.spawn.read),
      agent: spawn.agent ?? defaults.spawn.agent,
    },
  };
}
