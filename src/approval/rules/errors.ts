/**
 * The error a rules file that cannot be used raises: it names the file, says what is wrong in one
 * line, and keeps every problem for `rules check`.
 *
 * @module
 */

import { BasisError } from "../../errors.ts";

/**
 * A rules file that cannot be read, parsed or trusted. Its code is `denied`: nothing is allowed
 * because of a file in this state (fail closed). The message is one line:
 * `Cannot load rules "<file>": <first problem>` and, when there are more, how many.
 *
 * @example Branch on the code
 * ```ts
 * import { RulesFileError } from "./errors.ts";
 * const error = new RulesFileError("/c/rules.json", ["unsupported version 2 (expected 1)"]);
 * console.assert(error.code === "denied" && error.problems.length === 1);
 * ```
 */
export class RulesFileError extends BasisError {
  /** The rules file. */
  readonly file: string;
  /** Every problem found, one line each, in file order. */
  readonly problems: readonly string[];

  /**
   * @param file The rules file's path.
   * @param problems At least one problem, one line each.
   * @param options `cause`: the underlying error, kept for logs.
   */
  constructor(file: string, problems: readonly string[], options?: ErrorOptions) {
    const [first = "unusable", ...rest] = problems;
    const more = rest.length === 0 ? "" : ` (and ${rest.length} more ${plural(rest.length)})`;
    super("denied", `Cannot load rules ${JSON.stringify(file)}: ${first}${more}`, options);
    this.name = "RulesFileError";
    this.file = file;
    this.problems = problems;
  }
}

function plural(count: number): string {
  return count === 1 ? "problem" : "problems";
}
