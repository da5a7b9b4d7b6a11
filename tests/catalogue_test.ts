/**
 * The catalogues as a whole: every key in both, the same placeholders, no English left in uk-UA,
 * the plural forms each language needs, the locale chosen from the environment, and lists and
 * counted words inside phrases. The wording of each seam is tested beside the seam, in the
 * "Wording in en-US and uk-UA" section of its test file.
 *
 * @module
 */

import assert from "node:assert/strict";
import { localeFromEnv, LOCALES, messages, resolveLocale } from "../src/locale/mod.ts";
import { catalogue, matchLocale, placeholders } from "../src/locale/mod.ts";
import { EN_US, type MessageKey } from "../src/locale/en_us.ts";
import { CYRILLIC } from "./_no_english.ts";

const EN = messages("en-US");
const UK = messages("uk-UA");
/** Keys whose Ukrainian text is rightly the same as the English, or has no letters. */
const SAME_IN_BOTH = new Set([
  "found.null",
  "size.decimal",
  "permissions.list",
  "permissions.more",
  // Only placeholders and a field name: the parts are worded by their own keys.
  "manifest.schema_unusable",
  // Lists that join with punctuation only.
  "join.one",
  "join.comma",
  // A rule's id.
  "rules.heading_id",
]);

Deno.test("the en-US and uk-UA catalogues have exactly the same keys and placeholders", () => {
  const en = catalogue("en-US");
  const uk = catalogue("uk-UA");
  assert.deepEqual(Object.keys(uk).sort(), Object.keys(en).sort());
  for (const key of Object.keys(en) as (keyof typeof en)[]) {
    assert.deepEqual(placeholders(uk[key]), placeholders(en[key]), `placeholders of ${key}`);
  }
});

Deno.test("every Ukrainian text is Ukrainian: it differs from the English and is in Cyrillic", () => {
  const en = catalogue("en-US");
  const uk = catalogue("uk-UA");
  for (const key of Object.keys(en) as (keyof typeof en)[]) {
    if (SAME_IN_BOTH.has(key)) continue;
    assert.notEqual(uk[key], en[key], key);
    assert.match(uk[key], CYRILLIC, key);
    // One apostrophe throughout, the typographic one.
    assert.ok(!/[а-яієїґ]'[а-яієїґ]/i.test(uk[key]), `${key}: use ’ as the apostrophe`);
  }
});

Deno.test("the locale comes from --locale, then BASIS_LOCALE, LC_ALL, LC_MESSAGES, LANG; English otherwise", () => {
  assert.deepEqual(LOCALES, ["en-US", "uk-UA"]);
  for (const tag of ["uk-UA", "uk_UA.UTF-8", "uk", "UK_ua@euro", " uk-UA "]) {
    assert.equal(resolveLocale(tag), "uk-UA", tag);
  }
  for (const tag of ["en-US", "en_GB.UTF-8", "C", "POSIX", "C.UTF-8", "de_DE", "", undefined]) {
    assert.equal(resolveLocale(tag), "en-US", String(tag));
  }
  assert.equal(matchLocale("fr-FR"), undefined);
  const env = (vars: Record<string, string>) => (name: string) => vars[name];
  assert.equal(localeFromEnv(env({ LANG: "uk_UA.UTF-8" })), "uk-UA");
  assert.equal(localeFromEnv(env({ LANG: "uk_UA.UTF-8", LC_ALL: "C" })), "en-US");
  assert.equal(localeFromEnv(env({ LANG: "en_US.UTF-8", LC_MESSAGES: "uk_UA" })), "uk-UA");
  assert.equal(localeFromEnv(env({ LC_ALL: "C", BASIS_LOCALE: "uk-UA" })), "uk-UA");
  assert.equal(localeFromEnv(env({ LC_ALL: "", LANG: "uk_UA.UTF-8" })), "uk-UA");
  assert.equal(localeFromEnv(env({})), "en-US");
});

Deno.test("plural() picks English one|other and Ukrainian one|few|many", async () => {
  const { plural } = await import("../src/locale/messages.ts");
  const uk = "інструмент|інструменти|інструментів";
  const cases: [number, string][] = [
    [0, "інструментів"],
    [1, "інструмент"],
    [2, "інструменти"],
    [4, "інструменти"],
    [5, "інструментів"],
    [11, "інструментів"],
    [12, "інструментів"],
    [14, "інструментів"],
    [21, "інструмент"],
    [22, "інструменти"],
    [111, "інструментів"],
    [101, "інструмент"],
  ];
  for (const [count, form] of cases) assert.equal(plural("uk-UA", count, uk), form, String(count));
  assert.equal(plural("en-US", 1, "tool|tools"), "tool");
  assert.equal(plural("en-US", 0, "tool|tools"), "tools");
  assert.equal(plural("en-US", 21, "tool|tools"), "tools");
  // Every counted word has the forms its language needs.
  for (const key of Object.keys(EN_COUNTS)) {
    assert.equal(catalogue("en-US")[key as keyof typeof EN_COUNTS].split("|").length, 2, key);
    assert.equal(catalogue("uk-UA")[key as keyof typeof EN_COUNTS].split("|").length, 3, key);
  }
});

Deno.test("lists and counted words inside phrases follow the locale", async () => {
  const { counted, listOf, phrase } = await import("../src/locale/messages.ts");
  const or = (
    items: string[],
  ) => [EN.say(listOf(items, "join.or")), UK.say(listOf(items, "join.or"))];
  assert.deepEqual(or(["a"]), ["a", "a"]);
  assert.deepEqual(or(["a", "b"]), ["a or b", "a або b"]);
  assert.deepEqual(or(["a", "b", "c"]), ["a, b or c", "a, b або c"]);
  assert.equal(UK.say(listOf(["a", "b"], "join.and")), "a і b");
  const more = (count: number) =>
    phrase("denied.rules_file_more", {
      file: '"f"',
      problem: "p",
      count,
      problems: counted(count, "count.problems"),
    });
  assert.equal(EN.say(more(1)), 'Cannot load rules "f": p (and 1 more problem)');
  assert.equal(EN.say(more(2)), 'Cannot load rules "f": p (and 2 more problems)');
  assert.match(UK.say(more(1)), /\(і ще 1 проблема\)$/);
  assert.match(UK.say(more(3)), /\(і ще 3 проблеми\)$/);
  assert.match(UK.say(more(5)), /\(і ще 5 проблем\)$/);
});

const EN_COUNTS = {
  "count.tools": 0,
  "count.rules": 0,
  "count.lines": 0,
  "count.bytes": 0,
} as const;

/** Manifest messages of a call rather than of a document (worded through the CLI). */
const BY_CALL: ReadonlySet<string> = new Set(["manifest.tool", "manifest.schema_unusable"]);

Deno.test("the catalogue keeps every manifest message in both locales", () => {
  const uk = catalogue("uk-UA");
  for (const key of Object.keys(EN_US) as MessageKey[]) {
    if (!/^(?:manifest|spawn_config|json|file)\./.test(key) || BY_CALL.has(key)) continue;
    assert.match(uk[key], CYRILLIC, key);
  }
});
