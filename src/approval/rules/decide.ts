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
import { commandPieces, isSimpleCommand, matchGlob } from "./glob.ts";
import { canonicalFilePath, canonicalPath, isAbsolutePath } from "../../paths.ts";
import type { CallContent } from "./content.ts";
import type { PreviewSandbox } from "../../sandbox/types.ts";
import type { ChildPreview } from "../../spawn/child.ts";
import type { ArgMatcher, ContentCondition, InputMatcher, Rule, RuleQuery } from "./types.ts";
import type { InputSlot } from "../approve.ts";
import type { SandboxCondition, SpawnConditions, StaleRule } from "./types.ts";
import type { TextMatcher, ToolConditions } from "./types.ts";

const STRENGTH = { deny: 2, ask: 1, allow: 0 } as const;

/**
 * Finds the rule that answers a call, if any: among the rules that apply (see the module
 * documentation), the first by precedence; and, when none does, the strongest allow rule that
 * would have but for files changed since it pinned them.
 *
 * @param rules The rules in force (`LoadedRules.rules`, never the ignored ones).
 * @param query The tool, the kind of call, its preview, and the canonical workspace root.
 * @returns The winning rule, or the allow rule whose files changed, or neither.
 * @throws Never.
 * @example A deny beats an allow
 * ```ts
 * import { decideCall } from "./decide.ts";
 * const when = { program: "/bin/rm" };
 * const rules = [
 *   { id: "r-1", tool: "rm", decision: "deny", scope: "global", when: { ...when, argv: ["rm", "-rf", { rest: true }] } },
 *   { id: "r-2", tool: "rm", decision: "allow", scope: { workspace: "/w" }, when },
 * ] as const;
 * const preview = { tool: "rm", program: "/bin/rm", command: ["rm", "-rf", "x"], cwd: "/w", env: [], sandbox: "unconfined", input: {} } as const;
 * const { match } = await decideCall(rules, { tool: "rm", sideEffect: "process", preview, root: "/w", source: "global" });
 * console.assert(match?.decision === "deny" && match.id === "r-1");
 * ```
 */
export async function decideCall(
  rules: readonly Rule[],
  query: RuleQuery,
): Promise<{ match?: Rule; stale?: StaleRule }> {
  const candidates = rules.filter((rule) =>
    rule.tool === query.tool && (rule.scope === "global" || rule.scope.workspace === query.root)
  ).sort((a, b) =>
    // The stronger decision, then a workspace rule, then the smaller id.
    STRENGTH[b.decision] - STRENGTH[a.decision] ||
    Number(b.scope !== "global") - Number(a.scope !== "global") ||
    (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
  );
  let stale: StaleRule | undefined;
  for (const rule of candidates) {
    const held = await check(rule, query);
    if (held === true) return { match: rule };
    if (held !== false && rule.decision === "allow") stale ??= { rule, where: held };
  }
  return stale === undefined ? {} : { stale };
}

/** Whether a rule applies; when only its content pins fail, the pins that differ. */
async function check(rule: Rule, query: RuleQuery): Promise<boolean | readonly string[]> {
  const strict = rule.decision !== "allow";
  if (query.kind === "spawn") return await spawnApplies(rule, strict, query);
  const when = rule.when as ToolConditions;
  const { preview, env = {}, source = "workspace" } = query;
  // A workspace tool may shadow a global one by name: a global allow rule covers it only when
  // the rule says which arguments it allows. A stricter rule applies whoever declared the tool.
  if (rule.scope === "global" && source === "workspace" && !strict && when.argv === undefined) {
    return false;
  }
  // The manifest's variables change what a program does (`GIT_CONFIG_*`, `LD_PRELOAD`): an allow
  // rule that does not say which holds only when the manifest sets none.
  const envHolds = when.env === "any" ||
    (when.env === undefined
      ? strict || Object.keys(env).length === 0
      : await saltedSha256(when.env.salt, envText(env)) === when.env.sha256);
  const holds = envHolds &&
    (when.program === undefined || await pathHolds(when.program, preview.program, strict)) &&
    (when.argv === undefined ||
      await argv(when.argv, preview.command, query.example ? undefined : query.fromInput ?? [])) &&
    (when.cwd === undefined || await pathHolds(when.cwd, preview.cwd, strict)) &&
    await sandboxHolds(strict, when.sandbox, preview.sandbox) &&
    Object.entries(when.input ?? {}).every(([pointer, matcher]) =>
      inputHolds(matcher, preview.input, pointer, strict)
    );
  return holds && await contentHolds(strict, when.content, query.content);
}

async function spawnApplies(
  rule: Rule,
  strict: boolean,
  { preview, content }: Extract<RuleQuery, { kind: "spawn" }>,
): Promise<boolean | readonly string[]> {
  const when = rule.when as SpawnConditions;
  const body = when.body;
  const glob = typeof body === "object" && "glob" in body ? body.glob : undefined;
  // A glob is shell text: it covers commands, and tasks only where the rule says "agent". A deny
  // or ask glob without a mode keeps applying to both.
  const mode = when.mode ?? (glob !== undefined && !strict ? "command" : undefined);
  const child = when.child;
  const holds = (mode === undefined || mode === preview.mode) &&
    (when.sandbox === undefined || await sameSandbox(when.sandbox, preview.sandbox)) &&
    (when.target === undefined || when.target === preview.target) &&
    (when.cwd === undefined || await pathHolds(when.cwd, preview.cwd, strict)) &&
    (when.reach === undefined || when.reach === preview.reach) &&
    (child === undefined || (preview.child !== undefined &&
      await text("sha256" in child ? child : childText(child), childText(preview.child))));
  if (!holds) return false;
  if (glob === undefined) {
    if (body !== undefined && !await text(body, preview.body)) return false;
    // An exact command line pins the workspace files its words name.
    return body === undefined || preview.mode !== "command"
      ? true
      : await contentHolds(strict, when.content, content);
  }
  if (preview.mode !== "command") return matchGlob(glob, preview.body);
  // Shell text: a glob allows only a simple command; a glob that denies or asks also applies to
  // any piece of a compound one.
  if (!strict) return isSimpleCommand(preview.body) && matchGlob(glob, preview.body);
  return matchGlob(glob, preview.body) ||
    commandPieces(preview.body).some((piece) => matchGlob(glob, piece));
}

/**
 * Whether a rule's `content` condition holds: the call's files are exactly the pinned ones, each
 * with the pinned digest. An allow rule without one holds only for a call with no file to pin; a
 * deny or ask rule without one holds whatever they are. Else the pins that differ (a file that
 * cannot be read differs from every digest).
 */
async function contentHolds(
  strict: boolean,
  condition: ContentCondition | undefined,
  content: (() => Promise<CallContent>) | undefined,
): Promise<true | readonly string[]> {
  if (condition === "any" || (condition === undefined && strict)) return true;
  const found: CallContent = content === undefined ? new Map() : await content();
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
  return [matcher, canonicalFilePath(matcher), canonicalPath(matcher)].some((f) => forms.has(f));
}

/**
 * The canonical text of a preview's `child` that a `child` digest is taken over, and that exact
 * child conditions are compared by: its keys in the pinned order (roster, model, system_prompt),
 * the roster sorted, each name once.
 *
 * @param child The child description.
 * @returns Compact JSON.
 */
export function childText(child: ChildPreview): string {
  // An absent key (`undefined`) is left out.
  const roster = child.roster && [...new Set(child.roster)].sort();
  return JSON.stringify({ roster, model: child.model, system_prompt: child.system_prompt });
}

/**
 * The canonical text of a manifest `env` that an `env` digest is taken over: its entries sorted by
 * name, as JSON.
 *
 * @param env The variables and their values.
 * @returns `[[name, value], ...]` as compact JSON.
 */
export function envText(env: Readonly<Record<string, string>>): string {
  return JSON.stringify(Object.keys(env).sort().map((name) => [name, env[name]]));
}

/**
 * The canonical text of a call's grants that a `sandbox` digest (grants holding a secret) is taken
 * over: the paths sorted, each once, as JSON.
 *
 * @param sandbox The grants.
 * @returns Compact JSON.
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
  const digest = typeof wanted === "object" && "sha256" in wanted;
  return await text(digest ? wanted : grantsText(wanted), grantsText(found));
}

/**
 * Whether a rule's `sandbox` condition holds for a declared tool's call. What a call may touch is
 * part of what is approved: an allow rule that does not say holds only for a call with no grants
 * (nothing beyond the default sandbox, or unconfined by the user's own policy), so a repository
 * that adds `"network": true` is asked about; a deny or ask rule without one holds whatever the
 * grants.
 */
async function sandboxHolds(
  strict: boolean,
  condition: SandboxCondition | undefined,
  found: PreviewSandbox,
): Promise<boolean> {
  if (condition !== undefined) return await sameSandbox(condition, found);
  return strict || typeof found === "string" ||
    (!found.network && found.write.length + found.read.length === 0);
}

async function text(matcher: TextMatcher, value: string): Promise<boolean> {
  if (typeof matcher === "string") return matcher === value;
  if ("glob" in matcher) return matchGlob(matcher.glob, value);
  return await saltedSha256(matcher.salt, value) === matcher.sha256;
}

/**
 * Whether an argv condition holds, matcher by matcher: a text, glob or digest for the argument's
 * text; an operand; `{"input": field}` for an argument the call took from that field; and
 * `{"input": field, "flag" | "prefix": …}` for an optional one, which the call may have there or
 * leave out. `fromInput` says where the call's arguments came from (`undefined`: an example, whose
 * arguments are taken to come from the input where the text fits: any text for a value, the flag,
 * or a text after the prefix).
 */
async function argv(
  matchers: readonly ArgMatcher[],
  args: readonly string[],
  fromInput: readonly InputSlot[] | undefined,
): Promise<boolean> {
  const slots = new Map(
    fromInput?.filter((slot) => !slot.absent).map((slot) => [slot.index, slot]),
  );
  // Where the matchers so far may end: an optional argument may be there or not.
  let at = new Set([0]);
  for (const matcher of matchers) {
    if (typeof matcher === "object" && "rest" in matcher) return true;
    const optional = typeof matcher === "object" && ("flag" in matcher || "prefix" in matcher);
    const next = new Set<number>(optional ? at : []);
    for (const i of at) {
      if (i < args.length && await argHolds(matcher, args[i]!, slots.get(i), !fromInput)) {
        next.add(i + 1);
      }
    }
    if (next.size === 0) return false;
    at = next;
  }
  return at.has(args.length);
}

/** Whether one matcher (not the rest marker) holds for one argument, from `slot` when it came. */
async function argHolds(
  matcher: Exclude<ArgMatcher, { rest: true }>,
  arg: string,
  slot: InputSlot | undefined,
  byText: boolean,
): Promise<boolean> {
  if (typeof matcher !== "object" || !("input" in matcher || "operand" in matcher)) {
    return await text(matcher, arg);
  }
  if ("operand" in matcher) return !arg.startsWith("-") && matchGlob(matcher.operand, arg);
  const { flag, prefix } = matcher as { flag?: string; prefix?: string };
  if (byText) return flag === undefined ? arg.startsWith(prefix ?? "") : arg === flag;
  return slot?.field === matcher.input && slot.flag === flag && slot.prefix === prefix;
}

/** `JSON.isRawJSON` (ES2025, in V8): a number of the input kept as the caller wrote it. */
const isRawJSON = (JSON as unknown as { isRawJSON(value: unknown): boolean }).isRawJSON;

/** Whether the input's value at `pointer` (RFC 6901; none: fails) meets the condition. */
function inputHolds(matcher: InputMatcher, input: unknown, pointer: string, strict: boolean) {
  let value = input;
  for (const raw of pointer === "" ? [] : pointer.slice(1).split("/")) {
    const token = raw.replaceAll("~1", "/").replaceAll("~0", "~");
    // A number, kept as written, has no members.
    if (typeof value !== "object" || value === null || isRawJSON(value)) return false;
    if (Array.isArray(value)) {
      if (!/^(0|[1-9][0-9]*)$/.test(token) || Number(token) >= value.length) return false;
    } else if (!Object.hasOwn(value, token)) return false;
    value = (value as Record<string, unknown>)[token];
  }
  if ("glob" in matcher) return typeof value === "string" && matchGlob(matcher.glob, value);
  return jsonEqual(matcher.equals, value, strict);
}

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
    : "";
  const parts = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (parts === null) return undefined;
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
  const aKeys = Object.keys(a);
  const record = b as Record<string, unknown>;
  return aKeys.length === Object.keys(record).length &&
    aKeys.every((key) =>
      Object.hasOwn(record, key) &&
      jsonEqual((a as Record<string, unknown>)[key], record[key], strict)
    );
}
