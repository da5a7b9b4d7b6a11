import assert from "node:assert/strict";
import {
  DeclaredToolBuilder,
  DEFINITION_FORMATS,
  localeFromEnv,
  LOCALES,
  messages,
  policyApprover,
  resolveLocale,
  type RunResult,
  type SpawnConfig,
  SpawnToolBuilder,
  ToolError,
  type ToolSpec,
} from "../src/mod.ts";
import { catalogue, matchLocale, phrase, placeholders } from "../src/locale/mod.ts";
import { describeFailure, modelResult } from "../src/run/mod.ts";
import { parseSpawnInput } from "../src/spawn/grammar.ts";
import { spawnResultText } from "../src/spawn/result.ts";
import { spawnRefusal } from "../src/spawn/guard.ts";
import { refusal } from "../src/schema/_message.ts";
import { parseArgs } from "../src/cli/args.ts";
import { BasisError } from "../src/errors.ts";
import { millisecondsError, resolveSettings } from "../src/cli/settings.ts";
import { notADirectory } from "../src/cli/_workspace_root.ts";
import { cli, oneTool, scratch } from "./_cli.ts";
import { runResult } from "./_run_result.ts";
import { tempDir } from "./_scratch.ts";

const EN = messages("en-US");
const UK = messages("uk-UA");
const CYRILLIC = /[\u0400-\u04FF]/;
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



/** A sentence-like run of English words: what must not be left in a Ukrainian text. */
const ENGLISH_WORDS =
  /\b(?:the|and|with|for|of|is|are|to|no|not|every|tools?|rules?|allow|deny)\b/i;

/**
 * Asserts that a Ukrainian text has no English sentence left: none of the lines the English text
 * has (and the Ukrainian catalogue does not), and no English prose word outside what is never
 * translated (`kept`: names, option names, paths, JSON shapes).
 */
function assertNoEnglish(uk: string, en: string, kept: readonly (string | RegExp)[] = []): void {
  const ukTexts = Object.values(catalogue("uk-UA")).join("\n");
  for (const line of en.split("\n").map((l) => l.trim())) {
    if (line.length < 12 || ukTexts.includes(line) || uk.includes(line) === false) continue;
    assert.fail(`English line left in the Ukrainian text: ${line}`);
  }
  let rest = uk;
  for (const token of kept) rest = rest.replaceAll(token, " ");
  const found = rest.match(ENGLISH_WORDS);
  assert.equal(found, null, `English word ${found?.[0]} left in: ${rest}`);
}


const EN_COUNTS = {
  "count.tools": 0,
  "count.rules": 0,
  "count.lines": 0,
  "count.bytes": 0,
} as const;

Deno.test("list, show and check speak uk-UA; names, side effects, sources and JSON stay", async () => {
  await using dirs = await scratch(oneTool("wc", { command: ["cat"], env: { TOKEN: "x" } }));
  await using empty = await scratch();
  const run = (args: string[], locale: string, where = dirs) =>
    cli(where, [...args, "--locale", locale]);

  const [enList, ukList] = [await run(["list"], "en-US"), await run(["list"], "uk-UA")];
  assert.match(enList.stdout, /^NAME +SIDE EFFECT +SOURCE +DESCRIPTION\n/);
  assert.match(ukList.stdout, /^НАЗВА +ПОБІЧНА ДІЯ +ДЖЕРЕЛО +ОПИС\n/);
  assert.match(ukList.stdout, /^wc +process +workspace +The wc tool$/m);
  assert.match(ukList.stdout, /^spawn +process, local state +built-in +Виконує команду/m);
  assertNoEnglish(ukList.stdout.replace("The wc tool", ""), enList.stdout, [
    /\b(?:wc|spawn|process|local state|workspace|built-in)\b/g,
    /"[^"]*"/g,
    /\/bin\/sh/g,
  ]);
  const [enEmpty, ukEmpty] = [
    await run(["list"], "en-US", empty),
    await run(["list"], "uk-UA", empty),
  ];
  assert.match(enEmpty.stdout, /\(no tools declared; looked in .+ and .+\)\n$/);
  assert.match(ukEmpty.stdout, /\(жодного інструмента не оголошено; шукали в .+ і .+\)\n$/);

  const names = (text: string) => JSON.parse(text).map((row: { name: string }) => row.name);
  const [enJson, ukJson] = [
    await run(["list", "--json"], "en-US"),
    await run(["list", "--json"], "uk-UA"),
  ];
  assert.deepEqual(names(ukJson.stdout), names(enJson.stdout));
  const strip = (text: string) =>
    JSON.parse(text).map((row: Record<string, unknown>) => ({ ...row, description: undefined }));
  assert.deepEqual(strip(ukJson.stdout), strip(enJson.stdout));

  const [enShow, ukShow] = [await run(["show", "wc"], "en-US"), await run(["show", "wc"], "uk-UA")];
  assert.match(enShow.stdout, /^ {2}command: {6}cat$/m);
  assert.match(ukShow.stdout, /^ {2}команда: +cat$/m);
  assert.match(ukShow.stdout, /^ {2}змінні: +TOKEN=\[redacted\]$/m);
  assert.match(ukShow.stdout, /^ {2}обмеження часу: +\d+ мс$/m);
  assert.doesNotMatch(
    ukShow.stdout,
    /\b(?:command|cwd|side effect|timeout|declared in|input schema):/,
  );
  assert.equal(
    (await run(["show", "wc", "--json"], "uk-UA")).stdout,
    (await run(["show", "wc", "--json"], "en-US")).stdout,
  );

  const [enCheck, ukCheck] = [await run(["check"], "en-US"), await run(["check"], "uk-UA")];
  assert.match(enCheck.stdout, /^ok: 1 tool \(.+tools\.json\)\n$/);
  assert.match(ukCheck.stdout, /^гаразд: 1 інструмент \(.+tools\.json\)\n$/);
  assert.equal(
    (await run(["check"], "uk-UA", empty)).stdout,
    "гаразд: 0 інструментів (маніфест не знайдено)\n",
  );
  assert.equal(
    (await run(["check", "--json"], "uk-UA")).stdout,
    (await run(["check", "--json"], "en-US")).stdout,
  );
});

Deno.test("rules add, list, check and remove speak uk-UA; ids, tools, decisions and JSON stay", async () => {
  await using dirs = await scratch(oneTool("wc", { command: ["cat"] }));
  const uk = (args: string[]) => cli(dirs, ["rules", ...args, "--locale", "uk-UA"]);
  const en = (args: string[]) => cli(dirs, ["rules", ...args]);
  assert.match((await uk(["list"])).stdout, /^Збережених правил немає \(.+rules\.json\)\n$/);
  assert.match((await en(["list"])).stdout, /^No remembered rules \(.+rules\.json\)\n$/);

  const added = await uk(["add", "--tool", "wc", "--global"]);
  assert.equal(added.code, 0, added.stderr);
  assert.match(
    added.stdout,
    /^Додано (r-[\w-]+): allow wc \(глобальне\)\n {2}воно закріплює те, що інструмент запускає зараз: \{"program":"[^"]+","argv":\["cat"\]\}\n$/,
  );
  const id = added.stdout.match(/r-[\w-]+/)?.[0] as string;
  const second = await uk(["add", "--tool", "wc", "--deny", "--reason", "no"]);
  assert.match(second.stdout, /^Додано r-[\w-]+: deny wc \(робочий простір .+\)\n/);

  const [enList, ukList] = [await en(["list"]), await uk(["list"])];
  // Columns, aligned under headings in the locale (the scope column is as wide as its widest).
  assert.match(ukList.stdout, /^ID {10}РІШЕННЯ {2}ІНСТРУМЕНТ {2}ОБЛАСТЬ +УМОВИ\n/);
  assert.match(enList.stdout, /^ID {10}DECISION {2}TOOL {2}SCOPE +CONDITIONS\n/);
  assert.match(
    ukList.stdout,
    new RegExp(`^${id} {2}allow {4}wc {10}\\(глобальне\\) +\\{"program":`, "m"),
  );
  assert.match(
    enList.stdout,
    new RegExp(`^${id} {2}allow {5}wc {4}\\(global\\) +\\{"program":`, "m"),
  );
  assert.match(
    ukList.stdout,
    /^r-[\w-]+ {2}deny {5}wc {10}\(робочий простір .+\) {2}\{.+ — no$/m,
  );
  assertNoEnglish(ukList.stdout, enList.stdout, [
    /\{.*\}/g,
    /\b(?:r-[\w-]+|allow|deny|wc|no)\b/g,
    /\/[^\s)]+/g,
  ]);
  assert.equal((await uk(["list", "--json"])).stdout, (await en(["list", "--json"])).stdout);

  assert.match((await uk(["check"])).stdout, /^гаразд: 2 правила \(.+rules\.json\)\n$/);
  assert.match((await en(["check"])).stdout, /^ok: 2 rules \(.+rules\.json\)\n$/);
  assert.equal((await uk(["check", "--json"])).stdout, (await en(["check", "--json"])).stdout);

  const [enTest, ukTest] = [await en(["test", "wc", "{}"]), await uk(["test", "wc", "{}"])];
  assert.equal(enTest.code, 5);
  assert.match(enTest.stdout, /^preview +\{"tool":"wc",.*\}\ndecision +deny, by rule r-/);
  assert.match(ukTest.stdout, /^перегляд \{"tool":"wc",.*\}\nрішення +відхилено правилом r-/);

  const removed = await uk(["remove", id]);
  assert.equal(removed.stdout, `Видалено ${id}: allow wc (глобальне)\n`);
  assert.match((await uk(["check"])).stdout, /^гаразд: 1 правило \(/);
});

Deno.test("the terminal prompt asks in uk-UA: texts translated, names, argv and input as they are", async () => {
  const { PassThrough } = await import("node:stream");
  const { promptApproval } = await import("../src/approval/terminal/mod.ts");
  const request = {
    tool: "grep_code",
    sideEffect: "process",
    kind: "tool",
    preview: {
      tool: "grep_code",
      program: "/usr/bin/grep",
      command: ["/usr/bin/grep", "-rn", "TODO"],
      cwd: "/work/demo",
      env: [],
      sandbox: "unconfined",
      input: { lines: Array.from({ length: 60 }, (_, i) => `line ${i}`) },
    },
  } as const;
  const spawn = {
    tool: "spawn",
    sideEffect: "local state",
    kind: "spawn",
    preview: { mode: "agent", body: "sum up the README", cwd: "/work/x", target: "local" },
  } as const;
  async function ask(
    locale: "en-US" | "uk-UA" | undefined,
    keys: string[],
    which: typeof request | typeof spawn = request,
  ) {
    const input = new PassThrough();
    const output = new PassThrough();
    let screen = "";
    let ready: () => void = () => {};
    const drawn = new Promise<void>((resolve) => ready = resolve);
    const choice = locale === "uk-UA" ? "Дозволити один раз" : "Allow once";
    output.on("data", (chunk: Uint8Array) => {
      screen += new TextDecoder().decode(chunk);
      if (screen.includes(choice)) ready();
    });
    const answer = promptApproval(which, {
      input,
      output,
      isTerminal: () => true,
      color: false,
      ...(locale === undefined ? {} : { locale }),
    });
    await drawn;
    for (const key of keys) input.write(key);
    return { answer: await answer, screen };
  }
  const en = await ask("en-US", ["\r"]);
  const uk = await ask("uk-UA", ["\r"]);
  assert.equal(uk.answer, "allow_once");
  assert.equal((await ask(undefined, ["\r"])).screen, en.screen);
  assert.match(en.screen, /basis-tools asks before running a tool/);
  assert.match(uk.screen, /^basis-tools питає дозволу, перш ніж запустити інструмент\n/);
  for (
    const text of [
      "Дозволити цей виклик?",
      "Дозволити один раз",
      "Дозволяти завжди (запам’ятати саме цю команду)",
      "Відхилити",
      "Ніколи (запам’ятати відмову)",
      "Дозволено один раз",
      "↑↓ перейти",
      "⏎ вибрати",
      "esc відхилити",
      "запускає програму на цьому комп’ютері",
      "… і ще 24 рядки (335 байтів)",
      "/usr/bin/grep -rn TODO",
      "grep_code",
      '"line 0"',
    ]
  ) {
    assert.ok(uk.screen.includes(text), `${text} in:\n${uk.screen}`);
  }
  assertNoEnglish(uk.screen, en.screen, [
    /\b(?:basis-tools|grep_code|process|TODO|line \d+|lines)\b/g,
    /\/[\w/]+/g,
    /\besc\b/g,
  ]);

  const always = await ask("uk-UA", ["\x1b[B", "\r"]);
  assert.equal(always.answer, "always_allow");
  assert.match(always.screen, /Дозволено завжди \(запам’ятовано\)/);
  const refused = await ask("uk-UA", ["\x03"]);
  assert.equal(refused.answer, "deny");
  assert.match(refused.screen, /✖ Дозволити цей виклик\? Відхилено\n/);
  const agent = await ask("uk-UA", ["\r"], spawn);
  assert.match(agent.screen, /^basis-tools питає дозволу, перш ніж виконати команду\n/);
  assert.match(agent.screen, /^ {2}завдання +sum up the README$/m);
  assert.match(agent.screen, /передає завдання субагентові/);
});

Deno.test("show spawn and the rules and permissions usage errors speak uk-UA", async () => {
  await using dirs = await scratch();
  await Deno.writeTextFile(
    `${dirs.configDir}/spawn.json`,
    JSON.stringify({ agent: ["claude", "-p"], targets: { mac: ["ssh", "mac"] } }),
  );
  const en = await cli(dirs, ["show", "spawn"]);
  const uk = await cli(dirs, ["show", "spawn", "--locale", "uk-UA"]);
  assert.match(en.stdout, /^ {2}configured in: .+spawn\.json$/m);
  assert.match(uk.stdout, /^ {2}налаштовано в: +.+spawn\.json$/m);
  assert.match(uk.stdout, /^ {2}цілі: +mac: ssh mac <команда>$/m);
  assert.match(uk.stdout, /^ {2}субагент: +claude -p$/m);
  assert.match(uk.stdout, /^ {2}обмеження часу: +\d+ мс для команди, \d+ мс для субагента$/m);
  // The schema is never translated.
  const schema = (text: string) => text.slice(text.indexOf("\n  {"));
  assert.equal(schema(uk.stdout), schema(en.stdout));
  const fields = uk.stdout.slice(uk.stdout.indexOf("\n"), uk.stdout.indexOf("\n  {"));
  assertNoEnglish(fields, en.stdout, [
    /\b(?:process|local state|built-in|PATH|HOME|LANG|claude|ssh|mac|-p)\b/g,
    /--[a-z-]+/g,
    /\/[^\s,]+/g,
  ]);
  const withoutDescription = async (args: string[]) => {
    const shown = JSON.parse((await cli(dirs, ["show", "spawn", "--json", ...args])).stdout);
    return { ...shown, description: undefined };
  };
  assert.deepEqual(await withoutDescription(["--locale", "uk-UA"]), await withoutDescription([]));

  const errors: [string[], string, string][] = [
    [["rules"], 'Cannot run "rules": expected list', 'Не вдалося виконати "rules": очікується'],
    [["rules", "list", "x"], "expected 0 arguments", "ця команда не приймає аргументів"],
    [["rules", "remove"], "expected 1 argument;", "потрібен рівно один аргумент"],
    [["rules", "add"], "--tool NAME is required", "потрібен параметр --tool NAME"],
    [["permissions", "--format", "x"], 'Cannot use format "x"', 'формат "x"'],
  ];
  for (const [args, english, ukrainian] of errors) {
    const enRun = await cli(dirs, args);
    const ukRun = await cli(dirs, [...args, "--locale", "uk-UA"]);
    assert.equal(enRun.code, 2, args.join(" "));
    assert.equal(ukRun.code, 2, args.join(" "));
    assert.ok(enRun.stderr.includes(english), enRun.stderr);
    assert.ok(ukRun.stderr.includes(ukrainian), ukRun.stderr);
  }
});
