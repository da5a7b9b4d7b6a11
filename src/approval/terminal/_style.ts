/**
 * Colours for the prompt, and the prompt library's theme built from them. With colour off every
 * style is the identity, so no escape code is written.
 *
 * @module
 */

import type { MessageKey } from "../../locale/en_us.ts";
import { type Messages, messages } from "../../locale/messages.ts";

/** The styles the prompt uses. */
export interface Palette {
  readonly bold: (text: string) => string;
  readonly dim: (text: string) => string;
  readonly cyan: (text: string) => string;
  readonly green: (text: string) => string;
  readonly red: (text: string) => string;
  readonly yellow: (text: string) => string;
}

function sgr(open: number, close: number): (text: string) => string {
  return (text) => `\x1b[${open}m${text}\x1b[${close}m`;
}

const PLAIN = (text: string): string => text;

/**
 * The styles, coloured or plain.
 *
 * @param color Whether to colour.
 * @returns The palette.
 */
export function makePalette(color: boolean): Palette {
  if (!color) {
    return { bold: PLAIN, dim: PLAIN, cyan: PLAIN, green: PLAIN, red: PLAIN, yellow: PLAIN };
  }
  return {
    bold: sgr(1, 22),
    dim: sgr(2, 22),
    cyan: sgr(36, 39),
    green: sgr(32, 39),
    red: sgr(31, 39),
    yellow: sgr(33, 39),
  };
}

/**
 * The `select` theme: every style the library would colour by itself goes through the palette.
 *
 * @param palette The palette.
 * @param words The messages of the prompt's locale (for the key hints). @default English
 * @returns A theme for `@inquirer/prompts`' `select`.
 */
export function selectTheme(palette: Palette, words: Messages = messages("en-US")) {
  // The library names its keys' actions in English; these are the ones it uses.
  const actions: Record<string, MessageKey> = {
    navigate: "prompt.key_navigate",
    select: "prompt.key_select",
  };
  const action = (name: string) =>
    Object.hasOwn(actions, name) ? words.t(actions[name] as MessageKey) : name;
  return {
    prefix: { idle: palette.cyan("?"), done: palette.green("✔") },
    style: {
      answer: palette.cyan,
      message: (text: string) => palette.bold(text),
      error: (text: string) => palette.red(`> ${text}`),
      defaultAnswer: (text: string) => palette.dim(`(${text})`),
      help: palette.dim,
      highlight: palette.cyan,
      key: (text: string) => palette.cyan(palette.bold(`<${text}>`)),
      disabled: palette.dim,
      description: palette.cyan,
      keysHelpTip: (keys: [string, string][]) =>
        [...keys.map(([key, name]) => [key, action(name)]), ["esc", words.t("prompt.key_deny")]]
          .map(([key, what]) => `${palette.bold(key ?? "")} ${palette.dim(what ?? "")}`)
          .join(palette.dim(" • ")),
    },
  };
}
