/**
 * The shapes of remembered rules, as stored in `<configDir>/rules.json` and as passed around.
 *
 * The file is `{"version": 1, "rules": [Rule, ...]}`. A rule's `scope` is the string `"global"`
 * or the object `{"workspace": "/abs/root"}` (an absolute, normalised path, compared exactly).
 *
 * @module
 */

import type { Phrase } from "../../locale/messages.ts";

/** What a rule answers. */
export type RuleDecision = "allow" | "deny";

/**
 * Where a rule applies: every workspace (`"global"`), or one workspace root, written
 * `{"workspace": "/abs/root"}` (absolute and normalised: no `.`, `..`, `//` or trailing `/`).
 */
export type RuleScope = "global" | { readonly workspace: string };

/** A remembered rule, as stored. Key order when written: as declared here. */
export interface Rule {
  /** Short, unique and stable: `r-` and 8 base32 characters when generated. */
  readonly id: string;
  /** The tool's name (for spawn previews, the name the caller decides under). */
  readonly tool: string;
  /**
   * Matched against the preview's compact JSON, anchored at both ends: `*` any run of characters,
   * `?` one character, everything else literal. Absent: the rule covers every call of the tool.
   */
  readonly pattern?: string;
  readonly decision: RuleDecision;
  /** Why, in one line: shown with a denial. */
  readonly reason?: string;
  readonly scope: RuleScope;
  /** Example previews the pattern must match. */
  readonly match?: readonly string[];
  /** Example previews the pattern must not match. */
  readonly not_match?: readonly string[];
  /** When the rule was added, as an ISO 8601 timestamp. */
  readonly created?: string;
}

/** A rule to add: everything but the id and creation time, which the store assigns. */
export type RuleInput = Omit<Rule, "id" | "created">;

/** The whole rules file. */
export interface RulesDocument {
  /** Always 1 for this format. */
  readonly version: 1;
  readonly rules: readonly Rule[];
}

/** A rule whose examples say its pattern does not mean what its author thought. */
export interface RuleProblem {
  /** The rule's id. */
  readonly id: string;
  /** What is wrong, in English, no trailing period. */
  readonly reason: string;
  /** What is wrong as a phrase, for other locales (`reason` is its English). */
  readonly phrase: Phrase;
  /**
   * Whether the rule is out of force because of it: true for allow rules (a broken rule never
   * allows), false for deny rules (they keep denying what their pattern matches).
   */
  readonly ignored: boolean;
}

/** The rules of one file, split into those in force and those ignored. */
export interface LoadedRules {
  /** The file read (it may not exist). */
  readonly file: string;
  /** The rules in force, in file order: pass these to `decideByRules`. */
  readonly rules: readonly Rule[];
  /** Allow rules out of force because an example failed, in file order. */
  readonly ignored: readonly Rule[];
  /** Every failing example, in file order. */
  readonly problems: readonly RuleProblem[];
}

/** The call a rule is looked up for. */
export interface RuleQuery {
  /** The tool's name. */
  readonly tool: string;
  /** The preview's compact JSON (`previewText()`). */
  readonly previewText: string;
  /** The workspace root (absolute, normalised); `undefined` when there is none: global rules only. */
  readonly root?: string | undefined;
}

/** The rule that answered a call, and its answer. */
export interface RuleMatch {
  readonly rule: Rule;
  readonly decision: RuleDecision;
}
