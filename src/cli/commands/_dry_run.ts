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
import { messages } from "../../locale/messages.ts";
import { parseKeepingNumbers } from "../../json_text.ts";
import { Redactor } from "../../redact.ts";
import { EXIT } from "../exit_codes.ts";
import { out, outJson } from "../output.ts";
import type { Settings } from "../settings.ts";
import { visibleLines } from "../../approval/shell_quote.ts";

/** An approver that records what would be decided, and refuses. */
export class DryRun {
  #seen: { request: ApprovalRequest; verdict: Verdict; redactor: Redactor } | undefined;
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
    this.#seen = { request, verdict, redactor: new Redactor(context.secrets) };
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
      const { request, verdict, redactor } = seen;
      // The preview with its input as the program receives it (every number as written).
      const shown = redactor.value(
        request.kind === "spawn" || request.stdin === undefined ? request.preview : {
          ...request.preview,
          input: parseKeepingNumbers(new TextDecoder().decode(request.stdin)),
        },
      );
      const { outcome, by, changed } = verdict;
      const rule = verdict.rule?.id ?? "";
      if (this.#settings.json) {
        outJson({
          preview: shown,
          decision: outcome,
          by,
          rule_id: verdict.rule?.id ?? null,
          would_run: outcome === "allow",
          changed: changed === undefined ? null : {
            rule_id: changed.rule,
            files: changed.files.map(({ path, change }) => ({ path: redactor.text(path), change })),
          },
        });
      } else {
        const { t } = messages(this.#settings.locale);
        const line = outcome === "ask"
          ? rule === "" ? t("rules.test_ask") : t("rules.test_ask_rule", { rule })
          : by === "rule"
          ? t(outcome === "allow" ? "rules.test_allow_rule" : "rules.test_deny_rule", { rule })
          : t(outcome === "allow" ? "rules.test_allow_policy" : "rules.test_deny_policy");
        const files = changed?.files.map((file) => JSON.stringify(redactor.text(file.path)));
        const lines = [
          t("rules.test_preview", { preview: JSON.stringify(shown) }),
          line,
          ...(changed === undefined ? [] : [
            t("rules.test_changed", { rule: changed.rule, files: files!.join(", ") }),
          ]),
        ];
        // JSON leaves C1 controls and bidi overrides raw: escaped (as JSON reads them) for a
        // terminal.
        out(visibleLines(lines.map((text) => `${text}\n`).join("")));
      }
      return outcome === "allow" ? EXIT.ok : EXIT.denied;
    }
    throw new Error("Bug: a dry run's execution ran");
  }
}
