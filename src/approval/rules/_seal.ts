/**
 * The rules file never holds a secret: before a rule is stored, each of its exact values that
 * holds one (the program, an argument, the cwd, a spawn body) is replaced by a salted digest, and
 * so are grants whose paths hold one and a child description that does; a rule with a secret anywhere else (a glob, an input value,
 * its reason or examples) is refused. Private to the rules store.
 *
 * @module
 */

import { BasisError } from "../../errors.ts";
import { phrase } from "../../locale/messages.ts";
import { redactorOf } from "../../redact.ts";
import { digestOf } from "./_digest.ts";
import { childText, grantsText } from "./decide.ts";
import type { ChildPreview } from "../../spawn/child.ts";
import type { RuleInput } from "./types.ts";
import type { PreviewSandbox } from "../../sandbox/types.ts";

/**
 * A rule with every secret it holds sealed by digest.
 *
 * @param input The rule as given.
 * @param secrets The values never to store (the tool's env values and the `--env` values).
 * @returns The rule to store (the same object when it holds no secret).
 * @throws {BasisError} `usage` when a secret is where no digest can stand for it, naming the field.
 */
export async function sealSecrets(
  input: RuleInput,
  secrets: readonly string[],
): Promise<RuleInput> {
  // Matched in the strings themselves (not in JSON text, whose escapes would hide a secret).
  const holds = (value: unknown) =>
    JSON.stringify(redactorOf(secrets).value(value)) !== JSON.stringify(value);
  if (secrets.length === 0 || !holds([input.when, input.reason, input.match, input.not_match])) {
    return input;
  }
  const exact = async (value: unknown) =>
    typeof value === "string" && holds(value) ? await digestOf(value) : value;
  const when = { ...input.when } as Record<string, unknown>;
  for (const key of ["program", "cwd", "body"]) {
    if (Object.hasOwn(when, key)) when[key] = await exact(when[key]);
  }
  if (Array.isArray(when.argv)) when.argv = await Promise.all(when.argv.map(exact));
  for (const [key, text] of [["child", childText], ["sandbox", grantsText]] as const) {
    const value = when[key];
    if (typeof value === "object" && value !== null && !("sha256" in value) && holds(value)) {
      when[key] = await digestOf(text(value as ChildPreview & PreviewSandbox));
    }
  }
  const left = Object.entries({ ...when, reason: input.reason, match: input.match })
    .find(([, value]) => holds(value));
  if (left !== undefined || holds(input.not_match)) {
    const field = left === undefined ? "not_match" : left[0] in when ? `when.${left[0]}` : left[0];
    const problem = phrase("rules_file.holds_secret", { field });
    throw BasisError.of(
      "usage",
      phrase("rules.cannot_add", { tool: JSON.stringify(input.tool), problem }),
    );
  }
  return { ...input, when } as RuleInput;
}
