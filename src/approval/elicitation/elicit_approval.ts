/**
 * The approver that asks a person through an MCP client (`elicitation/create`, form mode): the
 * same question as the terminal prompt, in the same words and locale, answered allow once, always
 * allow, or deny. The MCP SDK is not imported here: the caller passes the function that sends the
 * request.
 *
 * @module
 */

import { makePalette, offeredChoices, renderRequest } from "../terminal/_render.ts";
import type { PromptRequest, TerminalAnswer } from "../terminal/types.ts";
import { type Messages, messages } from "../../locale/messages.ts";

/** Options of {@linkcode elicitApproval}. */
export interface ElicitApprovalOptions {
  /**
   * Sends `elicitation/create` with the form (see {@linkcode elicitationForm}) and resolves to the
   * client's reply (its `ElicitResult`: `accept` with the submitted `content`, `decline`, `cancel`).
   */
  elicit: (form: ReturnType<typeof elicitationForm>, signal: AbortSignal | undefined) => Promise<
    {
      readonly action: "accept" | "decline" | "cancel";
      readonly content?: Record<string, unknown> | undefined;
    }
  >;
  /** Values never to show (the tool's env values), replaced by `[redacted]`. @default [] */
  secrets?: readonly string[];
  /** Cancels the question: the answer is `deny`. */
  signal?: AbortSignal | undefined;
  /** The messages of the form's locale. @default English */
  words?: Messages;
  /**
   * Told why a question failed (the client answered with an error, or went away): the answer is
   * then `deny`. @default does nothing
   */
  onError?: (error: unknown) => void;
}

/**
 * The form asking about one call: the message shows exactly what would run first (the command,
 * the cwd and the input; for spawn the command or task and the cwd), then the tool, its side
 * effect and the rest the terminal prompt shows, without colour (a client may show only the first
 * few lines); the form has one required enum field with no default, so nothing is
 * allowed unless a person picks it. Texts are in the locale of `words`; the enum values are not.
 *
 * @param request What is asked about.
 * @param secrets Values never to show.
 * @param words The messages of the form's locale. @default English
 * @returns The `elicitation/create` parameters.
 * @example The field and its choices
 * ```ts
 * import { elicitationForm } from "./elicit_approval.ts";
 * const preview = { tool: "echo", program: "/usr/bin/cat", command: ["cat"], cwd: "/w", env: [], sandbox: "unconfined" as const, input: {} };
 * const form = elicitationForm({ tool: "echo", sideEffect: "process", kind: "tool", preview }, []);
 * console.assert(form.requestedSchema.required[0] === "decision");
 * console.assert(form.message.includes("cat"));
 * ```
 */
export function elicitationForm(
  request: PromptRequest,
  secrets: readonly string[],
  words: Messages = messages("en-US"),
) {
  // What runs first: a client may show only the first few lines of the message.
  const shown = renderRequest(request, makePalette(false), secrets, words, true).trimEnd();
  const question = words.t("prompt.question");
  // The terminal prompt's choices and titles, but "never" (a rule that says ask every time, or a
  // command not shown whole, is not offered "always allow" either: nothing is remembered).
  const choices = offeredChoices(request, secrets, words).filter(({ value }) => value !== "never");
  return {
    mode: "form" as const,
    message: `${shown}\n\n${question}`,
    requestedSchema: {
      type: "object" as const,
      properties: {
        decision: {
          type: "string",
          title: question,
          description: words.t("elicit.decision_description"),
          enum: choices.map((choice) => choice.value),
          // Titles as MCP 2025-06-18 clients read them (later ones accept them too).
          enumNames: choices.map((choice) => choice.name),
        },
      },
      required: ["decision"],
    },
  };
}

/**
 * Asks a person, through the MCP client, whether a call may run. Anything but a submitted form
 * naming a choice is a denial: declining, cancelling, an error from the client, the client going
 * away, or `signal` aborting (fail closed).
 *
 * @param request The tool, its side effect, the kind of call and its preview.
 * @param options How to send the question, secrets to hide, the cancelling signal, the locale.
 * @returns `allow_once`, `always_allow` (the caller remembers the rule) or `deny`.
 * @example Ask through a client
 * ```ts ignore
 * import { elicitApproval } from "./elicit_approval.ts";
 * const preview = { tool: "echo", program: "/usr/bin/cat", command: ["cat"], cwd: "/w", env: [], sandbox: "unconfined" as const, input: {} };
 * const answer = await elicitApproval(
 *   { tool: "echo", sideEffect: "process", kind: "tool", preview },
 *   { elicit: (form, signal) => server.elicitInput(form, { signal }) },
 * );
 * ```
 */
export async function elicitApproval(
  request: PromptRequest,
  options: ElicitApprovalOptions,
): Promise<TerminalAnswer> {
  if (options.signal?.aborted) return "deny";
  let reply;
  const form = elicitationForm(request, options.secrets ?? [], options.words);
  try {
    reply = await options.elicit(form, options.signal);
  } catch (error) {
    options.onError?.(error);
    return "deny";
  }
  if (options.signal?.aborted || reply.action !== "accept") return "deny";
  // Only what the form offered: a client that answers "always_allow" where it was not offered
  // is refused.
  const picked = reply.content?.decision;
  return form.requestedSchema.properties.decision.enum.find((value) => value === picked) ?? "deny";
}
