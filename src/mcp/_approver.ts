/**
 * The approver of the MCP server: remembered rules first; then, with `--approve prompt` (the
 * default), the person behind the client through `elicitation/create` when the client can ask,
 * else a denial saying how to add a rule; `--approve always` and `never` decide without asking.
 * Nothing is ever asked on the server's own stdio. Private to the MCP binding.
 *
 * @module
 */

import { type Elicit, elicitApproval } from "../approval/elicitation/elicit_approval.ts";
import type { ApprovalPolicy } from "../approval/policy.ts";
import { shellQuote } from "../approval/shell_quote.ts";
import { policyApprover } from "../contract/approver.ts";
import type { Approver } from "../contract/types.ts";
import { type Messages, type Phrase, phrase } from "../locale/messages.ts";

/** What the approver needs besides the request. */
export interface McpApproverSettings {
  /** `--approve`: `prompt` asks through the client when it can; `always` and `never` do not ask. */
  readonly policy: ApprovalPolicy;
  /** The user's config directory (remembered rules). */
  readonly configDir: string;
  /** Where digests of pinned files are cached. */
  readonly cacheDir?: string;
  /** The workspace root, for workspace-scoped rules and the hint. */
  readonly root: string;
  /** Sends `elicitation/create`; `undefined` while the client has not declared form elicitation. */
  readonly elicit: () => Elicit | undefined;
  /** Told why a question to the client failed (it is then a denial). */
  readonly log: (line: string) => void;
  /** The messages of the server's locale: the form and its log line. */
  readonly words: Messages;
}

/**
 * Makes the server's approver: the CLI's decision (rules, then the policy), with the person asked
 * through the client instead of a terminal. "Always allow" remembers the same rule as the
 * terminal prompt's.
 *
 * @param settings The policy, where rules live, and how to reach the client.
 * @returns The approver handed to every tool of the roster.
 */
export function mcpApprover(settings: McpApproverSettings): Approver {
  return async (request, context) => {
    let noOneAsked = false;
    // How the question to the client ended: what a denial at "the prompt" really was.
    let asked: "answered" | "declined" | "cancelled" | "failed" | undefined;
    const decide = policyApprover({
      policy: settings.policy,
      configDir: settings.configDir,
      ...(settings.cacheDir === undefined ? {} : { cacheDir: settings.cacheDir }),
      root: settings.root,
      tell: (line) => settings.log(settings.words.say(line)),
      ask: async (prompt) => {
        const client = settings.elicit();
        if (client === undefined) {
          noOneAsked = true;
          return "no_answer";
        }
        const elicit: Elicit = async (form, signal) => {
          asked = "failed";
          const reply = await client(form, signal);
          asked = reply.action === "accept"
            ? "answered"
            : reply.action === "decline"
            ? "declined"
            : "cancelled";
          return reply;
        };
        return await elicitApproval(prompt, {
          elicit,
          secrets: context.secrets,
          signal: context.signal,
          words: settings.words,
          onError: (error) =>
            settings.log(settings.words.t("elicit.cannot_ask", {
              tool: JSON.stringify(request.tool),
              reason: error instanceof Error ? error.message : String(error),
            })),
        });
      },
    });
    const decision = await decide(request, context);
    if (decision.allowed) return decision;
    // The CLI's wording speaks of a terminal; here it is the client that asked, or could not. A
    // rule's or the policy's denial says so already. The caller is told in the tool's locale, the
    // audit trail in English.
    const tool = JSON.stringify(request.tool);
    const reason = noOneAsked
      ? noClientToAsk(request.tool, settings.root, decision.ruleId)
      : decision.by !== "prompt"
      ? undefined
      : asked === "declined"
      ? phrase("elicit.declined", { tool })
      : asked === "cancelled"
      ? phrase("elicit.cancelled", { tool })
      : asked === "failed"
      ? phrase("elicit.failed", { tool })
      : phrase("elicit.denied", { tool });
    if (reason === undefined) return decision;
    return { ...decision, reason };
  };
}

/**
 * The one line for a call no rule answers when the client cannot ask anyone (or a rule says to
 * ask, and no one can be).
 */
function noClientToAsk(tool: string, root: string, rule: string | undefined): Phrase {
  if (rule !== undefined) {
    return phrase("elicit.no_client_ask_rule", { tool: JSON.stringify(tool), rule });
  }
  const command = `basis-tools -C ${shellQuote(root)} rules add --tool ${tool}`;
  return phrase("elicit.no_client", { tool: JSON.stringify(tool), command });
}
