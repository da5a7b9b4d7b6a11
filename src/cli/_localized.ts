/**
 * CLI errors that can be shown in the user's language: thrown with their English text (what the
 * English catalogue says) and their message key, and reworded when reported in another locale. The
 * catalogues are loaded only then, so an English run never loads them.
 *
 * @module
 */

import { BasisError, type ErrorCode } from "../errors.ts";
import type { MessageKey } from "../locale/en_us.ts";
import type { Locale } from "../locale/locale.ts";
import type { MessageParams, Messages } from "../locale/messages.ts";

/** A user error with its message key, for rewording in another locale. */
export class LocalizedError extends BasisError {
  /** The message's key in the catalogues. */
  readonly key: MessageKey;
  /** The placeholders' values. */
  readonly params: MessageParams;

  /**
   * Makes the error.
   *
   * @param code What went wrong.
   * @param key The message's key.
   * @param params The placeholders' values.
   * @param english The English text (equal to the English catalogue's, filled in).
   */
  constructor(code: ErrorCode, key: MessageKey, params: MessageParams, english: string) {
    super(code, english, { phrase: { key, params } });
    this.name = "LocalizedError";
    this.key = key;
    this.params = params;
  }
}

/**
 * The messages of the run's locale for a command's text output. English is at hand; another
 * locale's catalogue is loaded here, only when it is used.
 *
 * @param locale The locale.
 * @returns The messages.
 */
export async function cliMessages(locale: Locale): Promise<Messages> {
  const { loadLocale, messages } = await import("../locale/messages.ts");
  if (locale !== "en-US") await loadLocale(locale);
  return messages(locale);
}
