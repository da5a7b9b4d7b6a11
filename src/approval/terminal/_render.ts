/**
 * What the prompt draws: the request above its question (the tool, its side effect, and exactly
 * what would run), long text cut with a count of the rest, and the colours (the prompt library's
 * theme among them; with colour off every style is the identity, so no escape code is written).
 *
 * @module
 */

import { parseKeepingNumbers } from "../../json_text.ts";
import { redact } from "../../redact.ts";
import { displayArg, displayArgv, visibleLines } from "./display.ts";
import type { PromptRequest } from "./types.ts";
import type { ContentChange } from "../rules/types.ts";
import type { PreviewSandbox } from "../../sandbox/types.ts";
import type { ChildPreview } from "../../spawn/child.ts";
import type { MessageKey } from "../../locale/en_us.ts";
import type { Locale } from "../../locale/locale.ts";
import { type Messages, messages, plural } from "../../locale/messages.ts";

/** Long input and command text is cut to this many lines… */
const MAX_LINES = 40;
/** …and this many UTF-8 bytes. */
const MAX_BYTES = 4096;

const LABEL_WIDTH = 13;
const INDENT = "  ";

const SIDE_EFFECTS: Record<string, MessageKey> = {
  process: "prompt.effect_process",
  external: "prompt.effect_external",
  "local state": "prompt.effect_local_state",
};

/** One labelled field; continuation lines are aligned under the value. */
function field(palette: Palette, label: string, value: string): string {
  const pad = " ".repeat(LABEL_WIDTH);
  const [first = "", ...rest] = value.split("\n");
  const shown = label.length < LABEL_WIDTH ? label.padEnd(LABEL_WIDTH) : `${label} `;
  const head = `${INDENT}${palette.dim(shown)}${first}`;
  return [head, ...rest.map((line) => `${INDENT}${pad}${line}`)].join("\n");
}

/** Multi-line text, each line styled, cut when long, with the count of what was cut last. */
function long(
  palette: Palette,
  text: string,
  style: (line: string) => string,
  words: Messages,
): string {
  const cut = cutText(text, MAX_LINES, MAX_BYTES);
  const shown = cut.shown.split("\n").map(style).join("\n");
  const note = cutNote(cut, words);
  return note === "" ? shown : `${shown}\n${palette.yellow(note)}`;
}

/** Above this size the input is shown from its parsed value (it is cut to 4 KiB anyway). */
const EXACT_INPUT_LIMIT = 1 << 20;

/** The input to show: the program's exact stdin when known (its numbers' digits as written). */
function shownInput(stdin: Uint8Array | undefined, input: unknown): unknown {
  if (stdin === undefined || stdin.length > EXACT_INPUT_LIMIT) return input;
  try {
    return parseKeepingNumbers(new TextDecoder().decode(stdin));
  } catch {
    return input;
  }
}

/** The secrets, plus each as it appears inside a JSON string when that differs. */
function withJsonForms(secrets: readonly string[]): string[] {
  const forms = [...secrets];
  for (const secret of secrets) {
    const encoded = JSON.stringify(secret).slice(1, -1);
    if (encoded !== secret) forms.push(encoded);
  }
  return forms;
}

/** What the child will be: its tools, its model, the system prompt that replaces its own. */
function childText(
  child: ChildPreview,
  palette: Palette,
  words: Messages,
  clean: (text: string) => string,
): string {
  const { t } = words;
  const parts: string[] = [];
  if (child.roster !== undefined) {
    parts.push(
      child.roster.length === 0
        ? t("prompt.child_no_tools")
        : t("prompt.child_roster", { names: visibleLines(clean(child.roster.join(", "))) }),
    );
  }
  if (child.model !== undefined) {
    parts.push(t("prompt.child_model", { model: visibleLines(clean(child.model)) }));
  }
  if (child.system_prompt !== undefined) {
    const text = long(palette, visibleLines(clean(child.system_prompt)), palette.cyan, words);
    parts.push(`${t("prompt.child_system_prompt")}\n${text}`);
  }
  return parts.join("\n");
}

/**
 * What a call may touch, in words: unconfined (in yellow), confined with nothing more, or confined
 * and what it may do beyond the default.
 */
function sandboxText(
  sandbox: PreviewSandbox,
  palette: Palette,
  words: Messages,
  clean: (text: string) => string,
): string {
  const { t } = words;
  if (typeof sandbox === "string") return palette.yellow(t("prompt.sandbox_unconfined"));
  const grants: string[] = [];
  if (sandbox.network) grants.push(t("prompt.sandbox_network"));
  if (sandbox.write.length > 0) {
    grants.push(
      t("prompt.sandbox_write", {
        paths: sandbox.write.map((path) => displayArg(clean(path))).join(", "),
      }),
    );
  }
  if (sandbox.read.length > 0) {
    grants.push(
      t("prompt.sandbox_read", {
        paths: sandbox.read.map((path) => displayArg(clean(path))).join(", "),
      }),
    );
  }
  if (grants.length === 0) return t("prompt.sandbox_default");
  return palette.yellow(t("prompt.sandbox_grants", { grants: grants.join("; ") }));
}

/**
 * Renders the request as the lines shown above the question, each value made safe for a terminal
 * and every secret replaced by `[redacted]`.
 *
 * @param request What is asked about.
 * @param palette The styles.
 * @param secrets Values never to show.
 * @param words The messages of the prompt's locale. @default English
 * @returns The text, ending with a newline.
 */
export function renderRequest(
  request: PromptRequest,
  palette: Palette,
  secrets: readonly string[],
  words: Messages = messages("en-US"),
): string {
  const { t } = words;
  const clean = (text: string) => redact(text, secrets);
  const plain = (text: string) => text;
  const effectKey = Object.hasOwn(SIDE_EFFECTS, request.sideEffect)
    ? SIDE_EFFECTS[request.sideEffect]
    : undefined;
  const effect = effectKey === undefined ? "" : t(effectKey);
  const lines: string[] = [];
  const label = (key: MessageKey) => t(key);
  lines.push(
    palette.bold(t(request.kind === "spawn" ? "prompt.title_command" : "prompt.title_tool")),
  );
  lines.push(field(palette, label("prompt.tool"), palette.bold(visibleLines(clean(request.tool)))));
  lines.push(
    field(
      palette,
      label("prompt.side_effect"),
      `${visibleLines(request.sideEffect)}${effect ? ` (${effect})` : ""}`,
    ),
  );
  if (request.kind === "tool") {
    const preview = request.preview;
    lines.push(field(palette, label("prompt.program"), displayArg(clean(preview.program))));
    lines.push(
      field(
        palette,
        label("prompt.command"),
        palette.cyan(displayArgv(preview.command.map(clean))),
      ),
    );
    lines.push(field(palette, label("prompt.cwd"), displayArg(clean(preview.cwd))));
    if (preview.env.length > 0) {
      const names = visibleLines(clean(preview.env.join(", ")));
      lines.push(field(palette, label("prompt.env"), t("prompt.env_names", { names })));
    }
    lines.push(
      field(palette, label("prompt.sandbox"), sandboxText(preview.sandbox, palette, words, clean)),
    );
    const json = preview.input === undefined
      ? t("prompt.none")
      : JSON.stringify(shownInput(request.stdin, preview.input), null, 2);
    const input = visibleLines(redact(json, withJsonForms(secrets)));
    lines.push(field(palette, label("prompt.input"), long(palette, input, plain, words)));
  } else {
    const preview = request.preview;
    lines.push(field(palette, label("prompt.mode"), visibleLines(preview.mode)));
    const body = label(preview.mode === "agent" ? "prompt.task" : "prompt.command");
    lines.push(
      field(palette, body, long(palette, visibleLines(clean(preview.body)), palette.cyan, words)),
    );
    lines.push(field(palette, label("prompt.target"), visibleLines(clean(preview.target))));
    lines.push(field(palette, label("prompt.cwd"), displayArg(clean(preview.cwd))));
    if (preview.sandbox !== undefined) {
      lines.push(
        field(
          palette,
          label("prompt.sandbox"),
          sandboxText(preview.sandbox, palette, words, clean),
        ),
      );
    }
    if (preview.reach !== undefined) {
      lines.push(field(palette, label("prompt.reach"), visibleLines(preview.reach)));
    }
    if (preview.child !== undefined) {
      lines.push(
        field(palette, label("prompt.child"), childText(preview.child, palette, words, clean)),
      );
    }
  }
  if (request.changed !== undefined) {
    lines.push(
      field(palette, label("prompt.changed"), changedText(request, palette, words, clean)),
    );
  }
  if (request.askedByRule !== undefined) {
    lines.push(palette.yellow(t("prompt.asked_by_rule", { rule: request.askedByRule })));
  } else if (!shownWhole(request, secrets)) {
    lines.push(palette.yellow(t("prompt.not_whole")));
  }
  return `${lines.join("\n")}\n`;
}

const CHANGES: Record<ContentChange["change"], MessageKey> = {
  changed: "prompt.change_changed",
  added: "prompt.change_added",
  removed: "prompt.change_removed",
};

/** Which files changed since the rule that would have allowed the call, each with its diff. */
function changedText(
  request: PromptRequest,
  palette: Palette,
  words: Messages,
  clean: (text: string) => string,
): string {
  const changed = request.changed!;
  const parts = [palette.yellow(words.t("prompt.changed_since", { rule: changed.rule }))];
  for (const file of changed.files) {
    const path = displayArg(clean(file.path));
    parts.push(palette.yellow(words.t(CHANGES[file.change], { path })));
    if (file.diff === undefined) continue;
    const style = (line: string) =>
      line.startsWith("+ ")
        ? palette.green(line)
        : line.startsWith("- ")
        ? palette.red(line)
        : line;
    parts.push(long(palette, visibleLines(clean(file.diff.join("\n"))), style, words));
  }
  return parts.join("\n");
}

/**
 * Whether everything "always allow" would pin is shown whole: a spawn command (and a child's
 * system prompt) cut to fit is not, and can then only be allowed once.
 *
 * @param request What is asked about.
 * @param secrets Values never to show (they change what is shown).
 * @returns False when a pinned text was cut.
 */
export function shownWhole(request: PromptRequest, secrets: readonly string[]): boolean {
  if (request.kind !== "spawn") return true;
  const fits = (text: string) =>
    cutText(visibleLines(redact(text, secrets)), MAX_LINES, MAX_BYTES).cutLines === 0;
  const prompt = request.preview.child?.system_prompt;
  return fits(request.preview.body) && (prompt === undefined || fits(prompt));
}

/** What {@linkcode cutText} kept and what it left out. */
export interface Cut {
  /** The lines kept, joined by `\n`; a line cut part-way ends with `…`. */
  readonly shown: string;
  /** Lines not shown in full (a line cut part-way counts). */
  readonly cutLines: number;
  /** UTF-8 bytes not shown (newlines between cut lines included). */
  readonly cutBytes: number;
}

const ENCODER = new TextEncoder();

function byteLength(text: string): number {
  return ENCODER.encode(text).length;
}

/** The longest prefix of `line` whose UTF-8 size fits `budget`, cut between code points. */
function prefixWithin(line: string, budget: number): string {
  let used = 0;
  let end = 0;
  for (const char of line) {
    const size = byteLength(char);
    if (used + size > budget) break;
    used += size;
    end += char.length;
  }
  return line.slice(0, end);
}

/**
 * Keeps the first `maxLines` lines of a text, within `maxBytes` UTF-8 bytes.
 *
 * @param text The text.
 * @param maxLines At most this many lines are kept.
 * @param maxBytes At most this many bytes are kept (a single long line is cut part-way).
 * @returns What was kept and how much was not.
 */
export function cutText(text: string, maxLines: number, maxBytes: number): Cut {
  const lines = text.split("\n");
  const kept: string[] = [];
  let used = 0;
  let partial = "";
  for (const line of lines) {
    if (kept.length >= maxLines) break;
    const separator = kept.length > 0 ? 1 : 0;
    const size = byteLength(line) + separator;
    if (used + size > maxBytes) {
      partial = prefixWithin(line, Math.max(0, maxBytes - used - separator));
      break;
    }
    kept.push(line);
    used += size;
  }
  if (kept.length === lines.length) return { shown: text, cutLines: 0, cutBytes: 0 };
  const shownParts = partial === "" ? kept : [...kept, `${partial}…`];
  const keptBytes = used + (partial === "" ? 0 : byteLength(partial) + (kept.length > 0 ? 1 : 0));
  return {
    shown: shownParts.join("\n"),
    cutLines: lines.length - kept.length,
    cutBytes: byteLength(text) - keptBytes,
  };
}

/**
 * Words what {@linkcode cutText} left out: `… 1,234 more lines (56,789 bytes)`.
 *
 * @param cut The cut.
 * @returns The note, or `""` when nothing was left out.
 */
export function cutNote(cut: Cut, words: Messages = messages("en-US")): string {
  if (cut.cutLines === 0) return "";
  const { locale, t } = words;
  return t("prompt.cut", {
    lines: count(cut.cutLines, locale),
    line_word: plural(locale, cut.cutLines, t("count.lines")),
    bytes: count(cut.cutBytes, locale),
    byte_word: plural(locale, cut.cutBytes, t("count.bytes")),
  });
}

function count(n: number, locale: Locale): string {
  return n.toLocaleString(locale);
}

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

/**
 * The label of "always allow" for one request.
 *
 * @param request What is asked about.
 * @param words The messages of the prompt's locale.
 * @returns The label.
 */
export function alwaysAllowLabel(request: PromptRequest, words: Messages): string {
  const fields = request.kind === "tool" ? request.fromInput ?? [] : [];
  if (fields.length === 0) return words.t("prompt.always_allow");
  const names = [...new Set(fields.map((arg) => arg.field))].join(", ");
  return words.t("prompt.always_allow_any", { fields: names });
}
