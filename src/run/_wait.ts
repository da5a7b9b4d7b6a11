/**
 * Waiting with a limit. Private to the runner.
 *
 * @module
 */

/**
 * Waits for `promise` to settle, at most `ms` milliseconds; the timer is always cleared.
 *
 * @param promise What to wait for (its rejection counts as settling).
 * @param ms The most milliseconds to wait.
 * @returns Whether it settled in time.
 */
export async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([promise.then(() => true, () => true), late]);
  } finally {
    clearTimeout(timer);
  }
}
