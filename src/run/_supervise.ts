/**
 * One started child from spawn to finish: feeds stdin, drains stdout and stderr concurrently into
 * capped captures, enforces the time limit and cancellation, and stops the process group so that
 * nothing the program started outlives the run. Private to the runner.
 *
 * @module
 */

import { redactorOf } from "../redact.ts";
import { OutputCapture } from "./_capture.ts";
import type { Launched } from "./_launch.ts";
import { stopGroup, stopSandboxed } from "./_stop.ts";
import { settlesWithin, startTimer } from "./_wait.ts";
import type { RunOptions, RunRequest } from "./types.ts";

/** How long to wait for output pipes (or stdin) to close after the child exits. */
const PIPE_GRACE_MS = 200;

/** Default of {@linkcode RunOptions.maxBytes}: 50 KiB. */
export const DEFAULT_MAX_BYTES = 51200;
/** Default of {@linkcode RunOptions.maxLines}. */
export const DEFAULT_MAX_LINES = 2000;
/** Default of {@linkcode RunOptions.maxSpillBytes}: 16 MiB. */
export const DEFAULT_MAX_SPILL_BYTES = 16 * 1024 * 1024;

/**
 * Supervises a spawned child until it and its output are done. The defaults of the options are
 * applied here, in one place.
 *
 * @param launched A child spawned with piped stdio, leading its own process group (bwrap is
 *   stopped through its PID namespace).
 * @param request Its stdin and time limit.
 * @param options Limits, callbacks, secrets.
 * @returns The exit status, and how the run ended and its output as the result's fields.
 * @throws What `onStdout`/`onStderr` threw (a caller bug), after the group was stopped.
 */
export async function supervise(launched: Launched, request: RunRequest, options: RunOptions) {
  const { child, bwrap: sandboxed } = launched;
  const stop = Promise.withResolvers<"timeout" | "cancel" | "callback">();
  let callbackError: { error: unknown } | undefined;
  const onCallbackError = (error: unknown) => {
    callbackError ??= { error };
    stop.resolve("callback");
  };
  const secrets = options.secrets ?? [];
  const stdin = feed(child.stdin, request.stdin);
  // Each stream is redacted before anything sees it: the callback, the kept part, the spill file.
  const stdoutCapture = new OutputCapture({
    maxBytes: options.maxBytes ?? DEFAULT_MAX_BYTES,
    maxLines: options.maxLines ?? DEFAULT_MAX_LINES,
    spillDir: options.spillDir,
    maxSpillBytes: options.maxSpillBytes ?? DEFAULT_MAX_SPILL_BYTES,
  });
  const stderrCapture = new OutputCapture({
    maxBytes: options.maxStderrBytes ?? 65536,
    maxLines: Infinity,
  });
  const stdout = drain(child.stdout, stdoutCapture, secrets, options.onStdout, onCallbackError);
  const stderr = drain(child.stderr, stderrCapture, secrets, options.onStderr, onCallbackError);
  const pipes = Promise.all([stdout.done, stderr.done]);
  const exited = child.status;
  const settled = Promise.all([exited, pipes]);
  const graceMs = options.graceMs ?? 500;

  // Capped at about 24.8 days (MAX_WAIT_MS), like any timer.
  const cancelTimer = startTimer(request.timeoutMs, () => stop.resolve("timeout"));
  const onAbort = () => stop.resolve("cancel");
  options.signal?.addEventListener("abort", onAbort, { once: true });
  if (options.signal?.aborted) onAbort();

  let reason: "timeout" | "cancel" | "callback" | undefined;
  let forced = false;
  try {
    reason = await Promise.race([exited.then(() => undefined), stop.promise]);
  } finally {
    cancelTimer();
    options.signal?.removeEventListener("abort", onAbort);
  }
  if (reason !== undefined) {
    forced = await (sandboxed ? stopSandboxed : stopGroup)(child, graceMs, settled);
  } else if (!sandboxed) {
    // Exited on its own: give whatever still holds the pipes a moment, then stop the rest of the
    // group (usually nothing is left and this is one failed kill). In a sandbox, the program's
    // exit ended its PID namespace and everything in it already.
    await settlesWithin(pipes, PIPE_GRACE_MS);
    await stopGroup(child, graceMs, settled);
  }
  const status = await exited;
  // A holder outside the group (it started its own session) must not keep the run open.
  if (!(await settlesWithin(pipes, PIPE_GRACE_MS))) {
    stdout.cancel();
    stderr.cancel();
  }
  await pipes;
  if (!(await settlesWithin(stdin.done, PIPE_GRACE_MS))) stdin.abandon();
  const out = stdoutCapture.finish();
  const err = stderrCapture.finish();
  const result = {
    status,
    timedOut: reason === "timeout",
    cancelled: reason === "cancel",
    isForcefullyTerminated: forced,
    stdout: out.text,
    stderr: err.text,
    stdoutBytes: stdout.bytes(),
    stderrBytes: stderr.bytes(),
    stdoutTruncated: out.truncated,
    stderrTruncated: err.truncated,
    spillPath: out.spillPath,
    spillTruncated: out.spillTruncated,
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
  // A pending write cannot be interrupted; the abort completes once the holder lets go.
  return { done, abandon: () => writer.abort().catch(() => {}) };
}

/**
 * Reads a stream to its end, passing chunks redacted of `secrets` to the callback and into the
 * capture, and counting the bytes the program wrote.
 */
function drain(
  stream: ReadableStream<Uint8Array>,
  capture: OutputCapture,
  secrets: readonly string[],
  onChunk: ((chunk: Uint8Array) => void) | undefined,
  onCallbackError: (error: unknown) => void,
) {
  const redactor = redactorOf(secrets).stream();
  const reader = stream.getReader();
  let callbackFailed = false;
  let bytes = 0;
  const pass = (chunk: Uint8Array): void => {
    if (chunk.length === 0) return;
    if (onChunk && !callbackFailed) {
      try {
        onChunk(chunk);
      } catch (error) {
        callbackFailed = true;
        onCallbackError(error);
      }
    }
    return capture.push(chunk);
  };
  const done = (async () => {
    try {
      while (true) {
        const { value, done } = await reader.read();
        if (done) break;
        bytes += value.length;
        pass(redactor.push(value));
      }
    } catch {
      // The pipe failed or was cancelled: what was read is what there is.
    } finally {
      reader.releaseLock();
    }
    // What was held back in case it began a secret goes out now.
    pass(redactor.flush());
  })();
  // `bytes`: what the program wrote to the stream.
  return { done, bytes: () => bytes, cancel: () => reader.cancel().catch(() => {}) };
}
