/**
 * The run context of the CLI: flags first, then `BASIS_*` variables, then defaults, resolved once
 * into directories, locale, the approval policy, the `--env` pairs and what a subagent inherits.
 * Commands read it; nothing below re-reads a flag or a variable. Public options are optional; these
 * resolved settings are all required.
 *
 * @module
 */

import { APPROVAL_POLICIES, type ApprovalPolicy } from "../approval/policy.ts";
import { BasisError } from "../errors.ts";
import { type Locale, localeFromEnv, resolveLocale } from "../locale/locale.ts";
import { phrase } from "../locale/messages.ts";
import { cacheDir, configDir, type EnvLookup, spillDir, stateDir } from "../paths.ts";
import { ROSTER_VAR } from "../spawn/child.ts";
import { inheritedLineage } from "../spawn/lineage.ts";
import type { OptionSpec, ParsedArgs } from "./args.ts";

/** Options accepted by every command, before or after its name. */
export const GLOBAL_OPTIONS: readonly OptionSpec[] = [
  { name: "workspace", kind: "string", short: "C" },
  { name: "config-dir", kind: "string" },
  { name: "locale", kind: "string" },
  { name: "json", kind: "boolean" },
  { name: "approve", kind: "string" },
  { name: "env", kind: "list" },
  { name: "no-shell", kind: "boolean" },
  { name: "spawn-timeout", kind: "string" },
  { name: "audit-log", kind: "string" },
  { name: "help", kind: "boolean", short: "h" },
  { name: "version", kind: "boolean", short: "V" },
];

/** Options of one command. */
export const COMMAND_OPTIONS: Readonly<Record<string, readonly OptionSpec[]>> = {
  call: [
    { name: "timeout", kind: "string" },
    { name: "dry-run", kind: "boolean" },
    { name: "quiet", kind: "boolean", short: "q" },
    { name: "result", kind: "boolean" },
  ],
  spawn: [
    { name: "dry-run", kind: "boolean" },
    { name: "quiet", kind: "boolean", short: "q" },
    { name: "result", kind: "boolean" },
  ],
  check: [
    { name: "strict", kind: "boolean" },
  ],
  permissions: [
    { name: "format", kind: "string" },
  ],
  schema: [
    { name: "format", kind: "string" },
  ],
  rules: [
    { name: "tool", kind: "string" },
    { name: "deny", kind: "boolean" },
    { name: "ask", kind: "boolean" },
    { name: "reason", kind: "string" },
    { name: "global", kind: "boolean" },
    { name: "match", kind: "list" },
    { name: "not-match", kind: "list" },
    { name: "when", kind: "string" },
    { name: "program", kind: "string" },
    { name: "argv", kind: "string" },
    { name: "cwd", kind: "string" },
    { name: "sandbox", kind: "string" },
    { name: "input", kind: "list" },
    { name: "body", kind: "string" },
    { name: "body-glob", kind: "string" },
    { name: "target", kind: "string" },
    { name: "mode", kind: "string" },
  ],
};

/** Everything a command needs to know about this run. */
export interface Settings {
  /** `-C DIR`, when given. */
  readonly workspace: string | undefined;
  readonly configDir: string;
  readonly cacheDir: string;
  readonly stateDir: string;
  readonly spillDir: string;
  readonly json: boolean;
  readonly approve: ApprovalPolicy;
  /** `--env KEY=VALUE` pairs, in order. */
  readonly env: Readonly<Record<string, string>>;
  /**
   * `--no-shell` (or `BASIS_NO_SHELL` set to 1, true, yes or on, which a subagent inherits): spawn
   * runs no commands.
   */
  readonly noShell: boolean;
  /** `--spawn-timeout MS`, when given: the time limit of a spawn call (capped by the spawn seam). */
  readonly spawnTimeoutMs: number | undefined;
  /** `--audit-log PATH|off`, when given (else `BASIS_AUDIT_LOG`, else the state directory). */
  readonly auditLog: string | undefined;
  /** How variables are read (for the defaults of other seams). */
  readonly envLookup: EnvLookup;
  /** `--locale`, else `BASIS_LOCALE`, `LC_ALL`, `LC_MESSAGES` or `LANG`; English when unsupported. */
  readonly locale: Locale;
  /**
   * `BASIS_ROSTER` (set for a delegated child by the parent's child policy), here or in any
   * ancestor process (see `spawn/lineage.ts`): the only tools this run lists, shows, calls and
   * serves, `spawn` among them or not; `undefined` when unset.
   */
  readonly roster: readonly string[] | undefined;
  /**
   * The delegation depth (`BASIS_SPAWN_DEPTH`, the highest here or in any ancestor process);
   * `undefined` when a value is not a whole number (every task is then refused).
   */
  readonly depth: number | undefined;
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Resolves the run's settings from parsed flags and the environment.
 *
 * @param args The parsed command line.
 * @param env How to read variables.
 * @param locale The locale, when already resolved (`--locale`, else the environment).
 * @returns The settings.
 * @throws {BasisError} `usage` for a malformed `--env` pair, an unknown `--approve` policy, a
 *   `BASIS_NO_SHELL` that is neither a yes nor a no, or a `BASIS_ROSTER` holding something that is
 *   not a tool name.
 */
export function resolveSettings(
  args: ParsedArgs,
  env: EnvLookup,
  locale: Locale = cliLocale(args, env),
): Settings {
  const string = (name: string): string | undefined => {
    const value = args.options.get(name);
    return typeof value === "string" ? value : undefined;
  };
  const approve = string("approve") ?? env("BASIS_APPROVE") ?? "prompt";
  if (!(APPROVAL_POLICIES as readonly string[]).includes(approve)) {
    throw BasisError.of(
      "usage",
      phrase("cli.bad_policy", { value: `"${approve}"`, policies: APPROVAL_POLICIES.join(", ") }),
    );
  }
  const pairs: Record<string, string> = Object.create(null);
  const list = args.options.get("env");
  for (const [index, pair] of (Array.isArray(list) ? list : []).entries()) {
    const eq = pair.indexOf("=");
    // The text may hold a secret: name the pair by its position, never by its content.
    if (eq === -1 || !ENV_NAME.test(pair.slice(0, eq))) {
      throw BasisError.of("usage", phrase("cli.bad_env_pair", { index: index + 1 }));
    }
    pairs[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  const noShell = args.options.get("no-shell") === true || envSwitch("BASIS_NO_SHELL", env);
  const spawnTimeout = string("spawn-timeout");
  const { roster, depth } = inheritedLineage(env);
  if (roster !== undefined && !Array.isArray(roster)) {
    // A malformed roster is refused rather than guessed at.
    const name = JSON.stringify((roster as { bad: string }).bad);
    throw BasisError.of("usage", phrase("cli.bad_roster", { variable: ROSTER_VAR, name }));
  }
  return {
    workspace: string("workspace"),
    configDir: configDir(string("config-dir"), env),
    cacheDir: cacheDir(env),
    stateDir: stateDir(env),
    spillDir: spillDir(env),
    json: args.options.get("json") === true,
    approve: approve as ApprovalPolicy,
    env: pairs,
    noShell,
    spawnTimeoutMs: spawnTimeout === undefined
      ? undefined
      : milliseconds("spawn-timeout", spawnTimeout),
    auditLog: string("audit-log"),
    envLookup: env,
    locale,
    roster: roster as readonly string[] | undefined,
    depth,
  };
}

/**
 * The locale of this run: `--locale`, else the environment.
 *
 * @param args The parsed command line.
 * @param env How to read variables.
 * @returns The locale.
 */
export function cliLocale(args: ParsedArgs, env: EnvLookup): Locale {
  const option = args.options.get("locale");
  return typeof option === "string" ? resolveLocale(option) : localeFromEnv(env);
}

/** How a variable that turns something on or off may say yes (any case, around spaces). */
const SWITCH_ON: readonly string[] = ["1", "true", "yes", "on"];
/** How it may say no; unset or empty is no too. */
const SWITCH_OFF: readonly string[] = ["0", "false", "no", "off"];

/**
 * Reads a variable that turns something on or off: `1`, `true`, `yes`, `on` (any case) are on;
 * `0`, `false`, `no`, `off`, empty and unset are off; anything else is refused rather than
 * guessed at.
 */
function envSwitch(name: string, env: EnvLookup): boolean {
  const value = env(name);
  const word = value?.trim().toLowerCase() ?? "";
  if (word === "" || SWITCH_OFF.includes(word)) return false;
  if (SWITCH_ON.includes(word)) return true;
  throw BasisError.of(
    "usage",
    phrase("cli.bad_switch", {
      name,
      value: JSON.stringify(value),
      on: SWITCH_ON.join(", "),
      off: SWITCH_OFF.join(", "),
    }),
  );
}

/**
 * A whole number of milliseconds above 0, given to an option.
 *
 * @param option The option's name without dashes (`timeout`).
 * @param text What was given.
 * @returns The number.
 * @throws {BasisError} `usage` for anything else.
 */
export function milliseconds(option: string, text: string): number {
  const value = Number(text);
  if (!/^[0-9]+$/.test(text) || !Number.isSafeInteger(value) || value <= 0) {
    throw millisecondsError(option, text);
  }
  return value;
}

/**
 * The error for an option that is not a whole number of milliseconds above 0.
 *
 * @param option The option's name without dashes (`timeout`).
 * @param text What was given.
 * @returns The usage error.
 */
export function millisecondsError(option: string, text: string): BasisError {
  return BasisError.of("usage", phrase("cli.bad_milliseconds", { option, value: `"${text}"` }));
}
