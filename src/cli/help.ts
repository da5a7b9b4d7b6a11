/**
 * The `--help` texts: one for the program, one per command, from the catalogue of the run's
 * locale (English by default, so that an English run loads no other catalogue). A command's help
 * lists only the options it takes: its own, then those of the whole run it uses.
 *
 * @module
 */

import { type Catalogue, EN_US, type MessageKey } from "../locale/en_us.ts";
import { nearWords } from "../suggest.ts";

/** Each option's flags as help shows them; what it does is the text of `opt.<name>`. */
const FLAG_TEXT = `
  -C, --workspace DIR   --config-dir DIR   --json   --approve POLICY   --audit-log PATH
  --env KEY=VALUE   --no-shell   --spawn-timeout MS   --locale LOCALE   -h, --help   -V, --version
  --timeout MS   --dry-run   -q, --quiet   --result   --strict   --tool NAME   --program PATH
  --argv JSON   --cwd PATH   --sandbox GRANTS   --input POINTER=JSON   --body TEXT
  --body-glob GLOB   --target NAME   --mode MODE   --when JSON   --deny   --ask   --reason TEXT
  --global   --match PREVIEW   --not-match PREVIEW   --format F   --http HOST:PORT`;
const FLAGS = new Map(
  FLAG_TEXT.trim().split(/\s{2,}/).map((flags) => [
    /--([a-z-]+)/.exec(flags)![1]!,
    flags.startsWith("--") ? `    ${flags}` : flags,
  ]),
);

/** The options every command takes and lists (the program's help lists `--version` too). */
const COMMON = "workspace config-dir json locale help";
const CALLING = "approve env audit-log no-shell spawn-timeout";

/**
 * The commands, and the options each one's help lists, in order: its own (as `COMMAND_OPTIONS`
 * has them), then the options of the whole run it uses. Every command still accepts every
 * run-wide option.
 */
export const HELP_OPTIONS: Readonly<Record<string, readonly string[]>> = Object.fromEntries(
  Object.entries({
    init: "workspace json locale help",
    list: `env ${COMMON}`,
    show: `env no-shell ${COMMON}`,
    check: `strict env ${COMMON}`,
    call: `timeout dry-run quiet result ${CALLING} ${COMMON}`,
    spawn: `dry-run quiet result ${CALLING} ${COMMON}`,
    schema: `format env no-shell ${COMMON}`,
    rules: "tool program argv cwd sandbox input body body-glob target mode when deny ask reason " +
      `global match not-match approve env ${COMMON}`,
    permissions: `format no-shell ${COMMON}`,
    mcp: `http ${CALLING} workspace config-dir locale help`,
    completion: "locale help",
    help: "locale help",
  }).map(([command, names]) => [command, names.split(" ")]),
);

/**
 * The help text for the program or one command.
 *
 * @param command The command, or `undefined` for the program's help.
 * @param texts The catalogue of the run's locale. @default the English one
 * @returns The text: the program's lists the commands and the options every command takes; a
 *   command's ends with the options it takes.
 */
export function helpText(command: string | undefined, texts: Catalogue = EN_US): string {
  if (command === undefined || !isCommand(command)) {
    const common = optionLines(undefined, [...COMMON.split(" "), "version"], texts);
    const global = `${texts["help.global"]}\n${common}\n\n${texts["help.more"]}`;
    // Filled by hand: the help texts hold literal braces ({}, {tool, ok, …}).
    return texts["help.top"].replace("{global}", global);
  }
  const options = optionLines(command, HELP_OPTIONS[command]!, texts);
  return `${texts[`help.${command}` as MessageKey]}\n\n${texts["help.options"]}\n${options}`;
}

/** One line (or more) per option: the flags, then what it does, aligned. */
function optionLines(command: string | undefined, names: readonly string[], texts: Catalogue) {
  const width = Math.max(22, ...names.map((name) => FLAGS.get(name)!.length)) + 2;
  const pad = " ".repeat(width + 2);
  return names.map((name) => {
    // `--format` says something else for each command that takes it.
    const key = name === "format" ? `opt.format_${command}` : `opt.${name.replaceAll("-", "_")}`;
    const [first, ...rest] = texts[key as MessageKey].split("\n");
    return [`  ${FLAGS.get(name)!.padEnd(width)}${first}`, ...rest.map((line) => pad + line)]
      .join("\n");
  }).join("\n");
}

/**
 * Whether a command exists.
 *
 * @param command A command name.
 * @returns True for the commands this program answers to.
 */
export function isCommand(command: string): boolean {
  return Object.hasOwn(HELP_OPTIONS, command);
}

/**
 * The commands close to an unknown one ("did you mean").
 *
 * @param command The unknown command.
 * @returns The closest commands, closest first; empty when none is close.
 */
export function nearCommands(command: string): string[] {
  return nearWords(command, Object.keys(HELP_OPTIONS), 1, { prefix: true });
}
