/**
 * Watching the terminal for the keys that refuse: Escape, and Ctrl-D or the end of input. The prompt
 * library handles Ctrl-C itself (it rejects with `ExitPromptError`); these abort it through its
 * signal instead (`AbortPromptError`).
 *
 * @module
 */

import type { Readable } from "node:stream";

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
export function watchCancelKeys(input: Readable, onCancel: () => void): () => void {
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
