/**
 * What the prompt shows above its question: the tool, its side effect, and exactly what would run.
 *
 * @module
 */

import { parseKeepingNumbers } from "../../json_exact.ts";
import { redact } from "../../redact.ts";
import { cutNote, cutText } from "./_cut.ts";
import { displayArg, displayArgv, visibleLines } from "./display.ts";
import type { Palette } from "./_style.ts";
import type { PromptRequest } from "./types.ts";
import type { PreviewSandbox } from "../../sandbox/types.ts";
import type { ChildPreview } from "../../spawn/child.ts";
import type { MessageKey } from "../../locale/en_us.ts";
import { type Messages, messages } from "../../locale/messages.ts";

/** Long input and command text is cut to this many lines… */
export const MAX_LINES = 40;
/** …and this many UTF-8 bytes. */
export const MAX_BYTES = 4096;

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
  if (request.askedByRule !== undefined) {
    lines.push(palette.yellow(t("prompt.asked_by_rule", { rule: request.askedByRule })));
  }
  return `${lines.join("\n")}\n`;
}
