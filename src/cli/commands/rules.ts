/**
 * `basis-tools rules list|add|test|remove|check`: the remembered rules in the user's config
 * directory. Rules are scoped to the current workspace root (its canonical path) unless `--global`
 * is given.
 *
 * @module
 */

import { addRule, loadRules, removeRule } from "../../approval/rules/store.ts";
import { RulesFileError } from "../../approval/rules/errors.ts";
import { pinConditions } from "../../approval/rules/pin.ts";
import type { Rule, RuleDecision, RuleInput, ToolConditions } from "../../approval/rules/types.ts";
import type { ToolSpec } from "../../manifest/types.ts";
import { strictJsonProblem } from "../../json_text.ts";
import { callSecrets } from "../../redact.ts";
import { resolveRunProgram } from "../../run/run_program.ts";
import { canonicalPath } from "../../paths.ts";
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
  const { cellText, formatTable, terminalColumns } = await import("../_table.ts");
  const rows = all.map((rule) => {
    const ignored = loaded.ignored.includes(rule) ? t("rules.ignored") : "";
    const reason = rule.reason === undefined ? "" : ` — ${rule.reason}`;
    return [
      rule.id,
      rule.decision,
      rule.tool,
      scopeText(rule, t),
      `${JSON.stringify(rule.when)}${reason}${ignored}`,
    ].map(cellText);
  });
  const heading = [
    t("rules.heading_id"),
    t("rules.heading_decision"),
    t("rules.heading_tool"),
    t("rules.heading_scope"),
    t("rules.heading_when"),
  ];
  out(formatTable([heading, ...rows], terminalColumns()).join("\n") + "\n");
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

/** Parses the JSON value of an option, or refuses it naming the option. */
async function optionJson(tool: string, option: string, text: string): Promise<unknown> {
  try {
    return JSON.parse(text);
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
  let pinned: "all" | "program" | undefined;
  let root: string;
  if (tool === SPAWN_TOOL) {
    root = await workspaceRoot(settings);
  } else {
    // A rule is for a tool that exists, and never for its name alone: it pins what runs.
    const roster = await rosterFor(settings, { whole: true });
    root = roster.root;
    const spec = findTool(roster, tool);
    const missing = (key: string) =>
      decision !== "deny" && isObject(given) && !Object.hasOwn(given, key);
    if (given === undefined || missing("program") || missing("env")) {
      const pin = await pinnedNow(spec, settings, options.get("global") === true);
      if (given === undefined) {
        when = pin;
        pinned = "all";
      } else {
        // What runs is pinned even when the rest was given: the program, and the manifest's env.
        when = {
          ...(missing("program") ? { program: pin.program } : {}),
          ...given,
          ...(missing("env") && pin.env !== undefined ? { env: pin.env } : {}),
        };
        pinned = "program";
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
  const rule = await addRule(settings.configDir, input);
  if (settings.json) {
    outJson(rule);
    return EXIT.ok;
  }
  const { t } = await cliMessages(settings.locale);
  const lines = [await changed(settings, "rules.added", rule)];
  if (pinned !== undefined) {
    const key = pinned === "all" ? "rules.pinned" : "rules.pinned_program";
    lines.push(t(key, { conditions: JSON.stringify(rule.when) }));
  }
  out(`${lines.join("\n")}\n`);
  return EXIT.ok;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * What the tool runs now, as conditions: its resolved program, argv, (for a workspace rule) cwd,
 * the manifest's env by digest and the sandbox grants it has, secrets digested. A global rule does
 * not pin the cwd: a tool's cwd is its workspace's.
 */
async function pinnedNow(
  spec: ToolSpec,
  settings: Settings,
  global: boolean,
): Promise<ToolConditions> {
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
  const secrets = callSecrets(spec.env, settings.env);
  // The grants the call has now, as its preview will show them.
  const plan = await planSandbox(await loadSandboxPolicy(settings.configDir), {
    caller: { kind: "tool", grants: spec.sandbox },
    root: await workspaceRoot(settings),
    cwd: where,
    program: found.path,
  }, { env: settings.envLookup, cacheDir: settings.cacheDir });
  const sandbox = previewSandbox(plan);
  if (plan.kind === "refused" || plan.kind === "unavailable" || sandbox === undefined) {
    const problem = plan.kind === "refused" || plan.kind === "unavailable"
      ? plan.reason
      : phrase("sandbox.no_home");
    throw BasisError.of("usage", phrase("rules.cannot_add", { tool, problem }));
  }
  const preview = { program: found.path, command: spec.command, cwd: where, sandbox };
  // An argument filled from the input matches any value, as "always allow" pins it.
  const fromInput = spec.inputArguments?.map((arg) => arg.index);
  const { cwd, ...rest } = await pinConditions(
    { kind: "tool", preview, env: spec.env, ...(fromInput ? { fromInput } : {}) },
    secrets,
  ) as ToolConditions;
  return global ? rest : { ...rest, cwd } as ToolConditions;
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
    const { callSpawnCommand } = await import("./spawn.ts");
    return await callSpawnCommand(settings, input, { dryRun: true });
  }
  const { callCommand } = await import("./call.ts");
  return await callCommand(settings, name, input, { timeoutMs: undefined, dryRun: true });
}
