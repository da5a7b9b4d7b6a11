/**
 * The terminal approver: shows a person exactly what would run and asks allow once, always allow,
 * deny or never. With no terminal it answers `no_answer` at once (fail closed: the caller denies).
 *
 * @module
 */

import type { Readable, Writable } from "node:stream";
import { watchCancelKeys } from "./_cancel_keys.ts";
import { renderRequest } from "./_render.ts";
import { defaultIsTerminal, keepOpen, resolveStreams } from "./_streams.ts";
import { makePalette, selectTheme } from "./_style.ts";
import { takeTurn } from "./_turns.ts";
import type { PromptRequest, TerminalAnswer, TerminalIo } from "./types.ts";

/** The question under the preview. */
export const QUESTION = "Allow this call?";

type Choice = Exclude<TerminalAnswer, "no_answer">;

const CHOICES: readonly { value: Choice; name: string; short: string }[] = [
  { value: "allow_once", name: "Allow once", short: "Allowed once" },
  {
    value: "always_allow",
    name: "Always allow (remember this exact command)",
    short: "Always allowed (remembered)",
  },
  { value: "deny", name: "Deny", short: "Denied" },
  { value: "never", name: "Never (remember the refusal)", short: "Never (remembered)" },
];

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
 * Enter on the first choice allows once. Ctrl-C, Escape, Ctrl-D, the end of input and `io.signal`
 * all answer `deny`. The prompt library is imported only when there is a terminal to ask.
 * Concurrent calls on the same input wait their turn: one question at a time.
 *
 * @param request The tool, its side effect, the kind of call and its preview.
 * @param io The terminal to use; every field is optional.
 * @returns `allow_once`, `always_allow`, `deny` or `never`; `no_answer` when `io.isTerminal()` is
 *   false (the caller must deny).
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
  if (!isTerminal()) return "no_answer";
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

async function ask(
  request: PromptRequest,
  io: TerminalIo,
  input: Readable,
  output: Writable,
  color: boolean,
): Promise<TerminalAnswer> {
  const palette = makePalette(color);
  output.write(renderRequest(request, palette, io.secrets ?? []));
  // The one prompt needed, not the whole @inquirer/prompts collection (580 KB more of bundle for
  // Deno to read on every start, since it reads what dynamic imports may load).
  const [{ default: select }, screen] = await Promise.all([
    import("@inquirer/select"),
    keepOpen(output),
  ]);
  const refused = new AbortController();
  const signal = io.signal ? AbortSignal.any([refused.signal, io.signal]) : refused.signal;
  const answer = select<Choice>(
    { message: QUESTION, choices: CHOICES, default: "allow_once", theme: selectTheme(palette) },
    { input, output: screen, signal, clearPromptOnDone: false },
  );
  const stopWatching = watchCancelKeys(input, () => refused.abort());
  try {
    return await answer;
  } catch (error) {
    if (!(error instanceof Error) || !LEFT_PROMPT.has(error.name)) throw error;
    output.write(`${palette.red("✖")} ${palette.bold(QUESTION)} ${palette.red("Denied")}\n`);
    return "deny";
  } finally {
    stopWatching();
  }
}
