/**
 * Manifest problems, spawn.json problems and call inputs that are not JSON, in both locales: every
 * problem carries a phrase as its reason, every manifest and spawn.json
 * message is reached by a real document, and the Ukrainian lines hold no English prose.
 */

import assert from "node:assert/strict";
import { BasisError, formatProblem, ManifestError, type ManifestProblem } from "../src/errors.ts";
import { parseCallInput } from "../src/cli/_call_input.ts";
import { EN_US, type MessageKey } from "../src/locale/en_us.ts";
import { catalogue, english, loadLocale, messages } from "../src/locale/messages.ts";
import { loadRoster } from "../src/manifest/load.ts";
import { parseManifestText } from "../src/manifest/parse.ts";
import { strictJsonProblem } from "../src/json_text.ts";
import { parseSpawnConfig } from "../src/spawn/config.ts";
import { cli, scratch } from "./_cli.ts";
import { keysOf } from "./_phrase.ts";
import { tempDir } from "./_scratch.ts";

await loadLocale("uk-UA");
const EN = messages("en-US");
const UK = messages("uk-UA");
const CYRILLIC = /[\u0400-\u04FF]/;

const ok = { description: "x", input_schema: { type: "object" } };
let deep: Record<string, unknown> = { type: "object" };
for (let i = 0; i < 101; i++) deep = { type: "object", properties: { a: deep } };

/** Manifests, each wrong in its own ways; together they reach every manifest message. */
const MANIFESTS: readonly string[] = [
  "[]",
  "{}",
  '{"schema": 2, "tools": {}}',
  '{"schema": 1, "tools": []}',
  '{"schema": 1, "tool": {}, "extra": 1}',
  JSON.stringify({
    schema: 1,
    tools: {
      "": { ...ok, command: ["x"] },
      ["a".repeat(65)]: { ...ok, command: ["x"] },
      "a b": { ...ok, command: ["x"] },
      mcp__x: { ...ok, command: ["x"] },
      "-h": { ...ok, command: ["x"] },
      spawn: { ...ok, command: ["x"] },
      t1: 5,
      t2: {},
      t3: {
        description: 5,
        input_schema: [],
        command: "ls -l",
        env: [],
        side_effect: "x",
        timeout_ms: 0,
        desc: 1,
      },
      t4: { description: "  ", input_schema: { type: "string" }, command: 5, timeout_ms: 2 ** 31 },
      t5: {
        description: "x",
        input_schema: deep,
        command: [],
        env: { "": "a", "A=B": "x", "A\u0000": "x" },
      },
      t6: { ...ok, command: ["  "], cwd: "a\u0000b" },
      t7: { ...ok, command: ["${UNSET_FOR_TEST:-}"] },
      t8: {
        ...ok,
        command: ["x", "${", "${}", "${1A}", "${UNSET_FOR_TEST}", "${A:+x}", "${A:-${B}}"],
      },
      t9x: { ...ok, command: ["x"], output_schema: { type: "array" }, title: "two\nlines" },
      t9: { ...ok, command: ["x"], sandbox: [] },
      t10: {
        ...ok,
        command: ["x"],
        sandbox: { netwrk: 1, network: "yes", write: "x", read: [5, "~x", "../up", "~/../x"] },
      },
      // Arguments taken from the input, each refused for a reason of its own.
      t11: {
        ...ok,
        input_schema: {
          type: "object",
          properties: { o: { type: "object" }, s: { type: "string" }, name: {} },
          required: ["o", "name"],
        },
        command: [
          { input: "s" },
          { input: "o" },
          { input: "s" },
          { input: "x" },
          { input: "nmae" },
          { input: "name" },
          { input: 5 },
          { inptu: "s" },
          true,
        ],
      },
    },
  }),
  // JSON.stringify drops "__proto__" keys made by literals; written out, JSON.parse keeps them.
  '{"schema": 1, "tools": {"__proto__": {"description": "x", "input_schema": {"type": "object",' +
  ' "properties": {"__proto__": {}}}, "command": ["x"], "env": {"__proto__": "x"}}}}',
  "",
  '{"schema": 1, "tools": {}',
  "{'schema': 1}",
  '{"schema" 1}',
  '{"schema": 1 "tools": {}}',
  '{"schema": }',
  '{"schema": 1, 2}',
  '{"schema": abc}',
  "{}}",
  "{} x",
  '{"$schema": 5, "schema": 1, "tools": {}}',
  '{"a": "x\ty"}',
  '{"a": 1.}',
  '{"a": "\\u12"}',
  '{"a": "\\q"}',
  '{"a": "x',
  '{"a": 1 /* x',
  "[".repeat(200_000),
  // A name said twice: a tool, and a field of one.
  '{"schema": 1, "tools": {"a": {"description": "x", "description": "y", "input_schema": {},' +
  ' "command": ["x"]}, "a": {}}}',
];

/** spawn.json documents that reach every spawn.json message. */
const SPAWN_CONFIGS: readonly string[] = [
  "",
  "[]",
  '{"agent": "claude -p", "targets": [], "max_depth": -1, "agnet": 1}',
  '{"targets": {"a/b": ["x"], "local": ["y"], "ok": [""]}}',
  '{"max_depth": 1, "max_depth": 2}',
  '{"agents": [], "reach": 1, "child": 2}',
  '{"agents": {"a.b": ["x"], "local": ["y"]}, "reach": {"allow": []}, "child": {"roster": "x", "model": ""}}',
  '{"reach": {"allow": ["x"], "default": "y"}, "child": {"roster": ["-x"]}}',
  '{"reach": {"allow": ["local"]}}',
  '{"reach": {"allow": ["local"], "default": "named"}}',
  '{"agent": ["a", "{model}"]}',
];

/**
 * Messages no document here can reach: the read errors that need a user other than root or a
 * confined Deno (tests/manifest_test.ts triggers both), Deno's refusals of a file the CLI writes
 * (tests/locale_errors_test.ts), and the last resort of a parse that the JSONC parser accepted but
 * `JSON.parse` did not.
 */
const UNREACHED: ReadonlySet<MessageKey> = new Set([
  "file.read_permission",
  "file.read_sandbox",
  "file.sandbox_read",
  "file.sandbox_write",
  "json.invalid",
]);

/** Messages of a call rather than of a document, tested below through the CLI. */
const BY_CALL: ReadonlySet<string> = new Set(["manifest.tool", "manifest.schema_unusable"]);

async function problemsOf(text: string): Promise<readonly ManifestProblem[]> {
  const { problems } = await parseManifestText(text, "/w/.basis/tools.json", {
    root: "/w",
    env: () => undefined,
  });
  return problems;
}

async function spawnProblemsOf(text: string): Promise<readonly ManifestProblem[]> {
  const error = await parseSpawnConfig(text, "/c/spawn.json").catch((e) => e);
  assert.ok(error instanceof ManifestError, `${text} should be refused`);
  return error.problems;
}

/**
 * Problems of files that cannot be read: a FIFO, bytes that are not UTF-8, a symlink loop, a
 * symlink to nothing.
 */
async function readProblems(): Promise<ManifestProblem[]> {
  const found: ManifestProblem[] = [];
  for (const make of [makeFifo, makeNotUtf8, makeLoop, makeDangling]) {
    await using root = await tempDir();
    await Deno.mkdir(`${root.path}/.basis`);
    await make(`${root.path}/.basis/tools.json`);
    const error = await loadRoster({
      workspace: root.path,
      configDir: root.path,
      env: () => undefined,
    })
      .catch((e) => e);
    assert.ok(error instanceof ManifestError, String(error));
    found.push(...error.problems);
  }
  return found;
}

async function makeFifo(path: string) {
  const made = await new Deno.Command("mkfifo", { args: [path] }).output();
  assert.ok(made.success);
}

async function makeNotUtf8(path: string) {
  await Deno.writeFile(path, new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]));
}

async function makeLoop(path: string) {
  await Deno.symlink(path, path);
}

async function makeDangling(path: string) {
  await Deno.symlink(`${path}.gone`, path);
}

/** What the Ukrainian line may keep in English: values, names, paths and notation. */
const KEPT: readonly RegExp[] = [
  /"[^"]*"/g,
  /\/[\w./-]+/g,
  /\$\{[^}]*\}/g,
  /\b(?:argv|JSON|UTF-8|NUL|MCP|Deno|A-Z|a-z|0-9|--allow-read|true|false)\b/g,
  /\b(?:description|input_schema|command|cwd|env|side_effect|timeout_ms|output_schema|title|sandbox|schema|tools|agent|targets|max_depth|type|properties|required|input)\b/g,
  /\[\d+\]/g,
];

function assertUkrainian(line: string, problem: ManifestProblem): void {
  assert.match(line, CYRILLIC, line);
  // The field is the key as written in the file.
  let rest = problem.field === undefined ? line : line.replace(`: ${problem.field}: `, ": ");
  for (const kept of KEPT) rest = rest.replaceAll(kept, " ");
  const word = rest.match(/[A-Za-z]{3,}/)?.[0];
  assert.equal(
    word,
    undefined,
    `English "${word}" left in: ${line} (English: ${english(problem.reason)})`,
  );
}

Deno.test("every manifest and spawn.json problem is worded in both locales, English unchanged", async () => {
  const problems: ManifestProblem[] = [];
  for (const text of MANIFESTS) {
    const found = await problemsOf(text);
    assert.ok(found.length > 0, `expected problems in ${text.slice(0, 80)}`);
    problems.push(...found);
  }
  for (const text of SPAWN_CONFIGS) problems.push(...await spawnProblemsOf(text));
  const read = await readProblems();
  problems.push(...read);

  const reached = new Set<string>();
  for (const problem of problems) {
    keysOf(problem.reason, reached);
    const uk = formatProblem(problem, UK);
    assert.notEqual(uk, formatProblem(problem));
    // An operating system's own reason stays as the system gave it.
    if (problem.reason.key !== "file.read_other") assertUkrainian(uk, problem);
  }
  // Comments are refused only where strict JSON is read (a call's input, rules.json), which also
  // places the problem with "at line:column".
  const input = await parseCallInput("t", '{"a": 1 // note\n}').catch((e) => e);
  assert.ok(input instanceof BasisError && input.phrase !== undefined);
  keysOf(input.phrase, reached);
  const cut = await parseCallInput("t", '{"a": 1').catch((e) => e);
  assert.ok(cut instanceof BasisError && cut.phrase !== undefined);
  keysOf(cut.phrase, reached);
  const expected = Object.keys(EN_US).filter((key) =>
    /^(?:manifest|spawn_config|json|file)\./.test(key) && !BY_CALL.has(key) &&
    !UNREACHED.has(key as MessageKey)
  );
  const missed = expected.filter((key) => !reached.has(key));
  assert.deepEqual(missed, [], "messages no document reached");
});

Deno.test("a tool's problems name it in the locale's words", async () => {
  const [problem] = await problemsOf(JSON.stringify({ schema: 1, tools: { t: 5 } }));
  assert.ok(problem);
  assert.equal(
    formatProblem(problem),
    '/w/.basis/tools.json:1:26: tool "t": must be an object, found a number',
  );
  assert.equal(
    formatProblem(problem, UK),
    '/w/.basis/tools.json:1:26: інструмент "t": має бути об’єктом, а отримано число',
  );
});

Deno.test("a call input that is not JSON is described by kind and place, never echoed", async () => {
  const cases: [string, string, string][] = [
    ['{"a":1', 'unexpected end of file, expected "}" at 1:7', "рядок 1, стовпець 7"],
    [
      '{"a": hunter2secret}',
      "unexpected unquoted text, expected a value at 1:7",
      "текст без лапок",
    ],
    ["{'a': 1}", "unexpected single-quoted text (use double quotes)", "в одинарних лапках"],
    ['{"a": 1 // note\n}', "comments are not allowed at 1:9", "коментарі не дозволені"],
    ["", "unexpected end of file", "кінець файлу"],
  ];
  for (const [text, english, ukrainian] of cases) {
    const { position, reason } = await strictJsonProblem(text);
    const at = position === undefined ? "" : ` at ${position.line}:${position.column}`;
    assert.ok(`${EN.say(reason)}${at}`.startsWith(english), `${text}: ${EN.say(reason)}${at}`);
    const line = UK.say(reason) +
      (position ? ` (рядок ${position.line}, стовпець ${position.column})` : "");
    assert.ok(line.includes(ukrainian), line);
  }

  await using dirs = await scratch({
    schema: 1,
    tools: { echo: { ...ok, command: ["cat"] } },
  });
  const en = await cli(dirs, ["call", "echo", '{"token": hunter2secret}', "--approve", "always"]);
  assert.equal(en.code, 2);
  assert.equal(
    en.stderr,
    'basis-tools: Cannot parse the input of tool "echo" as JSON: unexpected unquoted text, expected a value at 1:11\n',
  );
  const uk = await cli(dirs, [
    "call",
    "echo",
    '{"token": hunter2secret}',
    "--approve",
    "always",
    "--locale",
    "uk-UA",
  ]);
  assert.equal(
    uk.stderr,
    'basis-tools: Не вдалося розібрати вхідні дані інструмента "echo" як JSON: тут не очікувалося: текст без лапок; очікується значення (рядок 1, стовпець 11)\n',
  );
  const spawn = await cli(dirs, ["call", "spawn", "{", "--locale", "uk-UA", "--json"]);
  assert.match(
    JSON.parse(spawn.stdout).error.message,
    /"spawn" як JSON: тут не очікувалося: кінець вхідних даних/,
  );
});

Deno.test("check, list and call word a broken manifest in the locale; --json keeps reason English", async () => {
  await using dirs = await scratch({
    schema: 1,
    tools: { bad: { description: 3, input_schema: { type: "object" }, command: "ls -l" } },
  });
  const en = await cli(dirs, ["check"]);
  assert.equal(en.code, 6);
  assert.match(en.stdout, /tool "bad": description: must be a string, found a number\n/);
  const uk = await cli(dirs, ["check", "--locale", "uk-UA"]);
  assert.equal(uk.code, 6);
  assert.match(uk.stdout, /інструмент "bad": description: має бути рядком, а отримано число\n/);
  assert.match(uk.stdout, /command: має бути масивом рядків \(argv, а не рядком для оболонки\)/);

  const json = JSON.parse((await cli(dirs, ["check", "--json", "--locale", "uk-UA"])).stdout);
  const [first] = json.problems;
  assert.equal(first.reason, "must be a string, found a number");
  assert.match(first.message, /має бути рядком, а отримано число$/);
  assert.equal("phrase" in first, false);

  for (const command of [["call", "bad", "{}"], ["show", "bad"]]) {
    const result = await cli(dirs, [...command, "--locale", "uk-UA"]);
    assert.equal(result.code, 6, command.join(" "));
    assert.match(result.stderr, /^basis-tools: .*інструмент "bad": description: має бути рядком/m);
  }
  // list shows the tool unavailable, with the first reason in the locale.
  const listed = await cli(dirs, ["list", "--locale", "uk-UA"]);
  assert.equal(listed.code, 0, listed.stderr);
  assert.match(listed.stdout, /^bad\s+-\s+workspace\s+недоступний: description: має бути рядком/m);
  await Deno.writeTextFile(`${dirs.configDir}/spawn.json`, '{"agent": "claude -p"}');
  const broken = await cli(dirs, ["check", "--locale", "uk-UA"]);
  assert.match(broken.stdout, /spawn\.json:\d+:\d+: agent: має бути непорожнім масивом рядків/);
});

Deno.test("the catalogue keeps every manifest message in both locales", () => {
  const uk = catalogue("uk-UA");
  for (const key of Object.keys(EN_US) as MessageKey[]) {
    if (!/^(?:manifest|spawn_config|json|file)\./.test(key) || BY_CALL.has(key)) continue;
    assert.match(uk[key], CYRILLIC, key);
  }
});
