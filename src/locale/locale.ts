/**
 * Which language messages are in: `en-US` or `uk-UA`, chosen from a `--locale` value or the
 * environment (`BASIS_LOCALE`, then `LC_ALL`, `LC_MESSAGES` and `LANG`), English for anything else.
 *
 * @module
 */

import type { EnvLookup } from "../env.ts";

/** A language the messages are written in. */
export type Locale = "en-US" | "uk-UA";

/** Every supported locale, the fallback first. */
export const LOCALES: readonly Locale[] = ["en-US", "uk-UA"];

/** The locale used for anything unsupported. */
export const DEFAULT_LOCALE: Locale = "en-US";

/** The variables read, in order, when no locale is given; the first one set decides. */
export const LOCALE_VARIABLES: readonly string[] = [
  "BASIS_LOCALE",
  "LC_ALL",
  "LC_MESSAGES",
  "LANG",
];

/**
 * Resolves a locale tag as people and systems write it (`uk-UA`, `uk_UA.UTF-8`, `uk`,
 * `en_GB@euro`, `C`) to a supported locale: the language decides, English is the fallback.
 *
 * @param tag A BCP 47 tag or a POSIX locale name; `undefined` or blank for none.
 * @returns `uk-UA` for Ukrainian, `en-US` for anything else.
 * @example From a POSIX locale name
 * ```ts
 * import { resolveLocale } from "./locale.ts";
 * console.assert(resolveLocale("uk_UA.UTF-8") === "uk-UA");
 * console.assert(resolveLocale("de_DE") === "en-US");
 * ```
 */
export function resolveLocale(tag: string | undefined): Locale {
  return matchLocale(tag) ?? DEFAULT_LOCALE;
}

/**
 * Finds the supported locale a tag asks for, without falling back.
 *
 * @param tag A BCP 47 tag or a POSIX locale name.
 * @returns The locale, or `undefined` when the tag names no supported language.
 * @example Only supported languages match
 * ```ts
 * import { matchLocale } from "./locale.ts";
 * console.assert(matchLocale("UK") === "uk-UA" && matchLocale("fr-FR") === undefined);
 * ```
 */
export function matchLocale(tag: string | undefined): Locale | undefined {
  const language = tag?.trim().split(/[-_.@]/, 1)[0]?.toLowerCase();
  if (language === "uk") return "uk-UA";
  if (language === "en" || language === "c" || language === "posix") return "en-US";
  return undefined;
}

/**
 * The locale the environment asks for: the first of `BASIS_LOCALE`, `LC_ALL`, `LC_MESSAGES` and
 * `LANG` that is set and not blank decides (as POSIX orders them); English when none is set or the
 * one set names an unsupported language.
 *
 * @param env How variables are read.
 * @returns The locale.
 * @example A Ukrainian system
 * ```ts
 * import { localeFromEnv } from "./locale.ts";
 * const env = (name: string) => name === "LANG" ? "uk_UA.UTF-8" : undefined;
 * console.assert(localeFromEnv(env) === "uk-UA");
 * ```
 */
export function localeFromEnv(env: EnvLookup): Locale {
  for (const name of LOCALE_VARIABLES) {
    const value = env(name)?.trim();
    if (value) return resolveLocale(value);
  }
  return DEFAULT_LOCALE;
}
