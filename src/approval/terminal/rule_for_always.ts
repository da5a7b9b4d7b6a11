/**
 * The rule that "always allow" and "never" remember: a pattern pinning the tool, the exact command
 * and the cwd, matching any input (for spawn: the exact body, mode, cwd and target).
 *
 * @module
 */

import type { PromptRequest } from "./types.ts";

/** What a remembered answer pins: the tool and a pattern over the preview's compact JSON. */
export interface RememberedPattern {
  /** The tool the rule is for. */
  readonly tool: string;
  /** The pattern (`*` any run, `?` one code point, anchored at both ends). */
  readonly pattern: string;
}

/** Options for {@linkcode ruleForAlways}. */
export interface RuleForAlwaysOptions {
  /**
   * Values that must never be written to the rules file (manifest env values). Each occurrence is
   * replaced by `*` in the pattern, which then matches a little more. @default []
   */
  secrets?: readonly string[];
}

/**
 * Makes literal text safe inside a pattern. The pattern language has no escape syntax and only two
 * special characters, so each `*` or `?` becomes `?` (one code point): it matches the literal
 * character and, slightly more broadly, any other single one in that position.
 */
function literal(text: string): string {
  return text.replace(/[*?]/g, "?");
}

/** Splits text at every occurrence of a secret (raw or as written inside a JSON string). */
function splitAtSecrets(text: string, secrets: readonly string[]): string[] {
  let parts = [text];
  for (const secret of secrets) {
    if (secret.length < 4) continue;
    const forms = new Set([secret, JSON.stringify(secret).slice(1, -1)]);
    for (const form of forms) parts = parts.flatMap((part) => part.split(form));
  }
  return parts;
}

/**
 * The pattern rule an `always_allow` answer (decision `allow`) or a `never` answer (decision
 * `deny`) remembers. For a declared tool it is the preview's compact JSON up to and including the
 * cwd, then `"input":*}`: the tool, every argument and the cwd must be exactly as now — so a later
 * change to the manifest's command asks again — while any input matches. For spawn it is the whole
 * preview (mode, body, cwd, target), exactly.
 *
 * A `*` or `?` in the argv, cwd or body is written as `?` (the pattern language has no escape), so
 * such a rule also matches when that one character differs; nothing else is broadened.
 *
 * @param request What was asked about.
 * @param options Secrets to keep out of the pattern.
 * @returns The tool and the pattern; the caller adds the decision, scope and id.
 * @example Pin the command and cwd, not the input
 * ```ts
 * import { ruleForAlways } from "./rule_for_always.ts";
 * const preview = { tool: "grep", command: ["grep", "-r", "*.ts"], cwd: "/w", input: { q: "x" } };
 * const rule = ruleForAlways({ tool: "grep", sideEffect: "process", kind: "tool", preview });
 * console.assert(rule.pattern === '{"tool":"grep","command":["grep","-r","?.ts"],"cwd":"/w","input":*}');
 * ```
 */
export function ruleForAlways(
  request: PromptRequest,
  options: RuleForAlwaysOptions = {},
): RememberedPattern {
  const secrets = options.secrets ?? [];
  const pin = (text: string) => splitAtSecrets(text, secrets).map(literal).join("*");
  if (request.kind === "spawn") {
    const { mode, body, cwd, target } = request.preview;
    return { tool: request.tool, pattern: pin(JSON.stringify({ mode, body, cwd, target })) };
  }
  const { tool, command, cwd } = request.preview;
  const head = JSON.stringify({ tool, command, cwd }).slice(0, -1);
  return { tool: request.tool, pattern: `${pin(head)},"input":*}` };
}
