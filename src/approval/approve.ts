/**
 * Deciding whether a call may run. The order is fixed: remembered rules first, then the approver
 * chosen by `--approve`. With `prompt` and no one to ask, the call is denied: fail closed. A rules
 * file that cannot be read denies too: nothing is ever allowed because of a broken file.
 *
 * @module
 */

import { english, type Phrase, phrase } from "../locale/messages.ts";
import type { SideEffect } from "../manifest/types.ts";
import type { ToolPreview } from "./preview.ts";
import { shellQuote } from "./shell_quote.ts";
import { decideByRules } from "./rules/decide.ts";
import { addRule, loadRules } from "./rules/store.ts";
import type { Rule } from "./rules/types.ts";
import type { SpawnSideEffect } from "../spawn/types.ts";
import type { PromptRequest, SpawnPreview, TerminalAnswer } from "./terminal/types.ts";
import type { ApprovalPolicy } from "./policy.ts";

export { APPROVAL_POLICIES, type ApprovalPolicy } from "./policy.ts";

/** What is being asked about. */
export type ApprovalRequest =
  & { readonly tool: string }
  & (
    | { readonly kind?: "tool"; readonly sideEffect: SideEffect; readonly preview: ToolPreview }
    | {
      readonly kind: "spawn";
      /** `"process"` for a command, `"local state"` for a subagent. */
      readonly sideEffect: SideEffect | SpawnSideEffect;
      readonly preview: SpawnPreview;
    }
  );

/** The answer, and who gave it. */
export interface Decision {
  /** Whether the call may run. */
  readonly allowed: boolean;
  /** `rule` (a remembered rule), `prompt` (a person), or `policy` (`--approve`). */
  readonly by: "rule" | "prompt" | "policy";
  /** The remembered rule that answered, or was created by the answer. */
  readonly ruleId: string | undefined;
  /** Why, in one line: shown to the caller for denials, recorded in the audit trail. */
  readonly reason: string | undefined;
  /**
   * The reason as a phrase, when it can be worded in another locale: the caller is shown it in
   * the tool's locale, the audit trail records its English (and `reason` then is that English).
   */
  readonly reasonPhrase?: Phrase | undefined;
  /** The remembered rule's own reason, when a rule with one decided. */
  readonly ruleReason?: string | undefined;
}

/** Asks a person; returns `no_answer` when no one can be asked. */
export type Asker = (request: PromptRequest) => Promise<TerminalAnswer>;

/** Settings for {@linkcode decide}. */
export interface ApprovalOptions {
  /** How calls no rule answers are decided. @default "prompt" */
  policy?: ApprovalPolicy;
  /** The user's config directory, where `rules.json` lives; without it no rule applies. */
  configDir?: string;
  /** The workspace root, for rules scoped to a workspace. */
  root?: string;
  /** Values never to show or store (the tool's env values). @default [] */
  secrets?: readonly string[];
  /** Asks a person. @default the terminal prompt on stdin and stderr */
  ask?: Asker;
}

/**
 * Decides one call: remembered rules, then the policy, then a person.
 *
 * @param request The tool, its side effect and the preview.
 * @param options The policy, where rules live, and how to ask.
 * @returns The decision; a denial carries a one-line reason (saying how to allow the call when
 * no one could be asked).
 * @throws {RulesFileError} When the rules file cannot be read or understood (code `denied`).
 * @example A policy of always allows
 * ```ts
 * import { decide } from "./approve.ts";
 * const preview = { tool: "echo", command: ["cat"], cwd: "/w", input: {} };
 * const decision = await decide({ tool: "echo", sideEffect: "process", preview }, { policy: "always" });
 * console.assert(decision.allowed);
 * ```
 */
export async function decide(
  request: ApprovalRequest,
  options: ApprovalOptions = {},
): Promise<Decision> {
  const name = JSON.stringify(request.tool);
  if (options.configDir !== undefined) {
    const { rules } = await loadRules(options.configDir);
    // The preview's JSON is as large as the input: build it only when a rule may look at it.
    const match = rules.some((rule) => rule.tool === request.tool)
      ? decideByRules(rules, {
        tool: request.tool,
        previewText: JSON.stringify(request.preview),
        root: options.root,
      })
      : undefined;
    if (match) return byRule(name, match.rule);
  }
  const policy = options.policy ?? "prompt";
  if (policy === "always") return allowance("policy", undefined, undefined);
  if (policy === "never") {
    return denial("policy", undefined, phrase("denied.never", { tool: name }));
  }
  const ask = options.ask ?? askOnTerminal(options.secrets ?? []);
  const prompt = { ...request, kind: request.kind ?? "tool" } as PromptRequest;
  const answer = await ask(prompt);
  switch (answer) {
    case "allow_once":
      return allowance("prompt", undefined, undefined);
    case "deny":
      return denial("prompt", undefined, phrase("denied.prompt", { tool: name }));
    case "always_allow":
    case "never": {
      const rule = await remember(prompt, answer, options);
      if (answer === "always_allow") return allowance("prompt", rule?.id, undefined);
      const why = rule === undefined
        ? phrase("denied.prompt", { tool: name })
        : phrase("denied.prompt_remembered", { tool: name, rule: rule.id });
      return denial("prompt", rule?.id, why);
    }
    case "no_answer":
      return denial("policy", undefined, noOneToAsk(request.tool, options.root));
  }
}

function allowance(
  by: Decision["by"],
  ruleId: string | undefined,
  reason: string | undefined,
): Decision {
  return { allowed: true, by, ruleId, reason };
}

/** A denial: its reason in English, and as a phrase for the caller's locale. */
function denial(by: Decision["by"], ruleId: string | undefined, reason: Phrase): Decision {
  return { allowed: false, by, ruleId, reason: english(reason), reasonPhrase: reason };
}

function byRule(name: string, rule: Rule): Decision {
  if (rule.decision === "allow") return allowance("rule", rule.id, rule.reason);
  const why = rule.reason === undefined
    ? phrase("denied.rule", { tool: name, rule: rule.id })
    : phrase("denied.rule_reason", { tool: name, rule: rule.id, reason: rule.reason });
  return { ...denial("rule", rule.id, why), ruleReason: rule.reason };
}

async function remember(
  request: PromptRequest,
  answer: "always_allow" | "never",
  options: ApprovalOptions,
): Promise<Rule | undefined> {
  if (options.configDir === undefined) return undefined;
  const { ruleForAlways } = await import("./terminal/rule_for_always.ts");
  const { tool, pattern } = ruleForAlways(request, { secrets: options.secrets ?? [] });
  return await addRule(options.configDir, {
    tool,
    pattern,
    decision: answer === "always_allow" ? "allow" : "deny",
    reason: answer === "always_allow" ? "allowed at the prompt" : "refused at the prompt",
    scope: options.root === undefined ? "global" : { workspace: options.root },
  });
}

function askOnTerminal(secrets: readonly string[]): Asker {
  return async (request) => {
    const { promptApproval } = await import("./terminal/prompt_approval.ts");
    return await promptApproval(request, { secrets });
  };
}

/** The one line for a call that no rule answers and no one can be asked about. */
function noOneToAsk(tool: string, root: string | undefined): Phrase {
  const where = root === undefined ? "" : ` -C ${shellQuote(root)}`;
  const command = `basis-tools${where} rules add --tool ${tool}`;
  return phrase("denied.no_terminal", { tool: JSON.stringify(tool), command });
}
