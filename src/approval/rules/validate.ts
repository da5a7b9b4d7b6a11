/**
 * Validating a parsed rules file, the pure half of loading (separate from reading the disk): the
 * version, then the shape by `schemas/rules.schema.json` (unknown fields refused: a misspelt
 * condition must not silently turn a narrow rule into a broad one), then what no schema says
 * (unique ids, `{"rest": true}` last, an allow rule pinning its program or body), and a fresh
 * object built for each rule with its keys in canonical order.
 *
 * @module
 */

import type { MessageKey } from "../../locale/en_us.ts";
import { type Phrase, phrase } from "../../locale/messages.ts";
import { shapeProblems } from "../../config_shape.ts";
import { SPAWN_TOOL } from "../../spawn/types.ts";
import { childText, grantsText } from "./decide.ts";
import type { PreviewSandbox } from "../../sandbox/types.ts";
import type { ChildPreview } from "../../spawn/child.ts";
import type { Rule, RuleInput, RulesDocument } from "./types.ts";

/** The keys of a rule, in canonical order. */
const RULE_KEYS = ["id", "tool", "decision", "scope", "when", "reason", "match", "not_match"];
/** The conditions of a declared tool's rule and of a spawn rule, in canonical order. */
const CONDITIONS = ["mode", "body", "target", "program", "argv", "cwd", "env", "sandbox", "input"]
  .concat(["reach", "child", "content"]);

/** The outcome of narrowing one value: the value, or every problem as a phrase. */
export type Narrowed<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly problems: readonly Phrase[] };

/**
 * Whether a value is a plain JSON object (not null, not an array).
 *
 * @param value Anything.
 * @returns True for objects as `JSON.parse` builds them.
 */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Quotes a name found in the file for a message, cut when long.
 *
 * @param name The name.
 * @returns It, JSON-quoted, at most about 40 characters.
 */
export function quoteName(name: string): string {
  const chars = [...name];
  return JSON.stringify(chars.length > 40 ? `${chars.slice(0, 40).join("")}…` : name);
}

/** The only version of the rules file this code reads and writes. */
export const RULES_VERSION = 2;

type Path = readonly (string | number)[];

/**
 * Validates a parsed rules file: `{"version": 2, "rules": [...]}` with every rule well formed,
 * no unknown fields (at the top or in a rule) and no duplicate ids. Any problem refuses the whole
 * file, so that a damaged file can never allow a call. Examples (`match`, `not_match`) are not
 * checked here: see `checkRules`.
 *
 * @param value The file's content as `JSON.parse` returned it.
 * @returns The document, with fresh rule objects in canonical key order, or every problem found
 *   as a phrase, each one line, prefixed with where it is (`rules[2] "r-abc": decision: ...`).
 * @throws Never.
 * @example A newer version is refused
 * ```ts
 * import { validateRulesDocument } from "./validate.ts";
 * const result = await validateRulesDocument({ version: 3, rules: [] });
 * console.assert(!result.ok);
 * ```
 */
export async function validateRulesDocument(value: unknown): Promise<Narrowed<RulesDocument>> {
  const version = isRecord(value) ? value.version : undefined;
  // Version 1 matched globs over the serialized preview, across fields: its rules cannot be read
  // as if they meant something narrower, so they are refused, never reinterpreted. A newer one is
  // refused with what to do; any other is the schema's.
  if (version === 1) return { ok: false, problems: [phrase("rules_file.version_old")] };
  if (typeof version === "number" && Number.isInteger(version) && version > RULES_VERSION) {
    const newer = phrase("rules_file.version_newer", { version, expected: RULES_VERSION });
    return { ok: false, problems: [newer] };
  }
  const found = await problemsOf(value);
  if (found.length > 0) {
    const rules = isRecord(value) && Array.isArray(value.rules) ? value.rules : [];
    return { ok: false, problems: found.map(({ path, reason }) => where(path, reason, rules)) };
  }
  const rules = (value as RulesDocument).rules.map(canonical);
  return { ok: true, value: { version: RULES_VERSION, rules } };
}

/**
 * Narrows a rule to add: every field but `id` and `created`, which the store assigns.
 *
 * @param value The rule as given.
 * @returns The rule, with its keys in canonical order, or every problem as `field: reason`.
 */
export async function narrowRuleInput(value: unknown): Promise<Narrowed<RuleInput>> {
  const rule = isRecord(value) ? { ...value, id: "new" } : value;
  const found = await problemsOf({ version: RULES_VERSION, rules: [rule] });
  if (found.length > 0) {
    return { ok: false, problems: found.map(({ path, reason }) => field(path.slice(2), reason)) };
  }
  const { id: _, ...input } = canonical(rule as Rule);
  return { ok: true, value: input };
}

/** Every problem of a document: its shape, then what no schema says, each with its path. */
async function problemsOf(value: unknown): Promise<{ path: Path; reason: Phrase }[]> {
  const schema = await import("../../../schemas/rules.schema.json", { with: { type: "json" } });
  const found: { path: Path; reason: Phrase }[] = await shapeProblems(schema.default, value);
  const broken = new Set(found.map(({ path }) => path[1]));
  const ids = new Set<string>();
  const rules = isRecord(value) && Array.isArray(value.rules) ? value.rules as Rule[] : [];
  rules.forEach((rule, index) => {
    if (broken.has(index)) return;
    const add = (path: Path, key: MessageKey) =>
      found.push({ path: ["rules", index, ...path], reason: phrase(key) });
    if (ids.has(rule.id)) add(["id"], "rules_file.id_taken");
    ids.add(rule.id);
    const when = rule.when as Record<string, unknown>;
    // A name never approves on its own; a rule that denies or asks may be as broad as it says.
    const spawn = rule.tool === SPAWN_TOOL;
    if (rule.decision === "allow" && !Object.hasOwn(when, spawn ? "body" : "program")) {
      add(["when"], spawn ? "rules_file.needs_body" : "rules_file.needs_program");
    }
    if (rule.created !== undefined && Number.isNaN(Date.parse(rule.created))) {
      add(["created"], "rules_file.timestamp");
    }
    const argv = (spawn ? [] : when.argv ?? []) as unknown[];
    argv.slice(0, -1).forEach((matcher, at) =>
      isRecord(matcher) && matcher.rest === true &&
      add(["when", "argv", at], "rules_file.rest_last")
    );
  });
  // Problems of the file come first, then each rule's, in order (a sort keeps their own order).
  const order = (path: Path) => path[0] === "rules" && typeof path[1] === "number" ? path[1] : -1;
  return found.sort((a, b) => order(a.path) - order(b.path));
}

/** A problem as the file's lines say it: `rules[2] "r-abc": when.argv[0]: reason`. */
function where(path: Path, reason: Phrase, rules: readonly unknown[]): Phrase {
  const index = path[1];
  if (path[0] !== "rules" || typeof index !== "number") return field(path, reason);
  const rule = rules[index];
  const problem = field(path.slice(2), reason);
  return isRecord(rule) && typeof rule.id === "string"
    ? phrase("rules_file.in_rule", { index, id: quoteName(rule.id), problem })
    : phrase("rules_file.in_rule_no_id", { index, problem });
}

/**
 * A problem of one field: `field: problem`, the field named as written in the file
 * (`when.input["/a"].glob`).
 *
 * @param path The field's path in the rule or file (none: the problem as it is).
 * @param problem What is wrong with it.
 * @returns The phrase.
 */
export function field(path: Path, problem: Phrase): Phrase {
  if (path.length === 0) return problem;
  const name = path.map((segment, index) =>
    typeof segment === "number"
      ? `[${segment}]`
      : /^[A-Za-z_][A-Za-z0-9_]*$/.test(segment) && path[index - 1] !== "input"
      ? `${index === 0 ? "" : "."}${segment}`
      : `[${quoteName(segment)}]`
  ).join("");
  return phrase("rules_file.field", { field: name, problem });
}

/** A well-formed rule as a fresh object, keys in canonical order, sets sorted. */
function canonical(rule: Rule): Rule {
  const ordered = (value: Record<string, unknown>, keys: string[]) =>
    Object.fromEntries(
      keys.filter((key) => Object.hasOwn(value, key)).map((key) => [key, value[key]]),
    );
  const when = ordered(rule.when as Record<string, unknown>, CONDITIONS);
  const { sandbox, child } = when as { sandbox?: PreviewSandbox; child?: ChildPreview };
  if (isRecord(sandbox) && !("sha256" in sandbox)) when.sandbox = JSON.parse(grantsText(sandbox));
  if (isRecord(child) && !("sha256" in child)) when.child = JSON.parse(childText(child));
  return ordered({ ...rule, when }, [...RULE_KEYS, "created"]) as unknown as Rule;
}

/**
 * The text written for a rules document: the version, then one rule per line as compact JSON, keys
 * in canonical order, final newline. One line a rule keeps a large file quick to read back and easy
 * to diff, grep and review.
 *
 * @param document The document.
 * @returns The file's text.
 * @throws Never.
 * @example An empty file
 * ```ts
 * import { formatRulesDocument } from "./validate.ts";
 * console.assert(formatRulesDocument({ version: 2, rules: [] }) === '{\n  "version": 2,\n  "rules": []\n}\n');
 * ```
 */
export function formatRulesDocument(document: RulesDocument): string {
  const rules = document.rules.map((rule) => `    ${JSON.stringify(rule)}`).join(",\n");
  const list = rules === "" ? "[]" : `[\n${rules}\n  ]`;
  return `{\n  "version": ${document.version},\n  "rules": ${list}\n}\n`;
}
