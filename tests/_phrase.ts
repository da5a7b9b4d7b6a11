/**
 * Test helper: every catalogue key a phrase uses, its nested phrases' and counted words' too.
 */

import type { Phrase } from "../src/locale/messages.ts";

/**
 * Adds every key `phrase` uses to `into`.
 *
 * @param phrase The phrase.
 * @param into The set the keys are added to.
 */
export function keysOf(phrase: Phrase, into: Set<string>): void {
  into.add(phrase.key);
  for (const value of Object.values(phrase.params ?? {})) {
    if (typeof value !== "object") continue;
    if ("forms" in value) into.add(value.forms);
    else keysOf(value, into);
  }
}
