/**
 * What the prompt shows above its question: the tool, its side effect, and exactly what would run.
 *
 * @module
 */

import { redact } from "../../redact.ts";
import { cutNote, cutText } from "./_cut.ts";
import { displayArg, displayArgv, visibleLines } from "./_display.ts";
import type { Palette } from "./_style.ts";
import type { PromptRequest } from "./types.ts";

/** Long input and command text is cut to this many lines… */
export const MAX_LINES = 40;
/** …and this many UTF-8 bytes. */
export const MAX_BYTES = 4096;

const LABEL_WIDTH = 13;
const INDENT = "  ";

const SIDE_EFFECTS: Record<string, string> = {
  process: "runs a program on this machine",
  external: "acts on systems beyond this machine",
  "local state": "hands a task to a subagent on this machine",
};

/** One labelled field; continuation lines are aligned under the value. */
function field(palette: Palette, label: string, value: string): string {
  const pad = " ".repeat(LABEL_WIDTH);
  const [first = "", ...rest] = value.split("\n");
  const head = `${INDENT}${palette.dim(label.padEnd(LABEL_WIDTH))}${first}`;
  return [head, ...rest.map((line) => `${INDENT}${pad}${line}`)].join("\n");
}

/** Multi-line text, each line styled, cut when long, with the count of what was cut last. */
function long(palette: Palette, text: string, style: (line: string) => string): string {
  const cut = cutText(text, MAX_LINES, MAX_BYTES);
  const shown = cut.shown.split("\n").map(style).join("\n");
  const note = cutNote(cut);
  return note === "" ? shown : `${shown}\n${palette.yellow(note)}`;
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

/**
 * Renders the request as the lines shown above the question, each value made safe for a terminal
 * and every secret replaced by `[redacted]`.
 *
 * @param request What is asked about.
 * @param palette The styles.
 * @param secrets Values never to show.
 * @returns The text, ending with a newline.
 */
export function renderRequest(
  request: PromptRequest,
  palette: Palette,
  secrets: readonly string[],
): string {
  const clean = (text: string) => redact(text, secrets);
  const plain = (text: string) => text;
  const effect = SIDE_EFFECTS[request.sideEffect] ?? "";
  const lines: string[] = [];
  const what = request.kind === "spawn" ? "a command" : "a tool";
  lines.push(palette.bold(`basis-tools asks before running ${what}`));
  lines.push(field(palette, "tool", palette.bold(visibleLines(clean(request.tool)))));
  lines.push(
    field(
      palette,
      "side effect",
      `${visibleLines(request.sideEffect)}${effect ? ` (${effect})` : ""}`,
    ),
  );
  if (request.kind === "tool") {
    const preview = request.preview;
    lines.push(field(palette, "command", palette.cyan(displayArgv(preview.command.map(clean)))));
    lines.push(field(palette, "cwd", displayArg(clean(preview.cwd))));
    const json = preview.input === undefined ? "(none)" : JSON.stringify(preview.input, null, 2);
    const input = visibleLines(redact(json, withJsonForms(secrets)));
    lines.push(field(palette, "input", long(palette, input, plain)));
  } else {
    const preview = request.preview;
    lines.push(field(palette, "mode", visibleLines(preview.mode)));
    const label = preview.mode === "agent" ? "task" : "command";
    lines.push(
      field(palette, label, long(palette, visibleLines(clean(preview.body)), palette.cyan)),
    );
    lines.push(field(palette, "target", visibleLines(clean(preview.target))));
    lines.push(field(palette, "cwd", displayArg(clean(preview.cwd))));
  }
  return `${lines.join("\n")}\n`;
}
