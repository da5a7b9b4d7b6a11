/**
 * Byte helpers shared by the seams that read files and pipes.
 *
 * @module
 */

/**
 * Joins byte chunks into one array (the chunk itself when there is only one).
 *
 * @param chunks The chunks, in order.
 * @returns Their concatenation.
 */
export function concatBytes(chunks: readonly Uint8Array[]): Uint8Array {
  if (chunks.length === 1 && chunks[0]) return chunks[0];
  let length = 0;
  for (const chunk of chunks) length += chunk.length;
  const out = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}
