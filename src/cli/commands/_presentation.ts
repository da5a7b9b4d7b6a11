/**
 * How a call from the command line presents itself beside the program's own output: `--quiet`
 * (no notes of basis-tools' own on stderr when the call succeeds), `--result` (the text a model
 * reads, on stdout, instead of the program's streams), and the Gemini CLI call mode.
 *
 * @module
 */

import type { Messages } from "../../locale/messages.ts";
import { err } from "../output.ts";

/** How a call's outcome is shown. */
export interface CallPresentation {
  /** `--quiet`: notes of basis-tools' own (an empty output, an audit warning) only on failure. */
  quiet?: boolean;
  /**
   * `--result`: print the result a model reads (stdout trimmed, a sentence when empty, cut at the
   * cap with the spill file named), not the program's streams; its stderr appears only in a
   * failure's message.
   */
  result?: boolean;
  /** Called as Gemini CLI's `callCommand`: its own `wait_for_previous` argument is dropped. */
  gemini?: boolean;
}

/** The argument Gemini CLI adds to every tool's parameters, and passes on to the call command. */
const GEMINI_WAIT = "wait_for_previous";

/**
 * The notes basis-tools adds on stderr: at once, or under `--quiet` held until the call fails (and
 * dropped when it succeeds).
 */
export class Notes {
  readonly #quiet: boolean;
  readonly #words: Messages;
  readonly #held: string[] = [];

  /**
   * @param options Whether the call is quiet.
   * @param words The run's messages.
   */
  constructor(options: CallPresentation, words: Messages) {
    this.#quiet = options.quiet === true;
    this.#words = words;
  }

  /** Whether notes are held until the call fails (`--quiet`). */
  get quiet(): boolean {
    return this.#quiet;
  }

  /**
   * Says one note (`basis-tools: …`), or holds it.
   *
   * @param text The note.
   */
  note(text: string): void {
    this.#say(`basis-tools: ${text}\n`);
  }

  /** The audit log's warning, as `openAuditLog({ warn })` takes it. */
  readonly auditWarning = (message: string): void => {
    this.#say(`${this.#words.t("audit.warning", { message })}\n`);
  };

  /** Says what was held: the call failed. */
  flush(): void {
    if (this.#held.length > 0) err(this.#held.splice(0).join(""));
  }

  #say(line: string): void {
    if (this.#quiet) this.#held.push(line);
    else err(line);
  }
}

/**
 * The input without the `wait_for_previous` flag Gemini CLI adds to every tool's parameters (for
 * its scheduler) and passes on, unless the tool's own schema declares a property of that name.
 *
 * @param input The parsed input.
 * @param schema The tool's input schema.
 * @returns The input without the flag, or the input itself when there is none to drop.
 */
export function withoutGeminiKeys(
  input: unknown,
  schema: Readonly<Record<string, unknown>>,
): unknown {
  if (typeof input !== "object" || input === null || Array.isArray(input)) return input;
  if (!Object.hasOwn(input, GEMINI_WAIT)) return input;
  const properties = schema.properties;
  if (
    typeof properties === "object" && properties !== null && Object.hasOwn(properties, GEMINI_WAIT)
  ) {
    return input;
  }
  const { [GEMINI_WAIT]: _, ...rest } = input as Record<string, unknown>;
  return rest;
}
