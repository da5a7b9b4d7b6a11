/**
 * The terminal approver: shows a person exactly what would run and asks allow once, always allow,
 * deny or never. With no terminal it answers `no_answer` at once (fail closed: the caller denies).
 *
 * @module
 */

import type { Readable, Writable } from "node:stream";
import {
  alwaysAllowLabel,
  makePalette,
  renderRequest,
  selectTheme,
  shownWhole,
} from "./_render.ts";
import {
  defaultIsTerminal,
  keepOpen,
  openControllingTerminal,
  resolveStreams,
  takeTurn,
} from "./_terminal.ts";
import type { PromptRequest, TerminalAnswer, TerminalIo } from "./types.ts";
import type { MessageKey } from "../../locale/en_us.ts";
import type { Locale } from "../../locale/locale.ts";
import { loadLocale, type Messages, messages } from "../../locale/messages.ts";

type Choice = Exclude<TerminalAnswer, "no_answer">;

/** The choices, in order, with the keys of their texts (what is offered, what is echoed). */
const CHOICES: readonly { value: Choice; name: MessageKey; short: MessageKey }[] = [
  { value: "allow_once", name: "prompt.allow_once", short: "prompt.allowed_once" },
  { value: "always_allow", name: "prompt.always_allow", short: "prompt.always_allowed" },
  { value: "deny", name: "prompt.deny", short: "prompt.denied" },
  { value: "never", name: "prompt.never", short: "prompt.nevered" },
];

/**
 * The choices offered: without the remembering ones when a rule says to ask every time, or when
 * what they would pin was not shown whole.
 */
function choicesFor(request: PromptRequest, secrets: readonly string[]): typeof CHOICES {
  if (request.askedByRule === undefined && shownWhole(request, secrets)) return CHOICES;
  return CHOICES.filter(({ value }) => value === "allow_once" || value === "deny");
}

/** The messages of the prompt's locale; a catalogue other than English is loaded here. */
async function wordsFor(locale: Locale | undefined): Promise<Messages> {
  if (locale === undefined || locale === "en-US") return messages("en-US");
  await loadLocale(locale);
  return messages(locale);
}

/** Errors the prompt library rejects with when the person leaves the prompt. */
const LEFT_PROMPT = new Set(["ExitPromptError", "AbortPromptError", "CancelPromptError"]);

/**
 * Asks a person at a terminal whether a call may run. It draws on `io.output` (stderr by default,
 * so stdout stays the result): the tool and its side effect; for a declared tool the exact argv
 * shell-quoted for reading, the cwd and the input pretty-printed (cut after 40 lines or 4 KiB,
 * with a count of the rest); for spawn the mode, the command text (or task), the target and the
 * cwd. Control characters are shown as escapes, never sent. Env values are not in a preview; any
 * `io.secrets` found anyway are shown as `[redacted]`.
 *
 * When stdin or stderr is not a terminal (the input was piped in) and `io` brings neither streams
 * nor `isTerminal`, the question is asked on the controlling terminal (`/dev/tty`), as sudo asks;
 * without one the answer is `no_answer`.
 *
 * Enter on the first choice allows once. Ctrl-C, Escape, Ctrl-D, the end of input and `io.signal`
 * all answer `deny`. The prompt library is imported only when there is a terminal to ask.
 * Concurrent calls on the same input wait their turn: one question at a time.
 *
 * @param request The tool, its side effect, the kind of call and its preview.
 * @param io The terminal to use; every field is optional.
 * @returns `allow_once`, `always_allow`, `deny` or `never`; `no_answer` when no one can be asked
 *   (`io.isTerminal()` false, or no terminal at all): the caller must deny.
 * @throws {Error} Only for bugs (a failure of the prompt library other than the person leaving it).
 * @example Ask at the real terminal
 * ```ts ignore
 * import { promptApproval } from "./prompt_approval.ts";
 * const preview = { tool: "echo", command: ["cat"], cwd: "/w", input: { text: "hi" } };
 * const answer = await promptApproval({ tool: "echo", sideEffect: "process", kind: "tool", preview });
 * if (answer !== "allow_once" && answer !== "always_allow") console.error("denied");
 * ```
 */
export async function promptApproval(
  request: PromptRequest,
  io: TerminalIo = {},
): Promise<TerminalAnswer> {
  const isTerminal = io.isTerminal ?? defaultIsTerminal;
  if (isTerminal()) {
    if (io.signal?.aborted) return "deny";
    const { input, output, color } = await resolveStreams(io);
    const endTurn = await takeTurn(input);
    try {
      if (io.signal?.aborted) return "deny";
      return await ask(request, io, input, output, color);
    } finally {
      endTurn();
    }
  }
  // Stdin or stderr is no terminal (piped input): the controlling terminal, when there is one.
  if (
    io.isTerminal !== undefined || io.input !== undefined || io.output !== undefined ||
    io.controllingTerminal === false
  ) {
    return "no_answer";
  }
  const need = { input: !isatty(Deno.stdin), output: !isatty(Deno.stderr) };
  if (io.signal?.aborted) return "deny";
  const endTurn = await takeTurn(CONTROLLING);
  try {
    const terminal = await openControllingTerminal(need);
    if (terminal === undefined) return "no_answer";
    try {
      if (io.signal?.aborted) return "deny";
      const streams = await resolveStreams({
        ...io,
        ...(terminal.input === undefined ? {} : { input: terminal.input }),
        ...(terminal.output === undefined ? {} : { output: terminal.output }),
      });
      return await ask(request, io, streams.input, streams.output, streams.color);
    } finally {
      terminal.close();
    }
  } finally {
    endTurn();
  }
}

/** The turn of prompts on the controlling terminal (one question at a time there too). */
const CONTROLLING = {};

function isatty(stream: { isTerminal(): boolean }): boolean {
  try {
    return stream.isTerminal();
  } catch {
    return false;
  }
}

async function ask(
  request: PromptRequest,
  io: TerminalIo,
  input: Readable,
  output: Writable,
  color: boolean,
): Promise<TerminalAnswer> {
  const palette = makePalette(color);
  const words = await wordsFor(io.locale);
  const { t } = words;
  const question = t("prompt.question");
  output.write(renderRequest(request, palette, io.secrets ?? [], words));
  // The one prompt needed, not the whole @inquirer/prompts collection (580 KB more of bundle for
  // Deno to read on every start, since it reads what dynamic imports may load).
  const [{ default: select }, screen] = await Promise.all([
    import("@inquirer/select"),
    keepOpen(output),
  ]);
  const refused = new AbortController();
  const signal = io.signal ? AbortSignal.any([refused.signal, io.signal]) : refused.signal;
  const answer = select<Choice>(
    {
      message: question,
      choices: choicesFor(request, io.secrets ?? []).map(({ value, name, short }) => ({
        value,
        name: value === "always_allow" ? alwaysAllowLabel(request, words) : t(name),
        short: t(short),
      })),
      default: "allow_once",
      theme: selectTheme(palette, words),
    },
    { input, output: screen, signal, clearPromptOnDone: false },
  );
  const stopWatching = watchCancelKeys(input, () => refused.abort());
  try {
    return await answer;
  } catch (error) {
    if (!(error instanceof Error) || !LEFT_PROMPT.has(error.name)) throw error;
    output.write(
      `${palette.red("✖")} ${palette.bold(question)} ${palette.red(t("prompt.denied"))}\n`,
    );
    return "deny";
  } finally {
    stopWatching();
  }
}

interface Key {
  readonly name?: string;
  readonly ctrl?: boolean;
}

/**
 * Calls `onCancel` when Escape or Ctrl-D is pressed, or the input ends. A lone ESC byte arriving on
 * its own is Escape at once (terminals send arrow keys as whole sequences); the keypress decoder's
 * `escape` (after its short wait for more bytes) is the fallback.
 *
 * Call it after the prompt has attached to `input`, so these listeners do not start the flow of data
 * before the prompt reads it.
 *
 * @param input The terminal's input.
 * @param onCancel Called (possibly more than once) when the person refuses.
 * @returns A function that removes the listeners.
 */
function watchCancelKeys(input: Readable, onCancel: () => void): () => void {
  const onData = (chunk: unknown) => {
    if (
      chunk === "\x1b" || (chunk instanceof Uint8Array && chunk.length === 1 && chunk[0] === 27)
    ) {
      onCancel();
    }
  };
  const onKeypress = (_text: unknown, key: Key | undefined) => {
    if (key?.name === "escape" || (key?.ctrl === true && key.name === "d")) onCancel();
  };
  input.on("data", onData);
  input.on("keypress", onKeypress);
  input.on("end", onCancel);
  return () => {
    input.off("data", onData);
    input.off("keypress", onKeypress);
    input.off("end", onCancel);
  };
}
