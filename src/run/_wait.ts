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
  const signal = AbortSignal.timeout(ms >= 0 ? Math.min(Math.floor(ms), MAX_WAIT_MS) : 0);
  const listener = () => callback();
  signal.addEventListener("abort", listener, { once: true });
  return () => signal.removeEventListener("abort", listener);
}

/**
 * Waits for `promise` to settle, at most `ms` milliseconds; the timer is always cancelled.
 *
 * @param promise What to wait for (its rejection counts as settling).
 * @param ms The most milliseconds to wait.
 * @returns Whether it settled in time.
 */
export async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let cancel: (() => void) | undefined;
  const late = new Promise<false>((resolve) => {
    cancel = startTimer(ms, () => resolve(false));
  });
  try {
    return await Promise.race([promise.then(() => true, () => true), late]);
  } finally {
    cancel?.();
  }
}
