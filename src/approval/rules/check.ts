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
import type { ToolPreview } from "../preview.ts";
import type { SpawnPreview } from "../../spawn/types.ts";
import { isRecord, narrowChildPreview, narrowSandbox, quoteName } from "./validate.ts";
import { isReach } from "../../spawn/reach.ts";
import { applies } from "./decide.ts";
import type { CallContent } from "./content.ts";
import type { LoadedRules, Rule, RuleProblem, RuleQuery, ToolConditions } from "./types.ts";

const TOOL_KEYS = ["tool", "program", "command", "cwd", "env", "sandbox", "input"];
const SPAWN_KEYS = ["mode", "body", "cwd", "target", "sandbox", "reach", "child"];
/** The sandbox of an example that names none: confined with nothing beyond the default. */
const DEFAULT_SANDBOX = { network: false, write: [], read: [] } as const;

/**
 * The content an example is taken to have: the rule's own pins (an example is a preview, and a
 * preview holds no file), so an example tests every other condition.
 */
function ownContent(rule: Rule): () => Promise<CallContent> {
  const pinned = (rule.when as ToolConditions).content;
  const entries = pinned === undefined || pinned === "any" ? [] : Object.entries(pinned);
  const content: CallContent = new Map(
    entries.map(([where, sha256]) => [where, { path: where, sha256 }]),
  );
  return () => Promise.resolve(content);
}

/**
 * Reads an example as a preview of the rule's kind of call.
 *
 * @param rule The rule the example belongs to.
 * @param example The example as written.
 * @returns The query to test the rule on, or the problem with the example's shape.
 */
export function exampleQuery(rule: Rule, example: unknown): RuleQuery | Phrase {
  const root = rule.scope === "global" ? undefined : rule.scope.workspace;
  if (rule.tool === SPAWN_TOOL) {
    const shape = phrase("rules_file.example_spawn_shape");
    if (!isRecord(example) || Object.keys(example).some((key) => !SPAWN_KEYS.includes(key))) {
      return shape;
    }
    const { mode, body, cwd = "", target = "local" } = example;
    if (
      (mode !== "command" && mode !== "agent") || typeof body !== "string" ||
      typeof cwd !== "string" || typeof target !== "string"
    ) {
      return shape;
    }
    const sandbox = example.sandbox === undefined ? undefined : narrowSandbox(example.sandbox);
    if (example.sandbox !== undefined && (sandbox === undefined || sandbox === "unconfined")) {
      return shape;
    }
    const { reach, child } = example;
    const shown = child === undefined ? undefined : narrowChildPreview(child);
    if ((reach !== undefined && !isReach(reach)) || (child !== undefined && shown === undefined)) {
      return shape;
    }
    const preview: SpawnPreview = {
      mode,
      body,
      cwd,
      target,
      ...(sandbox === undefined || sandbox === "unconfined" ? {} : { sandbox }),
      ...(reach === undefined ? {} : { reach }),
      ...(shown === undefined ? {} : { child: shown }),
    };
    return { tool: rule.tool, kind: "spawn", preview, root, content: ownContent(rule) };
  }
  const shape = phrase("rules_file.example_tool_shape");
  if (!isRecord(example) || Object.keys(example).some((key) => !TOOL_KEYS.includes(key))) {
    return shape;
  }
  const { tool = rule.tool, program, command, cwd, env = {}, input = {} } = example;
  if (
    tool !== rule.tool || typeof program !== "string" || typeof cwd !== "string" ||
    !Array.isArray(command) || !command.every((arg) => typeof arg === "string") ||
    !isRecord(env) || !Object.values(env).every((value) => typeof value === "string")
  ) {
    return shape;
  }
  const sandbox = example.sandbox === undefined ? DEFAULT_SANDBOX : narrowSandbox(example.sandbox);
  if (sandbox === undefined) return shape;
  const values = env as Record<string, string>;
  const names = Object.keys(values).sort();
  const preview: ToolPreview = {
    tool: rule.tool,
    program,
    command,
    cwd,
    env: names,
    sandbox,
    input,
  };
  // Where the rule takes an argument from the input, the example is taken to fill it so.
  const fromInput = ((rule.when as ToolConditions).argv ?? []).flatMap((matcher, index) =>
    typeof matcher === "object" && "input" in matcher ? [{ index, field: matcher.input }] : []
  );
  return {
    tool: rule.tool,
    kind: "tool",
    preview,
    env: values,
    root,
    fromWorkspace: false,
    fromInput,
    content: ownContent(rule),
  };
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
export async function checkRules(rules: readonly Rule[]): Promise<RuleProblem[]> {
  const problems: RuleProblem[] = [];
  for (const rule of rules) problems.push(...await problemsOf(rule));
  return problems;
}

async function problemsOf(rule: Rule): Promise<RuleProblem[]> {
  const problems: RuleProblem[] = [];
  const ignored = rule.decision === "allow";
  const report = (problem: Phrase) => problems.push({ id: rule.id, phrase: problem, ignored });
  for (const [key, expected] of [["match", true], ["not_match", false]] as const) {
    const examples = rule[key] ?? [];
    for (let index = 0; index < examples.length; index++) {
      const example = examples[index];
      const query = exampleQuery(rule, example);
      const text = quoteName(JSON.stringify(example) ?? "undefined");
      if (!("kind" in query)) {
        report(phrase("rules_file.example_shape", { field: `${key}[${index}]`, problem: query }));
        continue;
      }
      if (await applies(rule, query) !== expected) {
        const which = expected ? "rules_file.example_unmatched" : "rules_file.example_matched";
        report(phrase(which, { index, text }));
      }
    }
  }
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
 * const split = await partitionRules([{
 *   id: "r-bbbbbbbb", tool: "rm", decision: "deny", scope: "global", when: { program: "/bin/rm" },
 *   match: [{ program: "/bin/ls", command: ["ls"], cwd: "/" }],
 * }]);
 * console.assert(split.rules.length === 1 && split.problems.length === 1);
 * ```
 */
export async function partitionRules(rules: readonly Rule[]): Promise<Omit<LoadedRules, "file">> {
  const inForce: Rule[] = [];
  const ignored: Rule[] = [];
  const problems: RuleProblem[] = [];
  for (const rule of rules) {
    const found = rule.match === undefined && rule.not_match === undefined
      ? []
      : await problemsOf(rule);
    problems.push(...found);
    if (found.some((problem) => problem.ignored)) ignored.push(rule);
    else inForce.push(rule);
  }
  return { rules: inForce, ignored, problems };
}
