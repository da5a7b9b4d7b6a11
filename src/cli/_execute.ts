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
 * Runs an execution. A reader of stdout that goes away (`| head -1`) stops only the relay: the
 * tool runs to its end, the rest of its output is dropped (see `output.ts`).
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
  // Each chunk is written as it arrives (a callback: no stream object on the path).
  const onOutput = (chunk: OutputChunk) =>
    (chunk.kind === "stdout" ? outBytes : errBytes)(chunk.data);
  return await execution.execute({ signal: interrupt.signal, ...(stream ? { onOutput } : {}) });
}
