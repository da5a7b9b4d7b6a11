/**
 * Deciding whether a call may run. The order is fixed: remembered rules first (deny, then ask,
 * then allow), then the approver chosen by `--approve`. With `prompt` and no one to ask, the call
 * is denied: fail closed. A rules file that cannot be read or trusted denies too: nothing is ever
 * allowed because of a broken file.
 *
 * @module
 */

import { BasisError } from "../errors.ts";
import type { Locale } from "../locale/locale.ts";
import { loadLocale, messages, type Phrase, phrase } from "../locale/messages.ts";
import type { SideEffect } from "../manifest/types.ts";
import { exactInput, type ToolPreview } from "./preview.ts";
import { shellQuote } from "./shell_quote.ts";
import { canonicalPath } from "../paths.ts";
import { attempt } from "../quietly.ts";
import { decideCall } from "./rules/decide.ts";
import { addRule, loadRules } from "./rules/store.ts";
import { type CallContent, callContent, type ContentSubject } from "./rules/content.ts";
import type { ChangedSinceApproval, Rule, RuleQuery, ToolConditions } from "./rules/types.ts";
import type { SpawnSideEffect } from "../spawn/types.ts";
import type { PromptRequest, SpawnPreview, TerminalAnswer } from "./terminal/types.ts";
import type { ApprovalPolicy } from "./policy.ts";
import { describeChanges, keepApproved } from "./rules/approved.ts";
import { declaredArgv, pinConditions } from "./rules/pin.ts";

export { APPROVAL_POLICIES, type ApprovalPolicy } from "./policy.ts";

/** What is being asked about. */
export type ApprovalRequest =
  & { readonly tool: string }
  & (
    | {
      readonly kind?: "tool";
      readonly sideEffect: SideEffect;
      readonly preview: ToolPreview;
      /**
       * Which manifest declared the tool. A workspace tool may shadow a global one by name, so a
       * global allow rule covers it only when the rule says which arguments it allows.
       * @default "workspace"
       */
      readonly source?: "workspace" | "global";
      /**
       * The bytes the program will receive on stdin (the input as compact JSON, every number as the
       * caller wrote it): what a person is shown, so they approve the digits the program gets.
       */
      readonly stdin?: Uint8Array;
      /**
       * The manifest's `env` as the program gets it: what an `env` condition is checked against.
       * Never shown (the preview lists the names). @default {}
       */
      readonly env?: Readonly<Record<string, string>>;
      /**
       * The arguments of `preview.command` taken from the input, in argv order, each where it is
       * (or, when the call leaves an optional one out, where it would be): "always allow" and
       * "never" pin each as its declaration — any value of its field, present or not for an
       * optional one (the input is not pinned) — and the other arguments exactly. @default []
       */
      readonly fromInput?: readonly InputSlot[];
      /**
       * The manifest's `files`: globs, relative to the workspace root, of the rest of the tool's
       * code, pinned by an allow rule as one digest. @default []
       */
      readonly files?: readonly string[];
    }
    | {
      readonly kind: "spawn";
      /** `"process"` for a command, `"local state"` for a subagent. */
      readonly sideEffect: SideEffect | SpawnSideEffect;
      readonly preview: SpawnPreview;
    }
  );

/**
 * An argument of a declared tool's command taken from the input: `{"input": field}`, or the
 * optional `{"input": field, "flag": …}` or `{"input": field, "prefix": …}`. `index` is its
 * position in the call's argv; for an optional one the call leaves out (`absent`), the position
 * it would have (before the argument now there).
 */
export interface InputSlot {
  /** Its position in the call's argv (or where it would be). */
  readonly index: number;
  /** The top-level input field it is filled from. */
  readonly field: string;
  /** The option of a flag (`{"input", "flag"}`). */
  readonly flag?: string;
  /** The option a prefixed value is joined to (`{"input", "prefix"}`). */
  readonly prefix?: string;
  /** An optional argument this call leaves out. */
  readonly absent?: true;
}

/** The answer, and who gave it. */
export interface Decision {
  /** Whether the call may run. */
  readonly allowed: boolean;
  /** `rule` (a remembered rule), `prompt` (a person), or `policy` (`--approve`). */
  readonly by: "rule" | "prompt" | "policy";
  /** The remembered rule that answered (or made a person be asked), or was created by the answer. */
  readonly ruleId: string | undefined;
  /**
   * Why, in one line: shown to the caller for denials (a phrase in the tool's locale, text as it
   * is), recorded in the audit trail (a phrase's English). The built-in approvers give a denial's
   * reason as a phrase and an allowing rule's own reason as its text.
   */
  readonly reason: Phrase | string | undefined;
}

/** What would be decided, without asking anyone: the answer of `rules test` and `--dry-run`. */
export interface Verdict {
  /** `allow` and `deny` are final; `ask` means a person would be asked. */
  readonly outcome: "allow" | "deny" | "ask";
  /** Who decides: a rule, the policy (`--approve`), or a person at the prompt. */
  readonly by: "rule" | "policy" | "prompt";
  /** The rule that answered, or that says to ask. */
  readonly rule: Rule | undefined;
  /** When no rule answered: the files changed since the allow rule that would have pinned them. */
  readonly changed?: ChangedSinceApproval;
}

/** Asks a person; returns `no_answer` when no one can be asked. */
export type Asker = (request: PromptRequest) => Promise<TerminalAnswer>;

/** Options of the built-in approver (`policyApprover()`). */
export interface PolicyApproverOptions {
  /**
   * How calls that no rule answers are decided.
   *
   * @default {"prompt"}
   */
  policy?: ApprovalPolicy;
  /** The user's config directory, where `rules.json` lives; without it no rule applies. */
  configDir?: string;
  /** The workspace root, for rules scoped to a workspace (and the hint of a denial). */
  root?: string;
  /**
   * Where digests of the files an allow rule pins are cached.
   *
   * @default {no cache: a pinned file is read on every call}
   */
  cacheDir?: string;
  /**
   * Asks a person.
   *
   * @default {the terminal prompt on stdin and stderr, cancelled by the call's signal}
   */
  ask?: Asker;
  /**
   * The language of the default terminal prompt's texts (and of what is told on stderr).
   *
   * @default {"en-US"}
   */
  locale?: Locale;
  /**
   * Whether the default terminal prompt may ask on the controlling terminal (`/dev/tty`) when
   * stdin or stderr is not a terminal (the input was piped in). A host that owns the terminal
   * says `false`.
   *
   * @default {true}
   */
  controllingTerminal?: boolean;
  /**
   * Told what became of an answer to remember: the rule "always allow" or "never" made, or why it
   * could not be saved (the call is then allowed or denied this once).
   *
   * @default {a line `basis-tools: …` on stderr, in `locale`, once the call is decided}
   */
  tell?: (line: Phrase) => void;
}

/** Settings for {@linkcode decide}: the approver's options and the call's. */
export interface ApprovalOptions extends PolicyApproverOptions {
  /** Values never to show or store (the call's env values). @default [] */
  secrets?: readonly string[];
  /** The caller's cancellation: the prompt stops asking and denies. */
  signal?: AbortSignal | undefined;
}

/**
 * What would be decided for one call, asking no one: the rule that answers (deny, then ask, then
 * allow), else the policy, else `ask` at the prompt.
 *
 * @param request The tool, its side effect and the preview.
 * @param options The policy and where rules live (`ask` is not used).
 * @param content Reads the call's content (once). @default the files of the request's call
 * @returns The outcome, who decides, and the rule that answered.
 * @throws {RulesFileError} When the rules file cannot be read or trusted (code `denied`).
 * @example No rule, a policy of always
 * ```ts
 * import { verdictFor } from "./approve.ts";
 * const preview = { tool: "echo", program: "/usr/bin/cat", command: ["cat"], cwd: "/w", env: [], sandbox: "unconfined" as const, input: {} };
 * const verdict = await verdictFor({ tool: "echo", sideEffect: "process", preview }, { policy: "always" });
 * console.assert(verdict.outcome === "allow" && verdict.by === "policy");
 * ```
 */
export async function verdictFor(
  request: ApprovalRequest,
  options: ApprovalOptions = {},
  content: () => Promise<CallContent> = contentOf(request, options),
): Promise<Verdict> {
  const { configDir, root, policy = "prompt" } = options;
  const mine = configDir === undefined
    ? []
    : (await loadRules(configDir)).rules.filter((rule) => rule.tool === request.tool);
  let changed: ChangedSinceApproval | undefined;
  if (mine.length > 0) {
    // The input as the program gets it is read again only when a rule looks at the input.
    const exact = request.kind !== "spawn" && mine.some((rule) => "input" in rule.when);
    const query = {
      ...request,
      root: root === undefined ? undefined : canonicalPath(root),
      content,
      ...(exact ? { preview: { ...request.preview, input: exactInput(request) } } : {}),
    } as RuleQuery;
    const { match: rule, stale } = await decideCall(mine, query);
    if (rule !== undefined) {
      if (rule.decision !== "ask") return { outcome: rule.decision, by: "rule", rule };
      // A rule that says ask: a person decides, whatever rule allows; --approve never still
      // denies without asking.
      const never = policy === "never";
      return { outcome: never ? "deny" : "ask", by: never ? "policy" : "prompt", rule };
    }
    if (stale !== undefined) {
      const pinned = (stale.rule.when as ToolConditions).content;
      const place = { configDir, root: canonicalPath(root ?? request.preview.cwd) };
      const secrets = options.secrets ?? [];
      const files = typeof pinned === "object" ? pinned : {};
      const changes = describeChanges(files, await content(), stale.where, { ...place, secrets });
      changed = { rule: stale.rule.id, files: changes };
    }
  }
  const outcome = policy === "always" ? "allow" : policy === "never" ? "deny" : "ask";
  const by = policy === "prompt" ? "prompt" : "policy";
  return { outcome, by, rule: undefined, ...(changed === undefined ? {} : { changed }) };
}

/** The call's content (what it runs, as far as pins go), read the first time a rule needs it. */
function contentOf(request: ApprovalRequest, options: ApprovalOptions): () => Promise<CallContent> {
  let found: Promise<CallContent> | undefined;
  const place = { root: options.root, cacheDir: options.cacheDir };
  // Numbered as the manifest declares the command, whichever optional arguments a call has.
  const declared = request.kind === "spawn"
    ? []
    : declaredArgv(request.preview.command, request.fromInput);
  // A task's words are no command: nothing of a task is pinned.
  const subject: ContentSubject = request.kind === "spawn"
    ? {
      kind: "spawn",
      body: request.preview.mode === "command" ? request.preview.body : "",
      cwd: request.preview.cwd,
    }
    : {
      kind: "tool",
      ...request.preview,
      command: declared.map((arg) => typeof arg === "string" ? arg : ""),
      fromInput: declared.flatMap((arg, index) => typeof arg === "string" ? [] : [index]),
      files: request.files,
    };
  return () => found ??= callContent(subject, place);
}

/**
 * Decides one call: remembered rules, then the policy, then a person.
 *
 * @param request The tool, its side effect and the preview.
 * @param options The policy, where rules live, and how to ask.
 * @returns The decision; a denial carries a one-line reason (saying how to allow the call when
 * no one could be asked).
 * @throws {RulesFileError} When the rules file cannot be read or trusted (code `denied`).
 * @example A policy of always allows
 * ```ts
 * import { decide } from "./approve.ts";
 * const preview = { tool: "echo", program: "/usr/bin/cat", command: ["cat"], cwd: "/w", env: [], sandbox: "unconfined" as const, input: {} };
 * const decision = await decide({ tool: "echo", sideEffect: "process", preview }, { policy: "always" });
 * console.assert(decision.allowed);
 * ```
 */
export async function decide(
  request: ApprovalRequest,
  options: ApprovalOptions = {},
): Promise<Decision> {
  const tool = JSON.stringify(request.tool);
  const content = contentOf(request, options);
  const { outcome, by, rule, changed } = await verdictFor(request, options, content);
  const ruleId = rule?.id;
  const denied = (by: Decision["by"], reason: Phrase) => ({ allowed: false, by, ruleId, reason });
  if (outcome === "allow") return { allowed: true, by, ruleId, reason: rule?.reason };
  if (outcome === "deny" && rule === undefined) return denied(by, phrase("denied.never", { tool }));
  if (outcome === "deny") {
    const params = { tool, rule: rule!.id };
    const { reason } = rule!;
    if (by !== "rule") return denied(by, phrase("denied.never_ask_rule", params));
    if (reason === undefined) return denied(by, phrase("denied.rule", params));
    return denied(by, phrase("denied.rule_reason", { ...params, reason }));
  }
  const prompt = {
    ...request,
    kind: request.kind ?? "tool",
    ...(rule === undefined ? {} : { askedByRule: rule.id }),
    ...(changed === undefined ? {} : { changed }),
  } as PromptRequest;
  const ask: Asker = options.ask ??
    (async (asked) =>
      await (await import("./terminal/prompt_approval.ts")).promptApproval(asked, options));
  const answer = await ask(prompt);
  // A rule says ask every time: nothing the person answers is remembered.
  if (answer === "allow_once" || (rule !== undefined && answer === "always_allow")) {
    return { allowed: true, by: "prompt", ruleId, reason: undefined };
  }
  const refused = phrase("denied.prompt", { tool });
  if (answer === "no_answer") {
    if (rule !== undefined) {
      return denied("policy", phrase("denied.ask_no_terminal", { tool, rule: rule.id }));
    }
    const where = options.root === undefined ? "" : ` -C ${shellQuote(options.root)}`;
    const command = `basis-tools${where} rules add --tool ${request.tool}`;
    return denied(
      "policy",
      changed === undefined
        ? phrase("denied.no_terminal", { tool, command })
        : phrase("denied.no_terminal_changed", {
          tool,
          rule: changed.rule,
          files: changed.files.map((file) => JSON.stringify(file.path)).join(", "),
          command,
        }),
    );
  }
  if (answer === "deny" || rule !== undefined) return denied("prompt", refused);
  // "Always allow" or "never": a rule pinning exactly what was shown, and for an allow the files
  // that decide what runs (a refusal keeps applying however they change). A rule that cannot be
  // saved (a full or read-only config directory, a lock held too long) changes nothing about this
  // call: it runs (or is denied) this once, and the person and the audit trail are told that
  // nothing was remembered.
  const allow = answer === "always_allow";
  const secrets = options.secrets ?? [];
  let remembered: Rule | undefined;
  let unsaved: Phrase | undefined;
  try {
    if (options.configDir !== undefined) {
      const files = allow ? await content() : undefined;
      const when = await pinConditions(
        files === undefined ? prompt : { ...prompt, content: files },
      );
      if (files !== undefined) await keepApproved(options.configDir, files, secrets);
      remembered = await addRule(options.configDir, {
        tool: request.tool,
        decision: allow ? "allow" : "deny",
        scope: options.root === undefined ? "global" : { workspace: options.root },
        when,
        // A reason explains a refusal: an allow keeps none.
        ...(allow ? {} : { reason: "refused at the prompt" }),
      }, { secrets });
    }
  } catch (error) {
    if (!(error instanceof BasisError) || error.phrase === undefined) throw error;
    const key = allow ? "prompt.not_remembered" : "prompt.not_remembered_never";
    unsaved = phrase(key, { reason: error.phrase });
  }
  const told = remembered === undefined
    ? unsaved
    : phrase("prompt.remembered", { rule: remembered.id });
  const locale = options.locale ?? "en-US";
  if (told !== undefined && options.tell !== undefined) options.tell(told);
  else if (told !== undefined) {
    await loadLocale(locale);
    const line = new TextEncoder().encode(`basis-tools: ${messages(locale).say(told)}\n`);
    attempt(() => Deno.stderr.writeSync(line)); // Nowhere left to say it when it fails.
  }
  if (allow) return { allowed: true, by: "prompt", ruleId: remembered?.id, reason: unsaved };
  const reason = remembered === undefined
    ? refused
    : phrase("denied.prompt_remembered", { tool, rule: remembered.id });
  return { allowed: false, by: "prompt", ruleId: remembered?.id, reason };
}
