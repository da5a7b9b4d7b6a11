/**
 * Checking rules against their own examples (`match`, `not_match`: previews), so a person can see
 * that a rule means what they think. A rule that fails an example is reported; if it allows, it is
 * also taken out of force (a broken rule never allows), while a failing deny or ask rule stays in
 * force (dropping it could let an allow rule answer instead).
 *
 * @module
 */

import { type Phrase, phrase } from "../../locale/messages.ts";
import { SPAWN_TOOL } from "../../spawn/types.ts";
import { schemaIssues } from "../../schema/gate.ts";
import { quoteName } from "./validate.ts";
import { decideCall } from "./decide.ts";
import type { CallContent } from "./content.ts";
import type { LoadedRules, Rule, RuleProblem, RuleQuery, ToolConditions } from "./types.ts";

/** The schemas of an example, by kind (`schemas/rules.schema.json`'s `toolExample`, …). */
const SCHEMAS = new Map<string, object>();

async function exampleSchema(kind: "toolExample" | "spawnExample"): Promise<object> {
  const { default: rules } = await import("../../../schemas/rules.schema.json", {
    with: { type: "json" },
  });
  if (!SCHEMAS.has(kind)) {
    SCHEMAS.set(kind, { definitions: rules.definitions, $ref: `#/definitions/${kind}` });
  }
  return SCHEMAS.get(kind)!;
}

/**
 * Reads an example as a preview of the rule's kind of call. The content it is taken to have is
 * the rule's own pins (an example is a preview, and a preview holds no file), so an example tests
 * every other condition.
 *
 * @param rule The rule the example belongs to.
 * @param example The example as written.
 * @returns The query to test the rule on, or the problem with the example's shape.
 */
export async function exampleQuery(rule: Rule, example: unknown): Promise<RuleQuery | Phrase> {
  const root = rule.scope === "global" ? undefined : rule.scope.workspace;
  const when = rule.when as ToolConditions;
  const pins = Object.entries(typeof when.content === "object" ? when.content : {});
  const files = new Map(pins.map(([at, sha256]) => [at, { path: at, sha256 }]));
  const content = (): Promise<CallContent> => Promise.resolve(files);
  const spawn = rule.tool === SPAWN_TOOL;
  const shape = phrase(spawn ? "rules_file.example_spawn_shape" : "rules_file.example_tool_shape");
  const issues = await schemaIssues(
    await exampleSchema(spawn ? "spawnExample" : "toolExample"),
    example,
  );
  // deno-lint-ignore no-explicit-any -- the schema has just said what it holds
  const given = example as any;
  if (issues.length > 0 || (given.tool ?? rule.tool) !== rule.tool) return shape;
  // Grants and a child are compared by their canonical text, whatever order the example has.
  if (spawn) {
    const preview = { ...given, cwd: given.cwd ?? "", target: given.target ?? "local" };
    return { tool: rule.tool, kind: "spawn", sideEffect: "process", preview, root, content };
  }
  const { env = {}, input = {}, sandbox = { network: false, write: [], read: [] } } = given;
  // An example that names no sandbox is confined with nothing beyond the default.
  const preview = { ...given, tool: rule.tool, env: Object.keys(env).sort(), sandbox, input };
  // Where the rule takes an argument from the input, the example is taken to fill it so.
  const query = { tool: rule.tool, sideEffect: "process", preview, env, example: true } as const;
  return { ...query, root, source: "global", content };
}

/**
 * Checks every rule's examples: each `match` preview must be answered by the rule and each
 * `not_match` preview must not.
 *
 * @param rules The rules, in file order.
 * @returns One problem per failing example, in file order; empty when every example holds.
 * @throws Never.
 * @example An example the rule does not match
 * ```ts
 * import { checkRules } from "./check.ts";
 * const problems = await checkRules([{
 *   id: "r-aaaaaaaa", tool: "cargo", decision: "allow", scope: "global",
 *   when: { program: "/usr/bin/cargo", argv: ["cargo", "test"] },
 *   match: [{ program: "/usr/bin/cargo", command: ["cargo", "build"], cwd: "/w" }],
 * }]);
 * console.assert(problems.length === 1 && problems[0]?.ignored === true);
 * ```
 */
export async function checkRules(rules: readonly Rule[]): Promise<readonly RuleProblem[]> {
  return (await partitionRules(rules)).problems;
}

/**
 * Splits rules into those in force and those ignored, by their examples.
 *
 * @param rules The rules, in file order.
 * @returns The rules in force, the allow rules ignored, and every problem.
 * @throws Never.
 */
export async function partitionRules(rules: readonly Rule[]): Promise<Omit<LoadedRules, "file">> {
  const inForce: Rule[] = [];
  const ignored: Rule[] = [];
  const problems: RuleProblem[] = [];
  for (const rule of rules) {
    const ignore = rule.decision === "allow";
    const report = (problem: Phrase) =>
      problems.push({ id: rule.id, phrase: problem, ignored: ignore });
    const before = problems.length;
    for (const [key, expected] of [["match", true], ["not_match", false]] as const) {
      for (const [index, example] of (rule[key] ?? []).entries()) {
        const query = await exampleQuery(rule, example);
        if (!("preview" in query)) {
          report(phrase("rules_file.example_shape", { field: `${key}[${index}]`, problem: query }));
        } else if (((await decideCall([rule], query)).match !== undefined) !== expected) {
          const which = expected ? "rules_file.example_unmatched" : "rules_file.example_matched";
          report(phrase(which, { index, text: quoteName(JSON.stringify(example) ?? "undefined") }));
        }
      }
    }
    (problems.length > before && ignore ? ignored : inForce).push(rule);
  }
  return { rules: inForce, ignored, problems };
}
