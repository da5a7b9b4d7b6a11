/**
 * `basis-tools rules list|add|remove|check`: the remembered rules in the user's config directory.
 * Rules are scoped to the current workspace root unless `--global` is given.
 *
 * @module
 */

import { addRule, loadRules, removeRule } from "../../approval/rules/store.ts";
import { RulesFileError } from "../../approval/rules/errors.ts";
import type { Rule, RuleInput } from "../../approval/rules/types.ts";
import { findWorkspaceRoot } from "../../manifest/load.ts";
import { resolvePath } from "../../paths.ts";
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
  const lines = all.map((rule) => {
    const ignored = loaded.ignored.includes(rule) ? t("rules.ignored") : "";
    const pattern = rule.pattern === undefined
      ? t("rules.every_call")
      : t("rules.pattern", { pattern: rule.pattern });
    const reason = rule.reason === undefined ? "" : ` — ${rule.reason}`;
    return `${rule.id}  ${rule.decision.padEnd(5)}  ${rule.tool}  ${
      scopeText(rule, t)
    }  ${pattern}${reason}${ignored}`;
  });
  out(lines.join("\n") + "\n");
  return EXIT.ok;
}

async function add(settings: Settings, options: RulesOptions): Promise<number> {
  const text = (name: string) => {
    const value = options.get(name);
    return typeof value === "string" ? value : undefined;
  };
  const texts = (name: string) => {
    const value = options.get(name);
    return Array.isArray(value) ? value : undefined;
  };
  const tool = text("tool");
  if (tool === undefined) {
    throw usage("cli.rules_tool_required");
  }
  const pattern = text("pattern");
  const reason = text("reason");
  const match = texts("match");
  const notMatch = texts("not-match");
  const input: RuleInput = {
    tool,
    decision: options.get("deny") === true ? "deny" : "allow",
    scope: options.get("global") === true ? "global" : { workspace: await workspaceRoot(settings) },
    ...(pattern === undefined ? {} : { pattern }),
    ...(reason === undefined ? {} : { reason }),
    ...(match === undefined ? {} : { match }),
    ...(notMatch === undefined ? {} : { not_match: notMatch }),
  };
  const rule = await addRule(settings.configDir, input);
  if (settings.json) outJson(rule);
  else out(`${await changed(settings, "rules.added", rule)}\n`);
  return EXIT.ok;
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

async function workspaceRoot(settings: Settings): Promise<string> {
  if (settings.workspace !== undefined) return resolvePath(settings.workspace);
  return await findWorkspaceRoot(Deno.cwd());
}
