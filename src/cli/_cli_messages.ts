/**
 * The messages of the run's locale for a command's text output. English is built in; another
 * locale's catalogue is loaded only when a run uses it, so an English run never loads it.
 *
 * @module
 */

import type { Locale } from "../locale/locale.ts";
import { loadLocale, type Messages, messages } from "../locale/messages.ts";

/**
 * The messages of the run's locale for a command's text output. English is at hand; another
 * locale's catalogue is loaded here, only when it is used.
 *
 * @param locale The locale.
 * @returns The messages.
 */
export async function cliMessages(locale: Locale): Promise<Messages> {
  if (locale !== "en-US") await loadLocale(locale);
  return messages(locale);
}
