/**
 * `basis-tools permissions [--format flags|json|deno-json|compile]`: the least-privilege Deno
 * permissions for this workspace, derived from its manifests (and the spawn configuration).
 *
 * @module
 */

import { loadRoster } from "../../manifest/load.ts";
import { parentPath, resolvePath } from "../../paths.ts";
import { derivePermissions, type ProgramRequest } from "../../permissions/derive.ts";
import {
  type FormatOptions,
  formatPermissions,
  PERMISSION_FORMATS,
  type PermissionFormat,
} from "../../permissions/format.ts";
import { namedAgents } from "../../spawn/config.ts";
import { SHELL } from "../../spawn/run_spawn.ts";
import { SPAWN_TOOL } from "../../spawn/types.ts";
import { spawnConfigFor } from "../_roster.ts";
import { err, leftOut, out } from "../output.ts";
import { BasisError, type ManifestProblem } from "../../errors.ts";
import { messages, phrase } from "../../locale/messages.ts";
import type { Settings } from "../settings.ts";
import { loadSandboxPolicy } from "../../sandbox/policy.ts";
import { sandboxNeeds } from "../../sandbox/plan.ts";

/**
 * Prints the permissions in the chosen format on stdout and one warning a line on stderr, in the
 * run's locale (the JSON formats stay English).
 *
 * @param settings The run's settings (`--no-shell` leaves the shell out).
 * @param format The `--format` value. @default `json` with `--json`, else `flags`
 * @returns The exit code: 0, warnings or not.
 * @throws {BasisError} `usage` for an unknown format; {@linkcode ManifestError} for a manifest
 *   or spawn configuration that cannot be used.
 */
export async function permissionsCommand(
  settings: Settings,
  format = settings.json ? "json" : "flags",
): Promise<number> {
  if (!(PERMISSION_FORMATS as readonly string[]).includes(format)) {
    const params = { value: `"${format}"`, formats: PERMISSION_FORMATS.join(", ") };
    throw BasisError.of("usage", phrase("cli.bad_permissions_format", params));
  }
  const { workspace, configDir, envLookup: env } = settings;
  // Every ${VAR} the loader expands passes through here: those are the names to grant.
  const manifestVars = new Set<string>();
  const roster = await loadRoster({
    ...(workspace === undefined ? {} : { workspace }),
    configDir,
    env: (name) => (manifestVars.add(name), env(name)),
  });
  const policy = await loadSandboxPolicy(configDir);
  const needs = sandboxNeeds(policy, [...roster.tools.values()].map((spec) => spec.sandbox), {
    env,
  });
  const spawn = await spawnPrograms(settings, needs.sandboxed, policy.spawn.agent);
  const programs = [...spawn.programs];
  // Found, or required (then a warning says it is missing); under "auto" without it, calls run
  // unconfined and need nothing.
  if (needs.program !== undefined && (needs.sandboxed || policy.mode === "required")) {
    programs.push({ user: phrase("permissions.user_sandbox"), program: needs.program, args: [] });
  }
  const main = Deno.mainModule;
  const source = !Deno.build.standalone && main.startsWith("file:");
  const own = source && main.endsWith(".js") ? bundle(modulePath(main)) : undefined;
  const derived = derivePermissions(roster, {
    // Reading the bundle's directory when it holds the bundle alone, else the entry and each
    // chunk: unpacked into a directory of other files (Downloads), it never grants reading them.
    ...(own === undefined
      ? {}
      : { code: own.alone ? [parentPath(own.entry)] : [own.entry, ...own.chunks] }),
    env,
    callEnv: settings.env,
    manifestVars,
    programs,
    sandbox: needs,
    ...(settings.auditLog === undefined ? {} : { auditLog: settings.auditLog }),
  });
  const words = messages(settings.locale);
  // One warning on its line: `basis-tools: warning: …`.
  const warning = (message: string) => `${words.t("permissions.warning", { message })}\n`;
  let options: FormatOptions = {};
  if (format === "compile") {
    // What `deno compile` builds from, and the arguments baked in so that the binary serves this
    // workspace with this config directory.
    const { root } = roster;
    const args = ["-C", root, "--config-dir", resolvePath(configDir)];
    if (settings.noShell) args.push("--no-shell");
    const output = `basis-tools-${root.slice(root.lastIndexOf("/") + 1) || "root"}`;
    if (!source) {
      err(warning(words.t("permissions.compile_self")));
      options = { entry: "basis-tools.js", output, args };
    } else if (own !== undefined) {
      options = { entry: own.entry, output, args, include: own.chunks };
    } else {
      // From source: the import map in deno.json resolves the npm packages.
      const entry = modulePath(main);
      const config = resolvePath(parentPath(parentPath(entry)), "deno.json");
      options = { entry, entryFlags: ["--config", config], output, args };
    }
  }
  out(formatPermissions(derived, format as PermissionFormat, options));
  // A tool that cannot be used is granted nothing: say so, and why.
  const left = leftOut([
    ...roster.unavailable.values(),
    ...(spawn.problems === undefined ? [] : [{ name: SPAWN_TOOL, problems: spawn.problems }]),
  ], words);
  err([...left, ...derived.warnings.map(({ phrase }) => words.say(phrase))].map(warning).join(""));
  return 0;
}

/**
 * What the spawn tool may start: the shell and targets (commands on), the subagent and the named
 * agents; nothing, with the problems, when spawn.json cannot be used.
 */
async function spawnPrograms(
  settings: Settings,
  sandboxed: boolean,
  agentSandboxed: boolean,
): Promise<{ programs: ProgramRequest[]; problems?: readonly ManifestProblem[] }> {
  const found = await spawnConfigFor(settings);
  if ("problems" in found) return { programs: [], problems: found.problems };
  const { targets, agent } = found.config;
  const programs: ProgramRequest[] = [];
  const add = (
    user: ProgramRequest["user"],
    [program = "", ...args]: readonly string[],
    more: Partial<ProgramRequest> = {},
  ) => programs.push({ user, program, args, ...more });
  if (!settings.noShell) {
    // Its -c is a given, not news.
    add(phrase("permissions.user_spawn_commands"), [SHELL], {
      hint: phrase("permissions.hint_no_shell"),
      ...(sandboxed ? { sandboxed: true } : {}),
    });
    for (const [name, prefix] of targets) {
      add(phrase("permissions.user_spawn_target", { target: JSON.stringify(name) }), prefix);
    }
  }
  if (agent !== undefined) {
    add(
      phrase("permissions.user_spawn_agent"),
      agent,
      sandboxed && agentSandboxed ? { sandboxed: true } : {},
    );
  }
  for (const [name, { argv }] of namedAgents(found.config)) {
    add(phrase("permissions.user_spawn_named_agent", { agent: JSON.stringify(name) }), argv);
  }
  return { programs };
}

/** A `file:` URL's path (a Windows drive letter without the leading slash). */
function modulePath(url: string): string {
  return decodeURIComponent(new URL(url).pathname).replace(/^\/([A-Za-z]:)/, "$1");
}

/**
 * The bundle this program runs from (`entry`, not from source, not compiled): the chunks beside
 * it (sorted), and whether its directory holds nothing else (only `.js` files).
 */
function bundle(entry: string): { entry: string; chunks: string[]; alone: boolean } {
  const dir = parentPath(entry);
  const chunks: string[] = [];
  let alone = true;
  try {
    for (const file of Deno.readDirSync(dir)) {
      const path = resolvePath(dir, file.name);
      const js = file.isFile && file.name.endsWith(".js");
      alone &&= js;
      if (js && path !== entry) chunks.push(path);
    }
  } catch {
    // Unreadable: name what could be seen (compile then says what it is missing when run).
    alone = false;
  }
  return { entry, chunks: chunks.sort(), alone };
}
