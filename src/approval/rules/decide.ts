/**
 * Which remembered rule answers a call. Pure: the rules are passed in.
 *
 * Precedence, from strongest: a rule with a pattern beats one without; then deny beats allow; then
 * a workspace rule beats a global one; then the smaller id (compared by UTF-16 code units) wins.
 * Only rules for the call's tool, scoped globally or to the call's workspace root, and whose pattern
 * (when they have one) matches the preview's compact JSON, are considered.
 *
 * @module
 */

import { codePoints, compilePattern, matchCompiled } from "./_pattern.ts";
import type { Rule, RuleMatch, RuleQuery } from "./types.ts";

const compiled = new Map<string, Int32Array>();
const CACHE_LIMIT = 4096;

function compiledPattern(pattern: string): Int32Array {
  let found = compiled.get(pattern);
  if (found === undefined) {
    if (compiled.size >= CACHE_LIMIT) compiled.clear();
    found = compilePattern(pattern);
    compiled.set(pattern, found);
  }
  return found;
}

/**
 * Orders two rules by precedence.
 *
 * @param a A rule.
 * @param b Another rule.
 * @returns Negative when `a` wins, positive when `b` wins, 0 only for the same id and rank.
 * @throws Never.
 * @example A pattern rule beats a bare one, whatever their decisions
 * ```ts
 * import { compareRules } from "./decide.ts";
 * const bare = { id: "r-a", tool: "t", decision: "deny", scope: "global" } as const;
 * const narrow = { id: "r-b", tool: "t", pattern: "*", decision: "allow", scope: "global" } as const;
 * console.assert(compareRules(narrow, bare) < 0);
 * ```
 */
export function compareRules(a: Rule, b: Rule): number {
  const pattern = Number(b.pattern !== undefined) - Number(a.pattern !== undefined);
  if (pattern !== 0) return pattern;
  const deny = Number(b.decision === "deny") - Number(a.decision === "deny");
  if (deny !== 0) return deny;
  const workspace = Number(b.scope !== "global") - Number(a.scope !== "global");
  if (workspace !== 0) return workspace;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/**
 * Finds the rule that answers a call, if any. Considered: rules for `query.tool` that are global
 * or scoped to exactly `query.root`, and whose pattern (if any) matches `query.previewText`. Among
 * those, {@linkcode compareRules} picks one: pattern over bare, then deny over allow, then workspace
 * over global, then the smaller id.
 *
 * @param rules The rules in force (`LoadedRules.rules`, never the ignored ones).
 * @param query The tool, the preview's compact JSON, and the workspace root (absolute, normalised).
 * @returns The winning rule and its decision, or `undefined` when no rule applies.
 * @throws Never.
 * @example A deny beats an allow of the same kind
 * ```ts
 * import { decideByRules } from "./decide.ts";
 * const rules = [
 *   { id: "r-1", tool: "sh", pattern: '*"rm"*', decision: "deny", scope: "global" },
 *   { id: "r-2", tool: "sh", pattern: "*", decision: "allow", scope: { workspace: "/w" } },
 * ] as const;
 * const found = decideByRules(rules, { tool: "sh", previewText: '{"command":["rm"]}', root: "/w" });
 * console.assert(found?.decision === "deny" && found.rule.id === "r-1");
 * ```
 */
export function decideByRules(rules: readonly Rule[], query: RuleQuery): RuleMatch | undefined {
  let best: Rule | undefined;
  let text: Int32Array | undefined;
  for (const rule of rules) {
    if (rule.tool !== query.tool) continue;
    if (rule.scope !== "global" && rule.scope.workspace !== query.root) continue;
    if (best !== undefined && compareRules(rule, best) >= 0) continue;
    if (rule.pattern !== undefined) {
      text ??= codePoints(query.previewText);
      if (!matchCompiled(compiledPattern(rule.pattern), text)) continue;
    }
    best = rule;
  }
  return best === undefined ? undefined : { rule: best, decision: best.decision };
}
