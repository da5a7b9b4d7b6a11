/**
 * One question at a time per terminal: concurrent calls (an MCP client asking for several tools at
 * once) would otherwise draw over each other and share keystrokes.
 *
 * @module
 */

const LAST = new WeakMap<object, Promise<void>>();

/**
 * Waits until every earlier prompt on the same input has finished.
 *
 * @param input The terminal's input stream (the queue's key).
 * @returns A promise for a function that ends this prompt's turn; call it exactly once.
 */
export async function takeTurn(input: object): Promise<() => void> {
  const earlier = LAST.get(input) ?? Promise.resolve();
  let release!: () => void;
  const mine = new Promise<void>((resolve) => (release = resolve));
  const chained = earlier.then(() => mine);
  LAST.set(input, chained);
  await earlier;
  return () => {
    release();
    if (LAST.get(input) === chained) LAST.delete(input);
  };
}
