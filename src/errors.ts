/**
 * The errors every seam throws for things a user did or can fix. Each carries a `code`; the CLI maps
 * codes to exit codes in one table (`src/cli/exit_codes.ts`). Bugs are not `BasisError`s and keep
 * their stack trace.
 *
 * @module
 */

import { english, type Messages, messages, type Phrase } from "./locale/messages.ts";

/** What went wrong, as a stable machine-readable word. */
export type ErrorCode =
  | "usage"
  | "manifest_invalid"
  | "unknown_tool"
  | "invalid_json"
  | "invalid_input"
  | "denied"
  | "timed_out"
  | "tool_failed"
  | "spawn_failed"
  | "invalid_output"
  | "interrupted"
  | "internal";

/**
 * A user-facing error: one line of message, a code, and the original cause when there is one.
 *
 * @example Branch on the code, not the class
 * ```ts
 * import { BasisError } from "./errors.ts";
 * const error = new BasisError("unknown_tool", 'Cannot find tool "nope"');
 * console.assert(error.code === "unknown_tool");
 * ```
 */
export class BasisError extends Error {
  /** The stable word callers branch on. */
  readonly code: ErrorCode;
  /** The message as a phrase, when it can be worded in another locale. */
  readonly phrase: Phrase | undefined;

  /**
   * Makes an error with a code.
   *
   * @param code What went wrong, as a stable word.
   * @param message One line, sentence case, no trailing period: a phrase (kept as `phrase`, its
   *   English the error's `message`), or text already worded.
   * @param options `cause`: the underlying error, kept for logs.
   */
  constructor(code: ErrorCode, message: string | Phrase, options?: ErrorOptions) {
    super(typeof message === "string" ? message : english(message), options);
    this.name = "BasisError";
    this.code = code;
    this.phrase = typeof message === "string" ? undefined : message;
  }

  /**
   * Makes an error whose message is a phrase: English as its message, any locale on request.
   *
   * @param code What went wrong, as a stable word.
   * @param phrase The message.
   * @param options `cause`: the underlying error, kept for logs.
   * @returns The error.
   * @example Word the same error in Ukrainian
   * ```ts
   * import { BasisError } from "./errors.ts";
   * import { loadLocale, messages, phrase } from "./locale/messages.ts";
   * const error = BasisError.of("usage", phrase("found.array"));
   * await loadLocale("uk-UA");
   * console.assert(error.message === "an array");
   * console.assert(error.wordedIn(messages("uk-UA")) === "масив");
   * ```
   */
  static of(code: ErrorCode, phrase: Phrase, options?: ErrorOptions): BasisError {
    return new BasisError(code, phrase, options);
  }

  /**
   * The message in a locale: the phrase worded there, or the message as it is when there is none.
   *
   * @param words The locale's messages.
   * @returns One line.
   */
  wordedIn(words: Messages): string {
    return this.phrase === undefined ? this.message : words.say(this.phrase);
  }
}

/** One problem found in a manifest file, located as precisely as it could be. */
export interface ManifestProblem {
  /** The manifest file's path. */
  file: string;
  /** 1-based line, when known. */
  line?: number;
  /** 1-based column, when known. */
  column?: number;
  /** The tool the problem belongs to, when it belongs to one. */
  tool?: string;
  /** The field, as written in the manifest (`command[2]`, `env.TOKEN`, `timeout_ms`). */
  field?: string;
  /** What is wrong, no trailing period (`english()` words it in English). */
  reason: Phrase;
}

/**
 * Formats one manifest problem as its single line:
 * `file:line:column: tool "name": field: reason`, in English or in the locale of `words`.
 *
 * @param problem The problem to format.
 * @param words The locale's messages; English without.
 * @returns The one-line message.
 * @example Format a located problem
 * ```ts
 * import { formatProblem } from "./errors.ts";
 * import { phrase } from "./locale/messages.ts";
 * const reason = phrase("schema.type", { types: "string" });
 * const line = formatProblem({ file: "t.json", line: 3, column: 5, tool: "a", field: "cwd", reason });
 * console.assert(line === 't.json:3:5: tool "a": cwd: must be string');
 * ```
 */
export function formatProblem(problem: ManifestProblem, words = messages("en-US")): string {
  let where = problem.file;
  if (problem.line !== undefined) {
    where += `:${problem.line}`;
    if (problem.column !== undefined) where += `:${problem.column}`;
  }
  const parts = [where];
  if (problem.tool !== undefined) {
    parts.push(words.t("manifest.tool", { tool: JSON.stringify(problem.tool) }));
  }
  if (problem.field !== undefined) parts.push(problem.field);
  parts.push(words.say(problem.reason));
  return parts.join(": ");
}

/**
 * Makes a manifest problem.
 *
 * @param where The file, and the line, column, tool and field when known.
 * @param reason What is wrong.
 * @returns The problem.
 */
export function problemOf(where: Omit<ManifestProblem, "reason">, reason: Phrase): ManifestProblem {
  return { ...where, reason };
}

/**
 * A manifest that cannot be used: every problem found, each formattable as one line.
 */
export class ManifestError extends BasisError {
  /** Every problem found, in file order. */
  readonly problems: readonly ManifestProblem[];

  /**
   * Makes the error from every problem found.
   *
   * @param problems At least one problem.
   */
  constructor(problems: readonly ManifestProblem[]) {
    super("manifest_invalid", problems[0] ? formatProblem(problems[0]) : "Invalid manifest");
    this.name = "ManifestError";
    this.problems = problems;
  }
}

/**
 * What an error says, line by line, in English or in the locale of `words`: each problem of a
 * {@linkcode ManifestError} on its own line, else the message on one line.
 *
 * @param error The error.
 * @param words The locale's messages; English without.
 * @returns At least one line.
 * @example A manifest's problems
 * ```ts
 * import { errorLines, ManifestError } from "./errors.ts";
 * import { phrase } from "./locale/messages.ts";
 * const error = new ManifestError([{ file: "t.json", reason: phrase("json.invalid") }]);
 * console.assert(errorLines(error).join() === "t.json: invalid JSON");
 * ```
 */
export function errorLines(error: BasisError, words?: Messages): string[] {
  if (error instanceof ManifestError) return error.problems.map((p) => formatProblem(p, words));
  const message = words === undefined ? error.message : error.wordedIn(words);
  return [message.replaceAll("\n", " ")];
}
