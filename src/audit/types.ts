/**
 * The audit trail's entries: one per decision and one per run's outcome, each written as one JSON
 * line. Field names are snake_case, as in the file.
 *
 * @module
 */

/** Who decided a call. */
export type DecidedBy = "rule" | "prompt" | "policy";

/** A decision about one call: allowed or denied, and by what. */
export interface DecisionEntry {
  /** The entry's kind. */
  readonly type: "decision";
  /** The tool asked about. */
  readonly tool: string;
  /** The preview the decision was made on (never holds env values). */
  readonly preview: unknown;
  /** Whether the call may run. */
  readonly allowed: boolean;
  /** A remembered rule, a person at the prompt, or the `--approve` policy. */
  readonly by: DecidedBy;
  /** The rule's id, when a rule decided. */
  readonly rule_id?: string | undefined;
  /** Why, in one line (a rule's reason, or why a call was denied). */
  readonly reason?: string | undefined;
  /** The workspace root the call was made in. */
  readonly workspace: string;
  /**
   * The size of the input as compact JSON, when the caller knows it. Above 64 KiB the input is not
   * copied into the trail (the line says how big it was): a 100 MiB input must not be written twice.
   */
  readonly input_bytes?: number | undefined;
}

/** The outcome of one run. */
export interface RunEntry {
  /** The entry's kind. */
  readonly type: "run";
  /** The tool that ran. */
  readonly tool: string;
  /** The exit code, when the program exited on its own (written as `null` otherwise). */
  readonly exit_code: number | undefined;
  /** The signal that ended it (`"SIGKILL"`), when one did (written as `null` otherwise). */
  readonly signal: string | undefined;
  /** Whether it was stopped because the time limit elapsed. */
  readonly timed_out: boolean;
  /** Wall time from start to end. */
  readonly duration_ms: number;
  /** Bytes the program wrote to stdout. */
  readonly stdout_bytes: number;
  /** Bytes the program wrote to stderr. */
  readonly stderr_bytes: number;
}

/** Anything the audit log records. */
export type AuditEntry = DecisionEntry | RunEntry;
