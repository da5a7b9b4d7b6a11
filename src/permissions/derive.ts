/**
 * Deno as the outer confinement: the least-privilege permissions a workspace needs, derived from
 * its loaded manifests.
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
import { attempt } from "../quietly.ts";
import { callSecrets, redactorOf, secretEnv } from "../redact.ts";
import { KILL_PROGRAMS, loaderVarNames, resolveProgram } from "../run/mod.ts";
import { KEPT_ENV } from "../spawn/limits.ts";
import { SPAWN_DEPTH_VAR } from "../spawn/lineage.ts";

const IS_WINDOWS = Deno.build.os === "windows";

/** A program some part of the run may start, before it is located. */
export interface ProgramRequest {
  /** Who starts it, as a warning names it: `tool "fmt"`, `spawn commands`. */
  readonly user: string | Phrase;
  /** The program: an absolute path, or a bare name looked up on `PATH` at call time. */
  readonly program: string;
  /** The arguments it is declared with (to spot code passed inline). */
  readonly args: readonly string[];
  /** The `PATH` it is looked up on, when not the one every call sees. */
  readonly path?: string | undefined;
  /** How to do without it, for a warning (`run with --no-shell to leave it out`). */
  readonly hint?: Phrase;
  /** It runs inside the OS sandbox: a warning says what still confines it. @default false */
  readonly sandboxed?: boolean | undefined;
}

/**
 * One warning, one line, as a phrase (no trailing period): `confinement` (a program that runs any
 * code it is given), `unresolved` (a program that cannot run: left out), `unexpressible` (a path
 * holding a comma), `environment` (variables that make Deno refuse every program under a scoped
 * `--allow-run`).
 */
export interface PermissionWarning {
  /** What the warning is about. */
  readonly kind: "confinement" | "unresolved" | "unexpressible" | "environment";
  /** The warning. */
  readonly phrase: Phrase;
}

/**
 * The least-privilege permissions of one workspace: absolute paths for `--allow-read` and
 * `--allow-write`, variable names for `--allow-env`, program paths for `--allow-run` (every list
 * sorted, no path inside another), what `--allow-sys` needs, every requested program (who starts
 * it, in English) with the file granted, and the warnings.
 */
export type DerivedPermissions = ReturnType<typeof derivePermissions>;

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
  /** The `--audit-log` value: a path, or `off`. @default the state directory's audit.jsonl */
  auditLog?: string;
  /** `LD_*`/`DYLD_*` names set in the environment. @default read from the environment */
  loaderVars?: readonly string[];
  /**
   * basis-tools' own code when it runs from the bundle (its chunks are imported by a specifier
   * Deno checks the read of): the bundle's directory when it holds nothing else, else each chunk.
   * @default none
   */
  code?: readonly string[];
  /**
   * The OS sandbox: whether declared tools run in it, and the paths it looks at (`read`) and
   * creates (`write`) to set a call up. @default no sandbox
   */
  sandbox?: { sandboxed: boolean; read: readonly string[]; write: readonly string[] };
}

/**
 * The variables basis-tools itself reads, on every platform. A test scans `src/` for every
 * variable name the code looks up and fails when one is missing here.
 */
const RUNTIME_ENV = [
  // src/paths.ts: config, cache and state directories.
  "BASIS_CONFIG_DIR BASIS_CACHE_DIR BASIS_STATE_DIR XDG_CONFIG_HOME XDG_CACHE_HOME XDG_STATE_HOME",
  "HOME",
  // src/cli/settings.ts and src/audit/audit_path.ts; BASIS_ROSTER: a parent's child policy.
  "BASIS_APPROVE BASIS_LOCALE BASIS_AUDIT_LOG BASIS_NO_SHELL BASIS_ROSTER",
  // src/cli/commands/mcp.ts: the bearer token of `mcp --http`.
  "BASIS_MCP_TOKEN",
  // src/run: where bare program names are found.
  "PATH",
  // src/sandbox/plan.ts: the host sockets a call must not reach (TMUX is below).
  "SSH_AUTH_SOCK DBUS_SESSION_BUS_ADDRESS XDG_RUNTIME_DIR",
  // src/approval/terminal: colour; the prompt library (@inquirer) reads the next three through
  // `process.env`, which throws under a scoped --allow-env when a name is not granted.
  "NO_COLOR TERM INQUIRER_KEYBINDINGS CLI_WIDTH",
  // Its styleText() asks Deno's Node layer for the terminal's colour depth (getColorDepth in
  // ext/node/polyfills/internal/tty.js), which reads these.
  "FORCE_COLOR NODE_DISABLE_COLORS TMUX TF_BUILD AGENT_NAME CI CI_NAME APPVEYOR BUILDKITE",
  "CIRCLECI DRONE GITEA_ACTIONS GITHUB_ACTIONS GITLAB_CI TRAVIS TEAMCITY_VERSION TERM_PROGRAM",
  "TERM_PROGRAM_VERSION COLORTERM",
].join(" ").split(" ");
/** Read on Windows only (the home fallback, `PATHEXT`, the prompt's Unicode detection). */
const WINDOWS_ENV = "USERPROFILE PATHEXT WT_SESSION TERMINUS_SUBLIME ConEmuTask TERMINAL_EMULATOR"
  .split(" ");

/** Every name basis-tools may read on some platform (for the test that scans the source). */
export const ALL_RUNTIME_ENV: readonly string[] = [...RUNTIME_ENV, ...WINDOWS_ENV];

/**
 * Programs whose grant defeats confinement: Deno's `--allow-run` allows a program with any
 * arguments, so one that runs code or programs named in its arguments gives away everything.
 */
const RISKY = new Map(
  ([
    ["permissions.why_shell", "sh ash bash dash zsh ksh mksh yash fish csh tcsh nu elvish xonsh"],
    ["permissions.why_shell", "busybox pwsh powershell cmd"],
    ["permissions.why_launcher", "env xargs find nice nohup timeout setsid stdbuf time watch"],
    ["permissions.why_launcher", "flock chroot unshare nsenter sudo doas su runuser strace ssh"],
    ["permissions.why_launcher", "git make npm npx pnpm yarn bunx uvx"],
    ["permissions.why_interpreter", "deno node nodejs bun python pypy perl ruby php lua luajit"],
    ["permissions.why_interpreter", "tclsh wish rscript osascript awk gawk mawk nawk julia java"],
    ["permissions.why_interpreter", "jshell expect"],
  ] as const).flatMap(([why, names]) => names.split(" ").map((name) => [name, why] as const)),
);

/** Arguments that hand an interpreter or a shell code to run inline. */
const INLINE_CODE = new Set(["-c", "-e", "-E", "--eval", "-p", "--print", "-r", "--command"]);

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
export function derivePermissions(roster: Roster, options: DeriveOptions = {}) {
  const env = options.env ?? readEnv;
  const callEnv = options.callEnv ?? {};
  const warnings: PermissionWarning[] = [];
  const warn = (kind: PermissionWarning["kind"], phrase: Phrase) => warnings.push({ kind, phrase });
  const specs = [...roster.tools.values()];
  const requests: ProgramRequest[] = specs.map((spec) => ({
    user: phrase("manifest.tool", { tool: JSON.stringify(spec.name) }),
    program: spec.program,
    // A flag as its option, a prefix as its own: what the program is given when the input asks.
    args: spec.command.map((arg, i) => {
      const from = spec.inputArguments?.find((a) => a.index === i);
      return from?.flag ?? from?.prefix ?? arg;
    }).slice(1),
    path: lookup(spec.env, "PATH"),
    sandboxed: options.sandbox?.sandboxed,
  }));
  requests.push(...(options.programs ?? []));

  const callPath = lookup(callEnv, "PATH") ?? env("PATH");
  const pathExt = lookup(callEnv, "PATHEXT") ?? env("PATHEXT");
  const locate = (program: string, path: string | undefined, ext = pathExt) =>
    resolveProgram(program, { cwd: "/", path, pathExt: ext });
  const programs: { user: string; program: string; path: string | undefined }[] = [];
  // Absolute, as the program resolves them (a relative BASIS_CACHE_DIR is against the cwd).
  const cache = resolvePath(cacheDir(env));
  const state = resolvePath(stateDir(env));
  // The spill directory is listed to prune old spill files (src/run/_spill.ts).
  const read = new Set([roster.root, roster.configDir, cache, joinPath(state, "spill")]);
  for (const path of options.code ?? []) read.add(path);
  const users = new Map<string, ProgramRequest[]>();
  const redactor = redactorOf(callSecrets(callEnv, ...specs.map(secretEnv)));
  for (const request of requests) {
    const located = locate(request.program, request.path ?? callPath);
    const user = typeof request.user === "string" ? request.user : english(request.user);
    if (!located.ok) {
      // Not granted, so not needed in the flags: a name that came from an env value stays hidden.
      programs.push({ user, program: redactor.text(request.program), path: undefined });
      warn(
        "unresolved",
        phrase("permissions.unresolved", { user: request.user, reason: located.reason }),
      );
      continue;
    }
    programs.push({ user, program: request.program, path: located.path });
    for (const path of located.looked) read.add(path);
    users.set(located.path, [...(users.get(located.path) ?? []), request]);
  }
  for (const [path, requesters] of users) {
    const said = confinementWarning(path, requesters);
    if (said) warn("confinement", said);
  }

  const run = new Set(users.keys());
  if (!IS_WINDOWS) {
    // The `kill` program the runner signals a process group with (src/run/_stop.ts).
    for (const program of KILL_PROGRAMS) {
      const located = locate(program, callPath, undefined);
      if (!located.ok) continue;
      run.add(located.path);
      break;
    }
  }

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

  const derived = {
    read: collapsePaths(read),
    write: collapsePaths(write),
    env: [
      ...new Set([
        ...RUNTIME_ENV,
        ...(IS_WINDOWS ? WINDOWS_ENV : []),
        // What spawn keeps of the environment, and the depth it passes on.
        ...KEPT_ENV,
        SPAWN_DEPTH_VAR,
        ...(options.manifestVars ?? []),
      ]),
    ].sort(),
    run: [...run].sort(),
    // Deno's Node layer asks for the Windows release to pick the prompt's colour depth.
    // uid: the validator cache trusts only files this user owns (src/schema/_cache.ts).
    sys: IS_WINDOWS ? ["osRelease"] : ["uid"],
    programs,
  };
  for (const path of new Set([...derived.read, ...derived.write, ...derived.run])) {
    if (path.includes(",")) {
      warn("unexpressible", phrase("permissions.unexpressible", { path: `"${path}"` }));
    }
  }
  const loaderVars = options.loaderVars ?? loaderVarNames({});
  if (loaderVars.length > 0) {
    warn("environment", phrase("permissions.environment", { variables: loaderVars.join(", ") }));
  }
  // Warnings name programs and paths that may come from an env value: those are secrets.
  return {
    ...derived,
    warnings: warnings.map(({ kind, phrase }) => ({ kind, phrase: redactor.phrase(phrase) })),
  };
}

function confinementWarning(path: string, requesters: readonly ProgramRequest[]) {
  // Why granting it defeats confinement, by its name and the name of the file it links to
  // (`/usr/bin/sh` → `dash`), version suffixes ignored (`Python3.12.EXE` → `python`).
  // Not allowed to look, or gone: the name as written is all there is.
  const names = [path, ...attempt(() => [Deno.realPathSync(path)], [])];
  const why = names.map((name) =>
    RISKY.get(
      name.slice(Math.max(name.lastIndexOf("/"), name.lastIndexOf("\\")) + 1).toLowerCase()
        .replace(/\.(exe|com)$/, "").replace(/[-_]?[0-9][0-9.]*$/, ""),
    )
  ).find((why) => why !== undefined);
  if (why === undefined) return undefined;
  // Values one after another (`a, b, c`), as the locale lists them.
  const [first = "", ...rest] = requesters.map((request) => request.user);
  const users = rest.reduce<string | Phrase>(
    (list, item) => phrase("permissions.list", { list, item }),
    first,
  );
  const inline = requesters.flatMap(({ args, user }) => {
    // `--eval=CODE` as well as `--eval CODE`.
    const flag = args.map((arg) => arg.replace(/=.*/s, "")).find((arg) => INLINE_CODE.has(arg));
    return flag === undefined ? [] : [phrase("permissions.inline_code", { user, flag })];
  });
  const hints = requesters.flatMap((request) => request.hint === undefined ? [] : [request.hint]);
  // Inside the OS sandbox, what the program may run is still confined by it.
  const key = requesters.every((request) => request.sandboxed === true)
    ? "permissions.confinement_sandboxed"
    : "permissions.confinement";
  return [...inline, ...hints].reduce<Phrase>(
    (text, more) => phrase("permissions.more", { text, more }),
    phrase(key, { path: `"${path}"`, users, why: phrase(why) }),
  );
}

/** Sorted, without duplicates and without a path inside another (a grant covers what is below). */
function collapsePaths(paths: Iterable<string>): string[] {
  const sorted = [...new Set(paths)].sort();
  return sorted.filter((path) => !sorted.some((other) => other !== path && isInside(path, other)));
}

function isInside(path: string, dir: string): boolean {
  const a = IS_WINDOWS ? path.replaceAll("\\", "/").toLowerCase() : path;
  const b = IS_WINDOWS ? dir.replaceAll("\\", "/").toLowerCase() : dir;
  return a === b || a.startsWith(b.endsWith("/") ? b : `${b}/`);
}

/** A variable from a layer of `--env` or manifest pairs (case-insensitive on Windows). */
function lookup(layer: Readonly<Record<string, string>>, name: string): string | undefined {
  if (!IS_WINDOWS) return Object.hasOwn(layer, name) ? layer[name] : undefined;
  const key = Object.keys(layer).find((known) => known.toUpperCase() === name.toUpperCase());
  return key === undefined ? undefined : layer[key];
}
