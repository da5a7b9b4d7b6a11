/**
 * Denials in the tool's locale: a decision that said no, and a rules file that cannot be used.
 * Private to the contract.
 *
 * @module
 */

import type { Decision } from "../approval/approve.ts";
import { rulesFilePhrase } from "../approval/rules/errors.ts";
import type { Messages, Phrase } from "../locale/messages.ts";
import { quote } from "./_words.ts";

/**
 * Why a call was denied, in the locale: the built-in approver gives its reason as a phrase; another
 * approver's reason is shown as it gave it.
 *
 * @param words The locale's messages.
 * @param tool The tool's name.
 * @param decision The denial.
 * @returns One line.
 */
export function denialText(words: Messages, tool: string, decision: Decision): string {
  if (decision.reasonPhrase !== undefined) return words.say(decision.reasonPhrase);
  return decision.reason ?? words.t("denied.generic", { tool: quote(tool) });
}

/**
 * A rules file that cannot be used (every call is denied until it is fixed), in the locale, its
 * problems too.
 *
 * @param words The locale's messages.
 * @param file The rules file.
 * @param problems Its problems (as the rules reader found them), at least one.
 * @returns One line.
 */
export function rulesFileText(words: Messages, file: string, problems: readonly Phrase[]): string {
  return words.say(rulesFilePhrase(file, problems));
}
