/**
 * The controlling terminal (`/dev/tty`), for a prompt when stdin or stderr is not a terminal but
 * the process still has one — `echo '{…}' | basis-tools call x` — as sudo, git and ssh ask.
 * Without one (CI, a service, a process in a session of its own) nothing can be opened and the
 * caller fails closed. It is never opened when Deno's permissions do not already grant it: asking
 * for the permission would itself be a prompt.
 *
 * @module
 */

import type { Readable, Writable } from "node:stream";
import { CONTROLLING_TERMINAL } from "../../paths.ts";

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
