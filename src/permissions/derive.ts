/**
 * Deriving the least-privilege Deno permissions of a workspace from its loaded manifests.
 *
 * @module
 */

import { auditLogPath } from "../audit/audit_path.ts";
import { english, type Phrase, phrase } from "../locale/messages.ts";
import type { Roster } from "../manifest/types.ts";
import {
  cacheDir,
  CONTROLLING_TERMINAL,
  type EnvLookup,
  joinPath,
  readEnv,
  resolvePath,
  stateDir,
} from "../paths.ts";
import { callSecrets, redact, redactPhrase } from "../redact.ts";
import { KILL_PROGRAMS } from "../run/mod.ts";
import { runtimeEnvNames } from "./_env_names.ts";
import { locateProgram } from "./_locate.ts";
import { collapsePaths, isInside } from "./_path_set.ts";
import { inlineCodeFlag, riskOf } from "./_risky.ts";
import type {
  DerivedPermissions,
  PermissionWarning,
  ProgramGrant,
  ProgramRequest,
  WarningKind,
} from "./types.ts";

const IS_WINDOWS = Deno.build.os === "windows";

/** Options of {@linkcode derivePermissions}. */
export interface DeriveOptions {
  /** How variables are read (`PATH`, the user directories, `BASIS_AUDIT_LOG`). @default readEnv */
  env?: EnvLookup;
  /** The `--env KEY=VALUE` pairs every call adds (a `PATH` among them moves lookups). @default {} */
  callEnv?: Readonly<Record<string, string>>;
  /** The names of the `${VAR}`s the manifests expand. @default [] */
  manifestVars?: Iterable<string>;
  /** Programs started besides the declared tools (spawn's shell, targets, subagent). @default [] */
  programs?: readonly ProgramRequest[];
  /** Variables read besides basis-tools' own (spawn's). @default [] */
  envNames?: readonly string[];
  /** The `--audit-log` value: a path, or `off`. @default the state directory's audit.jsonl */
  auditLog?: string;
  /** `LD_*`/`DYLD_*` names set in the environment. @default read from the environment */
  loaderVars?: readonly string[];
  /**
   * basis-tools' own code when it runs from the bundle: read to load a command's chunk when it is
   * needed (the bundle imports chunks by a specifier Deno does not walk at start-up, and Deno
   * checks the read of such an import) — the bundle's directory when it holds nothing else, else
   * each chunk. @default none
   */
  code?: readonly string[];
  /**
   * The OS sandbox: whether declared tools run in it, and the paths it looks at (`read`) and
   * creates (`write`) to set a call up. @default no sandbox
   */
  sandbox?: {
    readonly sandboxed: boolean;
    readonly read: readonly string[];
    readonly write: readonly string[];
  };
}

/**
 * Derives the permissions basis-tools needs to serve one roster under Deno, and nothing more:
 * `run` for every declared program (located now, as the runner will at call time), the `kill`
 * program that stops a timed-out tool's process group, and the extra programs given; `read` for
 * the workspace, the config and cache directories and the files the runner looks at to find each
 * program; `write` for the config, cache and state directories (rules, validators, audit log,
 * spill files; `read` of the spill directory too, to prune it); `env` for the variables basis-tools
 * reads and the `${VAR}`s the manifests use.
 *
 * The warnings name no secret: every tool's env values and the `callEnv` values are redacted from
 * them (a program found on a `PATH` one of them sets is named `"[redacted]/prog"`). The lists and
 * flags name the paths they grant as they are: they must, to grant them.
 *
 * @param roster The loaded roster.
 * @param options The environment, extra programs and names.
 * @returns The permissions, with a warning for each program that cannot run or defeats
 *   confinement, as a phrase.
 *
 * @example Derive the grants of a workspace
 * ```ts ignore
 * import { loadRoster } from "../manifest/load.ts";
 * import { derivePermissions } from "./derive.ts";
 * const derived = derivePermissions(await loadRoster({ workspace: "examples" }));
 * console.log(derived.run, derived.warnings.map((warning) => english(warning.phrase)));
 * ```
 */
export function derivePermissions(roster: Roster, options: DeriveOptions = {}): DerivedPermissions {
  const env = options.env ?? readEnv;
  const callEnv = options.callEnv ?? {};
  const warnings: PermissionWarning[] = [];
  const requests: ProgramRequest[] = [...roster.tools.values()].map((spec) => {
    const path = lookup(spec.env, "PATH");
    return {
      user: phrase("manifest.tool", { tool: JSON.stringify(spec.name) }),
      program: spec.program,
      args: spec.command.slice(1),
      ...(path === undefined ? {} : { path }),
      ...(options.sandbox?.sandboxed ? { sandboxed: true } : {}),
    };
  });
  requests.push(...(options.programs ?? []));

  const callPath = lookup(callEnv, "PATH") ?? env("PATH");
  const pathExt = lookup(callEnv, "PATHEXT") ?? env("PATHEXT");
  const programs: ProgramGrant[] = [];
  // Absolute, as the program resolves them (a relative BASIS_CACHE_DIR is against the cwd).
  const cache = resolvePath(cacheDir(env));
  const state = resolvePath(stateDir(env));
  // The spill directory is listed to prune old spill files (src/run/_spill.ts).
  const read = new Set([roster.root, roster.configDir, cache, joinPath(state, "spill")]);
  for (const path of options.code ?? []) read.add(path);
  const users = new Map<string, ProgramRequest[]>();
  const secretsOfAll = callSecrets(callEnv, ...[...roster.tools.values()].map((spec) => spec.env));
  for (const request of requests) {
    const located = locateProgram(request.program, request.path ?? callPath, pathExt);
    const user = inEnglish(request.user);
    if (!located.ok) {
      // Not granted, so not needed in the flags: a name that came from an env value stays hidden.
      programs.push({ user, program: redact(request.program, secretsOfAll), path: undefined });
      const said = phrase("permissions.unresolved", { user: request.user, reason: located.reason });
      warnings.push(warning("unresolved", said));
      continue;
    }
    programs.push({ user, program: request.program, path: located.path });
    for (const path of located.looked) read.add(path);
    users.set(located.path, [...(users.get(located.path) ?? []), request]);
  }
  for (const [path, requesters] of users) {
    const warning = confinementWarning(path, requesters);
    if (warning) warnings.push(warning);
  }

  const run = new Set(users.keys());
  const kill = IS_WINDOWS ? undefined : killProgram(callPath);
  if (kill !== undefined) run.add(kill);

  for (const path of options.sandbox?.read ?? []) read.add(path);
  const write = new Set([roster.configDir, cache, state, ...(options.sandbox?.write ?? [])]);
  // The prompt asks on the controlling terminal when the input is piped in (as sudo does).
  if (!IS_WINDOWS) {
    read.add(CONTROLLING_TERMINAL);
    write.add(CONTROLLING_TERMINAL);
  }
  const audit = auditLogPath({ env, ...(options.auditLog ? { path: options.auditLog } : {}) });
  if (audit !== undefined && !isInside(audit, state)) write.add(audit);
  // The audit log is looked at before it is opened, so a FIFO there never blocks a call.
  if (audit !== undefined) read.add(audit);

  const derived: DerivedPermissions = {
    read: collapsePaths(read),
    write: collapsePaths(write),
    env: [
      ...new Set([
        ...runtimeEnvNames(),
        ...(options.envNames ?? []),
        ...(options.manifestVars ?? []),
      ]),
    ].sort(),
    run: [...run].sort(),
    // Deno's Node layer asks for the Windows release to pick the prompt's colour depth.
    // uid: the validator cache trusts only files this user owns (src/schema/_cache.ts).
    sys: IS_WINDOWS ? ["osRelease"] : ["uid"],
    programs,
    warnings,
  };
  // Warnings name programs and paths that may come from an env value: those are secrets.
  const secrets = secretsOfAll;
  for (const path of new Set([...derived.read, ...derived.write, ...derived.run])) {
    if (!path.includes(",")) continue;
    warnings.push(
      warning("unexpressible", phrase("permissions.unexpressible", { path: `"${path}"` })),
    );
  }
  const loaderVars = options.loaderVars ?? loaderVarsOfEnvironment();
  if (loaderVars.length > 0) {
    const variables = loaderVars.join(", ");
    warnings.push(warning("environment", phrase("permissions.environment", { variables })));
  }
  if (secrets.length === 0) return derived;
  return { ...derived, warnings: warnings.map((found) => redactWarning(found, secrets)) };
}

/** A warning with the secrets hidden in its phrase. */
function redactWarning(found: PermissionWarning, secrets: readonly string[]): PermissionWarning {
  return { kind: found.kind, phrase: redactPhrase(found.phrase, secrets) };
}

/** A warning. */
function warning(kind: WarningKind, phrase: Phrase): PermissionWarning {
  return { kind, phrase };
}

/** Who starts a program, in English (as `programs` lists them). */
function inEnglish(user: string | Phrase): string {
  return typeof user === "string" ? user : english(user);
}

/** Values one after another (`a, b, c`), as the locale lists them. */
function listed(values: readonly (string | Phrase)[]): string | Phrase {
  const [first = "", ...rest] = values;
  return rest.reduce<string | Phrase>(
    (list, item) => phrase("permissions.list", { list, item }),
    first,
  );
}

function confinementWarning(
  path: string,
  requesters: readonly ProgramRequest[],
): PermissionWarning | undefined {
  const risk = riskOf(path);
  if (risk === undefined) return undefined;
  const users = listed(requesters.map((request) => request.user));
  const inline = requesters.flatMap((request) => {
    const flag = inlineCodeFlag(request.args);
    return flag === undefined
      ? []
      : [phrase("permissions.inline_code", { user: request.user, flag })];
  });
  const hints = requesters.flatMap((request) => request.hint === undefined ? [] : [request.hint]);
  // Inside the OS sandbox, what the program may run is still confined by it.
  const key = requesters.every((request) => request.sandboxed === true)
    ? "permissions.confinement_sandboxed"
    : "permissions.confinement";
  const said = [...inline, ...hints].reduce<Phrase>(
    (text, more) => phrase("permissions.more", { text, more }),
    phrase(key, { path: `"${path}"`, users, why: risk.why }),
  );
  return warning("confinement", said);
}

/** The `kill` program the runner will use to signal a process group (see src/run/_kill.ts). */
function killProgram(path: string | undefined): string | undefined {
  for (const program of KILL_PROGRAMS) {
    const located = locateProgram(program, path, undefined);
    if (located.ok) return located.path;
  }
  return undefined;
}

/** A variable from a layer of `--env` or manifest pairs (case-insensitive on Windows). */
function lookup(layer: Readonly<Record<string, string>>, name: string): string | undefined {
  if (!IS_WINDOWS) return Object.hasOwn(layer, name) ? layer[name] : undefined;
  const key = Object.keys(layer).find((known) => known.toUpperCase() === name.toUpperCase());
  return key === undefined ? undefined : layer[key];
}

function loaderVarsOfEnvironment(): string[] {
  try {
    return Object.keys(Deno.env.toObject()).filter((name) => /^(LD_|DYLD_)/.test(name)).sort();
  } catch {
    return [];
  }
}
