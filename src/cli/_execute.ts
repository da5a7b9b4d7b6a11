/**
 * Executing a contract execution from the command line: Ctrl-C (SIGTERM, SIGHUP) cancels it, and
 * without `--json` its output is streamed through byte for byte as it arrives.
 *
 * @module
 */

import type { OutputChunk, ToolExecution, ToolOutput } from "../contract/types.ts";
import { abortOnInterrupt } from "../run/interrupt.ts";
import { errBytes, outBytes } from "./output.ts";

/**
 * Runs an execution. When streaming and stdout closes (`| head -1`), the call is cancelled (its
 * process group stopped) and the write's error (`OutputClosed`) is thrown once it has ended.
 *
 * @param execution The validated call.
 * @param stream Whether to stream the program's output to this process's stdout and stderr.
 * @returns The final output.
 * @throws {ToolError} What `execute()` throws.
 */
export async function executeOnTerminal<Extra>(
  execution: ToolExecution<Extra>,
  stream: boolean,
): Promise<ToolOutput<Extra>> {
  using interrupt = abortOnInterrupt();
  if (!stream) return await execution.execute({ signal: interrupt.signal });
  // One controller for both reasons to stop (a signal, or a reader that went away).
  const stop = new AbortController();
  const onInterrupt = () => stop.abort(interrupt.signal.reason);
  interrupt.signal.addEventListener("abort", onInterrupt, { once: true });
  let failure: { error: unknown } | undefined;
  // Each chunk is written as it arrives (a callback: no stream object on the path).
  const onOutput = (chunk: OutputChunk) => {
    if (failure !== undefined) return;
    try {
      (chunk.kind === "stdout" ? outBytes : errBytes)(chunk.data);
    } catch (error) {
      failure = { error };
      stop.abort();
    }
  };
  try {
    const output = await execution.execute({ signal: stop.signal, onOutput }).catch((error) => {
      // Cancelled because the output went away: that is the error to report.
      if (failure === undefined) throw error;
      return undefined;
    });
    if (failure !== undefined || output === undefined) throw failure!.error;
    return output;
  } finally {
    interrupt.signal.removeEventListener("abort", onInterrupt);
  }
}
