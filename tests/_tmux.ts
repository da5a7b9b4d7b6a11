/**
 * Driving a program in a real pseudo-terminal with tmux: start it in a detached session on a
 * private socket, wait for a text on the screen, press keys, wait for it to exit, read the screen.
 *
 * @module
 */

import { tempDir } from "./_scratch.ts";
import { until } from "./_poll.ts";

/** Whether tmux is installed. */
export function hasTmux(): boolean {
  try {
    return new Deno.Command("tmux", { args: ["-V"], stdout: "null", stderr: "null" }).outputSync()
      .success;
  } catch {
    return false;
  }
}

/** Runs tmux on a private server socket. */
async function tmux(socket: string, args: string[], signal?: AbortSignal): Promise<string> {
  const result = await new Deno.Command("tmux", {
    args: ["-S", socket, "-f", "/dev/null", ...args],
    stdout: "piped",
    stderr: "piped",
    ...(signal ? { signal } : {}),
  }).output();
  if (!result.success) {
    throw new Error(`tmux ${args[0]} failed: ${new TextDecoder().decode(result.stderr)}`);
  }
  return new TextDecoder().decode(result.stdout);
}

/** Options of {@linkcode inPseudoTerminal}. */
export interface TerminalRun {
  /** Keys for `tmux send-keys` once `waitFor` is on screen (`["Down", "Enter"]`). */
  keys: string[];
  /** The text to wait for before pressing keys. @default "Allow once" */
  waitFor?: string;
  /** Extra environment for the program. */
  env?: Record<string, string>;
  /** Text piped to the program's stdin (then stdin is no terminal). @default the terminal */
  stdin?: string;
  /** A file the program's stderr goes to (then stderr is no terminal). @default the terminal */
  stderr?: string;
  /** The terminal's width in columns. @default 120 */
  width?: number;
  /** What happens once `waitFor` is on screen, before the keys are pressed. */
  meanwhile?: () => Promise<void>;
  /**
   * Keys pressed before `keys`, a group at a time, each followed by a wait for its text on the
   * screen (what a shell does with a key may drop the keys typed meanwhile).
   */
  steps?: { keys: string[]; waitFor: string }[];
}

/**
 * Runs a program in a pseudo-terminal (120×30 unless `run.width` says otherwise) and returns the
 * whole screen (history included) with the program's exit code once it has exited.
 *
 * @param argv The program and its arguments.
 * @param run Keys to press, what to wait for, extra environment.
 * @returns The screen text and the exit code.
 */
export async function inPseudoTerminal(
  argv: string[],
  run: TerminalRun,
): Promise<{ screen: string; code: number }> {
  await using dir = await tempDir({ prefix: "basis-tmux-" });
  const socket = `${dir.path}/socket`;
  const quote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;
  const env = Object.entries(run.env ?? {}).map(([key, value]) => `${key}=${quote(value)}`);
  const pipe = run.stdin === undefined ? "" : `printf '%s' ${quote(run.stdin)} | `;
  const redirect = run.stderr === undefined ? "" : ` 2> ${quote(run.stderr)}`;
  const command = `${pipe}env ${env.join(" ")} ${
    argv.map(quote).join(" ")
  }${redirect}; echo "EXIT=$?" > ${quote(`${dir.path}/code`)}; tmux -S ${
    quote(socket)
  } wait-for -S exited`;
  const waitFor = run.waitFor ?? "Allow once";
  try {
    await tmux(socket, [
      "new-session",
      "-d",
      "-s",
      "t",
      "-x",
      String(run.width ?? 120),
      "-y",
      "30",
      command,
      ";",
      "set-option",
      "-t",
      "t",
      "remain-on-exit",
      "on",
    ]);
    let screen = "";
    const onScreen = (text: string) =>
      until(async () => {
        screen = await tmux(socket, ["capture-pane", "-p", "-t", "t"]);
        return screen.includes(text) ? screen : undefined;
      }, { timeoutMs: 30_000, intervalMs: 50, what: () => `"${text}" on the screen:\n${screen}` });
    await onScreen(waitFor);
    await run.meanwhile?.();
    for (const step of run.steps ?? []) {
      await tmux(socket, ["send-keys", "-t", "t", "--", ...step.keys]);
      await onScreen(step.waitFor);
    }
    if (run.keys.length > 0) await tmux(socket, ["send-keys", "-t", "t", ...run.keys]);
    await tmux(socket, ["wait-for", "exited"], AbortSignal.timeout(30_000));
    // From the start of history: tmux may resize a fresh pane and push the top line off screen.
    const final = await tmux(socket, ["capture-pane", "-p", "-S", "-", "-t", "t"]);
    const code = Number(/EXIT=(\d+)/.exec(await Deno.readTextFile(`${dir.path}/code`))?.[1] ?? -1);
    return { screen: final, code };
  } finally {
    await tmux(socket, ["kill-server"]).catch(() => {});
  }
}
