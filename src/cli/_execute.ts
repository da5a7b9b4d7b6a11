/**
 * Executing a contract execution from the command line: Ctrl-C (SIGTERM, SIGHUP) cancels it, and
 * without `--json` its output is streamed through byte for byte as it arrives.
 *
 * @module
 */

import type { ToolExecution, ToolOutput } from "../contract/types.ts";
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
  const chunks = execution.outputStream().getReader();
  // One controller for both reasons to stop (a signal, or a reader that went away).
  const stop = new AbortController();
  const onInterrupt = () => stop.abort(interrupt.signal.reason);
  interrupt.signal.addEventListener("abort", onInterrupt, { once: true });
  const running = execution.execute({ signal: stop.signal });
  // Awaited below, once the stream ends: an early rejection is not unhandled meanwhile.
  running.catch(() => {});
  let failure: { error: unknown } | undefined;
  try {
    while (true) {
      const { value, done } = await chunks.read();
      if (done) break;
      try {
        (value.kind === "stdout" ? outBytes : errBytes)(value.data);
      } catch (error) {
        failure = { error };
        stop.abort();
        chunks.cancel().catch(() => {});
        break;
      }
    }
  } finally {
    interrupt.signal.removeEventListener("abort", onInterrupt);
  }
  if (failure !== undefined) {
    await running.catch(() => {});
    throw failure.error;
  }
  return await running;
}
