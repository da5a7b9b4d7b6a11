/**
 * Validating a parsed rules file: the pure half of loading, separate from reading the disk.
 *
 * @module
 */

import { type Phrase, phrase } from "../../locale/messages.ts";
import { fieldProblem, isRecord, type Narrowed, narrowStoredRule, quoteName } from "./_shape.ts";
import type { Rule, RulesDocument } from "./types.ts";

/** The only version of the rules file this code reads and writes. */
export const RULES_VERSION = 2;

/**
 * Validates a parsed rules file: `{"version": 2, "rules": [...]}` with every rule well formed,
 * no unknown fields (at the top or in a rule) and no duplicate ids. Any problem refuses the whole
 * file, so that a damaged file can never allow a call. Examples (`match`, `not_match`) are not
 * checked here: see `checkRules`.
 *
 * @param value The file's content as `JSON.parse` returned it.
 * @returns The document, with fresh rule objects in canonical key order, or every problem found
 *   as a phrase, each one line, prefixed with where it is (`rules[2] "r-abc": decision: ...`).
 * @throws Never.
 * @example A newer version is refused
 * ```ts
 * import { validateRulesDocument } from "./validate.ts";
 * const result = validateRulesDocument({ version: 3, rules: [] });
 * console.assert(!result.ok);
 * ```
 */
export function validateRulesDocument(value: unknown): Narrowed<RulesDocument> {
  if (!isRecord(value)) {
    return { ok: false, problems: [phrase("rules_file.not_object")] };
  }
  const problems: Phrase[] = [];
  for (const key of Object.keys(value)) {
    if (key !== "version" && key !== "rules") {
      problems.push(phrase("rules_file.unknown_field", { field: quoteName(key) }));
    }
  }
  const versionProblem = checkVersion(value);
  if (versionProblem !== undefined) return { ok: false, problems: [versionProblem] };
  if (!Array.isArray(value.rules)) {
    return {
      ok: false,
      problems: [...problems, fieldProblem("rules", "rules_file.must_be_array")],
    };
  }
  const rules: Rule[] = [];
  const seen = new Set<string>();
  value.rules.forEach((item: unknown, index: number) => {
    const inRule = (problem: Phrase) =>
      isRecord(item) && typeof item.id === "string"
        ? phrase("rules_file.in_rule", { index, id: quoteName(item.id), problem })
        : phrase("rules_file.in_rule_no_id", { index, problem });
    const narrowed = narrowStoredRule(item);
    if (!narrowed.ok) {
      for (const problem of narrowed.problems) problems.push(inRule(problem));
      return;
    }
    if (seen.has(narrowed.value.id)) {
      problems.push(inRule(fieldProblem("id", "rules_file.id_taken")));
    }
    seen.add(narrowed.value.id);
    rules.push(narrowed.value);
  });
  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, value: { version: RULES_VERSION, rules } };
}

function checkVersion(value: Record<string, unknown>): Phrase | undefined {
  const expected = RULES_VERSION;
  if (!Object.hasOwn(value, "version")) return phrase("rules_file.version_missing", { expected });
  const version = value.version;
  if (version === RULES_VERSION) return undefined;
  // Version 1 matched globs over the serialized preview, across fields: its rules cannot be read
  // as if they meant something narrower, so they are refused, never reinterpreted.
  if (version === 1) return phrase("rules_file.version_old");
  if (typeof version === "number" && Number.isInteger(version) && version > RULES_VERSION) {
    return phrase("rules_file.version_newer", { version, expected });
  }
  return typeof version === "number"
    ? phrase("rules_file.version_unsupported", { version, expected })
    : phrase("rules_file.version_type", { type: typeOf(version), expected });
}

function typeOf(value: unknown): string {
  if (value === null) return "null";
  return Array.isArray(value) ? "array" : typeof value;
}

/**
 * The text written for a rules document: the version, then one rule per line as compact JSON, keys
 * in canonical order, final newline. One line a rule keeps a large file quick to read back and easy
 * to diff, grep and review.
 *
 * @param document The document.
 * @returns The file's text.
 * @throws Never.
 * @example An empty file
 * ```ts
 * import { formatRulesDocument } from "./validate.ts";
 * console.assert(formatRulesDocument({ version: 2, rules: [] }) === '{\n  "version": 2,\n  "rules": []\n}\n');
 * ```
 */
export function formatRulesDocument(document: RulesDocument): string {
  const rules = document.rules.map((rule) => `    ${JSON.stringify(rule)}`).join(",\n");
  const list = rules === "" ? "[]" : `[\n${rules}\n  ]`;
  return `{\n  "version": ${document.version},\n  "rules": ${list}\n}\n`;
}
