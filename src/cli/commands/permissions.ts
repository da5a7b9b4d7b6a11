/**
 * `basis-tools permissions [--format flags|json|deno-json|compile]`: the least-privilege Deno
 * permissions for this workspace, derived from its manifests (and the spawn configuration).
 *
 * @module
 */

import { loadRoster } from "../../manifest/load.ts";
import { parentPath, resolvePath } from "../../paths.ts";
import { derivePermissions } from "../../permissions/derive.ts";
import {
  type FormatOptions,
  formatPermissions,
  PERMISSION_FORMATS,
  type PermissionFormat,
} from "../../permissions/format.ts";
import type { ProgramRequest } from "../../permissions/types.ts";
import { KEPT_ENV, loadSpawnConfig, SHELL, SPAWN_DEPTH_VAR } from "../../spawn/mod.ts";
import { err, out } from "../output.ts";
import { cliMessages, LocalizedError } from "../_localized.ts";
import { EN_US } from "../../locale/en_us.ts";
import { formatMessage } from "../../locale/messages.ts";
import type { Settings } from "../settings.ts";

/**
 * Prints the permissions in the chosen format on stdout and one warning a line on stderr.
 *
 * @param settings The run's settings (`--no-shell` leaves the shell out).
 * @param format The `--format` value; `json` when absent and `--json` is given, else `flags`.
 * @returns The exit code: 0, warnings or not.
 * @throws {LocalizedError} `usage` for an unknown format; {@linkcode ManifestError} for a manifest
 *   or spawn configuration that cannot be used.
 */
export async function permissionsCommand(
  settings: Settings,
  format: string | undefined,
): Promise<number> {
  const chosen = format ?? (settings.json ? "json" : "flags");
  if (!(PERMISSION_FORMATS as readonly string[]).includes(chosen)) {
    const params = { value: `"${chosen}"`, formats: PERMISSION_FORMATS.join(", ") };
    throw new LocalizedError(
      "usage",
      "cli.bad_permissions_format",
      params,
      formatMessage(EN_US["cli.bad_permissions_format"], params),
    );
  }
  // Every ${VAR} the loader expands passes through here: those are the names to grant.
  const manifestVars = new Set<string>();
  const roster = await loadRoster({
    ...(settings.workspace === undefined ? {} : { workspace: settings.workspace }),
    configDir: settings.configDir,
    env: (name) => {
      manifestVars.add(name);
      return settings.envLookup(name);
    },
  });
  const derived = derivePermissions(roster, {
    env: settings.envLookup,
    callEnv: settings.env,
    manifestVars,
    programs: await spawnPrograms(settings),
    envNames: [...KEPT_ENV, SPAWN_DEPTH_VAR],
    ...(settings.auditLog === undefined ? {} : { auditLog: settings.auditLog }),
  });
  const options = chosen === "compile" ? compileOptions(roster.root, settings) : {};
  out(formatPermissions(derived, chosen as PermissionFormat, options));
  const { t } = await cliMessages(settings.locale);
  err(
    derived.warnings.map((warning) => `${t("permissions.warning", { message: warning.message })}\n`)
      .join(""),
  );
  return 0;
}

/** What the spawn tool may start: the shell and targets (commands on), and the subagent. */
async function spawnPrograms(settings: Settings): Promise<ProgramRequest[]> {
  const config = await loadSpawnConfig(settings.configDir);
  const programs: ProgramRequest[] = [];
  if (!settings.noShell) {
    programs.push({
      user: "spawn commands",
      program: SHELL,
      // Its -c is a given, not news.
      args: [],
      hint: "--no-shell turns spawn commands off and leaves it out",
    });
    for (const [name, prefix] of config.targets) {
      const [program = "", ...args] = prefix;
      programs.push({ user: `spawn target ${JSON.stringify(name)}`, program, args });
    }
  }
  if (config.agent !== undefined) {
    const [program = "", ...args] = config.agent;
    programs.push({ user: "spawn subagent", program, args });
  }
  return programs;
}

/**
 * The entry `deno compile` builds from: the bundle or source this program runs from, and the
 * arguments baked in so that the binary serves this workspace with this config directory.
 */
function compileOptions(root: string, settings: Settings): FormatOptions {
  const args = ["-C", root, "--config-dir", resolvePath(settings.configDir)];
  if (settings.noShell) args.push("--no-shell");
  const output = `basis-tools-${root.slice(root.lastIndexOf("/") + 1) || "root"}`;
  const main = Deno.mainModule;
  if (Deno.build.standalone || !main.startsWith("file:")) {
    err(
      "basis-tools: warning: A compiled binary cannot compile itself: the command builds from " +
        "basis-tools.js (deno task bundle, or the bundle of a release); adjust its path\n",
    );
    return { entry: "basis-tools.js", output, args };
  }
  const entry = decodeURIComponent(new URL(main).pathname).replace(/^\/([A-Za-z]:)/, "$1");
  if (!entry.endsWith(".ts")) return { entry, output, args };
  // From source: the import map in deno.json resolves the npm packages.
  return {
    entry,
    entryFlags: ["--config", resolvePath(parentPath(parentPath(entry)), "deno.json")],
    output,
    args,
  };
}
