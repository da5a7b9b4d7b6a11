/**
 * The words of the "always allow" choice: the exact command, or, for a tool with arguments filled
 * from its input, the command with any value of those fields (what the remembered rule pins).
 *
 * @module
 */

import type { Messages } from "../../locale/messages.ts";
import type { PromptRequest } from "./types.ts";

/**
 * The label of "always allow" for one request.
 *
 * @param request What is asked about.
 * @param words The messages of the prompt's locale.
 * @returns The label.
 */
export function alwaysAllowLabel(request: PromptRequest, words: Messages): string {
  const fields = request.kind === "tool" ? request.fromInput ?? [] : [];
  if (fields.length === 0) return words.t("prompt.always_allow");
  const names = [...new Set(fields.map((arg) => arg.field))].join(", ");
  return words.t("prompt.always_allow_any", { fields: names });
}
