/**
 * Looking up and filling in messages: one catalogue per locale, `{name}` placeholders.
 *
 * @module
 */

import { type Catalogue, EN_US, type MessageKey } from "./en_us.ts";
import type { Locale } from "./locale.ts";

/** The values of a message's placeholders. */
export type MessageParams = Readonly<Record<string, string | number>>;

/**
 * A message not yet worded: its key and its placeholders' values, a value being a phrase itself
 * when it has words of its own (`found {found}` → `found: phrase("found.array")`). Seams that
 * report problems keep phrases, so a problem found once can be shown in any locale.
 */
export interface Phrase {
  /** The message's key. */
  readonly key: MessageKey;
  /** The placeholders' values. */
  readonly params?: PhraseParams;
}

/**
 * A counted word inside a phrase: the form of `forms` (a `count.*` key) that fits `count` in the
 * locale the phrase is worded in.
 */
export interface Counted {
  /** The number the word is about. */
  readonly count: number;
  /** The key of the word's forms (`one|other` in English, `one|few|many` in Ukrainian). */
  readonly forms: MessageKey;
}

/** The values of a phrase's placeholders. */
export type PhraseParams = Readonly<Record<string, string | number | Phrase | Counted>>;

/** The messages of one locale. */
export interface Messages {
  /** The locale. */
  readonly locale: Locale;
  /**
   * One message with its placeholders filled in.
   *
   * @param key The message's key.
   * @param params The placeholders' values.
   * @returns The text.
   */
  t(key: MessageKey, params?: MessageParams): string;
  /**
   * A phrase worded in this locale, its nested phrases too.
   *
   * @param phrase The phrase.
   * @returns The text.
   */
  say(phrase: Phrase): string;
}

/** The catalogues loaded so far: English always; others once `loadLocale()` (or `mod.ts`) did. */
const catalogues = new Map<Locale, Catalogue>([["en-US", EN_US]]);
const PLACEHOLDER = /\{([a-z_]+)\}/g;
const cache = new Map<Locale, Messages>();

/**
 * The catalogue of a locale.
 *
 * @param locale The locale.
 * @returns Every message of that locale by key.
 * @throws {Error} When the locale's catalogue is not loaded (see {@linkcode loadLocale}).
 * @example Look up one text
 * ```ts
 * import { catalogue } from "./messages.ts";
 * console.assert(catalogue("en-US")["label.subagent"] === "Subagent");
 * ```
 */
export function catalogue(locale: Locale): Catalogue {
  const found = catalogues.get(locale);
  if (found === undefined) {
    throw new Error(
      `Cannot use locale ${JSON.stringify(locale)}: its catalogue is not loaded; ` +
        "import the library from mod.ts or await loadLocale() first",
    );
  }
  return found;
}

/**
 * Makes a locale's catalogue available. English always is; the library's `mod.ts` loads every
 * other one when imported, so only code that imports single modules (the CLI, which loads
 * Ukrainian only for a Ukrainian run) needs this.
 *
 * @param locale The locale.
 * @returns Nothing; resolves once `messages(locale)` can be used.
 * @example Load Ukrainian before using it
 * ```ts
 * import { loadLocale, messages } from "./messages.ts";
 * await loadLocale("uk-UA");
 * console.assert(messages("uk-UA").t("label.command") === "Команда");
 * ```
 */
export async function loadLocale(locale: Locale): Promise<void> {
  if (catalogues.has(locale)) return;
  // Ukrainian is the only catalogue not loaded from the start.
  if (locale === "uk-UA") {
    const { ukUA } = await import("./uk_ua.ts");
    registerCatalogue(locale, ukUA());
  }
}

/**
 * Registers a catalogue for a locale (what `loadLocale()` and `mod.ts` do).
 *
 * @param locale The locale.
 * @param texts Its catalogue.
 */
export function registerCatalogue(locale: Locale, texts: Catalogue): void {
  catalogues.set(locale, Object.freeze({ ...texts }));
  cache.delete(locale);
}

/**
 * Fills a template's `{name}` placeholders. A placeholder without a value is left as written.
 *
 * @param template The text with placeholders.
 * @param params The values.
 * @returns The text.
 * @example Fill one placeholder
 * ```ts
 * import { formatMessage } from "./messages.ts";
 * console.assert(formatMessage("Tool {tool}", { tool: '"x"' }) === 'Tool "x"');
 * ```
 */
export function formatMessage(template: string, params: MessageParams = {}): string {
  return template.replace(
    PLACEHOLDER,
    (whole, name: string) => Object.hasOwn(params, name) ? String(params[name]) : whole,
  );
}

/**
 * The placeholders a template uses, by name, sorted and without repeats.
 *
 * @param template The text.
 * @returns The names.
 * @example Two placeholders
 * ```ts
 * import { placeholders } from "./messages.ts";
 * console.assert(placeholders("{b} and {a} and {b}").join() === "a,b");
 * ```
 */
export function placeholders(template: string): string[] {
  return [...new Set([...template.matchAll(PLACEHOLDER)].map((match) => match[1] as string))]
    .sort();
}

/**
 * The messages of one locale.
 *
 * @param locale The locale.
 * @returns An object whose `t(key, params)` gives one message.
 * @throws {Error} When the locale's catalogue is not loaded (see {@linkcode loadLocale}).
 * @example A message in Ukrainian
 * ```ts
 * import { loadLocale, messages } from "./messages.ts";
 * await loadLocale("uk-UA");
 * const { t } = messages("uk-UA");
 * console.assert(t("label.tool", { tool: '"echo"' }) === 'Інструмент "echo"');
 * ```
 */
export function messages(locale: Locale): Messages {
  let found = cache.get(locale);
  if (found === undefined) {
    const texts = catalogue(locale);
    const t = (key: MessageKey, params?: MessageParams) => formatMessage(texts[key], params);
    const say = (phrase: Phrase): string => {
      if (phrase.params === undefined) return t(phrase.key);
      const params: Record<string, string | number> = {};
      for (const [name, value] of Object.entries(phrase.params)) {
        params[name] = typeof value !== "object"
          ? value
          : "forms" in value
          ? plural(locale, value.count, texts[value.forms])
          : say(value);
      }
      return t(phrase.key, params);
    };
    found = { locale, t, say };
    cache.set(locale, found);
  }
  return found;
}

/**
 * Makes a phrase.
 *
 * @param key The message's key.
 * @param params The placeholders' values.
 * @returns The phrase.
 * @example A phrase inside a phrase, worded in English
 * ```ts
 * import { english, phrase } from "./messages.ts";
 * const found = phrase("found.array");
 * console.assert(english(phrase("run.not_started", { label: "x", reason: found })) === "x could not start: an array");
 * ```
 */
export function phrase(key: MessageKey, params?: PhraseParams): Phrase {
  return params === undefined ? { key } : { key, params };
}

/**
 * A counted word for a phrase's placeholder, worded in whatever locale the phrase is.
 *
 * @param count The number.
 * @param forms The key of the word's forms.
 * @returns The value to put in the phrase.
 * @example "1 rule", "2 rules"
 * ```ts
 * import { counted, english, phrase } from "./messages.ts";
 * const rules = (n: number) => phrase("rules.ok", { count: n, rules: counted(n, "count.rules"), file: "f" });
 * console.assert(english(rules(1)) === "ok: 1 rule (f)");
 * console.assert(english(rules(2)) === "ok: 2 rules (f)");
 * ```
 */
export function counted(count: number, forms: MessageKey): Counted {
  return { count, forms };
}

/**
 * A list for a phrase's placeholder: `a`, `a or b`, `a, b or c` (with `and` for `list.and`),
 * worded in whatever locale the phrase is.
 *
 * @param items The items, already quoted or worded as they should appear.
 * @param last How the last two join: `list.or` or `list.and`.
 * @returns The value to put in the phrase.
 * @example Three names
 * ```ts
 * import { english, listOf } from "./messages.ts";
 * console.assert(english(listOf(["a", "b", "c"], "join.or")) === "a, b or c");
 * ```
 */
export function listOf(
  items: readonly (string | Phrase)[],
  last: "join.or" | "join.and",
): Phrase {
  if (items.length <= 1) return phrase("join.one", { item: items[0] ?? "" });
  let joined: string | Phrase = items[0]!;
  for (const item of items.slice(1, -1)) {
    joined = phrase("join.comma", { first: joined, second: item });
  }
  return phrase(last, { first: joined, second: items.at(-1)! });
}

/**
 * A phrase in US English, the words errors carry as their message.
 *
 * @param phrase The phrase.
 * @returns The text.
 */
export function english(phrase: Phrase): string {
  return messages("en-US").say(phrase);
}

/**
 * The form of a counted word for a count: `forms` are a catalogue's forms joined by `|`
 * (English `one|other`; Ukrainian `one|few|many`, as CLDR orders them). A missing form falls back
 * to the last one given.
 *
 * @param locale The locale whose plural rules apply.
 * @param count The count (a whole number).
 * @param forms The forms, joined by `|`.
 * @returns One form.
 * @example Ukrainian has three forms
 * ```ts
 * import { plural } from "./messages.ts";
 * const forms = "інструмент|інструменти|інструментів";
 * console.assert(plural("uk-UA", 1, forms) === "інструмент");
 * console.assert(plural("uk-UA", 3, forms) === "інструменти");
 * console.assert(plural("uk-UA", 11, forms) === "інструментів");
 * console.assert(plural("en-US", 2, "tool|tools") === "tools");
 * ```
 */
export function plural(locale: Locale, count: number, forms: string): string {
  const list = forms.split("|");
  const n = Math.abs(Math.trunc(count));
  let index: number;
  if (locale === "uk-UA") {
    const ten = n % 10;
    const hundred = n % 100;
    if (ten === 1 && hundred !== 11) index = 0;
    else if (ten >= 2 && ten <= 4 && (hundred < 12 || hundred > 14)) index = 1;
    else index = 2;
  } else {
    index = n === 1 ? 0 : 1;
  }
  return list[Math.min(index, list.length - 1)] as string;
}
