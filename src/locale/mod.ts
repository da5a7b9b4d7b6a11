/**
 * Locales: which language messages are in (`en-US` or `uk-UA`, English for anything else), chosen
 * by `--locale`, `BASIS_LOCALE`, `LC_ALL`, `LC_MESSAGES` or `LANG`, and one catalogue of messages
 * per language with `{name}` placeholders.
 *
 * @example Choose from the environment, then look a message up
 * ```ts
 * import { localeFromEnv, messages } from "./mod.ts";
 * const locale = localeFromEnv((name) => name === "LANG" ? "uk_UA.UTF-8" : undefined);
 * console.assert(messages(locale).t("label.subagent") === "Субагент");
 * ```
 *
 * @module
 */

import { registerCatalogue } from "./messages.ts";
import { ukUA } from "./uk_ua.ts";

export * from "./locale.ts";
export * from "./messages.ts";
export { type Catalogue, EN_US, type MessageKey } from "./en_us.ts";

// The library has every catalogue at hand (the CLI loads Ukrainian only when it is used).
registerCatalogue("uk-UA", ukUA());
