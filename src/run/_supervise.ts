/**
 * One started child from spawn to finish: feeds stdin, drains stdout and stderr concurrently into
 * capped captures, enforces the time limit and cancellation, and stops the process group so that
 * nothing the program started outlives the run. Private to the runner.
 *
 * @module
 */

import { redactorOf, type StreamRedactor } from "../redact.ts";
import { type CaptureResult, OutputCapture } from "./_capture.ts";
import { stopSandboxed } from "./_sandbox_stop.ts";
import { stopGroup } from "./_terminate.ts";
import { settlesWithin, startTimer } from "./_wait.ts";

/** How long to wait for output pipes (or stdin) to close after the child exits. */
const PIPE_GRACE_MS = 200;

/** The resolved settings of one supervision. */
export interface SuperviseSettings {
  input: Uint8Array;
  timeoutMs: number;
  graceMs: number;
  signal: AbortSignal | undefined;
  onStdout: ((chunk: Uint8Array) => void) | undefined;
  onStderr: ((chunk: Uint8Array) => void) | undefined;
  maxBytes: number;
  maxLines: number;
  maxStderrBytes: number;
  spillDir: string | undefined;
  maxSpillBytes: number;
  secrets: readonly string[];
  /** The child is bwrap: stop it through its PID namespace (`stopSandboxed`). */
  sandboxed: boolean;
}

/** What happened to the child. */
export interface Supervised {
  status: Deno.CommandStatus;
  timedOut: boolean;
  cancelled: boolean;
  forced: boolean;
  stdout: CaptureResult;
  stderr: CaptureResult;
}

type StopReason = "timeout" | "cancel" | "callback";

/**
 * Supervises a spawned child until it and its output are done.
 *
 * @param child A child spawned with piped stdio and `detached: true`.
 * @param settings Input, limits and callbacks.
 * @returns The exit status, how the run ended and the captured output.
 * @throws What `onStdout`/`onStderr` threw (a caller bug), after the group was stopped.
 */
export async function supervise(
  child: Deno.ChildProcess,
  settings: SuperviseSettings,
): Promise<Supervised> {
  const stop = Promise.withResolvers<StopReason>();
  let callbackError: { error: unknown } | undefined;
  const onCallbackError = (error: unknown) => {
    callbackError ??= { error };
    stop.resolve("callback");
  };

  const stdin = feed(child.stdin, settings.input);
  const stdoutCapture = new OutputCapture({
    maxBytes: settings.maxBytes,
    maxLines: settings.maxLines,
    spillDir: settings.spillDir,
    maxSpillBytes: settings.maxSpillBytes,
  });
  const stderrCapture = new OutputCapture({
    maxBytes: settings.maxStderrBytes,
    maxLines: Infinity,
    spillDir: undefined,
    maxSpillBytes: 0,
  });
  // Each stream is redacted before anything sees it: the callback, the kept part, the spill file.
  const stdout = drain(child.stdout, {
    capture: stdoutCapture,
    redactor: redactorOf(settings.secrets).stream(),
    onChunk: settings.onStdout,
    onCallbackError,
  });
  const stderr = drain(child.stderr, {
    capture: stderrCapture,
    redactor: redactorOf(settings.secrets).stream(),
    onChunk: settings.onStderr,
    onCallbackError,
  });
  const pipes = Promise.all([stdout.done, stderr.done]);
  const exited = child.status;
  const settled = Promise.all([exited, pipes]);

  // Capped at about 24.8 days (MAX_WAIT_MS), like any timer.
  const cancelTimer = startTimer(settings.timeoutMs, () => stop.resolve("timeout"));
  const onAbort = () => stop.resolve("cancel");
  settings.signal?.addEventListener("abort", onAbort, { once: true });
  if (settings.signal?.aborted) onAbort();

  const stopAll = settings.sandboxed ? stopSandboxed : stopGroup;
  let reason: StopReason | undefined;
  let forced = false;
  try {
    reason = await Promise.race([exited.then(() => undefined), stop.promise]);
  } finally {
    cancelTimer();
    settings.signal?.removeEventListener("abort", onAbort);
  }
  if (reason !== undefined) {
    forced = await stopAll(child, settings.graceMs, settled);
  } else {
    // Exited on its own: give whatever still holds the pipes a moment, then stop the rest of the
    // group (usually nothing is left and this is one failed kill).
    // In a sandbox, the program's exit ended its PID namespace and everything in it already.
    if (!settings.sandboxed) {
      await settlesWithin(pipes, PIPE_GRACE_MS);
      await stopGroup(child, settings.graceMs, settled);
    }
  }
  const status = await exited;
  // A holder outside the group (it started its own session) must not keep the run open.
  if (!(await settlesWithin(pipes, PIPE_GRACE_MS))) {
    stdout.cancel();
    stderr.cancel();
  }
  await pipes;
  if (!(await settlesWithin(stdin.done, PIPE_GRACE_MS))) stdin.abandon();

  const result: Supervised = {
    status,
    timedOut: reason === "timeout",
    cancelled: reason === "cancel",
    forced,
    stdout: { ...stdoutCapture.finish(), totalBytes: stdout.bytes() },
    stderr: { ...stderrCapture.finish(), totalBytes: stderr.bytes() },
  };
  if (callbackError) throw callbackError.error;
  return result;
}

/** Writes the input and closes stdin; a child that never reads it is fine (no EPIPE crash). */
function feed(stream: WritableStream<Uint8Array>, input: Uint8Array) {
  const writer = stream.getWriter();
  const done = (async () => {
    try {
      if (input.length > 0) await writer.write(input);
      await writer.close();
    } catch {
      // BrokenPipe: the child exited or closed stdin without reading it all. Its stdin, its choice.
    }
  })();
  return {
    done,
    abandon(): void {
      // A pending write cannot be interrupted; the abort completes once the holder lets go.
      writer.abort().catch(() => {});
    },
  };
}

/** Where one drained stream goes. */
interface Sink {
  capture: OutputCapture;
  redactor: StreamRedactor;
  onChunk: ((chunk: Uint8Array) => void) | undefined;
  onCallbackError: (error: unknown) => void;
}

/**
 * Reads a stream to its end, passing redacted chunks to the callback and into the capture, and
 * counting the bytes the program wrote.
 */
function drain(stream: ReadableStream<Uint8Array>, sink: Sink) {
  const reader = stream.getReader();
  let callbackFailed = false;
  let bytes = 0;
  // A promise only while the spill file is written (back-pressure); none for kept or counted chunks.
  const pass = (chunk: Uint8Array): Promise<void> | undefined => {
    if (chunk.length === 0) return undefined;
    if (sink.onChunk && !callbackFailed) {
      try {
        sink.onChunk(chunk);
      } catch (error) {
        callbackFailed = true;
        sink.onCallbackError(error);
      }
    }
    return sink.capture.push(chunk);
  };
  const done = (async () => {
    try {
      while (true) {
        const { value, done } = await reader.read();
        if (done) break;
        bytes += value.length;
        const spilling = pass(sink.redactor.push(value));
        if (spilling) await spilling;
      }
    } catch {
      // The pipe failed or was cancelled: what was read is what there is.
    } finally {
      reader.releaseLock();
    }
    // What was held back in case it began a secret goes out now.
    await pass(sink.redactor.flush());
  })();
  return {
    done,
    /** The bytes the program wrote to the stream. */
    bytes: () => bytes,
    cancel(): void {
      reader.cancel().catch(() => {});
    },
  };
}
