/**
 * The terminal the prompt reads and writes: the caller's streams, or the process's stdin and
 * stderr (loaded lazily, so commands that never prompt never load Node's compatibility layer for
 * them), or the controlling terminal (`/dev/tty`) when stdin or stderr is not a terminal but the
 * process still has one — `echo '{…}' | basis-tools call x` — as sudo, git and ssh ask. Without
 * one (CI, a service, a process in a session of its own) nothing can be opened and the caller fails
 * closed. It is never opened when Deno's permissions do not already grant it: asking for the
 * permission would itself be a prompt. One question at a time per terminal: concurrent calls (an
 * MCP client asking for several tools at once) would otherwise draw over each other and share
 * keystrokes.
 *
 * @module
 */

import type { Readable, Writable } from "node:stream";
import { CONTROLLING_TERMINAL, readEnv } from "../../paths.ts";
import type { TerminalIo } from "./types.ts";

/** The resolved streams and colour choice. */
export interface PromptStreams {
  readonly input: Readable;
  readonly output: Writable;
  readonly color: boolean;
}

/**
 * Whether someone can be asked: stdin is a terminal (to read keys) and stderr is one too (so the
 * question can be seen; answering blind is no answer).
 *
 * @returns True when both are terminals.
 */
export function defaultIsTerminal(): boolean {
  try {
    return Deno.stdin.isTerminal() && Deno.stderr.isTerminal();
  } catch {
    return false;
  }
}

/**
 * Resolves the caller's streams, defaulting to the process's stdin and stderr.
 *
 * @param io The caller's terminal.
 * @returns The streams and whether to colour.
 */
export async function resolveStreams(io: TerminalIo): Promise<PromptStreams> {
  let input = io.input;
  let output = io.output;
  if (input === undefined || output === undefined) {
    const { default: process } = await import("node:process");
    input ??= process.stdin;
    output ??= process.stderr;
  }
  const isTty = (output as { isTTY?: unknown }).isTTY === true;
  const color = io.color ?? (isTty && !readEnv("NO_COLOR"));
  return { input, output, color };
}

/**
 * A writable that forwards to `target` but never ends it: the prompt library ends the stream it
 * draws on when it is done, and the caller's terminal must outlive the prompt. `isTTY`, `columns`
 * and `rows` are read through, so line wrapping follows the real terminal.
 *
 * @param target The caller's output.
 * @returns The forwarding stream.
 */
export async function keepOpen(target: Writable): Promise<Writable> {
  const { Writable } = await import("node:stream");
  const proxy = new Writable({
    write(chunk, _encoding, callback) {
      target.write(chunk);
      callback();
    },
  });
  for (const key of ["isTTY", "columns", "rows"] as const) {
    Object.defineProperty(proxy, key, {
      get: () => (target as unknown as Record<string, unknown>)[key],
    });
  }
  return proxy;
}

/** The controlling terminal's streams, for as long as one prompt needs them. */
export interface ControllingTerminal {
  /** Keys come from here (raw mode is switched on by the prompt library, and off after). */
  readonly input: Readable | undefined;
  /** The prompt is drawn here. */
  readonly output: Writable | undefined;
  /** Closes what was opened. */
  close(): void;
}

/** Whether Deno's permissions already let `/dev/tty` be read and written (never prompts). */
function granted(): boolean {
  try {
    const read = Deno.permissions.querySync({ name: "read", path: CONTROLLING_TERMINAL });
    const write = Deno.permissions.querySync({ name: "write", path: CONTROLLING_TERMINAL });
    return read.state === "granted" && write.state === "granted";
  } catch {
    return false;
  }
}

/**
 * Opens the controlling terminal for what the process's own streams cannot do.
 *
 * @param need Which of the two is needed: keys (stdin is no terminal), drawing (stderr is none).
 * @returns The streams, or `undefined` when there is no controlling terminal (or it may not be
 *   opened): the caller fails closed.
 */
export async function openControllingTerminal(
  need: { readonly input: boolean; readonly output: boolean },
): Promise<ControllingTerminal | undefined> {
  if (Deno.build.os === "windows" || !granted()) return undefined;
  const [fs, tty] = await Promise.all([import("node:fs"), import("node:tty")]);
  const opened: number[] = [];
  const open = (flags: string): number | undefined => {
    try {
      const fd = fs.openSync(CONTROLLING_TERMINAL, flags);
      opened.push(fd);
      return tty.isatty(fd) ? fd : undefined;
    } catch {
      // ENXIO: the process has no controlling terminal.
      return undefined;
    }
  };
  const closeAll = () => {
    for (const fd of opened) {
      try {
        fs.closeSync(fd);
      } catch {
        // Already closed.
      }
    }
  };
  const inputFd = need.input ? open("r") : undefined;
  const outputFd = need.output ? open("w") : undefined;
  if ((need.input && inputFd === undefined) || (need.output && outputFd === undefined)) {
    closeAll();
    return undefined;
  }
  const input = inputFd === undefined ? undefined : new tty.ReadStream(inputFd);
  const output = outputFd === undefined ? undefined : new tty.WriteStream(outputFd);
  return {
    input,
    output,
    close() {
      input?.destroy();
      output?.destroy();
      // Deno's tty streams leave their descriptor open when destroyed: closed here, once.
      closeAll();
    },
  };
}

const LAST = new WeakMap<object, Promise<void>>();

/**
 * Waits until every earlier prompt on the same input has finished.
 *
 * @param input The terminal's input stream (the queue's key).
 * @returns A promise for a function that ends this prompt's turn; call it exactly once.
 */
export async function takeTurn(input: object): Promise<() => void> {
  const earlier = LAST.get(input) ?? Promise.resolve();
  let release!: () => void;
  const mine = new Promise<void>((resolve) => (release = resolve));
  const chained = earlier.then(() => mine);
  LAST.set(input, chained);
  await earlier;
  return () => {
    release();
    if (LAST.get(input) === chained) LAST.delete(input);
  };
}
