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
import { type Phrase, phrase } from "../locale/messages.ts";
import { cacheDir, configDir, type EnvLookup, spillDir, stateDir } from "../paths.ts";
import { ROSTER_VAR } from "../spawn/child.ts";
import { inheritedLineage } from "../spawn/lineage.ts";
import { type OptionSpec, optionText, type ParsedArgs } from "./args.ts";

/** Options from their short form: `name|S` (one-letter alias), `!` a switch, `*` a list. */
function specs(text: string): OptionSpec[] {
  return text.split(" ").map((word) => {
    const [name = "", short] = word.replace(/[!*]$/, "").split("|");
    const kind = word.endsWith("!") ? "boolean" : word.endsWith("*") ? "list" : "string";
    return short === undefined ? { name, kind } : { name, kind, short };
  });
}

/** Options accepted by every command, before or after its name. */
export const GLOBAL_OPTIONS: readonly OptionSpec[] = specs(
  "workspace|C config-dir locale json! approve env* no-shell! spawn-timeout audit-log help|h! " +
    "version|V!",
);

/** Options of one command. */
export const COMMAND_OPTIONS: Readonly<Record<string, readonly OptionSpec[]>> = {
  call: specs("timeout dry-run! quiet|q! result!"),
  spawn: specs("dry-run! quiet|q! result!"),
  check: specs("strict!"),
  permissions: specs("format"),
  mcp: specs("http"),
  schema: specs("format"),
  rules: specs(
    "tool deny! ask! reason global! match* not-match* when program argv cwd sandbox input* body " +
      "body-glob target mode",
  ),
};

/** Everything a command needs to know about this run (see {@linkcode resolveSettings}). */
export type Settings = Readonly<ReturnType<typeof resolveSettings>>;

/**
 * Resolves the run's settings from parsed flags and the environment.
 *
 * @param args The parsed command line.
 * @param env How to read variables.
 * @param locale The locale, when already resolved (`--locale`, else the environment).
 * @returns The settings: every field resolved (`undefined` only where nothing was given).
 * @throws {BasisError} `usage` for a malformed `--env` pair, an unknown `--approve` policy, a
 *   `BASIS_NO_SHELL` that is neither a yes nor a no, or a `BASIS_ROSTER` holding something that is
 *   not a tool name.
 */
export function resolveSettings(
  { options }: ParsedArgs,
  env: EnvLookup,
  locale: Locale = cliLocale({ options }, env),
) {
  const string = (name: string) => optionText(options, name);
  const approve = string("approve") ?? env("BASIS_APPROVE") ?? "prompt";
  if (!(APPROVAL_POLICIES as readonly string[]).includes(approve)) {
    const policies = APPROVAL_POLICIES.join(", ");
    throw usage(phrase("cli.bad_policy", { value: `"${approve}"`, policies }));
  }
  const pairs: Record<string, string> = Object.create(null);
  const list = options.get("env");
  for (const [index, pair] of (Array.isArray(list) ? list : []).entries()) {
    const eq = pair.indexOf("=");
    // The text may hold a secret: name the pair by its position, never by its content.
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(pair.slice(0, Math.max(eq, 0)))) {
      throw usage(phrase("cli.bad_env_pair", { index: index + 1 }));
    }
    pairs[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  const noShell = options.get("no-shell") === true || envSwitch("BASIS_NO_SHELL", env);
  const spawnTimeout = string("spawn-timeout");
  const { roster, depth } = inheritedLineage(env);
  if (roster !== undefined && !Array.isArray(roster)) {
    // A malformed roster is refused rather than guessed at.
    const name = JSON.stringify((roster as { bad: string }).bad);
    throw usage(phrase("cli.bad_roster", { variable: ROSTER_VAR, name }));
  }
  return {
    /** `-C DIR`, when given. */
    workspace: string("workspace"),
    configDir: configDir(string("config-dir"), env),
    cacheDir: cacheDir(env),
    stateDir: stateDir(env),
    spillDir: spillDir(env),
    json: options.get("json") === true,
    approve: approve as ApprovalPolicy,
    /** `--env KEY=VALUE` pairs, in order. */
    env: pairs as Readonly<Record<string, string>>,
    /**
     * `--no-shell` (or `BASIS_NO_SHELL` set to 1, true, yes or on, which a subagent inherits):
     * spawn runs no commands.
     */
    noShell,
    /** `--spawn-timeout MS`, when given: the time limit of a spawn call (capped by spawn). */
    spawnTimeoutMs: spawnTimeout === undefined
      ? undefined
      : milliseconds("spawn-timeout", spawnTimeout),
    /** `--audit-log PATH|off`, when given (else `BASIS_AUDIT_LOG`, else the state directory). */
    auditLog: string("audit-log"),
    /** How variables are read (for the defaults of other seams). */
    envLookup: env,
    /** `--locale`, else `BASIS_LOCALE`, `LC_ALL`, `LC_MESSAGES` or `LANG`; English otherwise. */
    locale,
    /**
     * `BASIS_ROSTER` (set for a delegated child by the parent's child policy), here or in any
     * ancestor process (see `spawn/lineage.ts`): the only tools this run lists, shows, calls and
     * serves, `spawn` among them or not; `undefined` when unset.
     */
    roster: roster as readonly string[] | undefined,
    /**
     * The delegation depth (`BASIS_SPAWN_DEPTH`, the highest here or in any ancestor process);
     * `undefined` when a value is not a whole number (every task is then refused).
     */
    depth,
  };
}

const usage = (reason: Phrase) => BasisError.of("usage", reason);

/**
 * The locale of this run: `--locale`, else the environment.
 *
 * @param args The parsed command line.
 * @param env How to read variables.
 * @returns The locale.
 */
export function cliLocale(args: Pick<ParsedArgs, "options">, env: EnvLookup): Locale {
  const option = args.options.get("locale");
  return typeof option === "string" ? resolveLocale(option) : localeFromEnv(env);
}

/** How a variable that turns something on or off may say yes (any case, around spaces), or no. */
const SWITCH = { on: ["1", "true", "yes", "on"], off: ["0", "false", "no", "off"] };

/**
 * Reads a variable that turns something on or off: `1`, `true`, `yes`, `on` (any case) are on;
 * `0`, `false`, `no`, `off`, empty and unset are off; anything else is refused rather than
 * guessed at.
 */
function envSwitch(name: string, env: EnvLookup): boolean {
  const value = env(name);
  const word = value?.trim().toLowerCase() ?? "";
  if (word === "" || SWITCH.off.includes(word)) return false;
  if (SWITCH.on.includes(word)) return true;
  const [on, off] = [SWITCH.on.join(", "), SWITCH.off.join(", ")];
  throw usage(phrase("cli.bad_switch", { name, value: JSON.stringify(value), on, off }));
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
  if (/^[0-9]+$/.test(text) && Number.isSafeInteger(value) && value > 0) return value;
  throw usage(phrase("cli.bad_milliseconds", { option, value: `"${text}"` }));
}
