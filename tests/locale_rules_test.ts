/**
 * The rules file and the rules command in uk-UA: every problem of a rules file, every error of
 * `rules add|remove|list|check`, and the denial the tool contract gives when the rules file is
 * unusable. Each is triggered for real (a file written to a temporary config directory, the real
 * CLI run as a subprocess) and checked twice: English exactly as it always was, Ukrainian with no
 * English sentence left.
 */

import assert from "node:assert/strict";
import { DeclaredToolBuilder, ToolError } from "../src/mod.ts";
import {
  addRule,
  loadRules,
  type RuleInput,
  RulesFileError,
  rulesFilePath,
} from "../src/approval/rules/mod.ts";
import { BasisError } from "../src/errors.ts";
import { english, loadLocale, messages } from "../src/locale/messages.ts";
import { cli, type CliOptions, type Scratch, scratch } from "./_cli.ts";
import { toolSpec } from "./_fixtures.ts";
import { tempDir } from "./_scratch.ts";

await loadLocale("uk-UA");
const UK = messages("uk-UA");
const WINDOWS = Deno.build.os === "windows";
const CYRILLIC = /[а-яієїґ]/i;
const UK_LOAD = "Не вдалося завантажити правила";

/**
 * What a Ukrainian message may keep as it is: quoted values (paths, ids, field names, JSON
 * shapes), places in the file (`rules[2]`, `match[0]`), the field a problem is about, option
 * names, and names that are never translated.
 */
const KEPT: readonly RegExp[] = [
  /"(?:[^"\\]|\\.)*"/g,
  /'[^']*'/g,
  /\b(?:rules|match|not_match)\[\d+\]/g,
  /поле [a-z_.]+(?:\[(?:\d+|"[^"]*")\])*(?:\.glob)?/g,
  /\bworkspace(?= має)/g,
  /типу [a-z]+/g,
  /--[a-z-]+/g,
  /(?:^|\s)\/[^\s:"]+/g,
  /\b(?:JSON|UTF-8|ISO 8601|Deno|basis-tools|chmod|r-[a-z0-9]+)\b/g,
  /\{[^{}]*\}/g,
  /відомі: [a-z_, ]+/g,
  /\bPOINTER\b/g,
  /\b(?:when|program|body|allow|ask|deny|spawn|command|agent)\b/g,
];

/**
 * Asserts that a Ukrainian text is Ukrainian: Cyrillic, unlike the English, and with no Latin word
 * left once what is never translated is taken out.
 */
function assertUkrainian(uk: string, en: string): void {
  assert.notEqual(uk, en);
  assert.match(uk, CYRILLIC, uk);
  let rest = uk;
  for (const kept of KEPT) rest = rest.replaceAll(kept, " ");
  const found = rest.match(/[A-Za-z]{2,}/);
  assert.equal(found, null, `English ${found?.[0]} left in: ${uk}`);
}

/** A temporary config directory holding a rules file with this content and mode. */
async function configWith(
  content: string | Uint8Array,
  mode = 0o600,
): Promise<{ dir: string; file: string } & AsyncDisposable> {
  const temp = await tempDir({ prefix: "basis-locale-rules-" });
  const dir = temp.path;
  const file = rulesFilePath(dir);
  if (typeof content === "string") await Deno.writeTextFile(file, content);
  else await Deno.writeFile(file, content);
  if (!WINDOWS) await Deno.chmod(file, mode);
  return { dir, file, [Symbol.asyncDispose]: temp[Symbol.asyncDispose] };
}

/** The error loading the rules of `dir` raises. */
async function loadError(dir: string): Promise<RulesFileError> {
  try {
    await loadRules(dir);
  } catch (error) {
    assert.ok(error instanceof RulesFileError, String(error));
    return error;
  }
  assert.fail("expected the rules file to be refused");
}

const RULE = {
  id: "r-aaaaaaaa",
  tool: "sh",
  decision: "allow",
  scope: "global",
  when: { program: "/bin/sh" },
} as const;
const SPAWN_RULE = { ...RULE, tool: "spawn", when: { body: "ls" } } as const;
const json = (value: unknown) => JSON.stringify(value);

/** Rules files with one problem each, and that problem in English. */
const ONE_PROBLEM: [string | Uint8Array, string][] = [
  ["", "empty file"],
  [" \n", "empty file"],
  [new Uint8Array([0x7b, 0xff, 0x7d]), "not valid UTF-8"],
  ["{", 'invalid JSON: unexpected end of file, expected "}" at 1:2'],
  ['{"version": 2, "rules": []} // c', "invalid JSON: comments are not allowed at 1:29"],
  ['{"a" 1}', 'invalid JSON: unexpected number, expected ":" at 1:6'],
  ['{"a":1 "b":2}', 'invalid JSON: unexpected string, expected "," at 1:8'],
  [
    '{\n  "version": 2,\n  "rules": [\n    {"id": "x",}\n  ]\n}\n',
    'invalid JSON: unexpected "}", expected a property name in double quotes at 4:16',
  ],
  ["[1,]", 'invalid JSON: unexpected "]", expected a value at 1:4'],
  ['"\\q"', "invalid JSON: invalid escape sequence in a string at 1:1"],
  ['"\\u12"', 'invalid JSON: invalid "\\u" escape in a string at 1:1'],
  ['"a\tb"', "invalid JSON: control character in a string (escape it) at 1:1"],
  ['"abc', "invalid JSON: unterminated string at 1:1"],
  ['{"version":2,"rules":[]} x', 'invalid JSON: unexpected "x" at 1:26'],
  ['{"a":1}}', 'invalid JSON: unexpected "}", expected end of file at 1:8'],
  ["1e", "invalid JSON: invalid number at 1:1"],
  [
    "[]",
    'must be an object: {"version": 2, "rules": [...]}',
  ],
  [
    json({ rules: [] }),
    'missing "version" (expected 2)',
  ],
  [
    json({ version: 3, rules: [] }),
    "unsupported version 3: written by a newer basis-tools (this one reads version 2)",
  ],
  [
    json({ version: 1, rules: [] }),
    'version 1 is no longer read: its patterns matched text across fields, so its rules cannot be carried over safely; move the file away and add the rules again with "basis-tools rules add" (without conditions it pins a tool\'s current command)',
  ],
  [
    json({ version: 0, rules: [] }),
    "unsupported version 0 (expected 2)",
  ],
  [
    json({ version: 1.5, rules: [] }),
    "unsupported version 1.5 (expected 2)",
  ],
  [
    json({ version: "2", rules: [] }),
    "unsupported version of type string (expected 2)",
  ],
  [
    json({ version: null, rules: [] }),
    "unsupported version of type null (expected 2)",
  ],
  [
    json({ version: 2 }),
    "rules: must be an array",
  ],
  [
    json({ version: 2, rules: [], extra: 1 }),
    'unknown field "extra"',
  ],
  [
    json({ version: 2, rules: [5] }),
    "rules[0]: must be an object",
  ],
  [
    json({ version: 2, rules: [{ ...RULE, pattern: "*" }] }),
    'rules[0] "r-aaaaaaaa": unknown field "pattern"',
  ],
  [
    json({ version: 2, rules: [{ ...RULE, id: "" }] }),
    "rules[0] \"\": id: must be 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit",
  ],
  [
    json({ version: 2, rules: [RULE, RULE] }),
    'rules[1] "r-aaaaaaaa": id: used by an earlier rule',
  ],
  [
    json({ version: 2, rules: [{ ...RULE, tool: "" }] }),
    'rules[0] "r-aaaaaaaa": tool: must be a non-empty string',
  ],
  [
    json({ version: 2, rules: [{ ...RULE, decision: "yes" }] }),
    'rules[0] "r-aaaaaaaa": decision: must be "allow", "deny" or "ask"',
  ],
  [
    json({ version: 2, rules: [{ ...RULE, reason: "a\nb" }] }),
    'rules[0] "r-aaaaaaaa": reason: must be a string of one line',
  ],
  [
    json({ version: 2, rules: [{ ...RULE, scope: "local" }] }),
    'rules[0] "r-aaaaaaaa": scope: must be "global" or {"workspace": "/absolute/root"}',
  ],
  [
    json({ version: 2, rules: [{ ...RULE, scope: { workspace: "w" } }] }),
    'rules[0] "r-aaaaaaaa": scope: workspace: must be an absolute, normalised path',
  ],
  [
    json({ version: 2, rules: [{ ...RULE, match: "x" }] }),
    'rules[0] "r-aaaaaaaa": match: must be an array of example previews',
  ],
  [
    json({ version: 2, rules: [{ ...RULE, not_match: {} }] }),
    'rules[0] "r-aaaaaaaa": not_match: must be an array of example previews',
  ],
  [
    json({ version: 2, rules: [{ ...RULE, created: "yesterday" }] }),
    'rules[0] "r-aaaaaaaa": created: must be an ISO 8601 timestamp',
  ],
  [
    json({ version: 2, rules: [{ ...RULE, when: undefined }] }),
    'rules[0] "r-aaaaaaaa": when: missing: a rule says its conditions ({} only for a deny rule that covers every call)',
  ],
  [
    json({ version: 2, rules: [{ ...RULE, when: [] }] }),
    'rules[0] "r-aaaaaaaa": when: must be an object of conditions',
  ],
  [
    json({ version: 2, rules: [{ ...RULE, when: {} }] }),
    'rules[0] "r-aaaaaaaa": when: an allow or ask rule for a declared tool must pin the program it runs (program): a name never approves on its own',
  ],
  [
    json({ version: 2, rules: [{ ...SPAWN_RULE, decision: "ask", when: {} }] }),
    'rules[0] "r-aaaaaaaa": when: an allow or ask rule for spawn must say which command or task (body)',
  ],
  [
    json({ version: 2, rules: [{ ...RULE, when: { program: "/bin/sh", args: [] } }] }),
    'rules[0] "r-aaaaaaaa": when: unknown condition "args" for a declared tool (known: program, argv, cwd, env, sandbox, input)',
  ],
  [
    json({ version: 2, rules: [{ ...SPAWN_RULE, when: { body: "ls", argv: [] } }] }),
    'rules[0] "r-aaaaaaaa": when: unknown condition "argv" for spawn (known: mode, body, target, cwd, sandbox, reach, child)',
  ],
  [
    json({ version: 2, rules: [{ ...RULE, when: { program: "sh" } }] }),
    'rules[0] "r-aaaaaaaa": when.program: must be an absolute path (the program that runs) or {"sha256": "…", "salt": "…"}',
  ],
  [
    json({ version: 2, rules: [{ ...RULE, when: { program: { sha256: "x", salt: "y" } } }] }),
    'rules[0] "r-aaaaaaaa": when.program: must be {"sha256": 64 lowercase hex digits, "salt": 32 lowercase hex digits}',
  ],
  [
    json({ version: 2, rules: [{ ...RULE, when: { program: "/bin/sh", argv: "sh" } }] }),
    'rules[0] "r-aaaaaaaa": when.argv: must be an array of one condition per argument (a string, {"glob": "…"} or a digest), {"rest": true} last for any further arguments',
  ],
  [
    json({
      version: 2,
      rules: [{ ...RULE, when: { program: "/bin/sh", argv: [{ rest: true }, "x"] } }],
    }),
    'rules[0] "r-aaaaaaaa": when.argv[0]: {"rest": true} may only come last',
  ],
  [
    json({ version: 2, rules: [{ ...RULE, when: { program: "/bin/sh", argv: [{ rest: 1 }] } }] }),
    'rules[0] "r-aaaaaaaa": when.argv[0]: must be {"rest": true}',
  ],
  [
    json({ version: 2, rules: [{ ...RULE, when: { program: "/bin/sh", argv: [{ glob: 1 }] } }] }),
    'rules[0] "r-aaaaaaaa": when.argv[0].glob: must be a string',
  ],
  [
    json({
      version: 2,
      rules: [{ ...RULE, when: { program: "/bin/sh", argv: [{ glob: "a\\" }] } }],
    }),
    'rules[0] "r-aaaaaaaa": when.argv[0].glob: ends with a lone \\ (write \\\\ for a backslash)',
  ],
  [
    json({ version: 2, rules: [{ ...RULE, when: { program: "/bin/sh", cwd: 1 } }] }),
    'rules[0] "r-aaaaaaaa": when.cwd: must be a string (exact), {"glob": "…"} or {"sha256": "…", "salt": "…"}',
  ],
  [
    json({
      version: 2,
      rules: [{ ...RULE, when: { program: "/bin/sh", cwd: { glob: "/w", x: 1 } } }],
    }),
    'rules[0] "r-aaaaaaaa": when.cwd: unknown key "x" (known: glob)',
  ],
  [
    json({ version: 2, rules: [{ ...RULE, when: { program: "/bin/sh", input: [] } }] }),
    'rules[0] "r-aaaaaaaa": when.input: must be an object of JSON pointers, each to {"equals": value} or {"glob": "…"}',
  ],
  [
    json({
      version: 2,
      rules: [{ ...RULE, when: { program: "/bin/sh", input: { a: { equals: 1 } } } }],
    }),
    'rules[0] "r-aaaaaaaa": when.input["a"]: "a" is not a JSON pointer (empty, or starting with /)',
  ],
  [
    json({ version: 2, rules: [{ ...RULE, when: { program: "/bin/sh", input: { "/a": 1 } } }] }),
    'rules[0] "r-aaaaaaaa": when.input["/a"]: must be {"equals": value} or {"glob": "…"}',
  ],
  [
    json({ version: 2, rules: [{ ...SPAWN_RULE, when: { body: "ls", mode: "shell" } }] }),
    'rules[0] "r-aaaaaaaa": when.mode: must be "command" or "agent"',
  ],
  [
    json({ version: 2, rules: [{ ...SPAWN_RULE, when: { body: "ls", target: "" } }] }),
    'rules[0] "r-aaaaaaaa": when.target: must be a non-empty string',
  ],
];

Deno.test("every problem of a rules file is worded in both locales", async () => {
  for (const [content, problem] of ONE_PROBLEM) {
    await using config = await configWith(content);
    const error = await loadError(config.dir);
    const en = `Cannot load rules ${json(config.file)}: ${problem}`;
    assert.equal(error.message, en);
    assert.equal(error.code, "denied");
    assert.deepEqual(error.problems.map(english), [problem]);
    const uk = error.wordedIn(UK);
    assert.ok(uk.startsWith(`${UK_LOAD} ${json(config.file)}: `), uk);
    assertUkrainian(uk, en);
  }
});

Deno.test("a rules file with many problems counts the rest in both locales", async () => {
  const broken = { ...RULE, tool: 1, decision: "x" };
  await using two = await configWith(json({ version: 2, rules: [broken] }));
  const error = await loadError(two.dir);
  assert.equal(
    error.message,
    `Cannot load rules ${
      json(two.file)
    }: rules[0] "r-aaaaaaaa": tool: must be a non-empty string (and 1 more problem)`,
  );
  assert.equal(
    error.wordedIn(UK),
    `${UK_LOAD} ${
      json(two.file)
    }: правило rules[0] "r-aaaaaaaa": поле tool: має бути непорожнім рядком (і ще 1 проблема)`,
  );

  await using many = await configWith(json({ version: 2, rules: [broken, 5, {}], x: 1 }));
  const more = await loadError(many.dir);
  assert.equal(more.problems.length, 9);
  assert.equal(
    more.message,
    `Cannot load rules ${json(many.file)}: unknown field "x" (and 8 more problems)`,
  );
  assert.equal(
    more.wordedIn(UK),
    `${UK_LOAD} ${json(many.file)}: невідоме поле "x" (і ще 8 проблем)`,
  );
  for (const problem of more.problems) assertUkrainian(UK.say(problem), english(problem));
  // A rule without an id is located by its index alone.
  assert.equal(
    english(more.problems[4]!),
    "rules[2]: id: must be 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit",
  );
  assert.match(UK.say(more.problems[4]!), /^правило rules\[2\]: поле id: має містити від 1 до 64/);
});

Deno.test(
  "a rules file that group or others can write, or that is not a file, is refused in both locales",
  { ignore: WINDOWS },
  async () => {
    await using loose = await configWith(json({ version: 2, rules: [] }), 0o620);
    const error = await loadError(loose.dir);
    assert.equal(
      error.message,
      `Cannot load rules ${
        json(loose.file)
      }: writable by group or others (mode 0620), so anyone could approve tools: run chmod 600 on it`,
    );
    assertUkrainian(error.wordedIn(UK), error.message);
    assert.match(error.wordedIn(UK), /\(режим 0620\).+chmod 600/);

    await using dir = await tempDir({ prefix: "basis-locale-rules-" });
    await Deno.mkdir(rulesFilePath(dir.path));
    const notFile = await loadError(dir.path);
    assert.equal(
      notFile.message,
      `Cannot load rules ${json(rulesFilePath(dir.path))}: not a regular file`,
    );
    assertUkrainian(notFile.wordedIn(UK), notFile.message);
  },
);

Deno.test(
  "a rules file the user may not read is refused in both locales",
  { ignore: WINDOWS || Deno.uid() === 0 },
  async () => {
    await using config = await configWith(json({ version: 2, rules: [] }), 0o000);
    const error = await loadError(config.dir);
    assert.equal(
      error.message,
      `Cannot load rules ${json(config.file)}: cannot be read: permission denied`,
    );
    assertUkrainian(error.wordedIn(UK), error.message);
  },
);

Deno.test("addRule() words a rule that has no tool name in both locales", async () => {
  await using dir = await tempDir({ prefix: "basis-locale-rules-" });
  const input = { tool: 7, decision: "allow", scope: "global", when: {} } as unknown as RuleInput;
  const error = await addRule(dir.path, input).then(() => undefined, (error: unknown) => error);
  assert.ok(error instanceof BasisError && error.code === "usage", String(error));
  assert.equal(error.message, "Cannot add rule for a tool: tool: must be a non-empty string");
  assert.equal(
    error.wordedIn(UK),
    "Не вдалося додати правило для інструмента: поле tool: має бути непорожнім рядком",
  );
});

// --- through the CLI ----------------------------------------------------------------------------

/** Runs the CLI in English and in Ukrainian, at once. */
async function both(dirs: Scratch, args: string[], options: CliOptions = {}) {
  const [en, uk] = await Promise.all([
    cli(dirs, args, options),
    cli(dirs, [...args, "--locale", "uk-UA"], options),
  ]);
  assert.equal(uk.code, en.code, args.join(" "));
  return { en, uk };
}

Deno.test("rules list, check and remove word an unusable rules file in uk-UA; --json stays English", async () => {
  await using dirs = await scratch();
  const file = `${dirs.configDir}/rules.json`;
  await Deno.writeTextFile(file, "{\n", { mode: 0o600 });
  const problem = 'invalid JSON: unexpected end of file, expected "}" at 2:1';

  const list = await both(dirs, ["rules", "list"]);
  assert.equal(list.en.code, 5);
  assert.equal(list.en.stderr, `basis-tools: Cannot load rules ${json(file)}: ${problem}\n`);
  assert.equal(
    list.uk.stderr,
    `basis-tools: ${UK_LOAD} ${
      json(file)
    }: некоректний JSON: тут не очікувалося: кінець файлу; очікується "}" (рядок 2, стовпець 1)\n`,
  );
  // The locale may come from the environment too.
  const fromEnv = await cli(dirs, ["rules", "list"], { env: { BASIS_LOCALE: "uk-UA" } });
  assert.equal(fromEnv.stderr, list.uk.stderr);

  const check = await both(dirs, ["rules", "check"]);
  assert.equal(check.en.code, 6);
  assert.equal(check.en.stdout, `${file}: ${problem}\n`);
  assert.ok(check.uk.stdout.startsWith(`${file}: некоректний JSON: `), check.uk.stdout);
  assertUkrainian(check.uk.stdout, check.en.stdout);
  const checkJson = await both(dirs, ["rules", "check", "--json"]);
  assert.equal(checkJson.uk.stdout, checkJson.en.stdout);
  assert.deepEqual(JSON.parse(checkJson.en.stdout).problems, [problem]);

  const remove = await both(dirs, ["rules", "remove", "zz"]);
  assert.equal(remove.en.code, 5);
  assert.equal(remove.en.stderr, list.en.stderr);
  assert.equal(remove.uk.stderr, list.uk.stderr);

  const add = await both(dirs, ["rules", "add", "--tool", "spawn", "--body", "ls", "--global"]);
  assert.equal(add.en.stderr, list.en.stderr);
  assert.equal(add.uk.stderr, list.uk.stderr);
  assert.equal(
    await Deno.readTextFile(file),
    "{\n",
    "a file that cannot be trusted is left as it is",
  );
});

Deno.test("rules check words failing examples in uk-UA; --json stays English", async () => {
  await using dirs = await scratch();
  const file = `${dirs.configDir}/rules.json`;
  const sh = { program: "/bin/sh", command: ["sh"], cwd: "/w" };
  const rules = [
    { ...RULE, id: "r-narrow", match: [{ ...sh, program: "/bin/bash" }] },
    { ...RULE, id: "r-broad", decision: "deny", when: {}, not_match: [sh] },
    { ...RULE, id: "r-shape", match: ["sh"] },
  ];
  await Deno.writeTextFile(file, json({ version: 2, rules }), { mode: 0o600 });
  const shown = (value: unknown) => json(`${json(value).slice(0, 40)}…`);
  const lines = [
    `r-narrow: rule does not match example match[0] ${
      shown({ ...sh, program: "/bin/bash" })
    } (rule ignored)`,
    `r-broad: rule matches example not_match[0] ${shown(sh)}`,
    'r-shape: example match[0]: not a preview of this tool: "program", "command" and "cwd" are required, "tool", "env" (an object of names and values), "sandbox" and "input" optional (rule ignored)',
  ];
  const check = await both(dirs, ["rules", "check"]);
  assert.equal(check.en.code, 6);
  assert.equal(check.en.stdout, lines.map((line) => `${file}: ${line}\n`).join(""));
  assert.match(
    check.uk.stdout,
    /r-narrow: правило не збігається з прикладом match\[0\] .+ \(правило ігнорується\)\n/,
  );
  assert.match(check.uk.stdout, /r-broad: правило збігається з прикладом not_match\[0\] /);
  assert.match(
    check.uk.stdout,
    /r-shape: приклад match\[0\]: не є попереднім переглядом цього інструмента/,
  );
  assertUkrainian(check.uk.stdout, check.en.stdout);
  const checkJson = await both(dirs, ["rules", "check", "--json"]);
  assert.equal(checkJson.uk.stdout, checkJson.en.stdout);
  assert.deepEqual(JSON.parse(checkJson.en.stdout).problems, lines);
});

Deno.test("rules add and remove errors speak uk-UA; the English is as it always was", async () => {
  await using dirs = await scratch({
    schema: 1,
    tools: { x: { description: "x", input_schema: {}, command: ["cat"] } },
  });
  const file = `${dirs.configDir}/rules.json`;
  await Deno.writeTextFile(file, json({ version: 2, rules: [] }), { mode: 0o600 });
  const example = json({ program: "/bin/no", command: ["cat"], cwd: "/" });
  const cases: [string[], string][] = [
    [["remove", "zz"], `Cannot remove rule "zz": no rule has that id in ${json(file)}`],
    [
      ["add", "--tool", "x", "--match", example, "--global"],
      `Cannot add rule for tool "x": rule does not match example match[0] ${
        json(example.slice(0, 40) + "…")
      }`,
    ],
    [
      ["add", "--tool", "x", "--deny", "--when", "{}", "--not-match", example, "--global"],
      `Cannot add rule for tool "x": rule matches example not_match[0] ${
        json(example.slice(0, 40) + "…")
      }`,
    ],
    [
      ["add", "--tool", "x", "--argv", "[", "--global"],
      'Cannot add rule for tool "x": "--argv" is not JSON: unexpected end of file, expected "]" at 1:2',
    ],
    [
      ["add", "--tool", "x", "--argv", '["cat",{"rest":1}]', "--global"],
      'Cannot add rule for tool "x": when.argv[1]: must be {"rest": true}',
    ],
    [
      ["add", "--tool", "x", "--input", "novalue", "--global"],
      'Cannot add rule for tool "x": --input takes POINTER=JSON, for example /branch="main"',
    ],
    [
      ["add", "--tool", "x", "--input", "q=1", "--global"],
      'Cannot add rule for tool "x": when.input["q"]: "q" is not a JSON pointer (empty, or starting with /)',
    ],
    [
      ["add", "--tool", "x", "--deny", "--ask", "--global"],
      'Cannot add rule for tool "x": give at most one of --deny and --ask',
    ],
    [
      ["add", "--tool", "spawn", "--mode", "shell", "--global"],
      'Cannot add rule for tool "spawn": when.mode: must be "command" or "agent"',
    ],
    [
      ["add", "--tool", "x", "--reason", "a\nb", "--global"],
      'Cannot add rule for tool "x": reason: must be a string of one line',
    ],
  ];
  await Promise.all(cases.map(async ([args, message]) => {
    const run = await both(dirs, ["rules", ...args]);
    assert.equal(run.en.code, 2, args.join(" "));
    assert.equal(run.en.stderr, `basis-tools: ${message}\n`);
    assert.match(run.uk.stderr, /^basis-tools: Не вдалося (?:видалити|додати) правило /);
    assertUkrainian(run.uk.stderr.slice("basis-tools: ".length), run.en.stderr);
  }));
  // Nothing was written.
  assert.equal(await Deno.readTextFile(file), json({ version: 2, rules: [] }));
});

Deno.test("a rules file Deno may not read or write is reported in uk-UA", async () => {
  await using dirs = await scratch();
  const file = `${dirs.configDir}/rules.json`;
  await Deno.writeTextFile(file, json({ version: 2, rules: [] }), { mode: 0o600 });

  const read = await both(dirs, ["rules", "list"], { permissions: ["-A", `--deny-read=${file}`] });
  assert.equal(read.en.code, 5);
  assert.equal(
    read.en.stderr,
    `basis-tools: Cannot load rules ${
      json(file)
    }: cannot be read: Deno's --allow-read refuses it\n`,
  );
  assert.equal(read.uk.code, 5);
  assertUkrainian(read.uk.stderr, read.en.stderr);

  const write = await both(dirs, ["rules", "add", "--tool", "spawn", "--body", "ls", "--global"], {
    permissions: ["-A", `--deny-write=${dirs.configDir}`],
  });
  const lock = json(`${file}.lock`);
  assert.equal(write.en.code, 5);
  assert.equal(
    write.en.stderr,
    `basis-tools: Cannot save rules ${
      json(file)
    }: Requires write access to ${lock}, run again with the --allow-write flag\n`,
  );
  assert.equal(write.uk.code, 5);
  assert.equal(
    write.uk.stderr,
    `basis-tools: Не вдалося зберегти правила ${
      json(file)
    }: потрібен дозвіл на запис у ${lock}: запустіть програму знову з прапорцем --allow-write\n`,
  );
  assertUkrainian(write.uk.stderr, write.en.stderr);
  assert.equal(await Deno.readTextFile(file), json({ version: 2, rules: [] }));
});

// --- through the tool contract ------------------------------------------------------------------

Deno.test("a declared tool whose rules file is corrupt is denied in its locale", async () => {
  await using config = await configWith('{"version": 2, "rules": [');
  const denial = async (locale: string): Promise<ToolError> => {
    const tool = new DeclaredToolBuilder(toolSpec("echo", ["cat"]), {
      approval: { policy: "always", configDir: config.dir },
      cacheDir: `${config.dir}/cache`,
      spillDir: false,
      locale,
    }).build();
    try {
      await (await tool.execution({})).execute();
    } catch (error) {
      assert.ok(error instanceof ToolError, String(error));
      return error;
    }
    assert.fail("a corrupt rules file must deny the call");
  };
  const [en, uk] = [await denial("en-US"), await denial("uk-UA")];
  for (const error of [en, uk]) {
    assert.equal(error.code, "denied");
    assert.ok(error.isUserFacing());
    assert.equal(error.tool, "echo");
  }
  assert.equal(
    en.message,
    `Cannot load rules ${
      json(config.file)
    }: invalid JSON: unexpected end of file, expected "]" at 1:26`,
  );
  assert.equal(
    uk.message,
    `${UK_LOAD} ${
      json(config.file)
    }: некоректний JSON: тут не очікувалося: кінець файлу; очікується "]" (рядок 1, стовпець 26)`,
  );
  assertUkrainian(uk.message, en.message);
});
