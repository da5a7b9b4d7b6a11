/**
 * `call --dry-run` and `rules test`: the call goes through the same execution as a real one (input,
 * schema gate, program resolution, spawn's refusals, preview), but its approver only works out
 * what would be decided and then refuses, so nothing runs and nothing is recorded.
 *
 * @module
 */

import { type ApprovalRequest, type Verdict, verdictFor } from "../../approval/approve.ts";
import type { Approver, ToolExecution } from "../../contract/types.ts";
import { ToolError } from "../../contract/tool_error.ts";
import { type Messages, messages } from "../../locale/messages.ts";
import { parseKeepingNumbers } from "../../json_text.ts";
import { redact, redactValue } from "../../redact.ts";
import { EXIT } from "../exit_codes.ts";
import { out, outJson } from "../output.ts";
import type { Settings } from "../settings.ts";
import { visibleLines } from "../../approval/shell_quote.ts";

/** The preview with its input as the program receives it (every number as the caller wrote it). */
function shownPreview(request: ApprovalRequest): unknown {
  if (request.kind === "spawn" || request.stdin === undefined) return request.preview;
  return {
    ...request.preview,
    input: parseKeepingNumbers(new TextDecoder().decode(request.stdin)),
  };
}

/** What the dry run's approver saw. */
interface Seen {
  request: ApprovalRequest;
  verdict: Verdict;
  secrets: readonly string[];
}

/** An approver that records what would be decided, and refuses. */
export class DryRun {
  #seen: Seen | undefined;
  readonly #settings: Settings;
  readonly #root: string | undefined;

  /**
   * @param settings The run's settings: the policy and the config directory.
   * @param root The workspace root rules are scoped to.
   */
  constructor(settings: Settings, root: string | undefined) {
    this.#settings = settings;
    this.#root = root;
  }

  /** The approver to build the tool with. */
  readonly approver: Approver = async (request, context) => {
    const verdict = await verdictFor(request, {
      policy: this.#settings.approve,
      configDir: this.#settings.configDir,
      cacheDir: this.#settings.cacheDir,
      ...(this.#root === undefined ? {} : { root: this.#root }),
    });
    this.#seen = { request, verdict, secrets: context.secrets };
    return { allowed: false, by: "policy", ruleId: undefined, reason: "dry run" };
  };

  /**
   * Runs the execution up to its approval and reports what would be decided.
   *
   * @param execution The validated call, built with {@linkcode approver}.
   * @returns The exit code: 0 when the call would run, 5 when not.
   * @throws What the execution throws before approval (a refusal, a program that cannot start).
   */
  async report(execution: ToolExecution<unknown>): Promise<number> {
    try {
      await execution.execute();
    } catch (error) {
      const seen = this.#seen;
      if (seen === undefined || !(error instanceof ToolError) || error.code !== "denied") {
        throw error;
      }
      return this.#print(seen, messages(this.#settings.locale));
    }
    throw new Error("Bug: a dry run's execution ran");
  }

  #print(seen: Seen, words: Messages): number {
    const { verdict } = seen;
    const shown = redactValue(shownPreview(seen.request), seen.secrets);
    const preview = JSON.stringify(shown);
    const allowed = verdict.outcome === "allow";
    if (this.#settings.json) {
      outJson({
        preview: shown,
        decision: verdict.outcome,
        by: verdict.by,
        rule_id: verdict.rule?.id ?? null,
        would_run: allowed,
        changed: verdict.changed === undefined ? null : {
          rule_id: verdict.changed.rule,
          files: verdict.changed.files.map(({ path, change }) => ({
            path: redact(path, seen.secrets),
            change,
          })),
        },
      });
    } else {
      const rule = verdict.rule?.id ?? "";
      const line = verdict.outcome === "allow"
        ? verdict.by === "rule"
          ? words.t("rules.test_allow_rule", { rule })
          : words.t("rules.test_allow_policy")
        : verdict.outcome === "deny"
        ? verdict.by === "rule"
          ? words.t("rules.test_deny_rule", { rule })
          : words.t("rules.test_deny_policy")
        : rule === ""
        ? words.t("rules.test_ask")
        : words.t("rules.test_ask_rule", { rule });
      const changed = verdict.changed === undefined ? "" : `${
        words.t("rules.test_changed", {
          rule: verdict.changed.rule,
          files: verdict.changed.files.map((file) =>
            JSON.stringify(redact(file.path, seen.secrets))
          )
            .join(", "),
        })
      }\n`;
      // JSON leaves C1 controls and bidi overrides raw: escaped (as JSON reads them) for a terminal.
      out(visibleLines(`${words.t("rules.test_preview", { preview })}\n${line}\n${changed}`));
    }
    return allowed ? EXIT.ok : EXIT.denied;
  }
}
