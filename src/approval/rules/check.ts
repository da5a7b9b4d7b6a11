/**
 * Checking rules against their own examples (`match`, `not_match`), so a person can see that a
 * pattern means what they think. A rule that fails an example is reported; if it allows, it is also
 * taken out of force (a broken rule never allows), while a failing deny rule keeps denying what its
 * pattern matches (dropping it could let a broader allow rule answer instead).
 *
 * @module
 */

import { english, type Phrase, phrase } from "../../locale/messages.ts";
import { quoteName } from "./_shape.ts";
import { matchPattern } from "./pattern.ts";
import type { LoadedRules, Rule, RuleProblem } from "./types.ts";

/**
 * Checks every rule's examples: each `match` text must match the rule's pattern and each
 * `not_match` text must not. A rule without a pattern matches every text.
 *
 * @param rules The rules, in file order.
 * @returns One problem per failing example, in file order; empty when every example holds.
 * @throws Never.
 * @example A pattern that is too narrow
 * ```ts
 * import { checkRules } from "./check.ts";
 * const problems = checkRules([{
 *   id: "r-aaaaaaaa", tool: "cargo", pattern: "cargo", decision: "allow", scope: "global",
 *   match: ["cargo test"],
 * }]);
 * console.assert(problems.length === 1 && problems[0]?.ignored === true);
 * ```
 */
export function checkRules(rules: readonly Rule[]): RuleProblem[] {
  return rules.flatMap(problemsOf);
}

function problemsOf(rule: Rule): RuleProblem[] {
  const problems: RuleProblem[] = [];
  const ignored = rule.decision === "allow";
  const matches = (text: string) => rule.pattern === undefined || matchPattern(rule.pattern, text);
  const report = (problem: Phrase) =>
    problems.push({ id: rule.id, reason: english(problem), phrase: problem, ignored });
  rule.match?.forEach((text, index) => {
    if (!matches(text)) {
      report(phrase("rules_file.example_unmatched", { index, text: quoteName(text) }));
    }
  });
  rule.not_match?.forEach((text, index) => {
    if (matches(text)) {
      const key = rule.pattern === undefined
        ? "rules_file.example_matched_bare"
        : "rules_file.example_matched";
      report(phrase(key, { index, text: quoteName(text) }));
    }
  });
  return problems;
}

/**
 * Splits rules into those in force and those ignored, by their examples.
 *
 * @param rules The rules, in file order.
 * @returns The rules in force, the allow rules ignored, and every problem.
 * @throws Never.
 * @example A failing deny rule stays in force
 * ```ts
 * import { partitionRules } from "./check.ts";
 * const split = partitionRules([{
 *   id: "r-bbbbbbbb", tool: "rm", pattern: "x", decision: "deny", scope: "global", match: ["y"],
 * }]);
 * console.assert(split.rules.length === 1 && split.problems.length === 1);
 * ```
 */
export function partitionRules(rules: readonly Rule[]): Omit<LoadedRules, "file"> {
  const inForce: Rule[] = [];
  const ignored: Rule[] = [];
  const problems: RuleProblem[] = [];
  for (const rule of rules) {
    const found = problemsOf(rule);
    problems.push(...found);
    if (found.some((problem) => problem.ignored)) ignored.push(rule);
    else inForce.push(rule);
  }
  return { rules: inForce, ignored, problems };
}
