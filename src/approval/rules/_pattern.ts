/**
 * The pattern matcher's core: patterns and texts as arrays of Unicode code points, and the
 * iterative greedy star-backtracking match (O(n·m) worst case, no regular expressions, no
 * recursion).
 *
 * @module
 */

/** `*` in a compiled pattern (runs of `*` are collapsed: `**` means the same as `*`). */
const STAR = -1;
/** `?` in a compiled pattern. */
const ONE = -2;

/**
 * A string's code points. A lone surrogate counts as one character, as `Array.from` does.
 *
 * @param text Any string.
 * @returns Its code points, in order.
 */
export function codePoints(text: string): Int32Array {
  const out = new Int32Array(text.length);
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const point = text.codePointAt(i) as number;
    out[n++] = point;
    if (point > 0xffff) i++;
  }
  return out.subarray(0, n);
}

/**
 * Compiles a pattern: literal code points, with `*` runs and `?` as negative markers.
 *
 * @param pattern The pattern as written.
 * @returns Its compiled form.
 */
export function compilePattern(pattern: string): Int32Array {
  const points = codePoints(pattern);
  const out = new Int32Array(points.length);
  let n = 0;
  for (const point of points) {
    if (point === 0x2a) {
      if (n === 0 || out[n - 1] !== STAR) out[n++] = STAR;
    } else {
      out[n++] = point === 0x3f ? ONE : point;
    }
  }
  return out.subarray(0, n);
}

/**
 * Matches a compiled pattern against a text's code points, anchored at both ends.
 *
 * Greedy with one backtrack point: on a mismatch, the last `*` seen takes one more character and
 * matching resumes after it. Earlier stars never need to be revisited, so the cost is at most
 * pattern length × text length.
 *
 * @param pattern From {@linkcode compilePattern}.
 * @param text From {@linkcode codePoints}.
 * @returns Whether the whole text matches the whole pattern.
 */
export function matchCompiled(pattern: Int32Array, text: Int32Array): boolean {
  const p = pattern.length;
  const t = text.length;
  let pi = 0;
  let ti = 0;
  let starAt = -1;
  let resumeAt = 0;
  while (ti < t) {
    const token = pi < p ? pattern[pi] as number : undefined;
    if (token === STAR) {
      starAt = pi++;
      resumeAt = ti;
    } else if (token !== undefined && (token === ONE || token === text[ti])) {
      pi++;
      ti++;
    } else if (starAt >= 0) {
      pi = starAt + 1;
      ti = ++resumeAt;
    } else {
      return false;
    }
  }
  while (pi < p && pattern[pi] === STAR) pi++;
  return pi === p;
}
