/**
 * The relay every floor shares: a reader loop over a child's stdout, each chunk written whole.
 *
 * @module
 */

/**
 * Writes all of `bytes` (a write may take part of them).
 *
 * @param {{ write(p: Uint8Array): Promise<number> }} sink Where to.
 * @param {Uint8Array} bytes What.
 */
export async function writeAll(sink, bytes) {
  let offset = 0;
  while (offset < bytes.length) offset += await sink.write(bytes.subarray(offset));
}

/**
 * Reads a stream to its end, handing each chunk to `onChunk`.
 *
 * @param {ReadableStream<Uint8Array>} stream The child's stdout.
 * @param {(chunk: Uint8Array) => Promise<void>} onChunk What to do with a chunk.
 */
export async function relay(stream, onChunk) {
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    await onChunk(value);
  }
}
