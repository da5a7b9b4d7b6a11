/**
 * "Did you mean" for unknown keys: the closest known key within a small edit distance.
 *
 * @module
 */

/** Keys longer than this are never compared (an unknown key can be any size). */
const MAX_KEY_LENGTH = 64;

/**
 * The known key closest to `key`, when one is close enough to be a likely typo: at most two edits
 * (and fewer than half the key's length), comparing case-insensitively and treating `-` as `_`.
 *
 * @param key The unknown key, as written.
 * @param known The keys that are allowed here.
 * @returns The suggestion, or `undefined` when nothing is close.
 */
export function suggestKey(key: string, known: readonly string[]): string | undefined {
  if (key.length > MAX_KEY_LENGTH) return undefined;
  const wanted = canonical(key);
  let best: string | undefined;
  let bestDistance = Math.min(2, Math.floor(wanted.length / 2));
  for (const candidate of known) {
    const distance = editDistance(wanted, canonical(candidate));
    if (distance <= bestDistance && (best === undefined || distance < bestDistance)) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

function canonical(key: string): string {
  return key.toLowerCase().replaceAll("-", "_");
}

/** Optimal string alignment distance (Levenshtein plus adjacent transpositions). */
function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[] = new Array(rows * cols).fill(0);
  for (let i = 0; i < rows; i++) d[i * cols] = i;
  for (let j = 0; j < cols; j++) d[j] = j;
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(
        d[(i - 1) * cols + j]! + 1,
        d[i * cols + j - 1]! + 1,
        d[(i - 1) * cols + j - 1]! + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        value = Math.min(value, d[(i - 2) * cols + j - 2]! + 1);
      }
      d[i * cols + j] = value;
    }
  }
  return d[rows * cols - 1]!;
}
