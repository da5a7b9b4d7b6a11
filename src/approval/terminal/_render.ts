/**
 * What the prompt draws: the request above its question (the tool, its side effect, and exactly
 * what would run), long text cut with a count of the rest, and the colours (the prompt library's
 * theme among them; with colour off every style is the identity, so no escape code is written).
 *
 * @module
 */

import { exactInput } from "../preview.ts";
import { redactorOf } from "../../redact.ts";
import { displayArg, visibleLines } from "../shell_quote.ts";
import type { PromptRequest } from "./types.ts";
import type { PreviewSandbox } from "../../sandbox/types.ts";
import type { MessageKey } from "../../locale/en_us.ts";
import { type Messages, messages, plural } from "../../locale/messages.ts";

/** Long input and command text is cut to this many lines… */
const MAX_LINES = 40;
/** …and this many UTF-8 bytes. */
const MAX_BYTES = 4096;
const LABEL_WIDTH = 13;
/** The fields an approval form shows first, in this order: what would run, where, with what. */
const FORM_FIRST: readonly MessageKey[] = [
  "prompt.command",
  "prompt.task",
  "prompt.cwd",
  "prompt.input",
];
/** An approval form's input on one line when its JSON is this short. */
const FORM_INPUT_WIDTH = 100;

/** The side effects whose meaning is said (`prompt.effect_process`, …). */
const SIDE_EFFECTS = ["process", "external", "local state"];

/**
 * Renders the request as the lines shown above the question, each value made safe for a terminal
 * and every secret replaced by `[redacted]`.
 *
 * @param request What is asked about.
 * @param palette The styles.
 * @param secrets Values never to show.
 * @param words The messages of the prompt's locale. @default English
 * @param form For an approval form in an MCP client, which may show only its first few lines
 *   (Claude Code shows four): what runs first (the command or task, the cwd, the input, on one
 *   line when short), then the rest; no title (the client has its own). @default false
 * @returns The text, ending with a newline.
 */
export function renderRequest(
  request: PromptRequest,
  palette: Palette,
  secrets: readonly string[],
  words: Messages = messages("en-US"),
  form = false,
): string {
  const { t } = words;
  const clean = (text: string) => redactorOf(secrets).text(text);
  const shown = (text: string) => visibleLines(clean(text));
  const arg = (text: string) => displayArg(clean(text));
  /** Multi-line text, each line styled, cut when long, with the count of what was cut last. */
  const long = (text: string, style = (line: string) => line) => {
    const cut = cutText(text, MAX_LINES, MAX_BYTES);
    const lines = cut.shown.split("\n").map(style).join("\n");
    const note = cutNote(cut, words);
    return note === "" ? lines : `${lines}\n${palette.yellow(note)}`;
  };
  const title = t(request.kind === "spawn" ? "prompt.title_command" : "prompt.title_tool");
  const fields: [key: MessageKey, text: string][] = [];
  /** One labelled field; continuation lines are aligned under the value. */
  const field = (key: MessageKey, value: string) => {
    const label = t(key);
    const [first = "", ...rest] = value.split("\n");
    const head = label.length < LABEL_WIDTH ? label.padEnd(LABEL_WIDTH) : `${label} `;
    const pad = " ".repeat(LABEL_WIDTH + 2);
    const text = [`  ${palette.dim(head)}${first}`, ...rest.map((line) => pad + line)].join("\n");
    fields.push([key, text]);
  };
  /** What a call may touch: unconfined (in yellow), confined, or confined and what more. */
  const sandbox = (value: PreviewSandbox) => {
    if (typeof value === "string") return palette.yellow(t("prompt.sandbox_unconfined"));
    const grants = [
      value.network && t("prompt.sandbox_network"),
      value.write.length > 0 && t("prompt.sandbox_write", { paths: paths(value.write) }),
      value.read.length > 0 && t("prompt.sandbox_read", { paths: paths(value.read) }),
    ].filter((grant) => grant !== false);
    if (grants.length === 0) return t("prompt.sandbox_default");
    return palette.yellow(t("prompt.sandbox_grants", { grants: grants.join("; ") }));
  };
  const paths = (list: readonly string[]) => list.map(arg).join(", ");
  const { sideEffect } = request;
  const meaning = `prompt.effect_${sideEffect.replace(" ", "_")}` as MessageKey;
  const effect = SIDE_EFFECTS.includes(sideEffect) ? ` (${t(meaning)})` : "";
  field("prompt.tool", palette.bold(shown(request.tool)));
  field("prompt.side_effect", `${visibleLines(sideEffect)}${effect}`);
  if (request.kind === "tool") {
    const { program, command, cwd, env, input } = request.preview;
    field("prompt.program", arg(program));
    field("prompt.command", palette.cyan(command.map(arg).join(" ")));
    field("prompt.cwd", arg(cwd));
    if (env.length > 0) {
      // A public variable as NAME=value, one a line; the names of the secret ones after them.
      const secret = env.filter((entry) => !entry.includes("="));
      const names = secret.length > 0 && t("prompt.env_names", { names: shown(secret.join(", ")) });
      const open = env.filter((entry) => entry.includes("=")).map(arg);
      field("prompt.env", [...open, ...names ? [names] : []].join("\n"));
    }
    field("prompt.sandbox", sandbox(request.preview.sandbox));
    // The program's exact stdin when known (its numbers' digits as written).
    const exact = input === undefined ? undefined : exactInput(request);
    const compact = JSON.stringify(exact);
    const json = exact === undefined
      ? t("prompt.none")
      : form && compact.length <= FORM_INPUT_WIDTH
      ? compact
      : JSON.stringify(exact, null, 2);
    // Each secret also as it appears inside a JSON string.
    const forms = [...secrets, ...secrets.map((secret) => JSON.stringify(secret).slice(1, -1))];
    field("prompt.input", long(visibleLines(redactorOf([...new Set(forms)]).text(json))));
  } else {
    const { mode, body, target, cwd, reach, child } = request.preview;
    field("prompt.mode", visibleLines(mode));
    field(mode === "agent" ? "prompt.task" : "prompt.command", long(shown(body), palette.cyan));
    field("prompt.target", shown(target));
    field("prompt.cwd", arg(cwd));
    if (request.preview.sandbox !== undefined) {
      field("prompt.sandbox", sandbox(request.preview.sandbox));
    }
    if (reach !== undefined) field("prompt.reach", visibleLines(reach));
    if (child !== undefined) {
      // What the child will be: its tools, its model, the system prompt that replaces its own.
      const { roster, model, system_prompt: prompt } = child;
      const names = { names: shown(roster?.join(", ") ?? "") };
      const parts = [
        roster && t(roster.length === 0 ? "prompt.child_no_tools" : "prompt.child_roster", names),
        model !== undefined && t("prompt.child_model", { model: shown(model) }),
        prompt !== undefined &&
        `${t("prompt.child_system_prompt")}\n${long(shown(prompt), palette.cyan)}`,
      ];
      field("prompt.child", parts.filter((part) => typeof part === "string").join("\n"));
    }
  }
  if (request.changed !== undefined) {
    // Which files changed since the rule that would have allowed the call, each with its diff.
    const parts = [palette.yellow(t("prompt.changed_since", { rule: request.changed.rule }))];
    for (const file of request.changed.files) {
      parts.push(palette.yellow(t(`prompt.change_${file.change}`, { path: arg(file.path) })));
      const { green, red } = palette;
      const style = (line: string) =>
        (line.startsWith("+ ") ? green : line.startsWith("- ") ? red : String)(line);
      if (file.diff !== undefined) parts.push(long(shown(file.diff.join("\n")), style));
    }
    field("prompt.changed", parts.join("\n"));
  }
  const first = form ? FORM_FIRST.flatMap((key) => fields.filter(([k]) => k === key)) : [];
  const lines = [
    ...(form ? [] : [palette.bold(title)]),
    ...[...first, ...fields.filter((entry) => !first.includes(entry))].map(([, text]) => text),
  ];
  if (request.askedByRule !== undefined) {
    lines.push(palette.yellow(t("prompt.asked_by_rule", { rule: request.askedByRule })));
  } else if (!shownWhole(request, secrets)) {
    lines.push(palette.yellow(t("prompt.not_whole")));
  }
  return `${lines.join("\n")}\n`;
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
    cutText(visibleLines(redactorOf(secrets).text(text)), MAX_LINES, MAX_BYTES).cutLines === 0;
  const prompt = request.preview.child?.system_prompt;
  return fits(request.preview.body) && (prompt === undefined || fits(prompt));
}

const ENCODER = new TextEncoder();
const byteLength = (text: string) => ENCODER.encode(text).length;

/**
 * Keeps the first `maxLines` lines of a text, within `maxBytes` UTF-8 bytes.
 *
 * @param text The text.
 * @param maxLines At most this many lines are kept.
 * @param maxBytes At most this many bytes are kept (a single long line is cut part-way).
 * @returns What was kept (`shown`: the lines kept, joined by `\n`; a line cut part-way ends with
 *   `…`), how many lines were not shown in full (`cutLines`, a line cut part-way counted) and how
 *   many UTF-8 bytes were not shown (`cutBytes`, newlines between cut lines included).
 */
export function cutText(text: string, maxLines: number, maxBytes: number) {
  const lines = text.split("\n");
  const kept: string[] = [];
  let used = 0;
  let partial = "";
  for (const line of lines) {
    if (kept.length >= maxLines) break;
    const separator = kept.length > 0 ? 1 : 0;
    const size = byteLength(line) + separator;
    if (used + size > maxBytes) {
      // The longest prefix that fits, cut between code points.
      let budget = maxBytes - used - separator;
      for (const char of line) {
        budget -= byteLength(char);
        if (budget < 0) break;
        partial += char;
      }
      break;
    }
    kept.push(line);
    used += size;
  }
  if (kept.length === lines.length) return { shown: text, cutLines: 0, cutBytes: 0 };
  const shown = partial === "" ? kept : [...kept, `${partial}…`];
  const keptBytes = used + (partial === "" ? 0 : byteLength(partial) + (kept.length > 0 ? 1 : 0));
  const cutBytes = byteLength(text) - keptBytes;
  return { shown: shown.join("\n"), cutLines: lines.length - kept.length, cutBytes };
}

/**
 * Words what {@linkcode cutText} left out: `… 1,234 more lines (56,789 bytes)`.
 *
 * @param cut The cut.
 * @param words The messages of the locale. @default English
 * @returns The note, or `""` when nothing was left out.
 */
export function cutNote(cut: ReturnType<typeof cutText>, words = messages("en-US")): string {
  if (cut.cutLines === 0) return "";
  const { locale, t } = words;
  return t("prompt.cut", {
    lines: cut.cutLines.toLocaleString(locale),
    line_word: plural(locale, cut.cutLines, t("count.lines")),
    bytes: cut.cutBytes.toLocaleString(locale),
    byte_word: plural(locale, cut.cutBytes, t("count.bytes")),
  });
}

const STYLES = {
  bold: [1, 22],
  dim: [2, 22],
  cyan: [36, 39],
  green: [32, 39],
  red: [31, 39],
  yellow: [33, 39],
} as const;

/** The styles the prompt uses. */
export type Palette = Readonly<Record<keyof typeof STYLES, (text: string) => string>>;

/**
 * The styles, coloured or plain.
 *
 * @param color Whether to colour.
 * @returns The palette.
 */
export function makePalette(color: boolean): Palette {
  return Object.fromEntries(
    Object.entries(STYLES).map(([name, [open, close]]) => [
      name,
      color ? (text: string) => `\x1b[${open}m${text}\x1b[${close}m` : (text: string) => text,
    ]),
  ) as Palette;
}

/**
 * The answers a person can give, each with the key of what is echoed once it is picked (what is
 * offered is `prompt.<answer>`).
 */
const CHOICES = [
  ["allow_once", "prompt.allowed_once"],
  ["always_allow", "prompt.always_allowed"],
  ["deny", "prompt.denied"],
  ["never", "prompt.nevered"],
] as const;

/** One answer offered: what it answers (never translated), says, and echoes once picked. */
export type Choice = { readonly value: typeof CHOICES[number][0]; name: string; short: string };

/**
 * The answers offered, in order, in the locale of `words`: without the remembering ones when a
 * rule says to ask every time, or when what they would pin was not shown whole. "Always allow"
 * says which input fields it leaves free.
 *
 * @param request What is asked about.
 * @param secrets Values never to show (they change what is shown whole).
 * @param words The messages of the prompt's locale.
 * @returns The choices.
 */
export function offeredChoices(
  request: PromptRequest,
  secrets: readonly string[],
  words: Messages,
): Choice[] {
  const remembers = request.askedByRule === undefined && shownWhole(request, secrets);
  const fields = request.kind === "tool" ? request.fromInput ?? [] : [];
  const names = [...new Set(fields.map((arg) => arg.field))].join(", ");
  return CHOICES.filter(([value]) => remembers || value === "allow_once" || value === "deny")
    .map(([value, short]) => ({
      value,
      name: value === "always_allow" && fields.length > 0
        ? words.t("prompt.always_allow_any", { fields: names })
        : words.t(`prompt.${value}`),
      short: words.t(short),
    }));
}
