/**
 * Seeded randomness for the fuzz tests: the same sequence on every machine, so a failure names a
 * seed and a case that replay exactly.
 *
 * @module
 */

/**
 * mulberry32: small, fast, deterministic.
 *
 * @param seed Any integer.
 * @returns A function giving numbers in [0, 1).
 */
export function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Choices drawn from one seeded sequence. */
export class Fuzz {
  /** The underlying sequence, in [0, 1). */
  readonly random: () => number;

  /** @param seed Any integer. */
  constructor(seed: number) {
    this.random = prng(seed);
  }

  /** A whole number in [0, max). */
  int(max: number): number {
    return Math.floor(this.random() * max);
  }

  /** A whole number in [min, max], both included. */
  between(min: number, max: number): number {
    return min + this.int(max - min + 1);
  }

  /** One of the items. */
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)] as T;
  }

  /** True with probability `p`. */
  chance(p: number): boolean {
    return this.random() < p;
  }
}
