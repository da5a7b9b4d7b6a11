/**
 * Progress notifications for one call: the count of output lines so far, sent while the program
 * runs, at most one every `intervalMs`. The output itself is never quoted (it may hold what the
 * tool's env values are). Private to the MCP binding.
 *
 * @module
 */

import type { OutputChunk } from "../contract/types.ts";

/** Sends one `notifications/progress` for the call: the number of output lines so far. */
export type SendProgress = (lines: number) => Promise<void>;

/** A running reporter. */
export interface ProgressReporter {
  /** Stops sending (nothing is sent once it returns) and stops reading. */
  stop(): void;
}

const NEWLINE = 0x0a;

/**
 * Reads an execution's output stream and reports the number of lines written so far (stdout and
 * stderr together): the first line at once, later ones at most once every `intervalMs`, the
 * latest count always sent in the end while the call still runs.
 *
 * @param stream The execution's output stream (taken before `execute()`).
 * @param send Sends one notification; its failures are ignored.
 * @param intervalMs The least time between two notifications.
 * @returns The reporter; call `stop()` before the call's result is sent.
 */
export function reportProgress(
  stream: ReadableStream<OutputChunk>,
  send: SendProgress,
  intervalMs: number,
): ProgressReporter {
  let lines = 0;
  let sentLines = 0;
  let lastSent = -Infinity;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;

  const flush = () => {
    timer = undefined;
    if (stopped || lines === sentLines) return;
    sentLines = lines;
    lastSent = performance.now();
    send(lines).catch(() => {});
  };
  const counted = () => {
    if (timer !== undefined) return;
    const wait = lastSent + intervalMs - performance.now();
    if (wait <= 0) flush();
    else timer = setTimeout(flush, wait);
  };

  const reader = stream.getReader();
  (async () => {
    try {
      while (true) {
        const { value, done } = await reader.read();
        if (done || stopped) break;
        const before = lines;
        for (
          let at = value.data.indexOf(NEWLINE);
          at !== -1;
          at = value.data.indexOf(NEWLINE, at + 1)
        ) {
          lines++;
        }
        if (lines !== before) counted();
      }
    } catch {
      // The stream was cancelled: the call is over.
    }
  })();

  return {
    stop() {
      stopped = true;
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      reader.cancel().catch(() => {});
    },
  };
}
