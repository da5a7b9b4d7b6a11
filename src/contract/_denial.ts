/**
 * Denials in the tool's locale: a decision that said no, and a rules file that cannot be used.
 * Private to the contract.
 *
 * @module
 */

import type { Decision } from "../approval/approve.ts";
import { rulesFilePhrase } from "../approval/rules/errors.ts";
import { shellQuote } from "../approval/shell_quote.ts";
import type { Messages, Phrase } from "../locale/messages.ts";
import { decisionOrigin } from "./approver.ts";
import { quote } from "./_words.ts";

/**
 * Why a call was denied, in the locale. A decision carrying its reason as a phrase is worded from
 * it; another decision of the built-in approver from what decided it; another approver's reason is
 * shown as it gave it.
 *
 * @param words The locale's messages.
 * @param tool The tool's name.
 * @param decision The denial.
 * @returns One line.
 */
export function denialText(words: Messages, tool: string, decision: Decision): string {
  if (decision.reasonPhrase !== undefined) return words.say(decision.reasonPhrase);
  const name = quote(tool);
  const origin = decisionOrigin(decision);
  if (origin === undefined) return decision.reason ?? words.t("denied.generic", { tool: name });
  switch (decision.by) {
    case "rule": {
      const rule = decision.ruleId ?? "?";
      return decision.ruleReason === undefined
        ? words.t("denied.rule", { tool: name, rule })
        : words.t("denied.rule_reason", { tool: name, rule, reason: decision.ruleReason });
    }
    case "prompt":
      return decision.ruleId === undefined
        ? words.t("denied.prompt", { tool: name })
        : words.t("denied.prompt_remembered", { tool: name, rule: decision.ruleId });
    case "policy": {
      if (origin.policy === "never") return words.t("denied.never", { tool: name });
      const where = origin.root === undefined ? "" : ` -C ${shellQuote(origin.root)}`;
      const command = `basis-tools${where} rules add --tool ${tool}`;
      return words.t("denied.no_terminal", { tool: name, command });
    }
  }
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
