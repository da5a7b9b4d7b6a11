/**
 * The shapes the terminal approver works with: what it is asked about, what it answers, and the
 * terminal it reads and writes.
 *
 * @module
 */

import type { Readable, Writable } from "node:stream";
import type { SideEffect } from "../../manifest/types.ts";
import type { ToolPreview } from "../preview.ts";
import type { SpawnPreview, SpawnSideEffect } from "../../spawn/types.ts";
import type { Locale } from "../../locale/locale.ts";
import type { ChangedSinceApproval } from "../rules/types.ts";

/** The preview of a spawn call (owned by the spawn seam). */
export type { SpawnPreview } from "../../spawn/types.ts";

/** A call of a declared tool, as the terminal approver shows it. */
export interface ToolPromptRequest {
  /** The tool's name. */
  readonly tool: string;
  /** What the tool may touch. */
  readonly sideEffect: SideEffect;
  /** A declared tool. */
  readonly kind: "tool";
  /** The preview built by `toolPreview()`. */
  readonly preview: ToolPreview;
  /** Which manifest declared the tool. */
  readonly source?: "workspace" | "global";
  /**
   * The bytes the program will receive on stdin: shown as the input when given (every number as
   * the caller wrote it), else the preview's input.
   */
  readonly stdin?: Uint8Array;
  /** The manifest's `env` (values never shown): what "always allow" pins by digest. */
  readonly env?: Readonly<Record<string, string>>;
  /**
   * The positions of `preview.command` filled from the input: "always allow" remembers any value
   * there, and says so.
   */
  readonly fromInput?: readonly { readonly index: number; readonly field: string }[];
  /**
   * The rule that says to ask every time: only "allow once" and "deny" are offered, and nothing
   * is remembered.
   */
  readonly askedByRule?: string;
  /** The files changed since the allow rule that would have answered pinned them: shown. */
  readonly changed?: ChangedSinceApproval;
}

/** A spawn call, as the terminal approver shows it. */
export interface SpawnPromptRequest {
  /** The tool's name (`"spawn"`). */
  readonly tool: string;
  /** What the call may touch: `"process"` for a command, `"local state"` for a subagent. */
  readonly sideEffect: SideEffect | SpawnSideEffect;
  /** The spawn tool. */
  readonly kind: "spawn";
  /** The spawn preview. */
  readonly preview: SpawnPreview;
  /**
   * The rule that says to ask every time: only "allow once" and "deny" are offered, and nothing
   * is remembered.
   */
  readonly askedByRule?: string;
  /** The files changed since the allow rule that would have answered pinned them: shown. */
  readonly changed?: ChangedSinceApproval;
}

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
  signal?: AbortSignal;
  /**
   * The language of the prompt's texts (tool names, commands and input are shown as they are).
   * @default "en-US"
   */
  locale?: Locale;
}
