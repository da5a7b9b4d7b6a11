/**
 * Waiting with a limit. Private to the runner.
 *
 * Timers here are built on `AbortSignal.timeout`, not `setTimeout`: Deno's `setTimeout` is Node's
 * (it returns a `Timeout` object), and its first call loads Node's timer modules, about 3 ms of
 * start-up on every call of a tool. A timeout signal keeps the process alive only while it has an
 * `abort` listener, so removing the listener cancels it as far as anyone can tell.
 *
 * @module
 */

/** The longest wait a timer accepts: about 24.8 days (2^31 - 1 ms), as with `setTimeout`. */
export const MAX_WAIT_MS = 2 ** 31 - 1;

/**
 * Calls `callback` once after `ms` milliseconds, unless cancelled first.
 *
 * @param ms Milliseconds to wait, capped at {@linkcode MAX_WAIT_MS} (`NaN` and negative: none).
 * @param callback What to call when the time is up.
 * @returns A function that cancels the timer (idempotent; harmless after it fired).
 */
export function startTimer(ms: number, callback: () => void): () => void {
  const wait = ms >= 0 ? Math.min(Math.floor(ms), MAX_WAIT_MS) : 0;
  const entry: Deadline = { at: performance.now() + wait, callback };
  deadlines.add(entry);
  schedule();
  return () => {
    if (deadlines.delete(entry)) schedule();
  };
}

// A timeout signal cannot be cancelled: it stays in memory until its time comes, listener or not.
// One per call of a tool with the default 120 s limit would pile up in a long-running process
// (the MCP server: about 600 bytes a call for two minutes). So deadlines share a few clocks: a
// clock that rings no later than the earliest deadline is listened to, one is made only when none
// does, and a clock rings at most once (then every deadline due is called and the next is set).

/** A pending timer: when it is due (`performance.now()` time), and what it calls. */
type Deadline = { readonly at: number; readonly callback: () => void };

/** A timeout signal, and the time it was made for. */
type Clock = { readonly at: number; readonly signal: AbortSignal; listening: boolean };

const deadlines = new Set<Deadline>();
let clocks: Clock[] = [];

/** Listens to the one clock that rings next before the earliest deadline; to none when idle. */
function schedule(): void {
  clocks = clocks.filter((clock) => !clock.signal.aborted);
  let earliest = Infinity;
  for (const deadline of deadlines) earliest = Math.min(earliest, deadline.at);
  let chosen: Clock | undefined;
  if (earliest !== Infinity) {
    for (const clock of clocks) {
      if (clock.at <= earliest && (chosen === undefined || clock.at > chosen.at)) chosen = clock;
    }
    if (chosen === undefined) {
      const delay = Math.max(0, Math.ceil(earliest - performance.now()));
      chosen = { at: earliest, signal: AbortSignal.timeout(delay), listening: false };
      clocks.push(chosen);
    }
  }
  for (const clock of clocks) {
    const listen = clock === chosen;
    if (listen && !clock.listening) clock.signal.addEventListener("abort", ring);
    if (!listen && clock.listening) clock.signal.removeEventListener("abort", ring);
    clock.listening = listen;
  }
}

function ring(): void {
  const now = performance.now();
  const due = [...deadlines].filter((deadline) => deadline.at <= now);
  for (const deadline of due) deadlines.delete(deadline);
  schedule();
  for (const deadline of due) deadline.callback();
}

/**
 * Waits for `promise` to settle, at most `ms` milliseconds; the timer is always cancelled.
 *
 * @param promise What to wait for (its rejection counts as settling).
 * @param ms The most milliseconds to wait.
 * @returns Whether it settled in time.
 */
export async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  const late = Promise.withResolvers<false>();
  const cancel = startTimer(ms, () => late.resolve(false));
  try {
    return await Promise.race([promise.then(() => true, () => true), late.promise]);
  } finally {
    cancel();
  }
}
