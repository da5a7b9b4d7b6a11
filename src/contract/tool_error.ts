/**
 * The one error the tool contract throws. It is either user-facing (safe to show a model or a
 * person: localized, one line, no secret, no stack trace) or internal (for logs, in English: a
 * misuse of the contract or a configuration the operator must fix).
 *
 * @module
 */

import { BasisError, type ErrorCode } from "../errors.ts";
import type { Phrase } from "../locale/messages.ts";
import type { ToolOutput } from "./types.ts";

/** Who a {@linkcode ToolError} is for: the caller of the tool, or the operator's logs. */
export type ToolErrorKind = "user" | "internal";

/** Options of {@linkcode ToolError}. */
export interface ToolErrorOptions extends ErrorOptions {
  /** The tool the error is about. */
  tool?: string;
  /**
   * What the run produced, when the program ran and failed (non-zero exit, signal, time-out,
   * cancellation). Absent when the call stopped before anything ran.
   */
  output?: ToolOutput<unknown>;
  /**
   * The message without the program's output, for a terminal that has already shown it.
   *
   * @default {the message}
   */
  summary?: string;
  /**
   * What a run that timed out had printed on stdout, as a model reads a result (redacted, cut at
   * the cap with the spill file named). Absent when it printed nothing, or did not time out.
   */
  printed?: string | undefined;
}

/**
 * An error of the tool contract. Hosts branch on {@linkcode ToolError.isUserFacing}: a user-facing
 * error becomes a tool result marked as an error (the model can correct itself), an internal one is
 * logged. `code` says what happened (`invalid_input`, `denied`, `timed_out`, `tool_failed`,
 * `spawn_failed`, `interrupted`, `manifest_invalid`, `internal`), as for every other error of
 * basis-tools. Anything thrown that is not a `ToolError` is a bug.
 *
 * @example Map an error for a model
 * ```ts
 * import { ToolError } from "./tool_error.ts";
 * const error = ToolError.user("denied", 'Call of tool "echo" denied by --approve never');
 * const content = error.isUserFacing() ? error.message : "internal error";
 * console.assert(content.startsWith("Call of tool") && error.code === "denied");
 * ```
 */
export class ToolError extends BasisError {
  /** `user`: safe to show a model, localized; `internal`: for logs, English. */
  readonly kind: ToolErrorKind;
  /** The tool the error is about, when known. */
  readonly tool: string | undefined;
  /** What the run produced, when the program ran and failed. */
  readonly output: ToolOutput<unknown> | undefined;
  /** The message without the program's output (equal to `message` when there was none). */
  readonly summary: string;
  /** What a run that timed out had printed on stdout, as a model reads a result. */
  readonly printed: string | undefined;

  /**
   * Makes an error; prefer {@linkcode ToolError.user} and {@linkcode ToolError.internal}.
   *
   * @param kind Who the error is for.
   * @param code What happened, as a stable word.
   * @param message One line, sentence case, no trailing period: worded text, or a phrase (its
   *   English the message; a host words it in its user's locale with `wordedIn()`).
   * @param options The tool, the run's output, a summary, and the cause.
   */
  constructor(
    kind: ToolErrorKind,
    code: ErrorCode,
    message: string | Phrase,
    options: ToolErrorOptions = {},
  ) {
    super(code, message, { cause: options.cause });
    this.name = "ToolError";
    [this.kind, this.tool, this.output] = [kind, options.tool, options.output];
    this.summary = options.summary ?? this.message;
    this.printed = options.printed;
  }

  /**
   * Tells whether the message may be shown to a model or a person.
   *
   * @returns True for user-facing errors.
   */
  isUserFacing(): boolean {
    return this.kind === "user";
  }

  /**
   * A user-facing error: the input was refused, the call was denied, the program failed, timed out
   * or was cancelled.
   *
   * @param code What happened.
   * @param message The localized message, already free of secrets.
   * @param options The tool, the run's output, a summary, and the cause.
   * @returns The error.
   */
  static user(code: ErrorCode, message: string, options?: ToolErrorOptions): ToolError {
    return new ToolError("user", code, message, options);
  }

  /**
   * An internal error: the contract was misused (code `internal`) or a configuration cannot be used
   * (code `manifest_invalid`). The message is English.
   *
   * @param message The message: English text, or a phrase (worded in English as the message).
   * @param options The code (`internal` by default), the tool and the cause.
   * @returns The error.
   */
  static internal(
    message: string | Phrase,
    options: ToolErrorOptions & { code?: ErrorCode } = {},
  ): ToolError {
    return new ToolError("internal", options.code ?? "internal", message, options);
  }
}
