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

import { ManifestError, problemOf } from "../errors.ts";
import { createLocator, type Pointer, type Segment } from "../json_text.ts";
import { type Phrase, phrase } from "../locale/messages.ts";
import { isAbsolutePath, joinPath, resolvePath } from "../paths.ts";
import { loadConfigFile, parseConfigText } from "../read_config_file.ts";
import { unknownKey } from "../suggest.ts";
import { fieldName } from "../text.ts";
import { foundPhrase } from "../json_kind.ts";
import type { GrantLists, SandboxMode, SandboxPolicy } from "./types.ts";

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

const KEYS = ["mode", "network", "write", "hidden", "grantable", "spawn", "bwrap"] as const;
const GRANTABLE_KEYS = ["network", "write", "read"] as const;
const SPAWN_KEYS = ["network", "write", "read", "agent"] as const;

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
 * Checks the text of a `sandbox.json` without touching the disk.
 *
 * @param text The file's text (JSON; comments and trailing commas are accepted).
 * @param file Its absolute path, for messages.
 * @returns The policy, every key not given at its default.
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
  const { source, duplicates } = parsed;
  const issues: { pointer: Pointer; field: string | undefined; reason: Phrase }[] = [];
  const report = (path: Segment[], at: Pointer["at"], reason: Phrase) =>
    issues.push({
      pointer: { path, at },
      field: path.length === 0 ? undefined : fieldName(path),
      reason,
    });
  const policy = narrow(parsed.value, report);
  if (issues.length === 0 && duplicates.length === 0 && policy !== undefined) {
    return { file, ...policy };
  }
  const locate = issues.length === 0 ? undefined : await createLocator(source);
  const problems = issues.map((issue) =>
    problemOf({
      file,
      ...(locate?.(issue.pointer) ?? {}),
      ...(issue.field === undefined ? {} : { field: issue.field }),
    }, issue.reason)
  );
  throw new ManifestError([...problems, ...duplicates]);
}

type Report = (path: Segment[], at: Pointer["at"], reason: Phrase) => void;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function narrow(value: unknown, report: Report): Omit<SandboxPolicy, "file"> | undefined {
  if (!isObject(value)) {
    report([], "value", phrase("sandbox_config.not_object"));
    return undefined;
  }
  const keysOk = onlyKeys(value, KEYS, [], report);
  let mode: SandboxMode = DEFAULT_POLICY.mode;
  if (Object.hasOwn(value, "mode")) {
    if ((SANDBOX_MODES as readonly unknown[]).includes(value.mode)) {
      mode = value.mode as SandboxMode;
    } else {report(
        ["mode"],
        "value",
        phrase("sandbox_config.mode", { modes: SANDBOX_MODES.join(", ") }),
      );}
  }
  const bwrap = Object.hasOwn(value, "bwrap") ? policyPath(value.bwrap) : undefined;
  if (bwrap !== undefined && typeof bwrap !== "string") report(["bwrap"], "value", bwrap);
  const network = flag(value, "network", [], DEFAULT_POLICY.network, report);
  const write = paths(value, "write", [], DEFAULT_POLICY.write, report);
  const hidden = paths(value, "hidden", [], DEFAULT_POLICY.hidden, report);
  const grantable = section(value, "grantable", GRANTABLE_KEYS, report);
  const spawn = section(value, "spawn", SPAWN_KEYS, report);
  const granted = grantable && {
    network: flag(grantable, "network", ["grantable"], DEFAULT_POLICY.grantable.network, report),
    write: paths(grantable, "write", ["grantable"], DEFAULT_POLICY.grantable.write, report),
    read: paths(grantable, "read", ["grantable"], DEFAULT_POLICY.grantable.read, report),
  };
  const spawned = spawn && {
    network: flag(spawn, "network", ["spawn"], DEFAULT_POLICY.spawn.network, report),
    write: paths(spawn, "write", ["spawn"], DEFAULT_POLICY.spawn.write, report),
    read: paths(spawn, "read", ["spawn"], DEFAULT_POLICY.spawn.read, report),
    agent: flag(spawn, "agent", ["spawn"], DEFAULT_POLICY.spawn.agent, report),
  };
  if (
    !keysOk || network === undefined || write === undefined || hidden === undefined ||
    granted === undefined || spawned === undefined || !complete(granted) ||
    !complete(spawned) || (bwrap !== undefined && typeof bwrap !== "string")
  ) {
    return undefined;
  }
  return {
    ...(bwrap === undefined ? {} : { bwrap }),
    mode,
    network,
    write,
    hidden,
    grantable: granted as GrantLists & { network: boolean },
    spawn: spawned as GrantLists & { network: boolean; agent: boolean },
  };
}

function complete(fields: Record<string, unknown>): boolean {
  return Object.values(fields).every((field) => field !== undefined);
}

function onlyKeys(
  value: Record<string, unknown>,
  known: readonly string[],
  at: Segment[],
  report: Report,
): boolean {
  let ok = true;
  for (const key of Object.keys(value)) {
    if (known.includes(key)) continue;
    report([...at, key], "key", unknownKey(key, known).reason);
    ok = false;
  }
  return ok;
}

/** An object section (`grantable`, `spawn`): `{}` when absent. */
function section(
  value: Record<string, unknown>,
  key: string,
  known: readonly string[],
  report: Report,
): Record<string, unknown> | undefined {
  if (!Object.hasOwn(value, key)) return {};
  const found = value[key];
  if (!isObject(found)) {
    report([key], "value", phrase("sandbox_config.section", { found: foundPhrase(found) }));
    return undefined;
  }
  return onlyKeys(found, known, [key], report) ? found : undefined;
}

function flag(
  value: Record<string, unknown>,
  key: string,
  at: Segment[],
  fallback: boolean,
  report: Report,
): boolean | undefined {
  if (!Object.hasOwn(value, key)) return fallback;
  const found = value[key];
  if (typeof found === "boolean") return found;
  report([...at, key], "value", phrase("manifest.sandbox_network", { found: foundPhrase(found) }));
  return undefined;
}

/** A list of absolute or `~` paths, normalised; `..` may not climb out of `~`. */
function paths(
  value: Record<string, unknown>,
  key: string,
  at: Segment[],
  fallback: readonly string[],
  report: Report,
): readonly string[] | undefined {
  if (!Object.hasOwn(value, key)) return fallback;
  const found = value[key];
  if (!Array.isArray(found)) {
    report([...at, key], "value", phrase("manifest.sandbox_paths", { found: foundPhrase(found) }));
    return undefined;
  }
  const out: string[] = [];
  let ok = true;
  found.forEach((item: unknown, index: number) => {
    const path = policyPath(item);
    if (typeof path === "string") out.push(path);
    else {
      report([...at, key, index], "value", path);
      ok = false;
    }
  });
  return ok ? Object.freeze(out) : undefined;
}

function policyPath(item: unknown): string | Phrase {
  if (typeof item !== "string") {
    return phrase("manifest.not_string", { found: foundPhrase(item) });
  }
  if (item.includes("\0")) return phrase("manifest.nul");
  if (item === "~" || item.startsWith("~/")) {
    const normal = resolvePath("/", item.slice(1));
    const climbs = item.slice(1).split("/").reduce(
      (depth, part) =>
        depth < 0
          ? depth
          : part === ".."
          ? depth - 1
          : part === "" || part === "."
          ? depth
          : depth + 1,
      0,
    ) < 0;
    if (climbs) return phrase("manifest.sandbox_escapes", { base: "~" });
    return normal === "/" ? "~" : `~${normal}`;
  }
  if (isAbsolutePath(item)) return resolvePath(item);
  return phrase("sandbox_config.path");
}
