/**
 * The shapes of remembered rules, as stored in `<configDir>/rules.json` and as passed around.
 *
 * The file is `{"version": 2, "rules": [Rule, ...]}`. A rule names its tool, its decision, its scope
 * and, under `when`, conditions on the fields of a call's preview. Conditions are per field: no
 * condition can match across fields, or across the elements of an argv.
 *
 * @module
 */

import type { Phrase } from "../../locale/messages.ts";
import type { ApprovalRequest } from "../approve.ts";
import type { Reach } from "../../spawn/types.ts";
import type { ChildPreview } from "../../spawn/child.ts";
import type { PreviewSandbox } from "../../sandbox/types.ts";
import type { CallContent } from "./content.ts";

/** What a rule answers: run without asking, refuse, or always ask a person. */
export type RuleDecision = "allow" | "deny" | "ask";

/**
 * Where a rule applies: every workspace (`"global"`), or one workspace root, written
 * `{"workspace": "/abs/root"}`: the canonical path (symbolic links resolved), compared exactly.
 */
export type RuleScope = "global" | { readonly workspace: string };

/**
 * A condition on one text field.
 *
 * - a string: the field equals it exactly (no character is special);
 * - `{"glob": "…"}`: `*` any run of characters within the field, `?` one character, `\` makes
 *   the next character literal;
 * - `{"sha256": "<64 hex>", "salt": "<32 hex>"}`: SHA-256 of the salt's bytes then the field's
 *   UTF-8 equals it: an exact value pinned without being stored (for values holding a secret).
 */
export type TextMatcher = string | { readonly glob: string } | Digest;

/** A salted SHA-256 digest: of the salt's bytes, then the value's UTF-8 (both lowercase hex). */
export type Digest = { readonly sha256: string; readonly salt: string };

/**
 * A condition on one argument:
 *
 * - a text condition;
 * - `{"operand": "<glob>"}`: an argument that is not an option (it does not begin with `-`) and
 *   that the glob matches. "Always allow" pins an argument taken from the input this way (before a
 *   literal `--`), so a manifest that puts an option in its place is asked about again;
 * - `{"input": "<field>"}`: the call fills it from this top-level field of its input (any value the
 *   schema and the argument rules let through). "Always allow" pins an argument taken from the
 *   input this way, so a manifest that puts a value of its own there is asked about again;
 * - `{"input": "<field>", "flag": "-i"}` and `{"input": "<field>", "prefix": "--max-count="}`: an
 *   optional argument the manifest declares so, which the call has there or leaves out, as its
 *   input says (any value, as for `{"input"}`). "Always allow" pins optional arguments this way: the
 *   flag, the prefix and the field are pinned, whether this call has them or not;
 * - `{"rest": true}`, last only: "any further arguments" (none included).
 */
export type ArgMatcher =
  | TextMatcher
  | { operand: string }
  | { input: string; flag?: string; prefix?: string }
  | { rest: true };

/**
 * The digests of the files that decide what runs (see `content.ts`): `program`, `argv[N]` and
 * `files` for a declared tool, `word[N]` for a spawn command, each → the SHA-256 of the file's
 * bytes (of the listing, for `files`); or `"any"`. It holds when the call's files are exactly
 * these, unchanged. Absent: an allow rule holds only for a call with no file to pin (a program only
 * root can change, no workspace script); a deny or ask rule, whatever they are.
 */
export type ContentCondition = "any" | Readonly<Record<string, string>>;

/**
 * A condition on a call's grants: exactly (`"unconfined"`, or network and the write and read
 * paths, compared as sets), `"any"`, or `{"sha256", "salt"}` over their canonical JSON when a path
 * holds a secret.
 */
export type SandboxCondition = PreviewSandbox | "any" | Digest;

/** A condition on the JSON value at one pointer of the input. */
export type InputMatcher = { readonly equals: unknown } | { readonly glob: string };

/**
 * Conditions of a declared tool's rule. `program` is the resolved program: an allow or ask rule
 * always has it (a name never approves on its own).
 */
export interface ToolConditions {
  /** The absolute path of the program that will run: exact, or a digest. */
  readonly program?: string | Digest;
  /**
   * The argv as written in the manifest, token by token: one matcher per argument, in order, the
   * rest marker last for "any further arguments". Without the marker the count must be equal.
   */
  readonly argv?: readonly ArgMatcher[];
  /** The absolute working directory. */
  readonly cwd?: TextMatcher;
  /**
   * The manifest's `env`, names and values: `{"sha256", "salt"}` over its canonical JSON
   * (`[[name, value], ...]` sorted by name), or `"any"`. Absent: an allow rule holds only when the
   * manifest sets no variable (a deny or ask rule holds whatever it sets).
   */
  readonly env?: "any" | Digest;
  /**
   * The call's sandbox grants, exactly (`"unconfined"`, or network and the write and read paths,
   * compared as sets), or `"any"`. Absent: an allow rule holds only for a call with no grants
   * (the default sandbox, or unconfined by the user's policy); a deny or ask rule, whatever they
   * are. "Always allow" pins the grants, so a tool that later asks for more is asked about again.
   */
  readonly sandbox?: SandboxCondition;
  /** JSON pointer → condition on the value there; a pointer with no value fails. */
  readonly input?: Readonly<Record<string, InputMatcher>>;
  /** The files that decide what runs, by digest. */
  readonly content?: ContentCondition;
}

/** Conditions of a spawn rule. */
export interface SpawnConditions {
  /** `"command"` or `"agent"`. */
  readonly mode?: "command" | "agent";
  /**
   * The command line or the task. A glob allow rule applies to a command only when it is a simple
   * command (no control syntax); an exact body always applies.
   */
  readonly body?: TextMatcher;
  /** The target (`"local"` when none), or the named agent a task is for. */
  readonly target?: string;
  /** The absolute working directory. */
  readonly cwd?: TextMatcher;
  /**
   * The command's grants beyond the default, exactly, or `"any"`; a preview without grants
   * matches only `"any"`.
   */
  readonly sandbox?: SandboxCondition;
  /**
   * The reach the preview shows (a task's, only when it is not the policy's default): a preview
   * without one matches no reach condition.
   */
  readonly reach?: Reach;
  /**
   * What the child will be, exactly as the preview's `child` (roster compared as a set), or
   * `{"sha256", "salt"}` over its canonical JSON: a preview without one matches no child
   * condition. A rule without it holds whatever the user's child policy says.
   */
  readonly child?: ChildPreview | Digest;
  /** The workspace files an exact command's words name, by digest (never checked for a glob). */
  readonly content?: ContentCondition;
}

/** The conditions of a rule: for its tool's kind. */
export type RuleConditions = ToolConditions | SpawnConditions;

/** A remembered rule, as stored. Key order when written: as declared here. */
export interface Rule {
  /** Short, unique and stable: `r-` and 8 base32 characters when generated. */
  readonly id: string;
  /** The tool's name (`spawn` for the built-in spawn tool). */
  readonly tool: string;
  /** What the rule answers. */
  readonly decision: RuleDecision;
  /** Where the rule applies. */
  readonly scope: RuleScope;
  /** Conditions on the preview's fields; every one must hold. */
  readonly when: RuleConditions;
  /** Why, in one line: shown with a denial. */
  readonly reason?: string;
  /** Example previews the rule must match. */
  readonly match?: readonly unknown[];
  /** Example previews the rule must not match. */
  readonly not_match?: readonly unknown[];
  /** When the rule was added, as an ISO 8601 timestamp. */
  readonly created?: string;
}

/** A rule to add: everything but the id and creation time, which the store assigns. */
export type RuleInput = Omit<Rule, "id" | "created">;

/** The whole rules file. */
export interface RulesDocument {
  /** Always 2 for this format. */
  readonly version: 2;
  readonly rules: readonly Rule[];
}

/** A rule whose examples say it does not mean what its author thought. */
export interface RuleProblem {
  /** The rule's id. */
  readonly id: string;
  /** What is wrong, as a phrase (its English via `english()`). */
  readonly phrase: Phrase;
  /**
   * Whether the rule is out of force because of it: true for allow rules (a broken rule never
   * allows), false for deny and ask rules (they keep applying to what they match).
   */
  readonly ignored: boolean;
}

/** The rules of one file, split into those in force and those ignored. */
export interface LoadedRules {
  /** The file read (it may not exist). */
  readonly file: string;
  /** The rules in force, in file order: pass these to `decideCall`. */
  readonly rules: readonly Rule[];
  /** Allow rules out of force because an example failed, in file order. */
  readonly ignored: readonly Rule[];
  /** Every failing example, in file order. */
  readonly problems: readonly RuleProblem[];
}

/**
 * The call a rule is looked up for: the approval request (a global allow rule covers a workspace
 * tool only when it has an argv condition: a workspace tool may shadow a global one by name), the
 * canonical workspace root (`undefined`: global rules only), and the call's files, read when a rule
 * needs them (none: no file to pin).
 */
export type RuleQuery = ApprovalRequest & {
  readonly root?: string | undefined;
  readonly content?: () => Promise<CallContent>;
  /**
   * A rule's example, not a call: an argument is taken to come from the input wherever the rule
   * says and the text fits (a call says where its arguments came from in `fromInput`).
   */
  readonly example?: boolean;
};

/** An allow rule that would have answered but for files that changed since it pinned them. */
export interface StaleRule {
  readonly rule: Rule;
  /** The pins that differ (`program`, `argv[1]`, `files`, …). */
  readonly where: readonly string[];
}

/** One file that changed since a rule pinned it. */
export interface ContentChange {
  /** The file, relative to the workspace root when inside it (`files` for a set not named). */
  readonly path: string;
  /** Its bytes differ, it is newly part of what runs, or it is gone (or no longer named). */
  readonly change: "changed" | "added" | "removed";
  /** The lines that differ (`- ` / `+ `), when both versions are small text. */
  readonly diff?: readonly string[];
}

/** The files that changed since the rule that would have allowed a call pinned them. */
export interface ChangedSinceApproval {
  /** The rule's id. */
  readonly rule: string;
  /** Each file that changed, was added or is gone. */
  readonly files: readonly ContentChange[];
}
