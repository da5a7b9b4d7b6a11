/**
 * The shapes the terminal approver works with: what it is asked about, what it answers, and the
 * terminal it reads and writes.
 *
 * @module
 */

import type { Readable, Writable } from "node:stream";
import type { ApprovalRequest } from "../approve.ts";
import type { Locale } from "../../locale/locale.ts";
import type { ChangedSinceApproval } from "../rules/types.ts";

/** The preview of a spawn call (owned by the spawn seam). */
export type { SpawnPreview } from "../../spawn/types.ts";

/**
 * A call of a declared tool, as the terminal approver shows it: the approval request (its stdin
 * shown as the input when given, every number as the caller wrote it; "always allow" pins the
 * `env` by digest and any value where `fromInput` says, and says so), the rule that says to ask
 * every time (only "allow once" and "deny" are offered then, and nothing is remembered), and the
 * files changed since the allow rule that would have answered pinned them.
 */
export type ToolPromptRequest = Omit<Extract<ApprovalRequest, { kind?: "tool" }>, "kind"> & {
  readonly kind: "tool";
  readonly askedByRule?: string;
  readonly changed?: ChangedSinceApproval;
};

/** A spawn call, as the terminal approver shows it (`askedByRule` and `changed` as for a tool). */
export type SpawnPromptRequest = Extract<ApprovalRequest, { kind: "spawn" }> & {
  readonly askedByRule?: string;
  readonly changed?: ChangedSinceApproval;
};

/** What the terminal approver is asked about. */
export type PromptRequest = ToolPromptRequest | SpawnPromptRequest;

/**
 * The person's answer. `no_answer` means there was no terminal to ask: the caller denies (fail
 * closed). `always_allow` and `never` ask the caller to remember a rule pinning exactly what was shown
 * (`pinConditions()`).
 */
export type TerminalAnswer = "allow_once" | "always_allow" | "deny" | "never" | "no_answer";

/**
 * The terminal the prompt reads and writes. Every field is optional; tests pass a scripted
 * terminal (a `PassThrough` for each stream and `isTerminal: () => true`).
 */
export interface TerminalIo {
  /**
   * Where keys come from: a Node readable. @default the process's stdin (`node:process`, which
   * is Deno's stdin; raw mode is switched on while the prompt runs and restored after)
   */
  input?: Readable;
  /** Where the prompt is drawn. @default the process's stderr, so stdout stays the result */
  output?: Writable;
  /**
   * Whether someone can be asked. When it answers false the prompt returns `no_answer` at once,
   * without loading the prompt library.
   * @default () => Deno.stdin.isTerminal() && Deno.stderr.isTerminal()
   */
  isTerminal?: () => boolean;
  /**
   * Whether to colour the text. @default true when `output` is a terminal (`isTTY`) and `NO_COLOR`
   * is unset or empty
   */
  color?: boolean;
  /**
   * Whether the controlling terminal (`/dev/tty`) may be used when stdin or stderr is not a
   * terminal (input piped in). Only without `isTerminal`, `input` and `output`. A host that owns
   * the terminal itself (Gemini CLI runs `basis-tools-call` from its own screen) says `false`.
   * @default true
   */
  controllingTerminal?: boolean;
  /** Values never to show (manifest env values), replaced by `[redacted]`. @default [] */
  secrets?: readonly string[];
  /** Cancels the prompt from outside (the call was cancelled): the answer is `deny`. */
  signal?: AbortSignal | undefined;
  /**
   * The language of the prompt's texts (tool names, commands and input are shown as they are).
   * @default "en-US"
   */
  locale?: Locale;
}
