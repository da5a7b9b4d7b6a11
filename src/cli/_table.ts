/**
 * Text laid out in columns for a terminal: aligned by the width each character takes on screen
 * (East Asian wide characters and emoji take two cells, combining marks and other zero-width
 * characters none), and cut to the terminal's width with "…" (or wrapped at spaces) when stdout is
 * one. Written to a pipe or a file, nothing is cut or wrapped.
 *
 * @module
 */

import { cellText } from "../approval/shell_quote.ts";

/** Characters that take no cell: combining marks, format characters (ZWJ, variation selectors). */
const ZERO_WIDTH = /^[\p{Mn}\p{Me}\p{Cf}]$/u;
/** Characters a terminal draws in two cells. */
const WIDE = /^\p{Extended_Pictographic}$/u;
const ASCII = /^[\x20-\x7e]*$/;

/** East Asian Wide and Fullwidth ranges (Unicode 15), as [first, last] code points. */
const WIDE_RANGES = `
  1100-115f 231a-231b 2329-232a 23e9-23ec 23f0 23f3 25fd-25fe 2614-2615 2648-2653 267f
  2693 26a1 26aa-26ab 26bd-26be 26c4-26c5 26ce 26d4 26ea 26f2-26f3 26f5 26fa 26fd 2705
  270a-270b 2728 274c 274e 2753-2755 2757 2795-2797 27b0 27bf 2b1b-2b1c 2b50 2b55
  2e80-303e 3041-33ff 3400-4dbf 4e00-9fff a000-a4cf a960-a97f ac00-d7a3 f900-faff
  fe10-fe19 fe30-fe6f ff00-ff60 ffe0-ffe6 16fe0-16fe4 17000-18cff 1b000-1b2ff 1f004 1f0cf
  1f18e 1f191-1f19a 1f200-1f251 1f300-1f64f 1f680-1f6ff 1f7e0-1f7eb 1f90c-1f9ff
  1fa70-1faff 20000-3fffd`.trim().split(/\s+/).map((range) => {
  const [first = 0, last = first] = range.split("-").map((hex) => parseInt(hex, 16));
  return [first, last] as const;
});

function codePointWidth(point: number): number {
  if (point < 0x20 || (point >= 0x7f && point < 0xa0)) return 0;
  const char = String.fromCodePoint(point);
  if (point >= 0x1100 && WIDE_RANGES.some(([first, last]) => point >= first && point <= last)) {
    return 2;
  }
  if (ZERO_WIDTH.test(char)) return 0;
  return point >= 0x1f000 && WIDE.test(char) ? 2 : 1;
}

let segmenter: Intl.Segmenter | undefined;

/** The text's user-perceived characters (grapheme clusters), each with the cells it takes. */
function graphemes(text: string): [string, number][] {
  // ASCII: every character is its own grapheme, one cell wide (Intl.Segmenter is not needed).
  if (ASCII.test(text)) return [...text].map((char) => [char, 1]);
  segmenter ??= new Intl.Segmenter(undefined, { granularity: "grapheme" });
  // The widest of its code points: a ZWJ sequence is one emoji.
  return [...segmenter.segment(text)].map(({ segment }) => [
    segment,
    Math.max(0, ...[...segment].map((char) => codePointWidth(char.codePointAt(0)!))),
  ]);
}

/**
 * How many terminal cells a text takes.
 *
 * @param text One line of text.
 * @returns Its width in cells.
 * @example Wide characters take two cells, combining marks none
 * ```ts
 * import { displayWidth } from "./_table.ts";
 * console.assert(displayWidth("abc") === 3);
 * console.assert(displayWidth("日本") === 4);
 * console.assert(displayWidth("e\u0301") === 1);
 * ```
 */
export function displayWidth(text: string): number {
  if (ASCII.test(text)) return text.length;
  return graphemes(text).reduce((sum, [, width]) => sum + width, 0);
}

/**
 * A text cut to at most `width` cells, ending in "…" when anything was cut; never inside a
 * character.
 *
 * @param text One line of text.
 * @param width The most cells it may take (at least 1).
 * @returns The text, or its start and "…".
 */
export function cutToWidth(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  let out = "";
  let used = 0;
  for (const [grapheme, cells] of graphemes(text)) {
    if (used + cells > width - 1) break;
    out += grapheme;
    used += cells;
  }
  return `${out}…`;
}

/**
 * A line wrapped at its spaces into lines of at most `width` cells, each after the first starting
 * with `indent` (a word longer than that on a line of its own, whole: never broken inside a word).
 * A line that fits is returned as it is.
 *
 * @param text One line of text.
 * @param width The most cells a line takes.
 * @param indent What goes before each line after the first (within the width). @default ""
 * @returns The lines (at least one).
 * @example Wrapped at word boundaries
 * ```ts
 * import { wrapToWidth } from "./_table.ts";
 * console.assert(wrapToWidth("say hello to the world", 9, " ").join("|") === "say hello| to the| world");
 * ```
 */
export function wrapToWidth(text: string, width: number, indent = ""): string[] {
  const lines: string[] = [];
  let [line, words] = ["", 0];
  for (const word of text.split(" ")) {
    if (words > 0 && displayWidth(`${line} ${word}`) > width) {
      lines.push(line);
      [line, words] = [indent + word, 1];
    } else [line, words] = [words === 0 ? word : `${line} ${word}`, words + 1];
  }
  return [...lines, line];
}

/** Below this many cells left for the last column, a wrapped table puts it on lines of its own. */
const MIN_WRAPPED = 24;

/**
 * Lays rows out in columns two spaces apart, each column as wide as its widest cell, the last one
 * unpadded, each cell on one line with control characters escaped; each line is cut to the width
 * (the last column first, then the line), or with `wrap` the last column is wrapped at its spaces
 * within its column (on lines of its own, further indented, when it would have too little room;
 * the other columns then wrapped too): nothing is cut.
 *
 * @param rows The rows, the heading first.
 * @param width The most cells a line takes. @default the terminal's columns when stdout is one
 * @param options `indent`: what goes before each line, within the width (default ""); `wrap`:
 *   wrap the last column rather than cut it (default false).
 * @returns The lines, without newlines.
 * @example Aligned by display width
 * ```ts
 * import { formatTable } from "./_table.ts";
 * const lines = formatTable([["NAME", "NOTE"], ["日本", "wide"], ["ab", "narrow"]]);
 * console.assert(lines[1] === "日本  wide" && lines[2] === "ab    narrow");
 * ```
 */
export function formatTable(
  rows: readonly (readonly string[])[],
  width: number | undefined = terminalColumns(),
  { indent = "", wrap = false }: { indent?: string; wrap?: boolean } = {},
): string[] {
  const cells = rows.map((row) => row.map(cellText));
  const columns = Math.max(0, ...cells.map((row) => row.length));
  const widths = Array.from(
    { length: Math.max(0, columns - 1) },
    (_, c) => Math.max(0, ...cells.map((row) => displayWidth(row[c] ?? ""))),
  );
  return cells.flatMap((row) => {
    const padded = row.map((cell, c) =>
      c < columns - 1 ? cell + " ".repeat(Math.max(0, widths[c]! - displayWidth(cell))) : cell
    );
    const line = padded.join("  ").trimEnd();
    if (width === undefined) return [indent + line];
    const room = width - indent.length;
    const last = row.length === columns ? padded.pop()! : "";
    if (!wrap || displayWidth(line) <= room) return [indent + cutToWidth(line, room)];
    // Too narrow for the other columns too: they are wrapped as well, never cut.
    const others = (text: string) => wrapToWidth(indent + text.trimEnd(), width, `${indent}  `);
    if (last === "") return others(line);
    const start = padded.join("  ") + "  ";
    const fits = room - displayWidth(start) >= MIN_WRAPPED;
    const [lead, pad] = fits ? [start, " ".repeat(displayWidth(start))] : ["", "    "];
    const wrapped = wrapToWidth(last, room - pad.length).map((part, i) =>
      indent + (i === 0 && fits ? lead : pad) + part
    );
    return fits ? wrapped : [...others(start), ...wrapped];
  });
}

/**
 * The width of the terminal stdout is, or `undefined` when stdout is no terminal.
 *
 * @returns Its columns, or `undefined`.
 */
export function terminalColumns(): number | undefined {
  try {
    if (!Deno.stdout.isTerminal()) return undefined;
    const { columns } = Deno.consoleSize();
    return columns > 0 ? columns : undefined;
  } catch {
    return undefined;
  }
}
