/**
 * Which remembered rule answers a call. The rules are passed in; what is read besides is the real
 * path of a deny or ask rule's program and cwd, and the call's content (through the query).
 *
 * A rule applies when it is for the call's tool, scoped globally or to the call's canonical
 * workspace root, and every one of its conditions holds, each on its own field of the preview.
 * Precedence, from strongest: deny, then ask, then allow (a narrower rule never overrides a
 * stricter one); among rules of the same decision a workspace rule is named over a global one,
 * then the smaller id.
 *
 * @module
 */

import { saltedSha256 } from "./_digest.ts";
import { matchGlob } from "./glob.ts";
import { commandPieces, isSimpleCommand } from "./simple_command.ts";
import { canonicalFilePath, canonicalPath, isAbsolutePath } from "../../paths.ts";
import type { CallContent } from "./content.ts";
import type { PreviewSandbox } from "../../sandbox/types.ts";
import type { ChildPreview } from "../../spawn/child.ts";
import type { SpawnPreview } from "../../spawn/types.ts";
import type {
  ArgMatcher,
  ContentCondition,
  InputMatcher,
  Rule,
  RuleMatch,
  RuleQuery,
  SandboxCondition,
  SpawnConditions,
  StaleRule,
  TextMatcher,
  ToolConditions,
} from "./types.ts";

const STRENGTH = { deny: 2, ask: 1, allow: 0 } as const;

/**
 * Orders two rules by precedence.
 *
 * @param a A rule.
 * @param b Another rule.
 * @returns Negative when `a` wins, positive when `b` wins, 0 only for the same id and rank.
 * @throws Never.
 * @example A deny beats an allow, whatever their scopes
 * ```ts
 * import { compareRules } from "./decide.ts";
 * const allow = { id: "r-a", tool: "t", decision: "allow", scope: { workspace: "/w" }, when: {} } as const;
 * const deny = { id: "r-b", tool: "t", decision: "deny", scope: "global", when: {} } as const;
 * console.assert(compareRules(deny, allow) < 0);
 * ```
 */
export function compareRules(a: Rule, b: Rule): number {
  const strength = STRENGTH[b.decision] - STRENGTH[a.decision];
  if (strength !== 0) return strength;
  const workspace = Number(b.scope !== "global") - Number(a.scope !== "global");
  if (workspace !== 0) return workspace;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/**
 * Finds the rule that answers a call, if any: among the rules that apply (see the module
 * documentation), the first by {@linkcode compareRules}.
 *
 * @param rules The rules in force (`LoadedRules.rules`, never the ignored ones).
 * @param query The tool, the kind of call, its preview, and the canonical workspace root.
 * @returns The winning rule and its decision, or `undefined` when no rule applies.
 * @throws Never.
 * @example A deny beats an allow
 * ```ts
 * import { decideByRules } from "./decide.ts";
 * const when = { program: "/bin/rm" };
 * const rules = [
 *   { id: "r-1", tool: "rm", decision: "deny", scope: "global", when: { ...when, argv: ["rm", "-rf", { rest: true }] } },
 *   { id: "r-2", tool: "rm", decision: "allow", scope: { workspace: "/w" }, when },
 * ] as const;
 * const preview = { tool: "rm", program: "/bin/rm", command: ["rm", "-rf", "x"], cwd: "/w", env: [], sandbox: "unconfined", input: {} } as const;
 * const found = await decideByRules(rules, { tool: "rm", kind: "tool", preview, env: {}, root: "/w", fromWorkspace: false });
 * console.assert(found?.decision === "deny" && found.rule.id === "r-1");
 * ```
 */
export async function decideByRules(
  rules: readonly Rule[],
  query: RuleQuery,
): Promise<RuleMatch | undefined> {
  return (await decideCall(rules, query)).match;
}

/**
 * Finds the rule that answers a call, as {@linkcode decideByRules} does, and, when none does, the
 * strongest allow rule that would have but for files changed since it pinned them.
 *
 * @param rules The rules in force.
 * @param query The call.
 * @returns The winning rule, or the allow rule whose files changed, or neither.
 * @throws Never.
 */
export async function decideCall(
  rules: readonly Rule[],
  query: RuleQuery,
): Promise<{ match?: RuleMatch; stale?: StaleRule }> {
  const candidates = rules.filter((rule) =>
    rule.tool === query.tool &&
    (rule.scope === "global" || rule.scope.workspace === query.root)
  );
  if (candidates.length > 1) candidates.sort(compareRules);
  let stale: StaleRule | undefined;
  for (const rule of candidates) {
    const held = await check(rule, query);
    if (held === true) return { match: { rule, decision: rule.decision } };
    if (held !== false && stale === undefined && rule.decision === "allow") {
      stale = { rule, where: held };
    }
  }
  return stale === undefined ? {} : { stale };
}

/**
 * Whether one rule applies to a call (its tool and scope aside): every condition holds.
 *
 * @param rule The rule.
 * @param query The call.
 * @returns True when the rule answers the call.
 */
export async function applies(rule: Rule, query: RuleQuery): Promise<boolean> {
  return await check(rule, query) === true;
}

/** Whether a rule applies; when only its content pins fail, the pins that differ. */
async function check(rule: Rule, query: RuleQuery): Promise<boolean | readonly string[]> {
  if (query.kind === "spawn") return await spawnApplies(rule, query.preview, query.content);
  const when = rule.when as ToolConditions;
  // A workspace tool may shadow a global one by name: a global allow rule covers it only when
  // the rule says which arguments it allows. A stricter rule applies whoever declared the tool.
  if (
    rule.scope === "global" && query.fromWorkspace && rule.decision === "allow" &&
    when.argv === undefined
  ) {
    return false;
  }
  const preview = query.preview;
  const strict = rule.decision !== "allow";
  if (!await envHolds(rule, when.env, query.env)) return false;
  if (when.program !== undefined && !await pathHolds(when.program, preview.program, strict)) {
    return false;
  }
  if (when.argv !== undefined && !await argv(when.argv, preview.command, query.fromInput ?? [])) {
    return false;
  }
  if (when.cwd !== undefined && !await pathHolds(when.cwd, preview.cwd, strict)) return false;
  if (!await sandboxHolds(rule, when.sandbox, preview.sandbox)) return false;
  if (when.input !== undefined) {
    for (const [pointer, matcher] of Object.entries(when.input)) {
      if (!inputHolds(matcher, preview.input, pointer, strict)) return false;
    }
  }
  return await contentHolds(rule, when.content, query.content);
}

async function spawnApplies(
  rule: Rule,
  preview: SpawnPreview,
  content: (() => Promise<CallContent>) | undefined,
): Promise<boolean | readonly string[]> {
  const when = rule.when as SpawnConditions;
  const body = when.body;
  const glob = body !== undefined && typeof body === "object" && "glob" in body;
  // A glob is shell text: it covers commands, and tasks only where the rule says "agent". A deny
  // or ask glob without a mode keeps applying to both.
  const mode = when.mode ?? (glob && rule.decision === "allow" ? "command" : undefined);
  if (mode !== undefined && mode !== preview.mode) return false;
  if (when.sandbox !== undefined && !await sameSandbox(when.sandbox, preview.sandbox)) return false;
  if (when.target !== undefined && when.target !== preview.target) return false;
  if (
    when.cwd !== undefined && !await pathHolds(when.cwd, preview.cwd, rule.decision !== "allow")
  ) {
    return false;
  }
  if (when.reach !== undefined && when.reach !== preview.reach) return false;
  if (when.child !== undefined && !await childHolds(when.child, preview.child)) return false;
  if (!glob) {
    if (body !== undefined && !await text(body, preview.body)) return false;
    // An exact command line pins the workspace files its words name.
    return body === undefined || preview.mode !== "command"
      ? true
      : await contentHolds(rule, when.content, content);
  }
  const pattern = (body as { glob: string }).glob;
  if (preview.mode !== "command") return matchGlob(pattern, preview.body);
  // Shell text: a glob allows only a simple command; a glob that denies or asks also applies to
  // any piece of a compound one.
  if (rule.decision === "allow") {
    return isSimpleCommand(preview.body) && matchGlob(pattern, preview.body);
  }
  return matchGlob(pattern, preview.body) ||
    commandPieces(preview.body).some((piece) => matchGlob(pattern, piece));
}

/**
 * Whether a rule's `content` condition holds: the call's files are exactly the pinned ones, each
 * with the pinned digest. An allow rule without one holds only for a call with no file to pin; a
 * deny or ask rule without one holds whatever they are.
 *
 * @returns True, or the pins that differ (a file that cannot be read differs from every digest).
 */
async function contentHolds(
  rule: Rule,
  condition: ContentCondition | undefined,
  content: (() => Promise<CallContent>) | undefined,
): Promise<true | readonly string[]> {
  if (condition === "any" || (condition === undefined && rule.decision !== "allow")) return true;
  const found = content === undefined ? new Map() as CallContent : await content();
  const pinned = condition ?? {};
  const differ = [...new Set([...Object.keys(pinned), ...found.keys()])].filter((where) =>
    !Object.hasOwn(pinned, where) || found.get(where)?.sha256 !== pinned[where]
  );
  return differ.length === 0 ? true : differ;
}

/**
 * Whether a path condition holds. A deny or ask rule's plain path also holds for the path as
 * written and as resolved on either side (`/bin/x` and `/usr/bin/x` on a merged `/usr`, a link
 * and its target): a stricter rule never misses a call for how a path is spelt.
 */
async function pathHolds(matcher: TextMatcher, value: string, strict: boolean): Promise<boolean> {
  if (await text(matcher, value)) return true;
  if (!strict || typeof matcher !== "string" || !isAbsolutePath(matcher)) return false;
  const forms = new Set([value, canonicalPath(value)]);
  return [matcher, canonicalFilePath(matcher), canonicalPath(matcher)].some((form) =>
    forms.has(form)
  );
}

/**
 * The canonical text of a preview's `child` that a `child` digest is taken over, and that exact
 * child conditions are compared by: its keys in the pinned order (roster, model, system_prompt),
 * the roster sorted, each name once.
 *
 * @param child The child description.
 * @returns Compact JSON.
 * @throws Never.
 */
export function childText(child: ChildPreview): string {
  return JSON.stringify({
    ...(child.roster === undefined ? {} : { roster: [...new Set(child.roster)].sort() }),
    ...(child.model === undefined ? {} : { model: child.model }),
    ...(child.system_prompt === undefined ? {} : { system_prompt: child.system_prompt }),
  });
}

/** Whether a rule's `child` condition holds: the same child, or its digest. */
async function childHolds(
  condition: NonNullable<SpawnConditions["child"]>,
  found: ChildPreview | undefined,
): Promise<boolean> {
  if (found === undefined) return false;
  if ("sha256" in condition) {
    return await saltedSha256(condition.salt, childText(found)) === condition.sha256;
  }
  return childText(condition) === childText(found);
}

/**
 * The canonical text of a manifest `env` that an `env` digest is taken over: its entries sorted by
 * name, as JSON.
 *
 * @param env The variables and their values.
 * @returns `[[name, value], ...]` as compact JSON.
 * @throws Never.
 */
export function envText(env: Readonly<Record<string, string>>): string {
  return JSON.stringify(Object.keys(env).sort().map((name) => [name, env[name]]));
}

/**
 * Whether a rule's `env` condition holds. The manifest's variables change what a program does
 * (`GIT_CONFIG_*`, `LD_PRELOAD`): an allow rule that does not say which holds only when the
 * manifest sets none; a deny or ask rule without one holds whatever it sets.
 */
async function envHolds(
  rule: Rule,
  condition: ToolConditions["env"],
  env: Readonly<Record<string, string>>,
): Promise<boolean> {
  if (condition === "any") return true;
  if (condition === undefined) return rule.decision !== "allow" || Object.keys(env).length === 0;
  return await saltedSha256(condition.salt, envText(env)) === condition.sha256;
}

/**
 * The canonical text of a call's grants that a `sandbox` digest (grants holding a secret) is taken
 * over: the paths sorted, each once, as JSON.
 *
 * @param sandbox The grants.
 * @returns Compact JSON.
 * @throws Never.
 */
export function grantsText(sandbox: PreviewSandbox): string {
  if (typeof sandbox === "string") return JSON.stringify(sandbox);
  const paths = (list: readonly string[]) => [...new Set(list)].sort();
  const { network, write, read } = sandbox;
  return JSON.stringify({ network, write: paths(write), read: paths(read) });
}

/**
 * Whether a call's sandbox is the one a rule names: `"any"`, both unconfined, or the same network
 * and the same write and read paths (as sets), or grants of that digest. A preview without grants
 * (a spawn call with only the default) matches no sandbox condition but `"any"`.
 */
async function sameSandbox(
  wanted: SandboxCondition,
  found: PreviewSandbox | undefined,
): Promise<boolean> {
  if (wanted === "any") return true;
  if (found === undefined) return false;
  if (typeof wanted === "object" && "sha256" in wanted) {
    return await saltedSha256(wanted.salt, grantsText(found)) === wanted.sha256;
  }
  if (typeof wanted === "string" || typeof found === "string") return wanted === found;
  return wanted.network === found.network && sameSet(wanted.write, found.write) &&
    sameSet(wanted.read, found.read);
}

/**
 * Whether a rule's `sandbox` condition holds for a declared tool's call. What a call may touch is
 * part of what is approved: an allow rule that does not say holds only for a call with no grants
 * (nothing beyond the default sandbox, or unconfined by the user's own policy), so a repository
 * that adds `"network": true` is asked about; a deny or ask rule without one holds whatever the
 * grants.
 */
async function sandboxHolds(
  rule: Rule,
  condition: SandboxCondition | undefined,
  found: PreviewSandbox,
): Promise<boolean> {
  if (condition !== undefined) return await sameSandbox(condition, found);
  if (rule.decision !== "allow" || typeof found === "string") return true;
  return !found.network && found.write.length === 0 && found.read.length === 0;
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  const left = new Set(a);
  const right = new Set(b);
  return left.size === right.size && [...left].every((path) => right.has(path));
}

async function text(matcher: TextMatcher, value: string): Promise<boolean> {
  if (typeof matcher === "string") return matcher === value;
  if ("glob" in matcher) return matchGlob(matcher.glob, value);
  return await saltedSha256(matcher.salt, value) === matcher.sha256;
}

async function argv(
  matchers: readonly ArgMatcher[],
  args: readonly string[],
  fromInput: readonly { readonly index: number; readonly field: string }[],
): Promise<boolean> {
  const last = matchers[matchers.length - 1];
  const rest = last !== undefined && typeof last === "object" && "rest" in last;
  const fixed = rest ? matchers.length - 1 : matchers.length;
  if (rest ? args.length < fixed : args.length !== fixed) return false;
  for (let i = 0; i < fixed; i++) {
    const matcher = matchers[i] as Exclude<ArgMatcher, { rest: true }>;
    const arg = args[i] as string;
    if (typeof matcher === "object" && "input" in matcher) {
      if (!fromInput.some(({ index, field }) => index === i && field === matcher.input)) {
        return false;
      }
    } else if (typeof matcher === "object" && "operand" in matcher) {
      if (arg.startsWith("-") || !matchGlob(matcher.operand, arg)) return false;
    } else if (!await text(matcher, arg)) return false;
  }
  return true;
}

function inputHolds(
  matcher: InputMatcher,
  input: unknown,
  pointer: string,
  strict: boolean,
): boolean {
  const found = resolvePointer(input, pointer);
  if (!found.ok) return false;
  if ("glob" in matcher) {
    return typeof found.value === "string" && matchGlob(matcher.glob, found.value);
  }
  return jsonEqual(matcher.equals, found.value, strict);
}

/**
 * The value a JSON pointer (RFC 6901) names.
 *
 * @param document The JSON value.
 * @param pointer The pointer (`""` is the whole document).
 * @returns The value, or `ok: false` when there is none.
 */
export function resolvePointer(
  document: unknown,
  pointer: string,
): { ok: true; value: unknown } | { ok: false } {
  if (pointer === "") return { ok: true, value: document };
  let value = document;
  for (const raw of pointer.slice(1).split("/")) {
    const token = raw.replaceAll("~1", "/").replaceAll("~0", "~");
    if (isRawJSON(value)) return { ok: false }; // A number, kept as written: it has no members.
    if (Array.isArray(value)) {
      if (!/^(0|[1-9][0-9]*)$/.test(token) || Number(token) >= value.length) return { ok: false };
      value = value[Number(token)];
    } else if (typeof value === "object" && value !== null && Object.hasOwn(value, token)) {
      value = (value as Record<string, unknown>)[token];
    } else {
      return { ok: false };
    }
  }
  return { ok: true, value };
}

/** `JSON.isRawJSON` (ES2025, in V8): a number of the input kept as the caller wrote it. */
const isRawJSON = (JSON as unknown as { isRawJSON(value: unknown): boolean }).isRawJSON;

/**
 * A number as exact decimal digits and a power of ten, trailing zeros taken into the exponent:
 * `1`, `1.0`, `1e0`, `10e-1` and `1.00` are all `1e0`. The text as written when kept raw, else
 * as JavaScript writes its double.
 */
function numberValue(value: unknown): string | undefined {
  const text = isRawJSON(value)
    ? (value as { rawJSON: string }).rawJSON
    : typeof value === "number" && Number.isFinite(value)
    ? String(value)
    : undefined;
  const parts = text === undefined
    ? undefined
    : /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (parts === undefined || parts === null) return undefined;
  const [, sign, whole = "", fraction = "", exponent = "0"] = parts;
  const digits = `${whole}${fraction}`.replace(/^0+/, "");
  if (digits === "") return "0";
  const significant = digits.replace(/0+$/, "");
  const power = BigInt(exponent) - BigInt(fraction.length) +
    BigInt(digits.length - significant.length);
  return `${sign}${significant}e${power}`;
}

/**
 * Equality of JSON values: objects compared by their own keys in any order; numbers by their
 * exact decimal value however they are written (`1` = `1.0` = `1e0`), digits beyond what a double
 * holds included (the program receives them as written). The rules file is read as JSON, so a
 * rule's number is a double: for a deny or ask rule (`strict`) a number also equals every number
 * that reads as the same double, so that no spelling of it escapes the rule.
 */
function jsonEqual(a: unknown, b: unknown, strict: boolean): boolean {
  if (a === b) return true;
  const number = numberValue(a);
  if (number !== undefined || isRawJSON(b)) {
    const other = numberValue(b);
    return number !== undefined && other !== undefined &&
      (number === other || (strict && Number(number) === Number(other)));
  }
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    return a.length === other.length && a.every((item, i) => jsonEqual(item, other[i], strict));
  }
  const aKeys = Object.keys(a);
  const bRecord = b as Record<string, unknown>;
  if (aKeys.length !== Object.keys(bRecord).length) return false;
  return aKeys.every((key) =>
    Object.hasOwn(bRecord, key) &&
    jsonEqual((a as Record<string, unknown>)[key], bRecord[key], strict)
  );
}
