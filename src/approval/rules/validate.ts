/**
 * Validating a parsed rules file, the pure half of loading (separate from reading the disk): the
 * document (`{"version": 2, "rules": [...]}`), and each rule narrowed from untrusted JSON with
 * every field and condition checked, unknown fields refused (a misspelt condition must not silently
 * turn a narrow rule into a broad one), and a fresh object built with the known fields in their
 * canonical order.
 *
 * @module
 */

import { isAbsolutePath, resolvePath } from "../../paths.ts";
import type { MessageKey } from "../../locale/en_us.ts";
import { type Phrase, phrase } from "../../locale/messages.ts";
import { SPAWN_TOOL } from "../../spawn/types.ts";
import { ROSTER_NAME } from "../../spawn/child.ts";
import type { ChildPreview } from "../../spawn/child.ts";
import { isReach } from "../../spawn/reach.ts";
import { MAX_INPUT_DEPTH } from "../../schema/gate.ts";
import { compileGlob } from "./glob.ts";
import type { PreviewSandbox } from "../../sandbox/types.ts";
import type {
  ArgMatcher,
  ContentCondition,
  InputMatcher,
  Rule,
  RuleConditions,
  RuleInput,
  RuleScope,
  RulesDocument,
  SandboxCondition,
  TextMatcher,
} from "./types.ts";

/** What an id may look like: generated ids are `r-` and 8 base32 characters. */
export const ID_SYNTAX = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

const WINDOWS = Deno.build.os === "windows";
const DOT_SEGMENT = /\/\.\.?(?:\/|$)/;
const SHA256 = /^[0-9a-f]{64}$/;
const SALT = /^[0-9a-f]{32}$/;

const RULE_FIELDS = new Set([
  "id",
  "tool",
  "decision",
  "scope",
  "when",
  "reason",
  "match",
  "not_match",
  "created",
]);

/** The conditions a declared tool's rule may have, in canonical order. */
export const TOOL_CONDITIONS = [
  "program",
  "argv",
  "cwd",
  "env",
  "sandbox",
  "input",
  "content",
] as const;
/** The conditions a spawn rule may have, in canonical order. */
export const SPAWN_CONDITIONS = [
  "mode",
  "body",
  "target",
  "cwd",
  "sandbox",
  "reach",
  "child",
  "content",
] as const;

/** The keys of a content condition: where a file is pinned. */
const CONTENT_KEY = {
  tool: /^(?:program|files|argv\[(?:0|[1-9][0-9]*)\])$/,
  spawn: /^word\[(?:0|[1-9][0-9]*)\]$/,
};

/**
 * How deeply a value in a rule may nest (an `equals` value, an example): what a call's input may,
 * so copying and comparing it never runs out of stack.
 */
const MAX_DEPTH = MAX_INPUT_DEPTH;

/**
 * A copy of a JSON value that keeps each number as written (`structuredClone` refuses the raw
 * numbers `parseKeepingNumbers` makes, and would drop what they hold).
 */
function copyJson(value: unknown): unknown {
  if (typeof value !== "object" || value === null || isRawJSON(value)) return value;
  if (Array.isArray(value)) return value.map(copyJson);
  // fromEntries defines own properties: a "__proto__" key stays a key like any other.
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, copyJson(item)]));
}

const isRawJSON = (JSON as unknown as { isRawJSON(value: unknown): boolean }).isRawJSON;

/** Whether a JSON value nests deeper than {@linkcode MAX_DEPTH}, found without recursion. */
function tooDeep(value: unknown): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop() as [unknown, number];
    if (typeof item !== "object" || item === null || isRawJSON(item)) continue;
    if (depth >= MAX_DEPTH) return true;
    for (const child of Object.values(item)) stack.push([child, depth + 1]);
  }
  return false;
}

/** The outcome of narrowing one value: the value, or every problem as a phrase. */
export type Narrowed<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly problems: readonly Phrase[] };

/**
 * A problem of one field: `field: problem`.
 *
 * @param field The field, as written in the file (`when.argv[2]`).
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

/** Collects problems of the fields under one path prefix. */
class Problems {
  readonly list: Phrase[] = [];
  add(field: string, problem: Phrase | MessageKey): void {
    this.list.push(fieldProblem(field, problem));
  }
}

/** Checks that an object has only the given keys; reports each other one. */
function onlyKeys(
  value: Record<string, unknown>,
  known: readonly string[],
  at: string,
  problems: Problems,
  unknownKey: MessageKey = "rules_file.unknown_key",
): boolean {
  let ok = true;
  for (const key of Object.keys(value)) {
    if (!known.includes(key)) {
      ok = false;
      problems.add(at, phrase(unknownKey, { key: quoteName(key), known: known.join(", ") }));
    }
  }
  return ok;
}

/** Whether a matcher is meant as a digest (`sha256` or `salt` given): then it must be one. */
function looksLikeDigest(value: unknown): value is Record<string, unknown> {
  return isRecord(value) && (Object.hasOwn(value, "sha256") || Object.hasOwn(value, "salt"));
}

/** A digest matcher, when the value is one (and well formed). */
function narrowDigest(
  value: Record<string, unknown>,
  at: string,
  problems: Problems,
): { sha256: string; salt: string } | undefined {
  if (!onlyKeys(value, ["sha256", "salt"], at, problems)) return undefined;
  const { sha256, salt } = value;
  if (
    typeof sha256 !== "string" || !SHA256.test(sha256) || typeof salt !== "string" ||
    !SALT.test(salt)
  ) {
    problems.add(at, "rules_file.bad_digest");
    return undefined;
  }
  return { sha256, salt };
}

function narrowGlob(value: unknown, at: string, problems: Problems): string | undefined {
  if (typeof value !== "string") {
    problems.add(at, "rules_file.glob_string");
    return undefined;
  }
  if (compileGlob(value) === undefined) {
    problems.add(at, "rules_file.bad_glob");
    return undefined;
  }
  return value;
}

/** A text matcher: a string, `{glob}` or `{sha256, salt}`. */
function narrowText(value: unknown, at: string, problems: Problems): TextMatcher | undefined {
  if (typeof value === "string") return value;
  if (isRecord(value)) {
    if (Object.hasOwn(value, "glob")) {
      if (!onlyKeys(value, ["glob"], at, problems)) return undefined;
      const glob = narrowGlob(value.glob, `${at}.glob`, problems);
      return glob === undefined ? undefined : { glob };
    }
    if (looksLikeDigest(value)) return narrowDigest(value, at, problems);
  }
  problems.add(at, "rules_file.matcher");
  return undefined;
}

function narrowProgram(
  value: unknown,
  at: string,
  problems: Problems,
): string | { sha256: string; salt: string } | undefined {
  if (typeof value === "string") {
    if (isAbsolutePath(value)) return value;
    problems.add(at, "rules_file.program_absolute");
    return undefined;
  }
  if (looksLikeDigest(value)) {
    return narrowDigest(value, at, problems);
  }
  problems.add(at, "rules_file.program_absolute");
  return undefined;
}

function narrowEnv(
  value: unknown,
  at: string,
  problems: Problems,
): "any" | { sha256: string; salt: string } | undefined {
  if (value === "any") return "any";
  if (looksLikeDigest(value)) {
    return narrowDigest(value, at, problems);
  }
  problems.add(at, "rules_file.env_matcher");
  return undefined;
}

function narrowArgv(value: unknown, at: string, problems: Problems): ArgMatcher[] | undefined {
  if (!Array.isArray(value)) {
    problems.add(at, "rules_file.argv_array");
    return undefined;
  }
  const out: ArgMatcher[] = [];
  let ok = true;
  value.forEach((item: unknown, index: number) => {
    const here = `${at}[${index}]`;
    if (isRecord(item) && Object.hasOwn(item, "rest")) {
      if (!onlyKeys(item, ["rest"], here, problems) || item.rest !== true) {
        if (item.rest !== true) problems.add(here, "rules_file.rest_true");
        ok = false;
      } else if (index !== value.length - 1) {
        problems.add(here, "rules_file.rest_last");
        ok = false;
      } else {
        out.push({ rest: true });
      }
      return;
    }
    if (isRecord(item) && Object.hasOwn(item, "input")) {
      if (!onlyKeys(item, ["input"], here, problems)) ok = false;
      else if (typeof item.input !== "string" || item.input === "") {
        problems.add(`${here}.input`, "rules_file.non_empty_string");
        ok = false;
      } else out.push({ input: item.input });
      return;
    }
    if (isRecord(item) && Object.hasOwn(item, "operand")) {
      const operand = onlyKeys(item, ["operand"], here, problems)
        ? narrowGlob(item.operand, `${here}.operand`, problems)
        : undefined;
      if (operand === undefined) ok = false;
      else out.push({ operand });
      return;
    }
    const matcher = narrowText(item, here, problems);
    if (matcher === undefined) ok = false;
    else out.push(matcher);
  });
  return ok ? out : undefined;
}

/**
 * Whether a text is a JSON pointer (RFC 6901): empty, or `/`-separated tokens whose `~` is
 * followed by `0` or `1`.
 *
 * @param pointer The text.
 * @returns True for a well-formed pointer.
 */
export function isJsonPointer(pointer: string): boolean {
  return pointer === "" || (pointer.startsWith("/") && !/~(?![01])/.test(pointer));
}

function narrowInput(
  value: unknown,
  at: string,
  problems: Problems,
): Record<string, InputMatcher> | undefined {
  if (!isRecord(value)) {
    problems.add(at, "rules_file.input_object");
    return undefined;
  }
  const out: [string, InputMatcher][] = [];
  let ok = true;
  for (const [pointer, matcher] of Object.entries(value)) {
    const here = `${at}[${JSON.stringify(pointer)}]`;
    if (!isJsonPointer(pointer)) {
      problems.add(here, phrase("rules_file.bad_pointer", { pointer: quoteName(pointer) }));
      ok = false;
      continue;
    }
    if (!isRecord(matcher) || Object.keys(matcher).length !== 1) {
      problems.add(here, "rules_file.input_matcher");
      ok = false;
    } else if (Object.hasOwn(matcher, "equals")) {
      if (tooDeep(matcher.equals)) {
        problems.add(`${here}.equals`, phrase("rules_file.too_deep", { limit: MAX_DEPTH }));
        ok = false;
      } else {
        out.push([pointer, { equals: copyJson(matcher.equals) }]);
      }
    } else if (Object.hasOwn(matcher, "glob")) {
      const glob = narrowGlob(matcher.glob, `${here}.glob`, problems);
      if (glob === undefined) ok = false;
      else out.push([pointer, { glob }]);
    } else {
      problems.add(here, "rules_file.input_matcher");
      ok = false;
    }
  }
  // fromEntries defines own properties: a "__proto__" pointer stays a key like any other.
  return ok ? Object.fromEntries(out) : undefined;
}

function narrowSandboxCondition(value: unknown, problems: Problems): SandboxCondition | undefined {
  if (value === "any") return "any";
  if (looksLikeDigest(value)) return narrowDigest(value, "when.sandbox", problems);
  const sandbox = narrowSandbox(value);
  if (sandbox === undefined) problems.add("when.sandbox", "rules_file.sandbox");
  return sandbox;
}

/**
 * Narrows a sandbox value as previews carry it: `"unconfined"`, or exactly `network` (a
 * boolean), `write` and `read` (arrays of absolute paths), the lists sorted and each path once
 * (a condition compares them as sets).
 *
 * @param value The value as written.
 * @returns The value in canonical form, or `undefined` when it is not one.
 */
export function narrowSandbox(value: unknown): PreviewSandbox | undefined {
  if (value === "unconfined") return value;
  if (!isRecord(value)) return undefined;
  const keys = Object.keys(value);
  if (keys.length !== 3 || !["network", "write", "read"].every((key) => keys.includes(key))) {
    return undefined;
  }
  const { network, write, read } = value;
  const paths = (list: unknown) =>
    Array.isArray(list) && list.every((path) => typeof path === "string" && isAbsolutePath(path))
      ? [...new Set(list as string[])].sort()
      : undefined;
  const writable = paths(write);
  const readable = paths(read);
  if (typeof network !== "boolean" || writable === undefined || readable === undefined) {
    return undefined;
  }
  return { network, write: writable, read: readable };
}

/**
 * Narrows a child description as previews carry it: any of `roster` (tool names, compared as a
 * set: sorted, each once), `model` and `system_prompt` (strings), keys in that order, at least
 * one of them.
 *
 * @param value The value as written.
 * @returns The description in canonical form, or `undefined` when it is not one.
 */
export function narrowChildPreview(value: unknown): ChildPreview | undefined {
  if (!isRecord(value)) return undefined;
  const keys = Object.keys(value);
  if (
    keys.length === 0 || keys.some((key) => !["roster", "model", "system_prompt"].includes(key))
  ) {
    return undefined;
  }
  const { roster, model, system_prompt } = value;
  if (
    roster !== undefined &&
    (!Array.isArray(roster) ||
      !roster.every((name) => typeof name === "string" && ROSTER_NAME.test(name)))
  ) {
    return undefined;
  }
  if (model !== undefined && typeof model !== "string") return undefined;
  if (system_prompt !== undefined && typeof system_prompt !== "string") return undefined;
  return {
    ...(roster === undefined ? {} : { roster: [...new Set(roster as string[])].sort() }),
    ...(model === undefined ? {} : { model }),
    ...(system_prompt === undefined ? {} : { system_prompt }),
  };
}

/** A content condition: `"any"`, or where each file is pinned → its SHA-256. */
function narrowContent(
  value: unknown,
  spawn: boolean,
  problems: Problems,
): ContentCondition | undefined {
  if (value === "any") return value;
  const keys = CONTENT_KEY[spawn ? "spawn" : "tool"];
  if (
    !isRecord(value) ||
    !Object.entries(value).every(([key, digest]) =>
      keys.test(key) && typeof digest === "string" && SHA256.test(digest)
    )
  ) {
    problems.add("when.content", spawn ? "rules_file.content_spawn" : "rules_file.content_tool");
    return undefined;
  }
  return Object.fromEntries(Object.entries(value)) as Record<string, string>;
}

/** A child condition: a child description, or a digest of one. */
function narrowChildCondition(
  value: unknown,
  at: string,
  problems: Problems,
): ChildPreview | { sha256: string; salt: string } | undefined {
  if (looksLikeDigest(value)) {
    return narrowDigest(value, at, problems);
  }
  const child = narrowChildPreview(value);
  if (child === undefined) problems.add(at, "rules_file.child");
  return child;
}

/**
 * Narrows a rule's conditions for its tool's kind, keys in canonical order.
 *
 * @param value The `when` object as given.
 * @param spawn Whether the rule is for the spawn tool.
 * @param problems Where problems go.
 * @returns The conditions, or `undefined` when any is malformed.
 */
function narrowConditions(
  value: unknown,
  spawn: boolean,
  problems: Problems,
): RuleConditions | undefined {
  if (!isRecord(value)) {
    problems.add("when", "rules_file.when_object");
    return undefined;
  }
  const known = spawn ? SPAWN_CONDITIONS : TOOL_CONDITIONS;
  const before = problems.list.length;
  onlyKeys(
    value,
    known,
    "when",
    problems,
    spawn ? "rules_file.unknown_spawn_condition" : "rules_file.unknown_tool_condition",
  );
  const out: Record<string, unknown> = {};
  const has = (key: string) => Object.hasOwn(value, key);
  if (spawn) {
    if (has("mode")) {
      if (value.mode !== "command" && value.mode !== "agent") {
        problems.add("when.mode", "rules_file.mode");
      }
      out.mode = value.mode;
    }
    if (has("body")) out.body = narrowText(value.body, "when.body", problems);
    if (has("target")) {
      if (typeof value.target !== "string" || value.target === "") {
        problems.add("when.target", "rules_file.non_empty_string");
      }
      out.target = value.target;
    }
    if (has("cwd")) out.cwd = narrowText(value.cwd, "when.cwd", problems);
    if (has("sandbox")) out.sandbox = narrowSandboxCondition(value.sandbox, problems);
    if (has("reach")) {
      if (!isReach(value.reach)) problems.add("when.reach", "rules_file.reach");
      out.reach = value.reach;
    }
    if (has("child")) out.child = narrowChildCondition(value.child, "when.child", problems);
  } else {
    if (has("program")) out.program = narrowProgram(value.program, "when.program", problems);
    if (has("argv")) out.argv = narrowArgv(value.argv, "when.argv", problems);
    if (has("cwd")) out.cwd = narrowText(value.cwd, "when.cwd", problems);
    if (has("env")) out.env = narrowEnv(value.env, "when.env", problems);
    if (has("sandbox")) out.sandbox = narrowSandboxCondition(value.sandbox, problems);
    if (has("input")) out.input = narrowInput(value.input, "when.input", problems);
  }
  if (has("content")) out.content = narrowContent(value.content, spawn, problems);
  return problems.list.length === before ? out as RuleConditions : undefined;
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
 * id, tool, decision, scope, when, reason, match, not_match, created.
 */
function narrowFields(value: unknown, stored: boolean): Narrowed<RuleInput | Rule> {
  if (!isRecord(value)) return { ok: false, problems: [phrase("rules_file.rule_not_object")] };
  const problems = new Problems();
  for (const key of Object.keys(value)) {
    if (!RULE_FIELDS.has(key) || (!stored && (key === "id" || key === "created"))) {
      problems.list.push(phrase("rules_file.unknown_field", { field: quoteName(key) }));
    }
  }
  const has = (key: string) => Object.hasOwn(value, key);
  const out: Record<string, unknown> = {};
  if (stored) {
    const id = value.id;
    if (typeof id !== "string" || !ID_SYNTAX.test(id)) problems.add("id", "rules_file.bad_id");
    out.id = id;
  }
  const tool = value.tool;
  if (typeof tool !== "string" || tool === "") problems.add("tool", "rules_file.non_empty_string");
  out.tool = tool;
  const decision = value.decision;
  if (decision !== "allow" && decision !== "deny" && decision !== "ask") {
    problems.add("decision", "rules_file.decision");
  }
  out.decision = decision;
  const scope = narrowScope(value.scope);
  if ("problem" in scope) problems.add("scope", scope.problem);
  else out.scope = scope.scope;
  const spawn = tool === SPAWN_TOOL;
  if (!has("when")) {
    problems.add("when", "rules_file.when_missing");
  } else {
    const when = narrowConditions(value.when, spawn, problems);
    out.when = when;
    // A name never approves on its own; a rule that denies or asks may be as broad as it says.
    if (when !== undefined && decision === "allow") {
      if (spawn && !Object.hasOwn(when, "body")) problems.add("when", "rules_file.needs_body");
      if (!spawn && !Object.hasOwn(when, "program")) {
        problems.add("when", "rules_file.needs_program");
      }
    }
  }
  if (has("reason")) {
    const reason = value.reason;
    if (typeof reason !== "string" || reason.includes("\n") || reason.includes("\r")) {
      problems.add("reason", "rules_file.one_line");
    }
    out.reason = reason;
  }
  for (const key of ["match", "not_match"] as const) {
    if (!has(key)) continue;
    const list = value[key];
    if (!Array.isArray(list)) problems.add(key, "rules_file.examples_array");
    else if (tooDeep(list)) problems.add(key, phrase("rules_file.too_deep", { limit: MAX_DEPTH }));
    else out[key] = copyJson(list);
  }
  if (stored && has("created")) {
    const created = value.created;
    if (typeof created !== "string" || Number.isNaN(Date.parse(created))) {
      problems.add("created", "rules_file.timestamp");
    }
    out.created = created;
  }
  if (problems.list.length > 0) return { ok: false, problems: problems.list };
  return { ok: true, value: out as unknown as RuleInput };
}

/** The only version of the rules file this code reads and writes. */
export const RULES_VERSION = 2;

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
 * const result = validateRulesDocument({ version: 3, rules: [] });
 * console.assert(!result.ok);
 * ```
 */
export function validateRulesDocument(value: unknown): Narrowed<RulesDocument> {
  if (!isRecord(value)) {
    return { ok: false, problems: [phrase("rules_file.not_object")] };
  }
  const problems: Phrase[] = [];
  for (const key of Object.keys(value)) {
    if (key !== "version" && key !== "rules") {
      problems.push(phrase("rules_file.unknown_field", { field: quoteName(key) }));
    }
  }
  const versionProblem = checkVersion(value);
  if (versionProblem !== undefined) return { ok: false, problems: [versionProblem] };
  if (!Array.isArray(value.rules)) {
    return {
      ok: false,
      problems: [...problems, fieldProblem("rules", "rules_file.must_be_array")],
    };
  }
  const rules: Rule[] = [];
  const seen = new Set<string>();
  value.rules.forEach((item: unknown, index: number) => {
    const inRule = (problem: Phrase) =>
      isRecord(item) && typeof item.id === "string"
        ? phrase("rules_file.in_rule", { index, id: quoteName(item.id), problem })
        : phrase("rules_file.in_rule_no_id", { index, problem });
    const narrowed = narrowStoredRule(item);
    if (!narrowed.ok) {
      for (const problem of narrowed.problems) problems.push(inRule(problem));
      return;
    }
    if (seen.has(narrowed.value.id)) {
      problems.push(inRule(fieldProblem("id", "rules_file.id_taken")));
    }
    seen.add(narrowed.value.id);
    rules.push(narrowed.value);
  });
  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, value: { version: RULES_VERSION, rules } };
}

function checkVersion(value: Record<string, unknown>): Phrase | undefined {
  const expected = RULES_VERSION;
  if (!Object.hasOwn(value, "version")) return phrase("rules_file.version_missing", { expected });
  const version = value.version;
  if (version === RULES_VERSION) return undefined;
  // Version 1 matched globs over the serialized preview, across fields: its rules cannot be read
  // as if they meant something narrower, so they are refused, never reinterpreted.
  if (version === 1) return phrase("rules_file.version_old");
  if (typeof version === "number" && Number.isInteger(version) && version > RULES_VERSION) {
    return phrase("rules_file.version_newer", { version, expected });
  }
  return typeof version === "number"
    ? phrase("rules_file.version_unsupported", { version, expected })
    : phrase("rules_file.version_type", { type: typeOf(version), expected });
}

function typeOf(value: unknown): string {
  if (value === null) return "null";
  return Array.isArray(value) ? "array" : typeof value;
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
