/**
 * Narrowing one rule from untrusted JSON: every field checked, unknown fields refused (a misspelt
 * `pattern` must not silently turn a narrow rule into one covering every call), and a fresh object
 * built with the known fields in their canonical order.
 *
 * @module
 */

import { isAbsolutePath, resolvePath } from "../../paths.ts";
import type { MessageKey } from "../../locale/en_us.ts";
import { type Phrase, phrase } from "../../locale/messages.ts";
import type { Rule, RuleInput, RuleScope } from "./types.ts";

/** What an id may look like: generated ids are `r-` and 8 base32 characters. */
export const ID_SYNTAX = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

const WINDOWS = Deno.build.os === "windows";
const DOT_SEGMENT = /\/\.\.?(?:\/|$)/;

const RULE_FIELDS = new Set([
  "id",
  "tool",
  "pattern",
  "decision",
  "reason",
  "scope",
  "match",
  "not_match",
  "created",
]);

/** The outcome of narrowing one value: the value, or every problem as a phrase. */
export type Narrowed<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly problems: readonly Phrase[] };

/**
 * A problem of one field: `field: problem`.
 *
 * @param field The field, as written in the file.
 * @param problem What is wrong with it.
 * @returns The phrase.
 */
export function fieldProblem(field: string, problem: Phrase | MessageKey): Phrase {
  return phrase("rules_file.field", {
    field,
    problem: typeof problem === "string" ? phrase(problem) : problem,
  });
}

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

/**
 * Whether a path is absolute and already normalised (what a workspace scope must hold).
 *
 * @param path The path.
 * @returns True when `resolvePath` would leave it unchanged.
 */
export function isNormalisedRoot(path: string): boolean {
  if (!isAbsolutePath(path)) return false;
  if (WINDOWS) return resolvePath(path) === path;
  // The same answer as `resolvePath(path) === path` on POSIX, without splitting the path.
  if (path === "/") return true;
  return !path.endsWith("/") && !path.includes("//") && !DOT_SEGMENT.test(path);
}

function narrowScope(value: unknown): { scope: RuleScope } | { problem: Phrase } {
  if (value === "global") return { scope: "global" };
  const expected = { problem: phrase("rules_file.scope") };
  if (!isRecord(value)) return expected;
  const keys = Object.keys(value);
  if (keys.length !== 1 || keys[0] !== "workspace") return expected;
  const root = value.workspace;
  if (typeof root !== "string" || !isNormalisedRoot(root)) {
    return { problem: phrase("rules_file.workspace_root") };
  }
  return { scope: { workspace: root } };
}

function stringList(value: unknown): readonly string[] | undefined {
  if (!Array.isArray(value)) return undefined;
  for (const item of value) if (typeof item !== "string") return undefined;
  return value.slice() as string[];
}

/**
 * Narrows one stored rule: a rule to add, plus its `id` (required) and `created` (optional).
 *
 * @param value The rule as parsed from the file.
 * @returns The rule, with its keys in canonical order, or every problem as `field: reason`.
 */
export function narrowStoredRule(value: unknown): Narrowed<Rule> {
  return narrowFields(value, true) as Narrowed<Rule>;
}

/**
 * Narrows a rule to add: every field but `id` and `created`, which the store assigns.
 *
 * @param value The rule as given.
 * @returns The rule, with its keys in canonical order, or every problem as `field: reason`.
 */
export function narrowRuleInput(value: unknown): Narrowed<RuleInput> {
  return narrowFields(value, false);
}

/**
 * Checks each field and builds the result in one pass, assigning keys in the canonical order:
 * id, tool, pattern, decision, reason, scope, match, not_match, created.
 */
function narrowFields(value: unknown, stored: boolean): Narrowed<RuleInput | Rule> {
  if (!isRecord(value)) return { ok: false, problems: [phrase("rules_file.rule_not_object")] };
  const problems: Phrase[] = [];
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    if (!RULE_FIELDS.has(key) || (!stored && (key === "id" || key === "created"))) {
      problems.push(phrase("rules_file.unknown_field", { field: quoteName(key) }));
    }
  }
  const has = (key: string) => Object.hasOwn(value, key);
  const out: Record<string, unknown> = {};
  if (stored) {
    const id = value.id;
    if (typeof id !== "string" || !ID_SYNTAX.test(id)) {
      problems.push(fieldProblem("id", "rules_file.bad_id"));
    }
    out.id = id;
  }
  const tool = value.tool;
  if (typeof tool !== "string" || tool === "") {
    problems.push(fieldProblem("tool", "rules_file.non_empty_string"));
  }
  out.tool = tool;
  if (has("pattern")) {
    if (typeof value.pattern !== "string") {
      problems.push(fieldProblem("pattern", "rules_file.string"));
    }
    out.pattern = value.pattern;
  }
  const decision = value.decision;
  if (decision !== "allow" && decision !== "deny") {
    problems.push(fieldProblem("decision", "rules_file.decision"));
  }
  out.decision = decision;
  if (has("reason")) {
    const reason = value.reason;
    if (typeof reason !== "string" || reason.includes("\n") || reason.includes("\r")) {
      problems.push(fieldProblem("reason", "rules_file.one_line"));
    }
    out.reason = reason;
  }
  const scope = narrowScope(value.scope);
  if ("problem" in scope) problems.push(fieldProblem("scope", scope.problem));
  else out.scope = scope.scope;
  for (const key of ["match", "not_match"] as const) {
    if (!has(key)) continue;
    const list = stringList(value[key]);
    if (list === undefined) problems.push(fieldProblem(key, "rules_file.string_array"));
    out[key] = list;
  }
  if (stored && has("created")) {
    const created = value.created;
    if (typeof created !== "string" || Number.isNaN(Date.parse(created))) {
      problems.push(fieldProblem("created", "rules_file.timestamp"));
    }
    out.created = created;
  }
  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, value: out as unknown as RuleInput };
}
