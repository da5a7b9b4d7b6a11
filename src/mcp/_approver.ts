/**
 * The approver of the MCP server: remembered rules first; then, with `--approve prompt` (the
 * default), the person behind the client of the call — through `elicitation/create` for a client
 * of the 2025 protocol, through an `input_required` result for one of 2026-07-28 — when that
 * client can ask, else a denial saying how to add a rule; `--approve always` and `never` decide
 * without asking. Nothing is ever asked on the server's own stdio. Private to the MCP binding.
 *
 * @module
 */

import { elicitApproval } from "../approval/elicitation/elicit_approval.ts";
import { shellQuote } from "../approval/shell_quote.ts";
import { policyApprover } from "../contract/approver.ts";
import type { Approver } from "../contract/types.ts";
import { type Messages, phrase } from "../locale/messages.ts";
import { asking } from "./_served.ts";
import type { ServeMcpOptions } from "./serve_mcp.ts";

/** How long a person has to answer an approval question in the client. */
export const ELICIT_TIMEOUT_MS = 600_000;

/** How a question to the client ended, as a denial says it. */
const DENIED = { decline: "declined", cancel: "cancelled", failed: "failed" } as const;

/**
 * Makes the server's approver: the CLI's decision (rules, then the policy), with the person asked
 * through the client of the call instead of a terminal. "Always allow" remembers the same rule as
 * the terminal prompt's. A denial says what denied: a rule or the policy in their words; the
 * person, or a client that could not ask, in the server's locale (the audit trail stays English).
 *
 * @param settings The policy, where rules live, the workspace root.
 * @param words The messages of the server's locale: the form, its log line, the denial.
 * @param log Told why a question to the client failed (it is then a denial).
 * @returns The approver handed to every tool of the roster.
 */
export function mcpApprover(
  settings: Pick<ServeMcpOptions, "policy" | "configDir" | "cacheDir" | "root">,
  words: Messages,
  log: (line: string) => void,
): Approver {
  const { policy = "prompt", configDir, cacheDir, root } = settings;
  return async (request, context) => {
    // How the question to the client ended: what a denial at "the prompt" really was.
    let asked: "nobody" | "failed" | "accept" | "decline" | "cancel" | undefined;
    const client = asking.getStore();
    const decision = await policyApprover({
      policy,
      configDir,
      ...(cacheDir && { cacheDir }),
      root,
      tell: (line) => log(words.say(line)),
      ask: async (prompt) => {
        const elicit = client?.elicit;
        if (elicit === undefined) {
          asked = "nobody";
          return "no_answer";
        }
        await client?.before?.(prompt, context.secrets);
        return await elicitApproval(prompt, {
          elicit: async (form, signal) => {
            asked = "failed";
            const reply = await elicit(form, signal);
            asked = reply.action;
            return reply;
          },
          secrets: context.secrets,
          signal: context.signal,
          words,
          onError: (error) =>
            log(words.t("elicit.cannot_ask", {
              tool: JSON.stringify(request.tool),
              reason: error instanceof Error ? error.message : String(error),
            })),
        });
      },
    })(request, context);
    if (decision.allowed || (asked !== "nobody" && decision.by !== "prompt")) return decision;
    const tool = JSON.stringify(request.tool);
    if (asked !== "nobody") {
      const key = asked === undefined || asked === "accept" ? "denied" : DENIED[asked];
      return { ...decision, reason: phrase(`elicit.${key}`, { tool }) };
    }
    // No one to ask: how to allow the call with a rule (or which rule said to ask).
    const rule = decision.ruleId;
    const command = `basis-tools -C ${shellQuote(root)} rules add --tool ${request.tool}`;
    const reason = rule === undefined
      ? phrase("elicit.no_client", { tool, command })
      : phrase("elicit.no_client_ask_rule", { tool, rule });
    return { ...decision, reason };
  };
}
