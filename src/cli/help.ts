/**
 * The `--help` texts: one for the program, one per command, from the catalogue of the run's
 * locale (English by default, so that an English run loads no other catalogue).
 *
 * @module
 */

import { type Catalogue, EN_US, type MessageKey } from "../locale/en_us.ts";

/** The commands, each with its help text's key. */
const COMMANDS: Readonly<Record<string, MessageKey>> = {
  list: "help.list",
  show: "help.show",
  check: "help.check",
  call: "help.call",
  spawn: "help.spawn",
  permissions: "help.permissions",
  mcp: "help.mcp",
  schema: "help.schema",
  rules: "help.rules",
};

/**
 * The help text for the program or one command.
 *
 * @param command The command, or `undefined` for the program's help.
 * @param texts The catalogue of the run's locale. @default the English one
 * @returns The text, ending with the options every command takes.
 */
export function helpText(command: string | undefined, texts: Catalogue = EN_US): string {
  const global = texts["help.global"];
  if (command === undefined || !Object.hasOwn(COMMANDS, command)) {
    // Filled by hand: the help texts hold literal braces ({}, {tool, ok, …}).
    return texts["help.top"].replace("{global}", global);
  }
  return `${texts[COMMANDS[command] as MessageKey]}\n\n${global}`;
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
