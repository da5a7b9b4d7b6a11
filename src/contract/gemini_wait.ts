/**
 * Gemini CLI adds a `wait_for_previous` flag to the parameters of every tool it shows its model
 * (for its own scheduler: run this call after the ones before it) and passes it on with the call,
 * over MCP and to its `callCommand` alike. It is not the tool's: a closed schema would refuse it.
 *
 * @module
 */

/** The argument Gemini CLI adds to every tool's parameters. */
const GEMINI_WAIT = "wait_for_previous";

/**
 * The input without Gemini CLI's `wait_for_previous` flag, unless the tool's own schema declares a
 * property of that name (then it is the tool's, and stays).
 *
 * @param input The arguments as the host sent them.
 * @param schema The tool's input schema.
 * @returns The input itself when there is nothing to drop, else a copy without the flag.
 * @example Drop the flag, keep the rest
 * ```ts
 * import { withoutGeminiWait } from "./gemini_wait.ts";
 * const input = { text: "hi", wait_for_previous: true };
 * console.assert(JSON.stringify(withoutGeminiWait(input, {})) === '{"text":"hi"}');
 * const own = { properties: { wait_for_previous: { type: "boolean" } } };
 * console.assert(withoutGeminiWait(input, own) === input);
 * ```
 */
export function withoutGeminiWait(
  input: unknown,
  schema: Readonly<Record<string, unknown>>,
): unknown {
  const properties = schema.properties;
  if (
    typeof input !== "object" || input === null || Array.isArray(input) ||
    !Object.hasOwn(input, GEMINI_WAIT) ||
    (typeof properties === "object" && properties !== null &&
      Object.hasOwn(properties, GEMINI_WAIT))
  ) {
    return input;
  }
  const { [GEMINI_WAIT]: _, ...rest } = input as Record<string, unknown>;
  return rest;
}
