/**
 * `basis-tools rules list|add|test|remove|check`: the remembered rules in the user's config
 * directory. Rules are scoped to the current workspace root (its canonical path) unless `--global`
 * is given.
 *
 * @module
 */

import { addRule, loadRules, removeRule } from "../../approval/rules/store.ts";
import { RulesFileError } from "../../approval/rules/errors.ts";
import { contentCondition, pinConditions } from "../../approval/rules/pin.ts";
import { type CallContent, callContent } from "../../approval/rules/content.ts";
import type { Rule, RuleDecision, RuleInput, ToolConditions } from "../../approval/rules/types.ts";
import type { ToolSpec } from "../../manifest/types.ts";
import { parseKeepingNumbers, strictJsonProblem } from "../../json_text.ts";
import { callSecrets } from "../../redact.ts";
import { resolveRunProgram } from "../../run/run_program.ts";
import { canonicalFilePath, canonicalPath, isAbsolutePath } from "../../paths.ts";
import { SPAWN_TOOL } from "../../spawn/types.ts";
import { loadSandboxPolicy } from "../../sandbox/policy.ts";
import { planSandbox, previewSandbox } from "../../sandbox/plan.ts";
import { findTool, rosterFor } from "../_roster.ts";
import { workspaceRoot } from "../_workspace_root.ts";
import { EXIT } from "../exit_codes.ts";
import { out, outJson } from "../output.ts";
import { cliMessages } from "../_cli_messages.ts";
import { BasisError } from "../../errors.ts";
import type { MessageKey } from "../../locale/en_us.ts";
import { type Messages, phrase, type PhraseParams, plural } from "../../locale/messages.ts";
import type { Settings } from "../settings.ts";
import { formatTable } from "../_table.ts";
import { keepApproved } from "../../approval/rules/approved.ts";
import { callCommand, callSpawnCommand } from "./call.ts";

/** The parsed options of a `rules` command. */
export type RulesOptions = Map<string, string | boolean | string[]>;

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
  const [sub, ...rest] = positionals;
  const expect = (count: number) => {
    if (rest.length !== count) {
      throw usage(count === 1 ? "cli.rules_one_argument" : "cli.rules_no_arguments", {
        command: `"rules ${sub}"`,
      });
    }
  };
  switch (sub) {
    case "list":
      expect(0);
      return await list(settings);
    case "add":
      expect(0);
      return await add(settings, options);
    case "remove":
      expect(1);
      return await remove(settings, rest[0] as string);
    case "check":
      expect(0);
      return await check(settings);
    case "test":
      if (rest.length < 1 || rest.length > 2) {
        throw usage("cli.rules_test_arguments", { command: `"rules ${sub}"` });
      }
      return await test(settings, rest[0] as string, rest[1]);
  }
  throw usage("cli.rules_subcommand", {
    command: `"rules${sub === undefined ? "" : ` ${sub}`}"`,
  });
}

/** A usage error, in English and reworded in the run's locale when reported. */
function usage(key: MessageKey, params?: PhraseParams): BasisError {
  return BasisError.of("usage", phrase(key, params));
}

async function list(settings: Settings): Promise<number> {
  const loaded = await loadRules(settings.configDir);
  const all = [...loaded.rules, ...loaded.ignored];
  if (settings.json) {
    outJson({
      file: loaded.file,
      rules: all.map((rule) => ({ ...rule, ignored: loaded.ignored.includes(rule) })),
    });
    return EXIT.ok;
  }
  const { t } = await cliMessages(settings.locale);
  if (all.length === 0) {
    out(`${t("rules.none", { file: loaded.file })}\n`);
    return EXIT.ok;
  }
  // Aligned in columns, cut to the terminal's width (whole when stdout is not a terminal).
  const rows = all.map((rule) => {
    const ignored = loaded.ignored.includes(rule) ? t("rules.ignored") : "";
    const reason = rule.reason === undefined ? "" : ` — ${rule.reason}`;
    return [
      rule.id,
      rule.decision,
      rule.tool,
      scopeText(rule, t),
      `${JSON.stringify(rule.when)}${reason}${ignored}`,
    ];
  });
  const heading = [
    t("rules.heading_id"),
    t("rules.heading_decision"),
    t("rules.heading_tool"),
    t("rules.heading_scope"),
    t("rules.heading_when"),
  ];
  out(formatTable([heading, ...rows]).join("\n") + "\n");
  return EXIT.ok;
}

/** The option values of `rules add`. */
function reader(options: RulesOptions) {
  return {
    text(name: string): string | undefined {
      const value = options.get(name);
      return typeof value === "string" ? value : undefined;
    },
    texts(name: string): string[] | undefined {
      const value = options.get(name);
      return Array.isArray(value) ? value : undefined;
    },
  };
}

/**
 * Parses the JSON value of an option, every number as written (a rule compares numbers exactly),
 * or refuses it naming the option.
 */
async function optionJson(tool: string, option: string, text: string): Promise<unknown> {
  try {
    return parseKeepingNumbers(text);
  } catch {
    // Described below, by kind and place, never echoing the text.
  }
  const { position, reason } = await strictJsonProblem(text);
  const detail = position === undefined
    ? reason
    : phrase("json.at", { detail: reason, ...position });
  throw BasisError.of(
    "usage",
    phrase("cli.rules_bad_json", { tool: JSON.stringify(tool), option: `"${option}"`, detail }),
  );
}

/** The conditions given on the command line: `--when`, then each field's own option over it. */
async function givenConditions(
  tool: string,
  options: RulesOptions,
): Promise<Record<string, unknown> | undefined> {
  const { text, texts } = reader(options);
  const whenText = text("when");
  let when: Record<string, unknown> | undefined;
  if (whenText !== undefined) {
    const value = await optionJson(tool, "--when", whenText);
    // Not an object: the rule's own check names the field.
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      return value as Record<string, unknown>;
    }
    when = { ...value };
  }
  const set = (key: string, value: unknown) => {
    when ??= {};
    when[key] = value;
  };
  const program = text("program");
  if (program !== undefined) set("program", program);
  const argv = text("argv");
  if (argv !== undefined) set("argv", await optionJson(tool, "--argv", argv));
  const cwd = text("cwd");
  if (cwd !== undefined) set("cwd", cwd);
  const sandbox = text("sandbox");
  if (sandbox !== undefined) {
    set(
      "sandbox",
      sandbox === "unconfined" || sandbox === "any"
        ? sandbox
        : await optionJson(tool, "--sandbox", sandbox),
    );
  }
  for (const pair of texts("input") ?? []) {
    const eq = pair.indexOf("=");
    if (eq < 0) {
      throw usage("cli.rules_bad_input_condition", { tool: JSON.stringify(tool) });
    }
    const input = (when?.input ?? {}) as Record<string, unknown>;
    const value = await optionJson(tool, "--input", pair.slice(eq + 1));
    set("input", { ...input, [pair.slice(0, eq)]: { equals: value } });
  }
  const body = text("body");
  if (body !== undefined) set("body", body);
  const bodyGlob = text("body-glob");
  if (bodyGlob !== undefined) set("body", { glob: bodyGlob });
  const target = text("target");
  if (target !== undefined) set("target", target);
  const mode = text("mode");
  if (mode !== undefined) set("mode", mode);
  // A path is stored as a call shows it (links resolved), so a rule holds for every spelling.
  if (when !== undefined && typeof when.program === "string" && isAbsolutePath(when.program)) {
    when.program = canonicalFilePath(when.program);
  }
  if (when !== undefined && typeof when.cwd === "string" && isAbsolutePath(when.cwd)) {
    when.cwd = canonicalPath(when.cwd);
  }
  return when;
}

async function add(settings: Settings, options: RulesOptions): Promise<number> {
  const { text, texts } = reader(options);
  const tool = text("tool");
  if (tool === undefined) throw usage("cli.rules_tool_required");
  if (options.get("deny") === true && options.get("ask") === true) {
    throw usage("cli.rules_deny_and_ask", { tool: JSON.stringify(tool) });
  }
  const decision: RuleDecision = options.get("deny") === true
    ? "deny"
    : options.get("ask") === true
    ? "ask"
    : "allow";
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
    secrets = callSecrets(spec.env, settings.env);
    if (decision === "allow" && isObject(when)) {
      const global = options.get("global") === true;
      const now = await pinnedNow(spec, settings, global, given?.program);
      content = now.content;
      if (given === undefined) {
        when = now.when;
        pinned = Object.keys(now.when);
      } else {
        const added = (["program", "env", "content"] as const).filter((key) =>
          !Object.hasOwn(given, key) && now.when[key] !== undefined
        );
        when = { ...given, ...Object.fromEntries(added.map((key) => [key, now.when[key]])) };
        pinned = added;
      }
    }
  }
  const reason = text("reason");
  const match = await examples(tool, "--match", texts("match"));
  const notMatch = await examples(tool, "--not-match", texts("not-match"));
  const input = {
    tool,
    decision,
    scope: options.get("global") === true ? "global" : { workspace: root },
    when,
    ...(reason === undefined ? {} : { reason }),
    ...(match === undefined ? {} : { match }),
    ...(notMatch === undefined ? {} : { not_match: notMatch }),
  } as RuleInput;
  const rule = await addRule(settings.configDir, input, { secrets });
  if (content !== undefined && pinned.includes("content")) {
    await keepApproved(settings.configDir, content, secrets);
  }
  if (settings.json) {
    outJson(rule);
    return EXIT.ok;
  }
  const { t } = await cliMessages(settings.locale);
  const lines = [await changed(settings, "rules.added", rule)];
  if (pinned.length > 0) {
    const conditions = JSON.stringify(rule.when);
    const fields = Object.keys(rule.when).filter((key) => pinned.includes(key)).join(", ");
    lines.push(t("rules.pinned", { fields, conditions }));
  }
  out(`${lines.join("\n")}\n`);
  return EXIT.ok;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
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
  if (typeof body !== "string" || (mode !== undefined && mode !== "command")) {
    return { when: given, pinned: [] };
  }
  const cwd = typeof given.cwd === "string" ? given.cwd : root;
  const content = await callContent({ kind: "spawn", body, cwd }, {
    root,
    cacheDir: settings.cacheDir,
  });
  const pins = contentCondition(content);
  if (pins === undefined || Object.hasOwn(given, "content")) return { when: given, pinned: [] };
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
  global: boolean,
  program: unknown,
): Promise<{ when: ToolConditions; content: CallContent }> {
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
  const tool = JSON.stringify(spec.name);
  if (!found.ok) {
    throw BasisError.of("usage", phrase("rules.cannot_add", { tool, problem: found.reason }));
  }
  // The grants the call has now, as its preview will show them.
  const plan = await planSandbox({
    caller: { kind: "tool", grants: spec.sandbox },
    root: await workspaceRoot(settings),
    cwd: where,
    program: found.path,
  }, {
    policy: await loadSandboxPolicy(settings.configDir),
    env: settings.envLookup,
    cacheDir: settings.cacheDir,
  });
  const sandbox = previewSandbox(plan);
  if (plan.kind === "refused" || plan.kind === "unavailable" || sandbox === undefined) {
    const problem = plan.kind === "refused" || plan.kind === "unavailable"
      ? plan.reason
      : phrase("sandbox.no_home");
    throw BasisError.of("usage", phrase("rules.cannot_add", { tool, problem }));
  }
  const preview = { program: found.path, command: spec.command, cwd: where, sandbox };
  // An argument filled from the input matches any value of its field, as "always allow" pins it.
  const fromInput = spec.inputArguments?.map(({ index, field }) => ({ index, field }));
  const root = canonicalPath(await workspaceRoot(settings));
  const content = await callContent({
    kind: "tool",
    program: typeof program === "string" ? program : found.path,
    command: spec.command,
    cwd: where,
    fromInput: fromInput?.map((arg) => arg.index) ?? [],
    ...(spec.files === undefined ? {} : { files: spec.files }),
  }, { root, cacheDir: settings.cacheDir });
  for (const [pin, entry] of content) {
    if (entry.sha256 !== undefined) continue;
    const problem = phrase("rules.cannot_read", { where: pin, path: JSON.stringify(entry.path) });
    throw BasisError.of("usage", phrase("rules.cannot_add", { tool, problem }));
  }
  const { cwd, ...rest } = await pinConditions(
    { kind: "tool", preview, env: spec.env, ...(fromInput ? { fromInput } : {}), content },
  ) as ToolConditions;
  return { when: global ? rest : { ...rest, cwd } as ToolConditions, content };
}

async function examples(
  tool: string,
  option: string,
  texts: string[] | undefined,
): Promise<unknown[] | undefined> {
  if (texts === undefined) return undefined;
  const out: unknown[] = [];
  for (const text of texts) out.push(await optionJson(tool, option, text));
  return out;
}

async function remove(settings: Settings, id: string): Promise<number> {
  const rule = await removeRule(settings.configDir, id);
  if (settings.json) outJson(rule);
  else out(`${await changed(settings, "rules.removed", rule)}\n`);
  return EXIT.ok;
}

/**
 * `rules check`: one line per problem, in the run's locale; with `--json`, the problems in English
 * whatever the locale, as they always were (scripts read them).
 */
async function check(settings: Settings): Promise<number> {
  let count = 0;
  let file: string;
  let worded: (words: Messages) => string[];
  try {
    const loaded = await loadRules(settings.configDir);
    file = loaded.file;
    count = loaded.rules.length + loaded.ignored.length;
    worded = (words) =>
      loaded.problems.map((problem) =>
        `${problem.id}: ${words.say(problem.phrase)}${
          problem.ignored ? words.t("rules.problem_ignored") : ""
        }`
      );
  } catch (error) {
    if (!(error instanceof RulesFileError)) throw error;
    file = error.file;
    worded = (words) => error.problems.map((problem) => words.say(problem));
  }
  const problems = worded(await cliMessages(settings.json ? "en-US" : settings.locale));
  if (settings.json) {
    outJson({ ok: problems.length === 0, file, rules: count, problems });
  } else if (problems.length > 0) {
    out(problems.map((problem) => `${file}: ${problem}\n`).join(""));
  } else {
    const { t } = await cliMessages(settings.locale);
    const rules = plural(settings.locale, count, t("count.rules"));
    out(`${t("rules.ok", { count, rules, file })}\n`);
  }
  return problems.length === 0 ? EXIT.ok : EXIT.manifestInvalid;
}

function scopeText(rule: Rule, t: Messages["t"]): string {
  return rule.scope === "global"
    ? t("rules.global")
    : t("rules.workspace", { path: rule.scope.workspace });
}

/** The line that says a rule was added or removed, in the run's locale. */
async function changed(
  settings: Settings,
  key: "rules.added" | "rules.removed",
  rule: Rule,
): Promise<string> {
  const { t } = await cliMessages(settings.locale);
  return t(key, {
    id: rule.id,
    decision: rule.decision,
    tool: rule.tool,
    scope: scopeText(rule, t),
  });
}

/** `rules test NAME [INPUT]`: the call's preview and decision, as `call --dry-run` prints them. */
async function test(settings: Settings, name: string, input: string | undefined): Promise<number> {
  if (name === SPAWN_TOOL) {
    return await callSpawnCommand(settings, input, { dryRun: true });
  }
  return await callCommand(settings, name, input, { timeoutMs: undefined, dryRun: true });
}
