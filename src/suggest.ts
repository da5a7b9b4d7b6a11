/**
 * "Did you mean": the known words closest to an unknown one (manifest keys, tool names), within a
 * small edit distance.
 *
 * @module
 */

import { type Phrase, phrase } from "./locale/messages.ts";

/** Keys longer than this are never compared (an unknown key can be any size). */
const MAX_KEY_LENGTH = 64;

/**
 * The problem of a key that is not one of `known` (in a manifest, in `spawn.json`): the known key
 * closest to it suggested when one is close enough to be a likely typo (the rule of
 * {@linkcode nearWords}), or all of them listed.
 *
 * @param key The key as written.
 * @param known The keys allowed there.
 * @returns The reason.
 * @example A misspelt key
 * ```ts
 * import { english } from "./locale/messages.ts";
 * import { unknownKey } from "./suggest.ts";
 * const reason = unknownKey("timout_ms", ["timeout_ms", "cwd"]);
 * console.assert(english(reason) === 'unknown key, did you mean "timeout_ms"?');
 * ```
 */
export function unknownKey(key: string, known: readonly string[]): Phrase {
  const suggestion = nearWords(key, known, 1)[0];
  return suggestion === undefined
    ? phrase("manifest.unknown_key", { keys: known.join(", ") })
    : phrase("manifest.unknown_key_near", { key: JSON.stringify(suggestion) });
}

/**
 * The known words close enough to `word` to be a likely typo (at most two edits, and fewer than
 * half its length, comparing case-insensitively and treating `-` as `_`), closest first, ties in
 * the order given; then, when asked, the words it begins or abbreviates.
 *
 * @param word The unknown word, as written.
 * @param known The words that exist.
 * @param limit At most this many.
 * @param options Whether to suggest words `word` begins or abbreviates, too.
 * @returns The suggestions; empty when nothing is close.
 * @example A misspelt tool name, and an abbreviated one
 * ```ts
 * import { nearWords } from "./suggest.ts";
 * console.assert(nearWords("ecoh", ["echo", "wc"], 3)[0] === "echo");
 * console.assert(nearWords("wc", ["word_count"], 3, { abbreviation: true })[0] === "word_count");
 * ```
 */
export function nearWords(
  word: string,
  known: readonly string[],
  limit: number,
  options: {
    /** Also suggest the words that begin with `word` (two characters or more): `ch` → `check`. */
    prefix?: boolean;
    /**
     * Also suggest the words `word` abbreviates (two characters or more): their initials
     * (`wc` → `word_count`), or a part of them (`count` → `word_count`, three characters or more).
     * Implies `prefix`.
     */
    abbreviation?: boolean;
  } = {},
): string[] {
  if (word.length > MAX_KEY_LENGTH) return [];
  const wanted = canonical(word);
  const threshold = Math.min(2, Math.floor(wanted.length / 2));
  const found = known
    .map((candidate) => ({ candidate, distance: editDistance(wanted, canonical(candidate)) }))
    .filter(({ distance }) => distance <= threshold)
    .sort((a, b) => a.distance - b.distance)
    .map(({ candidate }) => candidate);
  const add = (test: (candidate: string) => boolean) => {
    for (const candidate of known) {
      if (!found.includes(candidate) && test(canonical(candidate))) found.push(candidate);
    }
  };
  if ((options.prefix || options.abbreviation) && wanted.length >= 2) {
    add((candidate) => candidate.startsWith(wanted));
  }
  if (options.abbreviation && wanted.length >= 2) {
    add((candidate) => initials(candidate) === wanted);
    if (wanted.length >= 3) add((candidate) => candidate.includes(wanted));
  }
  return found.slice(0, limit);
}

/** `word_count` → `wc`. */
function initials(word: string): string {
  return word.split("_").filter((part) => part !== "").map((part) => part[0]).join("");
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
