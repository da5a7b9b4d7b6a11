/**
 * The streams the prompt uses: the caller's, or the process's stdin and stderr (loaded lazily, so
 * commands that never prompt never load Node's compatibility layer for them).
 *
 * @module
 */

import type { Readable, Writable } from "node:stream";
import { readEnv } from "../../paths.ts";
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
