/**
 * The `--help` texts: one for the program, one per command, from the catalogue of the run's
 * locale (English by default, so that an English run loads no other catalogue). A command's help
 * lists only the options it takes: its own, then those of the whole run it uses.
 *
 * @module
 */

import { type Catalogue, EN_US, type MessageKey } from "../locale/en_us.ts";
import { nearWords } from "../suggest.ts";

/** The commands, each with its help text's key. */
const COMMANDS: Readonly<Record<string, MessageKey>> = {
  init: "help.init",
  list: "help.list",
  show: "help.show",
  check: "help.check",
  call: "help.call",
  spawn: "help.spawn",
  schema: "help.schema",
  rules: "help.rules",
  permissions: "help.permissions",
  mcp: "help.mcp",
  help: "help.help",
};

/** How an option is shown: its flags and value, and the key of what it does. */
interface OptionHelp {
  readonly flag: string;
  readonly key: MessageKey;
}

const OPTIONS: Readonly<Record<string, OptionHelp>> = {
  workspace: { flag: "-C, --workspace DIR", key: "opt.workspace" },
  "config-dir": { flag: "    --config-dir DIR", key: "opt.config_dir" },
  json: { flag: "    --json", key: "opt.json" },
  approve: { flag: "    --approve POLICY", key: "opt.approve" },
  "audit-log": { flag: "    --audit-log PATH", key: "opt.audit_log" },
  env: { flag: "    --env KEY=VALUE", key: "opt.env" },
  "no-shell": { flag: "    --no-shell", key: "opt.no_shell" },
  "spawn-timeout": { flag: "    --spawn-timeout MS", key: "opt.spawn_timeout" },
  locale: { flag: "    --locale LOCALE", key: "opt.locale" },
  help: { flag: "-h, --help", key: "opt.help" },
  version: { flag: "-V, --version", key: "opt.version" },
  timeout: { flag: "    --timeout MS", key: "opt.timeout" },
  "dry-run": { flag: "    --dry-run", key: "opt.dry_run" },
  quiet: { flag: "-q, --quiet", key: "opt.quiet" },
  result: { flag: "    --result", key: "opt.result" },
  strict: { flag: "    --strict", key: "opt.strict" },
  tool: { flag: "    --tool NAME", key: "opt.tool" },
  program: { flag: "    --program PATH", key: "opt.program" },
  argv: { flag: "    --argv JSON", key: "opt.argv" },
  cwd: { flag: "    --cwd PATH", key: "opt.cwd" },
  sandbox: { flag: "    --sandbox GRANTS", key: "opt.sandbox" },
  input: { flag: "    --input POINTER=JSON", key: "opt.input" },
  body: { flag: "    --body TEXT", key: "opt.body" },
  "body-glob": { flag: "    --body-glob GLOB", key: "opt.body_glob" },
  target: { flag: "    --target NAME", key: "opt.target" },
  mode: { flag: "    --mode MODE", key: "opt.mode" },
  when: { flag: "    --when JSON", key: "opt.when" },
  deny: { flag: "    --deny", key: "opt.deny" },
  ask: { flag: "    --ask", key: "opt.ask" },
  reason: { flag: "    --reason TEXT", key: "opt.reason" },
  global: { flag: "    --global", key: "opt.global" },
  match: { flag: "    --match PREVIEW", key: "opt.match" },
  "not-match": { flag: "    --not-match PREVIEW", key: "opt.not_match" },
};

/** `--format` says something else for each command that takes it. */
const FORMAT: Readonly<Record<string, MessageKey>> = {
  schema: "opt.format_schema",
  permissions: "opt.format_permissions",
};

/** The options every command takes and lists (the program's help lists `--version` too). */
const COMMON = ["workspace", "config-dir", "json", "locale", "help"] as const;

/**
 * The options each command's help lists, in order: its own (as `COMMAND_OPTIONS` has them), then
 * the options of the whole run it uses. Every command still accepts every run-wide option.
 */
export const HELP_OPTIONS: Readonly<Record<string, readonly string[]>> = {
  init: ["workspace", "json", "locale", "help"],
  list: ["env", ...COMMON],
  show: ["env", "no-shell", ...COMMON],
  check: ["strict", "env", ...COMMON],
  call: [
    "timeout",
    "dry-run",
    "quiet",
    "result",
    "approve",
    "env",
    "audit-log",
    "no-shell",
    "spawn-timeout",
    ...COMMON,
  ],
  spawn: [
    "dry-run",
    "quiet",
    "result",
    "approve",
    "env",
    "audit-log",
    "no-shell",
    "spawn-timeout",
    ...COMMON,
  ],
  schema: ["format", "env", "no-shell", ...COMMON],
  rules: [
    "tool",
    "program",
    "argv",
    "cwd",
    "sandbox",
    "input",
    "body",
    "body-glob",
    "target",
    "mode",
    "when",
    "deny",
    "ask",
    "reason",
    "global",
    "match",
    "not-match",
    "approve",
    "env",
    ...COMMON,
  ],
  permissions: ["format", "no-shell", ...COMMON],
  mcp: [
    "approve",
    "env",
    "audit-log",
    "no-shell",
    "spawn-timeout",
    ...COMMON.filter((o) => o !== "json"),
  ],
  help: ["locale", "help"],
};

/**
 * The help text for the program or one command.
 *
 * @param command The command, or `undefined` for the program's help.
 * @param texts The catalogue of the run's locale. @default the English one
 * @returns The text: the program's lists the commands and the options every command takes; a
 *   command's ends with the options it takes.
 */
export function helpText(command: string | undefined, texts: Catalogue = EN_US): string {
  if (command === undefined || !Object.hasOwn(COMMANDS, command)) {
    const common = optionLines(undefined, [...COMMON, "version"], texts);
    const global = `${texts["help.global"]}\n${common}\n\n${texts["help.more"]}`;
    // Filled by hand: the help texts hold literal braces ({}, {tool, ok, …}).
    return texts["help.top"].replace("{global}", global);
  }
  const options = optionLines(command, HELP_OPTIONS[command] ?? [], texts);
  return `${texts[COMMANDS[command] as MessageKey]}\n\n${texts["help.options"]}\n${options}`;
}

/** One line (or more) per option: the flags, then what it does, aligned. */
function optionLines(command: string | undefined, names: readonly string[], texts: Catalogue) {
  const shown = names.map((name) => {
    const help = OPTIONS[name];
    const format = command === undefined ? undefined : FORMAT[command];
    if (name === "format" && format !== undefined) return { flag: "    --format F", key: format };
    if (help === undefined) throw new Error(`No help for option --${name}`);
    return help;
  });
  const width = Math.max(22, ...shown.map(({ flag }) => flag.length)) + 2;
  return shown.map(({ flag, key }) => {
    const [first, ...rest] = texts[key].split("\n");
    const pad = " ".repeat(width + 2);
    return [`  ${flag.padEnd(width)}${first}`, ...rest.map((line) => `${pad}${line}`)].join("\n");
  }).join("\n");
}

/**
 * Whether a command exists.
 *
 * @param command A command name.
 * @returns True for the commands this program answers to.
 */
export function isCommand(command: string): boolean {
  return Object.hasOwn(COMMANDS, command);
}

/**
 * The commands close to an unknown one ("did you mean").
 *
 * @param command The unknown command.
 * @returns The closest commands, closest first; empty when none is close.
 */
export function nearCommands(command: string): string[] {
  return nearWords(command, Object.keys(COMMANDS), 1, { prefix: true });
}
