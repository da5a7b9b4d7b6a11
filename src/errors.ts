/**
 * The errors every seam throws for things a user did or can fix. Each carries a `code`; the CLI maps
 * codes to exit codes in one table (`src/cli/exit_codes.ts`). Bugs are not `BasisError`s and keep
 * their stack trace.
 *
 * @module
 */

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

  /**
   * Makes an error with a code.
   *
   * @param code What went wrong, as a stable word.
   * @param message One line, sentence case, no trailing period.
   * @param options `cause`: the underlying error, kept for logs.
   */
  constructor(code: ErrorCode, message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "BasisError";
    this.code = code;
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
  /** What is wrong, sentence case, no trailing period. */
  reason: string;
}

/**
 * Formats one manifest problem as its single line:
 * `file:line:column: tool "name": field: reason`.
 *
 * @param problem The problem to format.
 * @returns The one-line message.
 * @example Format a located problem
 * ```ts
 * import { formatProblem } from "./errors.ts";
 * const line = formatProblem({ file: "t.json", line: 3, column: 5, tool: "a", field: "cwd", reason: "must be a string" });
 * console.assert(line === 't.json:3:5: tool "a": cwd: must be a string');
 * ```
 */
export function formatProblem(problem: ManifestProblem): string {
  let where = problem.file;
  if (problem.line !== undefined) {
    where += `:${problem.line}`;
    if (problem.column !== undefined) where += `:${problem.column}`;
  }
  const parts = [where];
  if (problem.tool !== undefined) parts.push(`tool ${JSON.stringify(problem.tool)}`);
  if (problem.field !== undefined) parts.push(problem.field);
  parts.push(problem.reason);
  return parts.join(": ");
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
    const first = problems[0];
    const message = first === undefined ? "Invalid manifest" : formatProblem(first);
    super("manifest_invalid", message);
    this.name = "ManifestError";
    this.problems = problems;
  }
}
