/**
 * What behaviour tests expect the CLI to say, computed from the en-US catalogue rather than
 * copied: a test names the phrase's key and the values it checks, so a rewording in the
 * catalogue does not break it, and exact English stays in the catalogue tests.
 *
 * @module
 */

import { EN_US, type MessageKey } from "../src/locale/en_us.ts";
import { type Counted, english, phrase, type PhraseParams } from "../src/locale/messages.ts";

/**
 * The English text of a phrase, as the CLI words it.
 *
 * @example Usage
 * ```ts ignore
 * assert.equal(json.result, say("spawn.agent_silent"));
 * ```
 *
 * @param key The phrase's key.
 * @param params Its placeholders' values (a nested phrase as `phrase(key)`).
 * @returns The text.
 */
export function say(key: MessageKey, params?: PhraseParams): string {
  return english(phrase(key, params));
}

/**
 * A pattern for the English text of a phrase: the placeholders given are filled in (worded as
 * {@linkcode say} would; a phrase given with some of its own placeholders left out, as its own
 * pattern), the others match any text on one line.
 *
 * @example Usage
 * ```ts ignore
 * assert.match(result.stderr, wording("run.timed_out", { label: phrase("label.command"), ms: 300 }));
 * ```
 *
 * @param key The phrase's key.
 * @param params The values the test checks.
 * @returns The pattern (not anchored).
 */
export function wording(key: MessageKey, params: PhraseParams = {}): RegExp {
  const parts = EN_US[key].split(/\{([a-z_]+)\}/);
  let source = "";
  for (const [index, part] of parts.entries()) {
    if (index % 2 === 0) {
      source += escape(part);
      continue;
    }
    const value = params[part];
    if (value === undefined || (typeof value === "object" && "forms" in value)) source += ".*?";
    else source += nested(value);
  }
  return new RegExp(source);
}

/**
 * A pattern for a text that begins with the English text of a phrase ({@linkcode wording},
 * anchored at the start).
 *
 * @example Usage
 * ```ts ignore
 * assert.match(resultText(result), opening("run.exit", { code: 4 }));
 * ```
 *
 * @param key The phrase's key.
 * @param params The values the test checks.
 * @returns The pattern.
 */
export function opening(key: MessageKey, params: PhraseParams = {}): RegExp {
  return new RegExp(`^${wording(key, params).source}`);
}

/**
 * A pattern for a text that ends with the English text of a phrase ({@linkcode wording},
 * anchored at the end).
 *
 * @example Usage
 * ```ts ignore
 * assert.match(json.result, closing("spawn.cut_note", { bytes: 100000 }));
 * ```
 *
 * @param key The phrase's key.
 * @param params The values the test checks.
 * @returns The pattern.
 */
export function closing(key: MessageKey, params: PhraseParams = {}): RegExp {
  return new RegExp(`${wording(key, params).source}$`);
}

/**
 * A pattern for the whole of a CLI's one-line error: `basis-tools: ` and the English text of a
 * phrase ({@linkcode wording}), then the end of the line and of the text.
 *
 * @example Usage
 * ```ts ignore
 * assert.match(result.stderr, errorLine("input.refused", { tool: '"spawn"', pointer: "/input" }));
 * ```
 *
 * @param key The phrase's key.
 * @param params The values the test checks.
 * @returns The pattern.
 */
export function errorLine(key: MessageKey, params: PhraseParams = {}): RegExp {
  return new RegExp(`^basis-tools: ${wording(key, params).source}\n$`);
}

/**
 * A placeholder's value as a pattern's source: a text or a complete phrase as worded, a phrase
 * with placeholders not given as its own {@linkcode wording}.
 */
function nested(value: Exclude<PhraseParams[string], Counted>): string {
  if (typeof value !== "object") return escape(String(value));
  const given = value.params ?? {};
  const complete = [...EN_US[value.key].matchAll(/\{([a-z_]+)\}/g)].every(([, name]) =>
    given[name!] !== undefined
  );
  return complete ? escape(english(value)) : wording(value.key, given).source;
}

/**
 * A text as a pattern's source that matches it literally, for joining the pieces of a pattern
 * (say()'s text, a label and its value) with `new RegExp`.
 *
 * @param text The text.
 * @returns The pattern source.
 */
export function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}
