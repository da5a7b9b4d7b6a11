import assert from "node:assert/strict";
import { assertNoStackTrace, cli, oneTool, scratch } from "./_cli.ts";
import { assertNoEnglish } from "./_no_english.ts";
import { say, wording } from "./_wording.ts";

const tool = (fields: Record<string, unknown>) => ({
  description: "A tool",
  input_schema: { type: "object" },
  command: ["cat"],
  ...fields,
});
const withTool = (name: string, fields: Record<string, unknown>) =>
  JSON.stringify({ schema: 1, tools: { [name]: tool(fields) } });
const without = (key: string) => {
  const t: Record<string, unknown> = tool({});
  delete t[key];
  return JSON.stringify({ schema: 1, tools: { t } });
};

/**
 * Each bad manifest, and a fragment its one-line error must contain. The first group are problems
 * of the file itself (the whole roster is refused); from "unknown tool key" on, but for the names,
 * problems confined to tool "t" (only that tool is unavailable).
 */
const BAD: [string, string, RegExp][] = [
  ["not JSON", '{\n  "schema": 1,\n  "tools": {\n}}}', /tools\.json:4:\d+: /],
  ["schema missing", '{"tools": {}}', /schema/],
  ["schema 0", '{"schema": 0, "tools": {}}', /0/],
  ["schema 2", '{"schema": 2, "tools": {}}', /2/],
  ["schema 99", '{"schema": 99, "tools": {}}', /99/],
  ["tools missing", '{"schema": 1}', /tools/],
  ["unknown top-level key", '{"schema": 1, "tools": {}, "extra": true}', /extra/],
  ["unknown tool key", withTool("t", { timout_ms: 5 }), /did you mean "timeout_ms"/],
  ["missing description", without("description"), /description/],
  ["missing input_schema", without("input_schema"), /input_schema/],
  ["missing command", without("command"), /command/],
  ["blank description", withTool("t", { description: "   " }), /description/],
  ["empty command", withTool("t", { command: [] }), /command/],
  ["blank program after expansion", withTool("t", { command: ["${EMPTY:-}"] }), /command/],
  ["empty name", withTool("", {}), /name|""/],
  ["name with a space", withTool("has space", {}), /has space/],
  ["name with an emoji", withTool("emoji-🙂", {}), /emoji/],
  ["name of 65 characters", withTool("a".repeat(65), {}), /a{65}/],
  ["mcp__ name", withTool("mcp__x", {}), /mcp__/],
  ["reserved name spawn", withTool("spawn", {}), /spawn/],
  ["input_schema a string", withTool("t", { input_schema: "string" }), /input_schema/],
  ["input_schema an array", withTool("t", { input_schema: [] }), /input_schema/],
  [
    "input_schema of type array",
    withTool("t", { input_schema: { type: "array" } }),
    /input_schema/,
  ],
  ["timeout_ms 0", withTool("t", { timeout_ms: 0 }), /timeout_ms/],
  ["timeout_ms -1", withTool("t", { timeout_ms: -1 }), /timeout_ms/],
  ["timeout_ms 1.5", withTool("t", { timeout_ms: 1.5 }), /timeout_ms/],
  ['timeout_ms "10"', withTool("t", { timeout_ms: "10" }), /timeout_ms/],
  ["side_effect none", withTool("t", { side_effect: "none" }), /side_effect/],
  ["env value not a string", withTool("t", { env: { A: 1 } }), /env\.A/],
  ["${UNSET}", withTool("t", { command: ["cat", "${BASIS_TEST_UNSET}"] }), /BASIS_TEST_UNSET/],
  ["unterminated ${", withTool("t", { cwd: "${HOME" }), /cwd/],
  ["empty ${}", withTool("t", { env: { A: "${}" } }), /env\.A/],
];

/** Problems of the file itself: a name it cannot take, or no usable document. */
const FILE_LEVEL = new Set([
  "not JSON",
  "schema missing",
  "schema 0",
  "schema 2",
  "schema 99",
  "tools missing",
  "unknown top-level key",
  "empty name",
  "name with a space",
  "name with an emoji",
  "name of 65 characters",
  "mcp__ name",
  "reserved name spawn",
]);

for (const [what, text, fragment] of BAD) {
  const fileLevel = FILE_LEVEL.has(what);
  Deno.test(
    fileLevel
      ? `a manifest with ${what} is refused: exit 6, one line, no stack trace`
      : `a tool with ${what} is unavailable with its reason, check exits 6, one line, no stack trace`,
    async () => {
      await using dirs = await scratch(text);
      for (const command of fileLevel ? ["list", "check"] : ["check", "call"]) {
        const result = await cli(dirs, command === "call" ? ["call", "t", "{}"] : [command]);
        const printed = command === "check" ? result.stdout : result.stderr;
        assert.equal(result.code, 6, `${command}: ${result.stdout}${result.stderr}`);
        assert.match(printed, fragment);
        assert.ok(printed.includes(".basis/tools.json"), printed);
        for (const line of printed.trimEnd().split("\n")) {
          assert.ok(line.length > 0 && !line.startsWith(" "), `not one line a problem: ${printed}`);
        }
        assertNoStackTrace(result.stdout + result.stderr);
      }
      if (!fileLevel) {
        // The roster still loads: the tool is listed as unavailable, with why.
        const listed = await cli(dirs, ["list", "--json"]);
        assert.equal(listed.code, 0, listed.stderr);
        const row = JSON.parse(listed.stdout).find((r: { name: string }) => r.name === "t");
        assert.equal(row.available, false);
        assert.match(row.problems[0].message, fragment);
      }
    },
  );
}

Deno.test("a JSONC manifest with comments and trailing commas is accepted", async () => {
  await using dirs = await scratch(
    `// tools\n{\n  "schema": 1, /* one */\n  "tools": {\n    "t": {"description": "d", "input_schema": {}, "command": ["cat"],},\n  },\n}\n`,
  );
  const result = await cli(dirs, ["list", "--json"]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(JSON.parse(result.stdout)[0].name, "t");
});

Deno.test("a broken global manifest is an error even when the workspace is fine", async () => {
  await using dirs = await scratch(withTool("t", {}), "{ broken");
  const result = await cli(dirs, ["list"]);
  assert.equal(result.code, 6);
  assert.match(result.stderr, /config\/tools\.json/);
});

Deno.test("a directory where tools.json should be is skipped", async () => {
  await using dirs = await scratch();
  await Deno.mkdir(`${dirs.root}/.basis/tools.json`);
  await Deno.mkdir(`${dirs.configDir}/tools.json`);
  const result = await cli(dirs, ["list", "--json"], { cwd: dirs.root });
  assert.equal(result.code, 0, result.stderr);
  // Only the built-in spawn tool.
  assert.deepEqual(JSON.parse(result.stdout).map((row: { name: string }) => row.name), ["spawn"]);
});

Deno.test({
  name:
    "a tools.json or spawn.json that is a symbolic link to nothing is an error (exit 6), not an empty roster",
  ignore: Deno.build.os === "windows",
}, async () => {
  await using dirs = await scratch();
  await Deno.symlink("gone.json", `${dirs.root}/.basis/tools.json`);
  await Deno.mkdir(`${dirs.root}/sub`);
  // Found from a subdirectory too: the link marks the workspace root.
  for (const cwd of [dirs.root, `${dirs.root}/sub`]) {
    const result = await cli(dirs, ["list"], { cwd });
    assert.equal(result.code, 6, result.stdout + result.stderr);
    assert.match(
      result.stderr,
      new RegExp(
        `^basis-tools: \\S*/work/\\.basis/tools\\.json: ${
          wording("file.read_dangling_link", { target: '"gone.json"' }).source
        }`,
        "m",
      ),
    );
    assertNoStackTrace(result.stderr);
  }
  const check = await cli(dirs, ["check"]);
  assert.equal(check.code, 6);
  await Deno.remove(`${dirs.root}/.basis/tools.json`);

  await Deno.symlink(`${dirs.configDir}/nowhere.json`, `${dirs.configDir}/tools.json`);
  const global = await cli(dirs, ["list"]);
  assert.equal(global.code, 6);
  assert.match(
    global.stderr,
    new RegExp(`config/tools\\.json: ${wording("file.read_dangling_link").source}`),
  );
  await Deno.remove(`${dirs.configDir}/tools.json`);

  await Deno.symlink("nowhere.json", `${dirs.configDir}/spawn.json`);
  const spawn = await cli(dirs, ["spawn", "!true", "--approve", "always"]);
  assert.equal(spawn.code, 6, spawn.stdout + spawn.stderr);
  assert.match(
    spawn.stderr,
    new RegExp(`spawn\\.json: ${wording("file.read_dangling_link").source}`),
  );
});

Deno.test("a manifest that says a name twice is refused at the second one (exit 6)", async () => {
  const text = [
    "{",
    '  "schema": 1,',
    '  "tools": {',
    '    "t": {"description": "d", "input_schema": {}, "command": ["cat"], "command": ["rm"]},',
    '    "t": {"description": "again", "input_schema": {}, "command": ["cat"]},',
    '    "u": {"description": "u", "input_schema": {}, "command": ["cat"]}',
    "  }",
    "}",
  ].join("\n");
  await using dirs = await scratch(text);
  for (const command of ["list", "check", "mcp"]) {
    const result = await cli(dirs, [command]);
    assert.equal(result.code, 6, `${command}: ${result.stdout}${result.stderr}`);
    const printed = command === "check" ? result.stdout : result.stderr;
    const lines = printed.trimEnd().split("\n").map((line) => line.replace(/^basis-tools: /, ""));
    assert.deepEqual(lines.map((line) => line.replace(/^\S*\/work\//, "")), [
      `.basis/tools.json:4:71: tool "t": command: ${
        say("json.duplicate_key", { line: 4, column: 51 })
      }`,
      `.basis/tools.json:5:5: tool "t": ${say("manifest.duplicate_tool", { line: 4, column: 5 })}`,
    ]);
  }
  const json = JSON.parse((await cli(dirs, ["check", "--json"])).stdout);
  assert.deepEqual(
    json.problems.map((p: { line: number; column: number }) => [p.line, p.column]),
    [
      [4, 71],
      [5, 5],
    ],
  );
});

Deno.test("a spawn.json that says a name twice is refused at the second one (exit 6)", async () => {
  await using dirs = await scratch({ schema: 1, tools: {} });
  await Deno.writeTextFile(
    `${dirs.configDir}/spawn.json`,
    '{\n  "agent": ["a"],\n  "targets": {"b": ["ssh", "b"], "b": ["ssh", "c"]},\n  "agent": ["z"]\n}\n',
  );
  const result = await cli(dirs, ["spawn", "!true", "--approve", "always"]);
  assert.equal(result.code, 6, result.stdout + result.stderr);
  const lines = result.stderr.trimEnd().split("\n");
  assert.equal(lines.length, 2, result.stderr);
  assert.match(lines[0]!, /spawn\.json:3:34: targets\.b: given twice \(first at 3:15\)/);
  assert.match(lines[1]!, /spawn\.json:4:3: agent: given twice \(first at 2:3\)/);
});

Deno.test("--json reports a manifest error as one object", async () => {
  await using dirs = await scratch('{"schema": 2, "tools": {}}');
  const result = await cli(dirs, ["--json", "call", "t", "{}"]);
  assert.equal(result.code, 6);
  const object = JSON.parse(result.stdout);
  assert.equal(object.ok, false);
  assert.equal(object.error.kind, "manifest_invalid");
});

// --- Wording in en-US and uk-UA ---

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
  assert.match(
    enEmpty.stdout,
    /\(no manifest found; looked in .+ and .+; basis-tools init .+\)\n$/,
  );
  assert.match(
    ukEmpty.stdout,
    /\(маніфест не знайдено; шукали в .+ і .+; basis-tools init .+\)\n$/,
  );

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
  assert.match(
    (await run(["check"], "uk-UA", empty)).stdout,
    /\nгаразд: 0 інструментів \(маніфест не знайдено\), 1 попередження \(--strict: код 6\)\n$/,
  );
  assert.equal(
    (await run(["check", "--json"], "uk-UA")).stdout,
    (await run(["check", "--json"], "en-US")).stdout,
  );
});
