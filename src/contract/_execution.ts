/**
 * The single-use execution every tool hands out: an optional output stream taken first, then one
 * run. Private to the contract.
 *
 * @module
 */

import { ToolError } from "./tool_error.ts";
import type { ExecuteOptions, OutputChunk, ToolExecution, ToolOutput } from "./types.ts";

/** What a run is given: the caller's signal, and where chunks go when someone reads them. */
export interface RunContext {
  /** The caller's cancellation. */
  readonly signal: AbortSignal | undefined;
  /** Receives stdout bytes; `undefined` when no one took the stream. */
  readonly onStdout: ((chunk: Uint8Array) => void) | undefined;
  /** Receives stderr bytes; `undefined` when no one took the stream. */
  readonly onStderr: ((chunk: Uint8Array) => void) | undefined;
}

/** The run of one call: from approval to the final output. */
export type Run<Extra> = (context: RunContext) => Promise<ToolOutput<Extra>>;

/** A single-use execution around a run. */
export class Execution<Extra> implements ToolExecution<Extra> {
  /** The tool's name. */
  readonly tool: string;
  /** The validated arguments. */
  readonly args: unknown;
  readonly #run: Run<Extra>;
  #started = false;
  #stream: ReadableStream<OutputChunk> | undefined;
  #controller: ReadableStreamDefaultController<OutputChunk> | undefined;

  /**
   * Wraps a run.
   *
   * @param tool The tool's name.
   * @param args The validated arguments.
   * @param run The run.
   */
  constructor(tool: string, args: unknown, run: Run<Extra>) {
    this.tool = tool;
    this.args = args;
    this.#run = run;
  }

  /**
   * Takes the output stream; see {@linkcode ToolExecution.outputStream}.
   *
   * @returns The chunks.
   */
  outputStream(): ReadableStream<OutputChunk> {
    const name = JSON.stringify(this.tool);
    if (this.#started) {
      throw ToolError.internal(
        `Cannot open the output stream of tool ${name}: execute() has already started`,
        { tool: this.tool },
      );
    }
    if (this.#stream !== undefined) {
      throw ToolError.internal(
        `Cannot open the output stream of tool ${name} twice: it has one reader`,
        { tool: this.tool },
      );
    }
    this.#stream = new ReadableStream<OutputChunk>({
      start: (controller) => {
        this.#controller = controller;
      },
    });
    return this.#stream;
  }

  /**
   * Runs the call once; see {@linkcode ToolExecution.execute}.
   *
   * @param options The signal that cancels the call.
   * @returns The final output.
   */
  execute(options: ExecuteOptions = {}): Promise<ToolOutput<Extra>> {
    if (this.#started) {
      return Promise.reject(
        ToolError.internal(
          `Cannot execute tool ${JSON.stringify(this.tool)} twice: an execution runs once`,
          { tool: this.tool },
        ),
      );
    }
    this.#started = true;
    return this.#execute(options.signal, options.onOutput);
  }

  async #execute(
    signal: AbortSignal | undefined,
    onOutput: ((chunk: OutputChunk) => void) | undefined,
  ): Promise<ToolOutput<Extra>> {
    const controller = this.#controller;
    const toStream = controller === undefined ? undefined : (chunk: OutputChunk) => {
      try {
        controller.enqueue(chunk);
      } catch {
        // The reader cancelled the stream: the run goes on without it.
      }
    };
    const sinks = [onOutput, toStream].filter((sink) => sink !== undefined);
    const emit = sinks.length === 0
      ? undefined
      : (kind: OutputChunk["kind"]) => (data: Uint8Array) => {
        for (const sink of sinks) sink({ kind, data });
      };
    try {
      return await this.#run({ signal, onStdout: emit?.("stdout"), onStderr: emit?.("stderr") });
    } finally {
      try {
        controller?.close();
      } catch {
        // Already cancelled by the reader.
      }
    }
  }
}
