/**
 * The one way tests wait for something they cannot await (a file a fixture writes, a process
 * group emptying, a text on a terminal): read it again every few milliseconds, up to a deadline.
 * Never hangs: past the deadline {@linkcode until} fails saying what it waited for, and
 * {@linkcode settle} hands back what it read last for the test to assert on.
 *
 * @module
 */

/** How long to wait, and how often to look: options of {@linkcode until} and {@linkcode settle}. */
export interface PollOptions {
  /** The most to wait, in milliseconds. */
  timeoutMs: number;
  /** The pause between two looks, in milliseconds. @default 20 */
  intervalMs?: number;
}

/** Options of {@linkcode until}. */
export interface UntilOptions extends PollOptions {
  /** What is waited for, for the error: a text, or a function (to show what was seen last). */
  what: string | (() => string);
}

/**
 * Reads a value until it settles or the time is up, and returns the last value read either way
 * (the test's assertion says what was wrong with it).
 *
 * @example Waiting for a process group to empty
 * ```ts ignore
 * const left = await settle(() => processesInGroup(pgid), (pids) => pids.length === 0, {
 *   timeoutMs: 2000,
 * });
 * assert.deepEqual(left, []);
 * ```
 *
 * @param read Reads the value.
 * @param settled Whether a value is the one waited for.
 * @param options The deadline and the interval.
 * @returns The first settled value, else the last one read.
 */
export async function settle<T>(
  read: () => T | Promise<T>,
  settled: (value: T) => boolean,
  options: PollOptions,
): Promise<T> {
  const deadline = performance.now() + options.timeoutMs;
  let value = await read();
  while (!settled(value) && performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 20));
    value = await read();
  }
  return value;
}

/**
 * Waits until a probe gives a value (anything but `undefined`), and returns it.
 *
 * @example Waiting for a fixture to write its pid
 * ```ts ignore
 * const pid = await until(async () => {
 *   const text = await Deno.readTextFile(path).catch(() => "");
 *   return /^\d+$/.test(text) ? Number(text) : undefined;
 * }, { timeoutMs: 10_000, what: `a pid in ${path}` });
 * ```
 *
 * @param probe Looks once: the value, or `undefined` for "not yet".
 * @param options The deadline, the interval and what is waited for.
 * @returns The probe's first value.
 * @throws {Error} "Timed out after … ms waiting for …" when the deadline passes first.
 */
export async function until<T>(
  probe: () => T | undefined | Promise<T | undefined>,
  options: UntilOptions,
): Promise<T> {
  const value = await settle(probe, (found) => found !== undefined, options);
  if (value !== undefined) return value;
  const what = typeof options.what === "string" ? options.what : options.what();
  throw new Error(`Timed out after ${options.timeoutMs} ms waiting for ${what}`);
}
