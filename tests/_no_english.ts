/**
 * Asserting that a Ukrainian text has no English sentence left: the check of every seam's wording
 * tests (the "Wording in en-US and uk-UA" sections).
 *
 * @module
 */

import assert from "node:assert/strict";
import { catalogue, loadLocale } from "../src/locale/messages.ts";

await loadLocale("uk-UA");

/** A sentence-like run of English words: what must not be left in a Ukrainian text. */
const ENGLISH_WORDS =
  /\b(?:the|and|with|for|of|is|are|to|no|not|every|tools?|rules?|allow|deny|cannot|could|leaving|granting|defeats|program|denied|once|always|remember|asks|before|running|call)\b/i;

/** Cyrillic letters. */
export const CYRILLIC = /[\u0400-\u04FF]/;

/** What every Ukrainian text here keeps as it is: option names, quoted values, paths, backticks. */
export const KEPT: readonly RegExp[] = [
  /`[^`\n]*`/g,
  /"[^"\n]*"/g,
  /--?[a-zA-Z][\w-]*/g,
  /(?:\/[\w.,~-]+)+\/?/g,
  /\b[A-Z][A-Z_]+\*?/g,
];

/**
 * Asserts that a Ukrainian text has no English sentence left: none of the lines the English text
 * has (and the Ukrainian catalogue does not) except lines of kept values only, and no English prose
 * word outside what is never translated (`kept`: names, option names, paths, JSON shapes).
 *
 * @param uk The Ukrainian text.
 * @param en The English text of the same thing.
 * @param kept What may stay as it is, besides {@linkcode KEPT}.
 */
export function assertNoEnglish(
  uk: string,
  en: string,
  kept: readonly (string | RegExp)[] = [],
): void {
  const ukTexts = Object.values(catalogue("uk-UA")).join("\n");
  const withoutKept = (text: string) =>
    [...KEPT, ...kept].reduce<string>((rest, token) => rest.replaceAll(token, " "), text);
  for (const line of en.split("\n").map((l) => l.trim())) {
    if (line.length < 12 || ukTexts.includes(line) || !uk.includes(line)) continue;
    // A line of names, values and paths only (a JSON input) is the same in every locale.
    if (!/[a-z]/i.test(withoutKept(line))) continue;
    assert.fail(`English line left in the Ukrainian text: ${line}`);
  }
  const rest = withoutKept(uk);
  const found = rest.match(ENGLISH_WORDS);
  assert.equal(found, null, `English word ${found?.[0]} left in: ${rest}`);
}
