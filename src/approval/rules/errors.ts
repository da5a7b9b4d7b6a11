/**
 * The error a rules file that cannot be used raises: it names the file, says what is wrong in one
 * line, and keeps every problem for `rules check`. Problems are phrases, so they can be worded in
 * any locale; the message is their English.
 *
 * @module
 */

import { BasisError } from "../../errors.ts";
import { counted, type Phrase, phrase } from "../../locale/messages.ts";

/**
 * A rules file that cannot be read, parsed or trusted. Its code is `denied`: nothing is allowed
 * because of a file in this state (fail closed). The message is one line:
 * `Cannot load rules "<file>": <first problem>` and, when there are more, how many.
 *
 * @example Branch on the code
 * ```ts
 * import { RulesFileError } from "./errors.ts";
 * import { phrase } from "../../locale/messages.ts";
 * const error = new RulesFileError("/c/rules.json", [phrase("rules_file.empty")]);
 * console.assert(error.code === "denied" && error.problems.length === 1);
 * console.assert(error.message === 'Cannot load rules "/c/rules.json": empty file');
 * ```
 */
export class RulesFileError extends BasisError {
  /** The rules file. */
  readonly file: string;
  /** Every problem found, one line each, in file order (`english()` gives the English). */
  readonly problems: readonly Phrase[];

  /**
   * @param file The rules file's path.
   * @param problems At least one problem, one line each.
   * @param options `cause`: the underlying error, kept for logs.
   */
  constructor(file: string, problems: readonly Phrase[], options?: ErrorOptions) {
    const [problem = phrase("rules_file.unusable"), ...rest] = problems;
    const params = { file: JSON.stringify(file), problem };
    super(
      "denied",
      rest.length === 0 ? phrase("denied.rules_file", params) : phrase("denied.rules_file_more", {
        ...params,
        count: rest.length,
        problems: counted(rest.length, "count.problems"),
      }),
      options,
    );
    this.name = "RulesFileError";
    this.file = file;
    this.problems = problems;
  }
}
