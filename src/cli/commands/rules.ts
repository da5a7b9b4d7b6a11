/**
 * `basis-tools rules list|add|test|remove|check`: the remembered rules in the user's config
 * directory. Rules are scoped to the current workspace root (its canonical path) unless `--global`
 * is given.
 *
 * @module
 */

import { addRule, loadRules, removeRule } from "../../approval/rules/store.ts";
import { RulesFileError } from "../../approval/rules/errors.ts";
import { keepApproved } from "../../approval/rules/approved.ts";
import { contentCondition, pinConditions } from "../../approval/rules/pin.ts";
import { type CallContent, callContent } from "../../approval/rules/content.ts";
import type { Rule, RuleInput, ToolConditions } from "../../approval/rules/types.ts";
import type { ToolSpec } from "../../manifest/types.ts";
import { parseKeepingNumbers } from "../../json_text.ts";
import { jsonDetail, withQuoteHint } from "../_call_input.ts";
import { callSecrets, secretEnv } from "../../redact.ts";
import { resolveRunProgram } from "../../run/run_program.ts";
import { canonicalFilePath, canonicalPath, isAbsolutePath } from "../../paths.ts";
import { SPAWN_TOOL } from "../../spawn/types.ts";
import { loadSandboxPolicy } from "../../sandbox/policy.ts";
import { planSandbox, previewSandbox } from "../../sandbox/plan.ts";
import { findTool, rosterFor, workspaceRoot } from "../_roster.ts";
import { formatTable } from "../_table.ts";
import { out, outJson } from "../output.ts";
import { BasisError } from "../../errors.ts";
import type { MessageKey } from "../../locale/en_us.ts";
import {
  type Messages,
  messages,
  phrase,
  type PhraseParams,
  plural,
} from "../../locale/messages.ts";
import type { Settings } from "../settings.ts";
import { optionText } from "../args.ts";
import { nearWords } from "../../suggest.ts";
import { callCommand } from "./call.ts";

/** The parsed options of a `rules` command. */
export type RulesOptions = Map<string, string | boolean | string[]>;

/** How many arguments each subcommand takes, at least and at most, and the error that says so. */
const ARITY: Readonly<Record<string, readonly [number, number, MessageKey]>> = {
  list: [0, 0, "cli.rules_no_arguments"],
  add: [0, 0, "cli.rules_no_arguments"],
  remove: [1, 1, "cli.rules_one_argument"],
  check: [0, 0, "cli.rules_no_arguments"],
  test: [1, 2, "cli.rules_test_arguments"],
};

/** The subcommands of `rules`. */
export const RULES_SUBCOMMANDS: readonly string[] = Object.keys(ARITY);

/**
 * Runs one `rules` subcommand.
 *
 * @param settings The run's settings.
 * @param positionals The subcommand and its arguments.
 * @param options The command's options.
 * @returns The exit code.
 * @throws {BasisError} `usage` for an unknown subcommand or a missing argument.
 */
export async function rulesCommand(
  settings: Settings,
  positionals: readonly string[],
  options: RulesOptions,
): Promise<number> {
  const [sub = "", ...rest] = positionals;
  const command = `"rules${sub === "" ? "" : ` ${sub}`}"`;
  if (!Object.hasOwn(ARITY, sub)) {
    const near = nearWords(sub, Object.keys(ARITY), 1, { prefix: true });
    throw near.length === 0
      ? usage("cli.rules_subcommand", { command })
      : usage("cli.rules_subcommand_near", { command, names: `"rules ${near[0]}"` });
  }
  const [min, max, key] = ARITY[sub]!;
  if (rest.length < min || rest.length > max) throw usage(key, { command });
  const words = messages(settings.locale);
  if (sub === "list") return list(settings, words);
  if (sub === "add") return await add(settings, options, words);
  if (sub === "check") return await check(settings);
  if (sub === "test") {
    // `rules test NAME [INPUT]`: the call's preview and decision, as `call --dry-run` prints them.
    return await callCommand(settings, rest[0]!, rest[1], { dryRun: true });
  }
  const rule = await removeRule(settings.configDir, rest[0]!);
  if (settings.json) outJson(rule);
  else out(`${changed(words, "rules.removed", rule)}\n`);
  return 0;
}

/** A usage error, in English and reworded in the run's locale when reported. */
function usage(key: MessageKey, params?: PhraseParams): BasisError {
  return BasisError.of("usage", phrase(key, params));
}

async function list(settings: Settings, words: Messages): Promise<number> {
  const { file, rules, ignored } = await loadRules(settings.configDir);
  const all = [...rules, ...ignored];
  const { t } = words;
  if (settings.json) {
    outJson({ file, rules: all.map((rule) => ({ ...rule, ignored: ignored.includes(rule) })) });
  } else if (all.length === 0) {
    out(`${t("rules.none", { file })}\n`);
  } else {
    const rows = all.map((rule) => [
      rule.id,
      rule.decision,
      rule.tool,
      scopeText(rule, words),
      JSON.stringify(rule.when) + (rule.reason === undefined ? "" : ` — ${rule.reason}`) +
      (ignored.includes(rule) ? t("rules.ignored") : ""),
    ]);
    const heading = [t("rules.heading_id"), t("rules.heading_decision"), t("rules.heading_tool")];
    // Aligned in columns, cut to the terminal's width (whole when stdout is not a terminal).
    const head = [...heading, t("rules.heading_scope"), t("rules.heading_when")];
    out(formatTable([head, ...rows]).join("\n") + "\n");
  }
  return 0;
}

/**
 * Parses the JSON value of an option, every number as written (a rule compares numbers exactly),
 * or refuses it naming the option.
 */
async function optionJson(tool: string, option: string, text: string): Promise<unknown> {
  try {
    return parseKeepingNumbers(text);
  } catch {
    // Described by kind and place, never echoing the text.
    const detail = withQuoteHint(text, await jsonDetail(text));
    throw usage("cli.rules_bad_json", {
      tool: JSON.stringify(tool),
      option: `"${option}"`,
      detail,
    });
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The conditions given on the command line: `--when`, then each field's own option over it. */
async function givenConditions(
  tool: string,
  options: RulesOptions,
): Promise<Record<string, unknown> | undefined> {
  const json = (option: string, text: string) => optionJson(tool, `--${option}`, text);
  const whenText = options.get("when");
  let when: Record<string, unknown> | undefined;
  if (typeof whenText === "string") {
    const value = await json("when", whenText);
    // Not an object: the rule's own check names the field.
    if (!isObject(value)) return value as Record<string, unknown>;
    when = { ...value };
  }
  const set = (key: string, value: unknown) => (when ??= {})[key] = value;
  const fields = [
    "program",
    "argv",
    "cwd",
    "sandbox",
    "input",
    "body",
    "body-glob",
    "target",
    "mode",
  ];
  for (const name of fields) {
    const value = options.get(name);
    if (name === "input") {
      for (const pair of Array.isArray(value) ? value : []) {
        const eq = pair.indexOf("=");
        if (eq < 0) throw usage("cli.rules_bad_input_condition", { tool: JSON.stringify(tool) });
        const input = (when?.input ?? {}) as Record<string, unknown>;
        set("input", {
          ...input,
          [pair.slice(0, eq)]: { equals: await json(name, pair.slice(eq + 1)) },
        });
      }
    } else if (typeof value === "string") {
      const parsed = name === "argv" ||
        (name === "sandbox" && value !== "unconfined" && value !== "any");
      const glob = name === "body-glob";
      set(glob ? "body" : name, parsed ? await json(name, value) : glob ? { glob: value } : value);
    }
  }
  // A path is stored as a call shows it (links resolved), so a rule holds for every spelling.
  if (typeof when?.program === "string" && isAbsolutePath(when.program)) {
    when.program = canonicalFilePath(when.program);
  }
  if (typeof when?.cwd === "string" && isAbsolutePath(when.cwd)) when.cwd = canonicalPath(when.cwd);
  return when;
}

async function add(settings: Settings, options: RulesOptions, words: Messages): Promise<number> {
  const text = (name: string) => optionText(options, name);
  const tool = text("tool");
  if (tool === undefined) throw usage("cli.rules_tool_required");
  const [deny, ask, global] = ["deny", "ask", "global"].map((name) => options.get(name) === true);
  if (deny && ask) throw usage("cli.rules_deny_and_ask", { tool: JSON.stringify(tool) });
  const decision = deny ? "deny" : ask ? "ask" : "allow";
  const given = await givenConditions(tool, options);
  let when: unknown = given ?? {};
  // What an allow rule pins beyond what was given: never for a deny or ask rule, which keeps
  // applying however the manifest changes.
  let pinned: string[] = [];
  let content: CallContent | undefined;
  let root: string;
  // What the rules file must never hold: the --env values, and the tool's env values.
  let secrets = callSecrets(settings.env);
  if (tool === SPAWN_TOOL) {
    root = await workspaceRoot(settings);
    if (decision === "allow" && isObject(when)) {
      ({ when, pinned, content } = await pinnedSpawn(when, canonicalPath(root), settings));
    }
  } else {
    // A rule is for a tool that exists, and never for its name alone: it pins what runs.
    const roster = await rosterFor(settings, { whole: true });
    root = roster.root;
    const spec = findTool(roster, tool);
    secrets = callSecrets(secretEnv(spec), settings.env);
    if (decision === "allow" && isObject(when)) {
      const now = await pinnedNow(spec, settings, root, global === true, given?.program);
      const pins = now.when as Record<string, unknown>;
      content = now.content;
      // What was not given is pinned as it is now (given nothing: everything).
      pinned = given === undefined
        ? Object.keys(pins)
        : ["program", "env", "content"].filter((key) =>
          !Object.hasOwn(given, key) && pins[key] !== undefined
        );
      when = given === undefined
        ? pins
        : { ...given, ...Object.fromEntries(pinned.map((key) => [key, pins[key]])) };
    }
  }
  const reason = text("reason");
  const examples = async (option: string) => {
    const texts = options.get(option);
    if (!Array.isArray(texts)) return undefined;
    const parsed: unknown[] = [];
    for (const text of texts) parsed.push(await optionJson(tool, `--${option}`, text));
    return parsed;
  };
  const match = await examples("match");
  const notMatch = await examples("not-match");
  const rule = await addRule(settings.configDir, {
    tool,
    decision,
    scope: global === true ? "global" : { workspace: root },
    when,
    ...(reason === undefined ? {} : { reason }),
    ...(match === undefined ? {} : { match }),
    ...(notMatch === undefined ? {} : { not_match: notMatch }),
  } as RuleInput, { secrets });
  if (content !== undefined && pinned.includes("content") && rule.existing !== true) {
    await keepApproved(settings.configDir, content, secrets);
  }
  if (settings.json) {
    outJson(rule);
    return 0;
  }
  const lines = [changed(words, rule.existing ? "rules.exists" : "rules.added", rule)];
  if (pinned.length > 0 && rule.existing !== true) {
    const fields = Object.keys(rule.when).filter((key) => pinned.includes(key)).join(", ");
    lines.push(words.t("rules.pinned", { fields, conditions: JSON.stringify(rule.when) }));
  }
  out(`${lines.join("\n")}\n`);
  return 0;
}

/**
 * What an allow rule for spawn pins beyond what was given: a glob is bound to commands unless the
 * rule names a mode, and an exact command line pins the workspace files its words name.
 */
async function pinnedSpawn(
  given: Record<string, unknown>,
  root: string,
  settings: Settings,
): Promise<{ when: Record<string, unknown>; pinned: string[]; content?: CallContent }> {
  const { body, mode } = given;
  if (isObject(body) && "glob" in body && mode === undefined) {
    return { when: { ...given, mode: "command" }, pinned: ["mode"] };
  }
  const none = { when: given, pinned: [] };
  if (typeof body !== "string" || (mode !== undefined && mode !== "command")) return none;
  const cwd = typeof given.cwd === "string" ? given.cwd : root;
  const content = await callContent({ kind: "spawn", body, cwd }, {
    root,
    cacheDir: settings.cacheDir,
  });
  const pins = contentCondition(content);
  if (pins === undefined || Object.hasOwn(given, "content")) return none;
  return { when: { ...given, content: pins }, pinned: ["content"], content };
}

/**
 * What the tool runs now, as conditions: its resolved program, argv, (for a workspace rule) cwd,
 * the manifest's env by digest, the sandbox grants it has and the files that decide what runs,
 * secrets digested. A global rule does not pin the cwd: a tool's cwd is its workspace's. The
 * content pins the program given instead of the tool's own, when one is.
 */
async function pinnedNow(
  spec: ToolSpec,
  settings: Settings,
  root: string,
  global: boolean,
  program: unknown,
): Promise<{ when: ToolConditions; content: CallContent }> {
  const cannot = (problem: PhraseParams[string]) =>
    usage("rules.cannot_add", { tool: JSON.stringify(spec.name), problem });
  // As a call sees them: the real directory, the program found with the env it gets.
  const where = canonicalPath(spec.cwd);
  const found = resolveRunProgram({
    program: spec.program,
    args: [],
    cwd: where,
    stdin: new Uint8Array(),
    env: [settings.env, spec.env],
    timeoutMs: spec.timeoutMs,
  });
  if (!found.ok) throw cannot(found.reason);
  // The grants the call has now, as its preview will show them.
  const plan = await planSandbox({
    caller: { kind: "tool", grants: spec.sandbox },
    root,
    cwd: where,
    program: found.path,
  }, {
    policy: await loadSandboxPolicy(settings.configDir),
    env: settings.envLookup,
    cacheDir: settings.cacheDir,
  });
  if (plan.kind === "refused" || plan.kind === "unavailable") throw cannot(plan.reason);
  const sandbox = previewSandbox(plan);
  if (sandbox === undefined) throw cannot(phrase("sandbox.no_home"));
  // An argument filled from the input matches any value of its field (an optional one, there or
  // not), as "always allow" pins it.
  const fromInput = spec.inputArguments;
  const content = await callContent({
    kind: "tool",
    program: typeof program === "string" ? program : found.path,
    command: spec.command,
    cwd: where,
    fromInput: fromInput?.map((arg) => arg.index) ?? [],
    ...(spec.files === undefined ? {} : { files: spec.files }),
  }, { root: canonicalPath(root), cacheDir: settings.cacheDir });
  for (const [pin, { sha256, path }] of content) {
    if (sha256 === undefined) {
      throw cannot(phrase("rules.cannot_read", { where: pin, path: JSON.stringify(path) }));
    }
  }
  const { cwd, ...rest } = await pinConditions({
    kind: "tool",
    preview: { program: found.path, command: spec.command, cwd: where, sandbox },
    env: spec.env,
    ...(fromInput ? { fromInput } : {}),
    content,
  }) as ToolConditions;
  return { when: global ? rest : { ...rest, cwd } as ToolConditions, content };
}

/**
 * `rules check`: one line per problem, in the run's locale; with `--json`, the problems in English
 * whatever the locale, as they always were (scripts read them).
 */
async function check(settings: Settings): Promise<number> {
  const words = messages(settings.json ? "en-US" : settings.locale);
  let count = 0;
  let file: string;
  let problems: string[];
  try {
    const loaded = await loadRules(settings.configDir);
    file = loaded.file;
    count = loaded.rules.length + loaded.ignored.length;
    problems = loaded.problems.map(({ id, phrase, ignored }) =>
      `${id}: ${words.say(phrase)}${ignored ? words.t("rules.problem_ignored") : ""}`
    );
  } catch (error) {
    if (!(error instanceof RulesFileError)) throw error;
    file = error.file;
    problems = error.problems.map((problem) => words.say(problem));
  }
  if (settings.json) {
    outJson({ ok: problems.length === 0, file, rules: count, problems });
  } else if (problems.length > 0) {
    out(problems.map((problem) => `${file}: ${problem}\n`).join(""));
  } else {
    const rules = plural(settings.locale, count, words.t("count.rules"));
    out(`${words.t("rules.ok", { count, rules, file })}\n`);
  }
  return problems.length === 0 ? 0 : 6;
}

function scopeText(rule: Rule, { t }: Messages): string {
  return rule.scope === "global"
    ? t("rules.global")
    : t("rules.workspace", { path: rule.scope.workspace });
}

/** The line that says a rule was added or removed, in the run's locale. */
function changed(
  words: Messages,
  key: "rules.added" | "rules.exists" | "rules.removed",
  rule: Rule,
): string {
  const { id, decision, tool } = rule;
  return words.t(key, { id, decision, tool, scope: scopeText(rule, words) });
}
