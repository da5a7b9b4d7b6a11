/**
 * Text laid out in columns for a terminal: aligned by the width each character takes on screen
 * (East Asian wide characters and emoji take two cells, combining marks and other zero-width
 * characters none), and cut to the terminal's width with "…" when stdout is one. Written to a pipe
 * or a file, nothing is cut.
 *
 * @module
 */

/** Characters that take no cell: combining marks, format characters (ZWJ, variation selectors). */
const ZERO_WIDTH = /^[\p{Mn}\p{Me}\p{Cf}]$/u;
/** Characters a terminal draws in two cells. */
const WIDE = /^\p{Extended_Pictographic}$/u;
// deno-lint-ignore no-control-regex -- the control characters are what is escaped
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** East Asian Wide and Fullwidth ranges (Unicode 15), as [first, last] code points. */
const WIDE_RANGES: readonly (readonly [number, number])[] = [
  [0x1100, 0x115f],
  [0x231a, 0x231b],
  [0x2329, 0x232a],
  [0x23e9, 0x23ec],
  [0x23f0, 0x23f0],
  [0x23f3, 0x23f3],
  [0x25fd, 0x25fe],
  [0x2614, 0x2615],
  [0x2648, 0x2653],
  [0x267f, 0x267f],
  [0x2693, 0x2693],
  [0x26a1, 0x26a1],
  [0x26aa, 0x26ab],
  [0x26bd, 0x26be],
  [0x26c4, 0x26c5],
  [0x26ce, 0x26ce],
  [0x26d4, 0x26d4],
  [0x26ea, 0x26ea],
  [0x26f2, 0x26f3],
  [0x26f5, 0x26f5],
  [0x26fa, 0x26fa],
  [0x26fd, 0x26fd],
  [0x2705, 0x2705],
  [0x270a, 0x270b],
  [0x2728, 0x2728],
  [0x274c, 0x274c],
  [0x274e, 0x274e],
  [0x2753, 0x2755],
  [0x2757, 0x2757],
  [0x2795, 0x2797],
  [0x27b0, 0x27b0],
  [0x27bf, 0x27bf],
  [0x2b1b, 0x2b1c],
  [0x2b50, 0x2b50],
  [0x2b55, 0x2b55],
  [0x2e80, 0x303e],
  [0x3041, 0x33ff],
  [0x3400, 0x4dbf],
  [0x4e00, 0x9fff],
  [0xa000, 0xa4cf],
  [0xa960, 0xa97f],
  [0xac00, 0xd7a3],
  [0xf900, 0xfaff],
  [0xfe10, 0xfe19],
  [0xfe30, 0xfe6f],
  [0xff00, 0xff60],
  [0xffe0, 0xffe6],
  [0x16fe0, 0x16fe4],
  [0x17000, 0x18cff],
  [0x1b000, 0x1b2ff],
  [0x1f004, 0x1f004],
  [0x1f0cf, 0x1f0cf],
  [0x1f18e, 0x1f18e],
  [0x1f191, 0x1f19a],
  [0x1f200, 0x1f251],
  [0x1f300, 0x1f64f],
  [0x1f680, 0x1f6ff],
  [0x1f7e0, 0x1f7eb],
  [0x1f90c, 0x1f9ff],
  [0x1fa70, 0x1faff],
  [0x20000, 0x3fffd],
];

function codePointWidth(point: number): number {
  if (point < 0x20 || (point >= 0x7f && point < 0xa0)) return 0;
  if (point < 0x1100) return ZERO_WIDTH.test(String.fromCodePoint(point)) ? 0 : 1;
  let low = 0;
  let high = WIDE_RANGES.length - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    const [first, last] = WIDE_RANGES[mid]!;
    if (point < first) high = mid - 1;
    else if (point > last) low = mid + 1;
    else return 2;
  }
  const char = String.fromCodePoint(point);
  if (ZERO_WIDTH.test(char)) return 0;
  return point >= 0x1f000 && WIDE.test(char) ? 2 : 1;
}

let segmenter: Intl.Segmenter | undefined;

/** The text's user-perceived characters (grapheme clusters). */
function graphemes(text: string): Iterable<string> {
  // ASCII: every character is its own grapheme (Intl.Segmenter is not needed).
  if (/^[\x20-\x7e]*$/.test(text)) return text;
  segmenter ??= new Intl.Segmenter(undefined, { granularity: "grapheme" });
  return [...segmenter.segment(text)].map((part) => part.segment);
}

/** The cells one grapheme takes: the widest of its code points (a ZWJ sequence is one emoji). */
function graphemeWidth(grapheme: string): number {
  let width = 0;
  for (const char of grapheme) width = Math.max(width, codePointWidth(char.codePointAt(0)!));
  return width;
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
  if (/^[\x20-\x7e]*$/.test(text)) return text.length;
  let width = 0;
  for (const grapheme of graphemes(text)) width += graphemeWidth(grapheme);
  return width;
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
  for (const grapheme of graphemes(text)) {
    const cells = graphemeWidth(grapheme);
    if (used + cells > width - 1) break;
    out += grapheme;
    used += cells;
  }
  return `${out}…`;
}

/**
 * Pads a text with spaces to `width` cells.
 *
 * @param text One line of text.
 * @param width The cells it should take.
 * @returns The text and enough spaces.
 */
export function padToWidth(text: string, width: number): string {
  return text + " ".repeat(Math.max(0, width - displayWidth(text)));
}

/**
 * One line of a cell: whitespace runs (newlines too) become one space, and control characters and
 * bidirectional overrides are shown as `\uXXXX` rather than sent to the terminal.
 *
 * @param text A cell's text.
 * @returns The text on one line.
 */
export function cellText(text: string): string {
  return text.replace(/\s+/g, " ").replace(
    CONTROL,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/**
 * The width of the terminal stdout is, or `undefined` when stdout is no terminal (then nothing is
 * cut).
 *
 * @returns The number of columns.
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

/**
 * Lays rows out in columns two spaces apart, each column as wide as its widest cell, the last one
 * unpadded; with a width, each line is cut to it (the last column first, then the line).
 *
 * @param rows The rows, the heading first; each cell one line.
 * @param width The terminal's columns, or `undefined` for no limit.
 * @returns The lines, without newlines.
 * @example Aligned by display width
 * ```ts
 * import { formatTable } from "./_table.ts";
 * const lines = formatTable([["NAME", "NOTE"], ["日本", "wide"], ["ab", "narrow"]], undefined);
 * console.assert(lines[1] === "日本  wide" && lines[2] === "ab    narrow");
 * ```
 */
export function formatTable(rows: readonly (readonly string[])[], width: number | undefined) {
  const columns = Math.max(0, ...rows.map((row) => row.length));
  const widths: number[] = [];
  for (let c = 0; c < columns - 1; c++) {
    widths.push(Math.max(0, ...rows.map((row) => displayWidth(row[c] ?? ""))));
  }
  return rows.map((row) => {
    const cells = row.map((cell, c) => c < columns - 1 ? padToWidth(cell, widths[c]!) : cell);
    const line = cells.join("  ").trimEnd();
    return width === undefined ? line : cutToWidth(line, width);
  });
}
