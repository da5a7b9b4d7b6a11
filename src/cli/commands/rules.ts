/**
 * `basis-tools rules list|add|remove|check`: the remembered rules in the user's config directory.
 * Rules are scoped to the current workspace root unless `--global` is given.
 *
 * @module
 */

import { addRule, loadRules, removeRule } from "../../approval/rules/store.ts";
import { RulesFileError } from "../../approval/rules/errors.ts";
import type { Rule, RuleInput } from "../../approval/rules/types.ts";
import { BasisError } from "../../errors.ts";
import { findWorkspaceRoot } from "../../manifest/load.ts";
import { resolvePath } from "../../paths.ts";
import { EXIT } from "../exit_codes.ts";
import { out, outJson } from "../output.ts";
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
      throw new BasisError(
        "usage",
        `Cannot run "rules ${sub}": expected ${count} argument${
          count === 1 ? "" : "s"
        }; see --help`,
      );
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
  throw new BasisError(
    "usage",
    `Cannot run "rules${sub === undefined ? "" : ` ${sub}`}": expected list, add, remove or check`,
  );
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
  if (all.length === 0) {
    out(`No remembered rules (${loaded.file})\n`);
    return EXIT.ok;
  }
  const lines = all.map((rule) => {
    const ignored = loaded.ignored.includes(rule) ? " (ignored: see rules check)" : "";
    const pattern = rule.pattern === undefined ? "every call" : `pattern ${rule.pattern}`;
    const reason = rule.reason === undefined ? "" : ` — ${rule.reason}`;
    return `${rule.id}  ${rule.decision.padEnd(5)}  ${rule.tool}  ${
      scopeText(rule)
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
    throw new BasisError("usage", 'Cannot run "rules add": --tool NAME is required');
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
  else out(`Added ${rule.id}: ${rule.decision} ${rule.tool} ${scopeText(rule)}\n`);
  return EXIT.ok;
}

async function remove(settings: Settings, id: string): Promise<number> {
  const rule = await removeRule(settings.configDir, id);
  if (settings.json) outJson(rule);
  else out(`Removed ${rule.id}: ${rule.decision} ${rule.tool} ${scopeText(rule)}\n`);
  return EXIT.ok;
}

async function check(settings: Settings): Promise<number> {
  let problems: string[];
  let count = 0;
  let file: string;
  try {
    const loaded = await loadRules(settings.configDir);
    file = loaded.file;
    count = loaded.rules.length + loaded.ignored.length;
    problems = loaded.problems.map((problem) =>
      `${problem.id}: ${problem.reason}${problem.ignored ? " (rule ignored)" : ""}`
    );
  } catch (error) {
    if (!(error instanceof RulesFileError)) throw error;
    file = error.file;
    problems = [...error.problems];
  }
  if (settings.json) {
    outJson({ ok: problems.length === 0, file, rules: count, problems });
  } else if (problems.length > 0) {
    out(problems.map((problem) => `${file}: ${problem}\n`).join(""));
  } else {
    out(`ok: ${count} rule${count === 1 ? "" : "s"} (${file})\n`);
  }
  return problems.length === 0 ? EXIT.ok : EXIT.manifestInvalid;
}

function scopeText(rule: Rule): string {
  return rule.scope === "global" ? "(global)" : `(workspace ${rule.scope.workspace})`;
}

async function workspaceRoot(settings: Settings): Promise<string> {
  if (settings.workspace !== undefined) return resolvePath(settings.workspace);
  return await findWorkspaceRoot(Deno.cwd());
}
