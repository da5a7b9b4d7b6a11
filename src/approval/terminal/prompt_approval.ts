/**
 * The terminal approver: shows a person exactly what would run and asks allow once, always allow,
 * deny or never. With no terminal it answers `no_answer` at once (fail closed: the caller denies).
 *
 * The terminal is the caller's streams, or the process's stdin and stderr (loaded lazily, so
 * commands that never prompt never load Node's compatibility layer for them), or the controlling
 * terminal (`/dev/tty`) when stdin or stderr is not a terminal but the process still has one —
 * `echo '{…}' | basis-tools call x` — as sudo, git and ssh ask. Without one (CI, a service, a
 * process in a session of its own) nothing can be opened and the caller fails closed. It is never
 * opened when Deno's permissions do not already grant it: asking for the permission would itself
 * be a prompt. One question at a time per terminal: concurrent calls (an MCP client asking for
 * several tools at once) would otherwise draw over each other and share keystrokes.
 *
 * @module
 */

import type { Readable, Writable } from "node:stream";
import { type Choice, makePalette, offeredChoices, renderRequest } from "./_render.ts";
import type { PromptRequest, TerminalAnswer, TerminalIo } from "./types.ts";
import { CONTROLLING_TERMINAL, readEnv } from "../../paths.ts";
import { attempt } from "../../quietly.ts";
import { loadLocale, messages } from "../../locale/messages.ts";

/** Errors the prompt library rejects with when the person leaves the prompt. */
const LEFT_PROMPT = new Set(["ExitPromptError", "AbortPromptError", "CancelPromptError"]);
/**
 * The turn of prompts on each input (the process's stdin's is `STDIN`, the controlling
 * terminal's `CONTROLLING`).
 */
const LAST = new WeakMap<object, Promise<void>>();
const [STDIN, CONTROLLING] = [{}, {}];

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
  // Someone can be asked when stdin is a terminal (to read keys) and stderr is one too (so the
  // question can be seen; answering blind is no answer).
  if (io.isTerminal?.() ?? (isatty(Deno.stdin) && isatty(Deno.stderr))) {
    return await inTurn(io.input ?? STDIN, () => ask(request, io, io.input, io.output));
  }
  // Stdin or stderr is no terminal (piped input): the controlling terminal, when there is one.
  if (
    io.isTerminal !== undefined || io.input !== undefined || io.output !== undefined ||
    io.controllingTerminal === false
  ) {
    return "no_answer";
  }
  if (io.signal?.aborted) return "deny";
  return await inTurn(CONTROLLING, async () => {
    const terminal = await openControllingTerminal(!isatty(Deno.stdin), !isatty(Deno.stderr));
    if (terminal === undefined) return "no_answer";
    try {
      return await ask(request, io, terminal.input, terminal.output);
    } finally {
      terminal.close();
    }
  });
}

const isatty = (stream: { isTerminal(): boolean }) => attempt(() => stream.isTerminal(), false);

/** Runs `asking` once every earlier prompt on the same input has finished. */
async function inTurn<T>(input: object, asking: () => Promise<T>): Promise<T> {
  const turn = (LAST.get(input) ?? Promise.resolve()).then(asking);
  // The next waits for this one however it ends.
  LAST.set(input, turn.then(() => {}, () => {}));
  return await turn;
}

/**
 * Opens the controlling terminal for what the process's own streams cannot do: keys (stdin is no
 * terminal), drawing (stderr is none); `undefined` when there is none or it may not be opened.
 */
async function openControllingTerminal(needInput: boolean, needOutput: boolean) {
  if (Deno.build.os === "windows") return undefined;
  const granted = (name: "read" | "write") =>
    Deno.permissions.querySync({ name, path: CONTROLLING_TERMINAL }).state === "granted";
  if (!attempt(() => granted("read") && granted("write"), false)) return undefined;
  const [fs, tty] = await Promise.all([import("node:fs"), import("node:tty")]);
  const opened: number[] = [];
  // Deno's tty streams leave their descriptor open when destroyed: closed here, once.
  const closeAll = () => opened.splice(0).forEach((fd) => fs.close(fd, () => {}));
  // ENXIO when the process has no controlling terminal.
  const open = (flags: string) =>
    attempt(() => {
      const fd = fs.openSync(CONTROLLING_TERMINAL, flags);
      opened.push(fd);
      return tty.isatty(fd) ? fd : undefined;
    });
  const inputFd = needInput ? open("r") : undefined;
  const outputFd = needOutput ? open("w") : undefined;
  if ((needInput && inputFd === undefined) || (needOutput && outputFd === undefined)) {
    closeAll();
    return undefined;
  }
  const input = inputFd === undefined ? undefined : new tty.ReadStream(inputFd);
  const output = outputFd === undefined ? undefined : new tty.WriteStream(outputFd);
  const close = () => [input?.destroy(), output?.destroy(), closeAll()];
  return { input, output, close };
}

/** Asks on the streams (the process's stdin and stderr by default). */
async function ask(
  request: PromptRequest,
  io: TerminalIo,
  input?: Readable,
  output?: Writable,
): Promise<TerminalAnswer> {
  if (input === undefined || output === undefined) {
    const { default: process } = await import("node:process");
    input ??= process.stdin;
    output ??= process.stderr;
  }
  if (io.signal?.aborted) return "deny";
  const isTty = (output as { isTTY?: unknown }).isTTY === true;
  const palette = makePalette(io.color ?? (isTty && !readEnv("NO_COLOR")));
  if (io.locale !== undefined && io.locale !== "en-US") await loadLocale(io.locale);
  const words = messages(io.locale ?? "en-US");
  const question = words.t("prompt.question");
  output.write(renderRequest(request, palette, io.secrets ?? [], words));
  // The one prompt needed, not the whole @inquirer/prompts collection (580 KB more of bundle for
  // Deno to read on every start, since it reads what dynamic imports may load).
  const [{ default: select }, { Writable }] = await Promise.all([
    import("@inquirer/select"),
    import("node:stream"),
  ]);
  // The library ends the stream it draws on when it is done; the caller's terminal outlives it.
  // `isTTY`, `columns` and `rows` are read through, so line wrapping follows the real terminal.
  const screen = new Writable({
    write: (chunk, _encoding, done) => done(void output.write(chunk)),
  });
  for (const key of ["isTTY", "columns", "rows"]) {
    Object.defineProperty(screen, key, { get: () => (output as never)[key] });
  }
  const refused = new AbortController();
  const refuse = () => refused.abort();
  const signal = io.signal ? AbortSignal.any([refused.signal, io.signal]) : refused.signal;
  // The library names its keys' actions in English; these are the ones it uses.
  const action = (name: string) =>
    name === "navigate" || name === "select" ? words.t(`prompt.key_${name}`) : name;
  const choices = offeredChoices(request, io.secrets ?? [], words);
  const answer = select<Choice["value"]>(
    {
      message: question,
      choices,
      default: "allow_once",
      // Every style the library would colour by itself goes through the palette.
      theme: {
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
      },
    },
    // The menu is cleared however the prompt ends (an answer, Escape, Ctrl-C, a signal): what
    // stays on screen is the request and one line saying what was answered, written below.
    { input, output: screen, signal, clearPromptOnDone: true },
  );
  // Escape, Ctrl-D and the end of input refuse. A lone ESC byte arriving on its own is Escape at
  // once (terminals send arrow keys as whole sequences); the keypress decoder's `escape` (after
  // its short wait for more bytes) is the fallback. Attached after the prompt, so these listeners
  // do not start the flow of data before it reads.
  const onData = (chunk: unknown) =>
    (chunk === "\x1b" || (chunk instanceof Uint8Array && chunk.length === 1 && chunk[0] === 27)) &&
    refuse();
  const onKeypress = (_text: unknown, key: { name?: string; ctrl?: boolean } | undefined) => {
    if (key?.name === "escape" || (key?.ctrl === true && key.name === "d")) refuse();
  };
  input.on("data", onData).on("keypress", onKeypress).on("end", refuse);
  try {
    const value = await answer;
    const short = choices.find((choice) => choice.value === value)?.short ?? value;
    output.write(`${palette.green("✔")} ${palette.bold(question)} ${palette.cyan(short)}\n`);
    return value;
  } catch (error) {
    if (!(error instanceof Error) || !LEFT_PROMPT.has(error.name)) throw error;
    const denied = words.t("prompt.denied");
    output.write(`${palette.red("✖")} ${palette.bold(question)} ${palette.red(denied)}\n`);
    return "deny";
  } finally {
    input.off("data", onData).off("keypress", onKeypress).off("end", refuse);
  }
}
