/**
 * Colours for the prompt, and the prompt library's theme built from them. With colour off every
 * style is the identity, so no escape code is written.
 *
 * @module
 */

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
 * @returns A theme for `@inquirer/prompts`' `select`.
 */
export function selectTheme(palette: Palette) {
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
        [...keys, ["esc", "deny"] as [string, string]]
          .map(([key, action]) => `${palette.bold(key)} ${palette.dim(action)}`)
          .join(palette.dim(" • ")),
    },
  };
}
