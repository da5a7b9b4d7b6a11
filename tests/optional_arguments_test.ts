/**
 * Optional arguments (`{"input", "flag"}`, `{"input", "prefix"}`) and `success_exit_codes`: the
 * manifest's refusals, the argv of each kind of input, grep as an everyday tool through the CLI,
 * MCP and the library, how remembered rules pin and match them, and how help and show print them.
 */

import assert from "node:assert/strict";
import { cli, FIXTURES, manifest, type Scratch, scratch } from "./_cli.ts";
import { callTool, connectMcp, resultText } from "./_mcp.ts";
import { say, wording } from "./_wording.ts";
import { CYRILLIC } from "./_no_english.ts";
import { DeclaredToolBuilder } from "../src/contract/declared_tool.ts";
import { ToolError } from "../src/contract/tool_error.ts";
import { loadRoster } from "../src/manifest/load.ts";
import { checkRules } from "../src/approval/rules/check.ts";
import type { Rule } from "../src/approval/rules/types.ts";
import type { PromptRequest, TerminalAnswer } from "../src/approval/terminal/types.ts";
import { elicitationForm } from "../src/approval/elicitation/elicit_approval.ts";
import { phrase, type PhraseParams } from "../src/locale/messages.ts";
import type { MessageKey } from "../src/locale/en_us.ts";

const ARGV = `${FIXTURES}/argv.sh`;
const ALWAYS = ["--approve", "always"];

/** The input schema of the tools here: only `pattern` is required. */
const SCHEMA = {
  type: "object",
  properties: {
    pattern: { type: "string" },
    ignore_case: { type: "boolean" },
    max: { type: "integer" },
    ratio: { type: "number" },
    word: { type: "string" },
    color: { type: "boolean" },
    x: { type: "boolean" },
  },
  required: ["pattern"],
  additionalProperties: false,
};

/** `argv.sh [-i] [--max-count=<max>] -- <pattern> notes.txt`: it prints each argument. */
const COMMAND = [
  ARGV,
  { input: "ignore_case", flag: "-i" },
  { input: "max", prefix: "--max-count=" },
  "--",
  { input: "pattern" },
  "notes.txt",
];

function tools(command: unknown[], more: Record<string, unknown> = {}) {
  return { search: { description: "Search", input_schema: SCHEMA, command, ...more } };
}

/** The arguments a run of argv.sh printed, without its stdin. */
function printed(stdout: string): string[] {
  return stdout.slice(0, stdout.lastIndexOf("stdin:")).split("\n").filter((line) => line !== "")
    .map((line) => line.slice(1, -1));
}

// --- The manifest ---

Deno.test("a bad optional argument or success_exit_codes is a manifest error at its line:column (exit 6), the other tools work", async () => {
  const text = `{
  "schema": 1,
  "tools": {
    "bad": {
      "description": "Bad optional arguments",
      "input_schema": {
        "type": "object",
        "properties": {
          "s": { "type": "string" }, "b": { "type": "boolean" }, "n": { "type": ["boolean", "null"] },
          "o": { "type": "object" }, "u": {}
        }
      },
      "command": [
        "grep",
        {"input": "s", "flag": "-s"},
        {"input": "u", "flag": "-u"},
        {"input": "n", "flag": "-n"},
        {"input": "b", "flag": "-"},
        {"input": "b", "flag": "--"},
        {"input": "b", "flag": "i"},
        {"input": "b", "flag": "-i x"},
        {"input": "b", "flag": "-i\\u0000"},
        {"input": "b", "flag": 5},
        {"input": "b", "flag": "-\\u001b"},
        {"input": "s", "prefix": "-"},
        {"input": "s", "prefix": ""},
        {"input": "s", "prefix": "--max-count"},
        {"input": "s", "prefix": "-n"},
        {"input": "s", "prefix": "--="},
        {"input": "s", "prefix": "="},
        {"input": "s", "prefix": "--a b="},
        {"input": "s", "prefix": "-n="},
        {"input": "o", "prefix": "--o="},
        {"input": "b", "flag": "-b", "prefix": "--b="},
        {"input": "b", "flga": "-b"},
        {"input": "x", "flag": "-x"},
        {"input": "s"}
      ]
    },
    "codes0": { "description": "x", "input_schema": {}, "command": ["true"], "success_exit_codes": [] },
    "codes1": { "description": "x", "input_schema": {}, "command": ["true"], "success_exit_codes": [0, 1, 0] },
    "codes2": { "description": "x", "input_schema": {}, "command": ["true"], "success_exit_codes": [256, -1, 1.5, "1"] },
    "codes3": { "description": "x", "input_schema": {}, "command": ["true"], "success_exit_codes": 1 },
    "good": { "description": "x", "input_schema": {}, "command": ["true"], "success_exit_codes": [1, 0] }
  }
}`;
  await using dirs = await scratch(text);
  const check = await cli(dirs, ["check"]);
  assert.equal(check.code, 6, check.stderr);
  const file = `${dirs.root}/.basis/tools.json`;
  const at = (where: string, tool: string, field: string, key: MessageKey, params?: PhraseParams) =>
    `${file}:${where}: ${say("manifest.tool", { tool: `"${tool}"` })}: ${field}: ${
      say(key, params)
    }`;
  const flagType = (line: number, i: number, name: string, found: PhraseParams[string]) =>
    at(`${line}:19`, "bad", `command[${i}].input`, "manifest.argument_flag_type", { name, found });
  const flag = (line: number, i: number, key: MessageKey = "manifest.argument_flag") =>
    at(`${line}:32`, "bad", `command[${i}].flag`, key, { found: phrase("found.number") });
  const prefix = (line: number, i: number) =>
    at(`${line}:34`, "bad", `command[${i}].prefix`, "manifest.argument_prefix");
  const codes = (where: string, tool: string, field: string, key: MessageKey, value = "") =>
    at(where, tool, field, key, { value, found: phrase("found.number") });
  assert.deepEqual(check.stdout.trimEnd().split("\n"), [
    flagType(15, 1, '"s"', '"string"'),
    flagType(16, 2, '"u"', phrase("found.nothing")),
    flagType(17, 3, '"n"', phrase("found.array")),
    flag(18, 4),
    flag(19, 5),
    flag(20, 6),
    flag(21, 7),
    flag(22, 8, "manifest.nul"),
    flag(23, 9, "manifest.not_string"),
    flag(24, 10),
    ...[25, 26, 27, 28, 29, 30, 31, 32].map((line) => prefix(line, line - 14)),
    at("33:19", "bad", "command[19].input", "manifest.argument_type", {
      name: '"o"',
      found: '"object"',
    }),
    at("34:9", "bad", "command[20]", "manifest.argument_flag_prefix"),
    at("35:24", "bad", "command[21].flga", "manifest.unknown_key_near", { key: '"flag"' }),
    at("36:19", "bad", "command[22].input", "manifest.argument_unknown", { name: '"x"' }),
    at("37:19", "bad", "command[23].input", "manifest.argument_optional", { name: '"s"' }),
    codes("40:100", "codes0", "success_exit_codes", "manifest.exit_codes_empty"),
    codes("41:100", "codes1", "success_exit_codes", "manifest.exit_codes_twice", "0"),
    codes("42:101", "codes2", "success_exit_codes[0]", "manifest.exit_code", "256"),
    codes("42:106", "codes2", "success_exit_codes[1]", "manifest.exit_code", "-1"),
    codes("42:110", "codes2", "success_exit_codes[2]", "manifest.exit_code", "1.5"),
    codes("42:115", "codes2", "success_exit_codes[3]", "manifest.exit_code", '"1"'),
    codes("43:100", "codes3", "success_exit_codes", "manifest.exit_codes"),
  ]);
  // A call of a broken tool exits 6 with its problems; the good one runs (its exit 0 a success).
  const bad = await cli(dirs, ["call", "bad", "{}", ...ALWAYS]);
  assert.equal(bad.code, 6);
  assert.ok(!bad.stderr.includes("    at "), bad.stderr);
  const good = await cli(dirs, ["call", "good", "{}", "--json", ...ALWAYS]);
  assert.equal(good.code, 0, good.stderr);
  assert.equal(JSON.parse(good.stdout).exit_code, 0);
});

// --- The argv of a call ---

Deno.test("a flag is there only when its field is true, a prefixed value only when given: one element each, values beginning with '-' kept after the '='", async () => {
  await using dirs = await scratch({
    schema: 1,
    tools: tools([
      ARGV,
      { input: "ignore_case", flag: "-i" },
      { input: "max", prefix: "--max-count=" },
      { input: "ratio", prefix: "--ratio=" },
      { input: "word", prefix: "--word=" },
      { input: "color", prefix: "--color=" },
      "--",
      { input: "pattern" },
    ]),
  });
  const argv = async (input: Record<string, unknown>) => {
    const run = await cli(dirs, ["call", "search", JSON.stringify(input), ...ALWAYS]);
    assert.equal(run.code, 0, run.stderr);
    return printed(run.stdout);
  };
  const cases: [Record<string, unknown>, string[]][] = [
    [{}, []],
    [{ ignore_case: false }, []],
    [{ ignore_case: true }, ["-i"]],
    [{ max: 5 }, ["--max-count=5"]],
    [{ max: -3 }, ["--max-count=-3"]],
    [{ ratio: 0.5 }, ["--ratio=0.5"]],
    [{ word: "-rf" }, ["--word=-rf"]],
    [{ word: "a b; $(touch X) --exec" }, ["--word=a b; $(touch X) --exec"]],
    [{ word: "" }, ["--word="]],
    // A boolean after a prefix is its text, false included (a flag would be left out).
    [{ color: false }, ["--color=false"]],
    [{ ignore_case: true, max: 1, word: "w", color: true }, [
      "-i",
      "--max-count=1",
      "--word=w",
      "--color=true",
    ]],
  ];
  for (const [input, options] of cases) {
    assert.deepEqual(await argv({ pattern: "p", ...input }), [...options, "--", "p"]);
  }
  await assert.rejects(Deno.stat(`${dirs.root}/X`), Deno.errors.NotFound);
  // Numbers keep the digits the caller wrote, after a prefix as anywhere.
  const digits = await cli(dirs, ["call", "search", ...ALWAYS], {
    stdin: '{"pattern": "-p", "max": 12345678901234567890, "ratio": 1.50}',
  });
  assert.equal(digits.code, 0, digits.stderr);
  assert.deepEqual(printed(digits.stdout), [
    "--max-count=12345678901234567890",
    "--ratio=1.50",
    "--",
    "-p",
  ]);
  // The schema gate and the argument rules still refuse (exit 4), before anyone is asked.
  for (
    const [input, pointer] of [
      [{ pattern: "p", ignore_case: "yes" }, "/ignore_case"],
      [{ pattern: "p", max: 1.5 }, "/max"],
      [{ pattern: "p", word: "a\u0000b" }, "/word"],
    ] as const
  ) {
    const refused = await cli(dirs, ["call", "search", JSON.stringify(input), "--json"]);
    assert.equal(refused.code, 4, refused.stderr);
    const error = JSON.parse(refused.stdout).error;
    assert.equal(error.kind, "invalid_input");
    assert.ok(error.message.includes(`${pointer}:`), error.message);
  }
  const nul = await cli(dirs, ["call", "search", '{"pattern": "p", "word": "a\\u0000b"}']);
  assert.match(
    nul.stderr,
    wording("input.refused", {
      tool: '"search"',
      pointer: "/word",
      reason: phrase("input.argument_nul", { index: 4 }),
    }),
  );
});

Deno.test("the preview is the call's real argv; the approver is told where each argument from the input is, or would be", async () => {
  await using dirs = await scratch({ schema: 1, tools: tools(COMMAND) });
  const roster = await loadRoster({ workspace: dirs.root, configDir: dirs.configDir });
  const requests: unknown[] = [];
  const tool = new DeclaredToolBuilder(roster.tools.get("search")!, {
    root: roster.root,
    cacheDir: dirs.cacheDir,
    spillDir: false,
    approver: (request) => {
      requests.push(request);
      return Promise.resolve({ allowed: false, by: "policy", ruleId: undefined, reason: "no" });
    },
  }).build();
  for (const input of [{ pattern: "p" }, { pattern: "p", ignore_case: true, max: 2 }]) {
    await assert.rejects((await tool.execution(input)).execute(), ToolError);
  }
  const [without, both] = requests as {
    preview: { command: string[] };
    fromInput: unknown[];
  }[];
  assert.deepEqual(without!.preview.command, [ARGV, "--", "p", "notes.txt"]);
  assert.deepEqual(without!.fromInput, [
    { index: 1, field: "ignore_case", flag: "-i", absent: true },
    { index: 1, field: "max", prefix: "--max-count=", absent: true },
    { index: 2, field: "pattern" },
  ]);
  assert.deepEqual(both!.preview.command, [ARGV, "-i", "--max-count=2", "--", "p", "notes.txt"]);
  assert.deepEqual(both!.fromInput, [
    { index: 1, field: "ignore_case", flag: "-i" },
    { index: 2, field: "max", prefix: "--max-count=" },
    { index: 4, field: "pattern" },
  ]);
  // "Always allow" says which fields it leaves free: those of the arguments left out too.
  const form = elicitationForm({ ...without, kind: "tool" } as unknown as PromptRequest, []);
  const names = (form.requestedSchema.properties.decision as { enumNames: string[] }).enumNames;
  const fields = "ignore_case, max, pattern";
  assert.ok(names.includes(say("prompt.always_allow_any", { fields })), names.join());
  const dry = await cli(dirs, [
    "call",
    "search",
    '{"pattern": "q", "max": 3}',
    "--dry-run",
    "--json",
  ]);
  assert.deepEqual(JSON.parse(dry.stdout).preview.command, [
    ARGV,
    "--max-count=3",
    "--",
    "q",
    "notes.txt",
  ]);
});

// --- grep, as it is ---

/** A workspace with notes and `search`: grep [-i] [--max-count=<max>] -- <pattern> notes.txt. */
async function grepWorkspace(): Promise<Scratch> {
  const dirs = await scratch({
    schema: 1,
    tools: tools(["grep", ...COMMAND.slice(1)], { success_exit_codes: [0, 1] }),
  });
  await Deno.writeTextFile(`${dirs.root}/notes.txt`, "alpha\nBeta\ngamma\n-e flag\n");
  return dirs;
}

Deno.test("grep without a wrapper: a match exits 0, no match is a success with exit code 1, exit 2 fails; the audit trail records each code", async () => {
  await using dirs = await grepWorkspace();
  const audit = `${dirs.stateDir}/audit.jsonl`;
  const call = (input: unknown, ...more: string[]) =>
    cli(dirs, ["call", "search", JSON.stringify(input), ...ALWAYS, "--audit-log", audit, ...more]);
  const match = await call({ pattern: "beta", ignore_case: true });
  assert.equal(match.code, 0, match.stderr);
  assert.equal(match.stdout, "Beta\n");
  assert.equal((await call({ pattern: "a", max: 1 })).stdout, "alpha\n");
  // A pattern beginning with "-" is an operand after "--".
  assert.equal((await call({ pattern: "-e" })).stdout, "-e flag\n");
  // No match: a success, said with its code; plain call exits 0.
  const none = await call({ pattern: "beta" });
  assert.equal(none.code, 0, none.stderr);
  assert.equal(none.stdout, "");
  const label = say("label.tool", { tool: '"search"' });
  assert.ok(none.stderr.includes(say("run.printed_nothing_code", { label, code: 1 })), none.stderr);
  const json = JSON.parse((await call({ pattern: "zzz" }, "--json")).stdout);
  assert.deepEqual(
    [json.ok, json.exit_code, json.error, json.result],
    [true, 1, null, say("run.printed_nothing_code", { label, code: 1 })],
  );
  // grep's 2 (a bad expression) is no success.
  const broken = await call({ pattern: "[" }, "--json");
  assert.equal(broken.code, 1, broken.stderr);
  const failed = JSON.parse(broken.stdout);
  assert.deepEqual([failed.ok, failed.exit_code, failed.error.kind], [false, 2, "tool_failed"]);
  assert.match(failed.error.message, wording("run.exit", { label, code: 2 }));
  assert.equal((await call({ pattern: "[" })).code, 1);
  const runs = (await Deno.readTextFile(audit)).trimEnd().split("\n").map((line) =>
    JSON.parse(line)
  )
    .filter((entry) => entry.type === "run");
  assert.deepEqual(runs.map((entry) => entry.exit_code), [0, 0, 0, 1, 1, 2, 2]);
  // Without success_exit_codes, grep's no match is a failure, as before.
  await manifest(dirs, tools(["grep", ...COMMAND.slice(1)]));
  const strict = JSON.parse((await call({ pattern: "zzz" }, "--json")).stdout);
  assert.deepEqual([strict.ok, strict.exit_code, strict.error.kind], [false, 1, "tool_failed"]);
});

Deno.test("over MCP and through the library, an exit code the tool declares a success is no error", async () => {
  await using dirs = await grepWorkspace();
  const session = await connectMcp(dirs, ["mcp", ...ALWAYS]);
  try {
    const none = await callTool(session, "search", { pattern: "zzz" });
    assert.equal(none.isError ?? false, false, resultText(none));
    const label = say("label.tool", { tool: '"search"' });
    assert.equal(resultText(none), say("run.printed_nothing_code", { label, code: 1 }));
    const found = await callTool(session, "search", { pattern: "GAMMA", ignore_case: true });
    assert.equal(found.isError ?? false, false);
    assert.equal(resultText(found), "gamma");
    const broken = await callTool(session, "search", { pattern: "[" });
    assert.equal(broken.isError, true);
    assert.match(resultText(broken), wording("run.exit", { label, code: 2 }));
  } finally {
    await session.close();
  }
  const roster = await loadRoster({ workspace: dirs.root, configDir: dirs.configDir });
  const spec = roster.tools.get("search")!;
  assert.deepEqual(spec.successExitCodes, [0, 1]);
  const tool = new DeclaredToolBuilder(spec, {
    root: roster.root,
    cacheDir: dirs.cacheDir,
    spillDir: false,
    approval: { policy: "always" },
  }).build();
  const output = await (await tool.execution({ pattern: "zzz" })).execute();
  const run = output.metadata.extra.run;
  assert.deepEqual([run.outcome, run.exitCode], ["ok", 1]);
  const error = await (await tool.execution({ pattern: "[" })).execute().catch((e) => e);
  assert.ok(error instanceof ToolError && error.code === "tool_failed", String(error));
});

// --- Remembered rules ---

/** Calls `search` with the input: run by a rule, asked (and denied), or denied by a rule. */
async function attempt(
  dirs: Scratch,
  input: Record<string, unknown>,
  answer: TerminalAnswer = "deny",
): Promise<"ran" | "asked" | "denied"> {
  const roster = await loadRoster({ workspace: dirs.root, configDir: dirs.configDir });
  let asked = false;
  const tool = new DeclaredToolBuilder(roster.tools.get("search")!, {
    root: roster.root,
    cacheDir: dirs.cacheDir,
    spillDir: false,
    approval: {
      policy: "prompt",
      configDir: dirs.configDir,
      tell: () => {},
      ask: () => {
        asked = true;
        return Promise.resolve(answer);
      },
    },
  }).build();
  try {
    await (await tool.execution({ pattern: "p", ...input })).execute();
    return asked && answer !== "allow_once" && answer !== "always_allow" ? "asked" : "ran";
  } catch (error) {
    if (!(error instanceof ToolError) || error.code !== "denied") throw error;
    return asked ? "asked" : "denied";
  }
}

async function rules(dirs: Scratch): Promise<Rule[]> {
  return JSON.parse(await Deno.readTextFile(`${dirs.configDir}/rules.json`)).rules;
}

Deno.test("always allow at a call without the flag pins the declared command: optional arguments there or not, any value, content numbered as declared", async () => {
  await using dirs = await scratch({ schema: 1, tools: tools(COMMAND) });
  await Deno.writeTextFile(`${dirs.root}/notes.txt`, "notes\n");
  assert.equal(await attempt(dirs, {}, "always_allow"), "ran");
  const [rule] = await rules(dirs);
  assert.deepEqual(rule!.when, {
    ...rule!.when,
    argv: [
      ARGV,
      { input: "ignore_case", flag: "-i" },
      { input: "max", prefix: "--max-count=" },
      "--",
      { input: "pattern" },
      "notes.txt",
    ],
  });
  // The workspace file is pinned at its place in the declared command, whatever a call leaves out.
  assert.ok(Object.hasOwn(rule!.when.content as object, "argv[5]"), JSON.stringify(rule));
  for (const input of [{}, { ignore_case: true }, { max: 7 }, { ignore_case: false, max: -1 }]) {
    assert.equal(await attempt(dirs, input), "ran", JSON.stringify(input));
  }
  // The file changed: asked again, with or without the flag.
  await Deno.writeTextFile(`${dirs.root}/notes.txt`, "changed\n");
  assert.equal(await attempt(dirs, { ignore_case: true }), "asked");
  // `rules add --tool` pins the same declaration.
  await Deno.remove(`${dirs.configDir}/rules.json`);
  const added = await cli(dirs, ["rules", "add", "--tool", "search", "--json"]);
  assert.equal(added.code, 0, added.stderr);
  assert.deepEqual(JSON.parse(added.stdout).when.argv, rule!.when.argv);
  assert.equal(await attempt(dirs, { ignore_case: true, max: 1 }), "ran");
});

Deno.test("attack: a rule never allows an optional argument it does not pin: added, changed, renamed, made literal or plain", async () => {
  await using dirs = await scratch({ schema: 1, tools: tools(COMMAND) });
  assert.equal(await attempt(dirs, {}, "always_allow"), "ran");
  const changes: [string, unknown[], Record<string, unknown>][] = [
    // The repository adds a flag after the approval: a call without it is what was approved.
    ["added", [ARGV, { input: "x", flag: "--exec=sh" }, ...COMMAND.slice(1)], { x: true }],
    ["flag text", [ARGV, { input: "ignore_case", flag: "-r" }, ...COMMAND.slice(2)], {
      ignore_case: true,
    }],
    ["field", [ARGV, { input: "x", flag: "-i" }, ...COMMAND.slice(2)], { x: true }],
    ["prefix", [ARGV, COMMAND[1], { input: "max", prefix: "--exec=" }, ...COMMAND.slice(3)], {
      max: 1,
    }],
    [
      "a flag made a prefix",
      [ARGV, { input: "ignore_case", prefix: "--i=" }, ...COMMAND.slice(2)],
      {
        ignore_case: true,
      },
    ],
    ["the value given a prefix", [ARGV, ...COMMAND.slice(1, 4), {
      input: "pattern",
      prefix: "--regexp=",
    }, "notes.txt"], {}],
    ["literal", [ARGV, "-i", ...COMMAND.slice(2)], {}],
  ];
  for (const [what, command, input] of changes) {
    await manifest(dirs, tools(command));
    assert.equal(await attempt(dirs, input), "asked", what);
  }
  // A call that leaves the new flag out runs exactly what was approved.
  await manifest(dirs, tools(changes[0]![1]));
  assert.equal(await attempt(dirs, { max: 2 }), "ran");
  // A rule written without the optional arguments allows none of them.
  await Deno.remove(`${dirs.configDir}/rules.json`);
  await manifest(dirs, tools(COMMAND));
  const argv = JSON.stringify([ARGV, "--", { input: "pattern" }, "notes.txt"]);
  const added = await cli(dirs, ["rules", "add", "--tool", "search", "--argv", argv]);
  assert.equal(added.code, 0, added.stderr);
  assert.equal(await attempt(dirs, {}), "ran");
  assert.equal(await attempt(dirs, { ignore_case: true }), "asked");
  assert.equal(await attempt(dirs, { max: 3 }), "asked");
});

Deno.test("a refusal covers the optional arguments too: never at a call without the flag denies it with the flag; a deny naming the option's text denies it however it came", async () => {
  await using dirs = await scratch({ schema: 1, tools: tools(COMMAND) });
  assert.equal(await attempt(dirs, {}, "never"), "asked");
  assert.equal(await attempt(dirs, { ignore_case: true, max: 1 }), "denied");
  await Deno.remove(`${dirs.configDir}/rules.json`);
  const argv = JSON.stringify([ARGV, "-i", { rest: true }]);
  const added = await cli(dirs, ["rules", "add", "--tool", "search", "--deny", "--argv", argv]);
  assert.equal(added.code, 0, added.stderr);
  assert.equal(await attempt(dirs, { ignore_case: true }), "denied");
  assert.equal(await attempt(dirs, {}), "asked");
});

Deno.test("a rule's examples are read as calls: an optional argument may be there or not, with its own text", async () => {
  const rule = {
    id: "r-opt",
    tool: "search",
    decision: "allow",
    scope: "global",
    when: {
      program: "/usr/bin/grep",
      argv: ["grep", { input: "i", flag: "-i" }, { input: "m", prefix: "-m=" }, {
        input: "pattern",
      }],
    },
  } as const;
  const example = (command: string[]) => ({ program: "/usr/bin/grep", command, cwd: "/w" });
  const ok = await checkRules([{
    ...rule,
    match: [
      example(["grep", "p"]),
      example(["grep", "-i", "p"]),
      example(["grep", "-i", "-m=3", "p"]),
      example(["grep", "-m=", "p"]),
    ],
    not_match: [
      example(["grep", "-r", "p"]),
      example(["grep", "-m=3", "-i", "p"]),
      example(["grep", "-i", "-i", "p"]),
      example(["grep"]),
    ],
  }]);
  assert.deepEqual(ok, []);
  const wrong = await checkRules([{ ...rule, match: [example(["grep", "--exec", "p"])] }]);
  assert.equal(wrong.length, 1);
  // The rules file takes flag and prefix only with input, one of them.
  await using dirs = await scratch({ schema: 1, tools: tools(COMMAND) });
  const matchers = [{ flag: "-i" }, { input: "i", flag: "-i", prefix: "-i=" }, {
    prefix: "x=",
    glob: "*",
  }];
  for (const matcher of matchers) {
    const argv = JSON.stringify([ARGV, matcher]);
    const refused = await cli(dirs, ["rules", "add", "--tool", "search", "--argv", argv]);
    assert.equal(refused.code, 2, `${JSON.stringify(matcher)}: ${refused.stderr}`);
    assert.ok(refused.stderr.includes("when.argv[1]"), refused.stderr);
  }
});

// --- How help and show print them ---

Deno.test("call NAME --help and show print the optional arguments and the success exit codes, in both locales", async () => {
  await using dirs = await grepWorkspace();
  const runs = "grep [-i] [--max-count=<max>] -- <pattern> notes.txt";
  const help = await cli(dirs, ["call", "search", "--help"]);
  assert.equal(help.code, 0, help.stderr);
  const lines = help.stdout.split("\n");
  for (
    const line of [
      say("help.tool_command", { command: runs }),
      say("help.tool_flag", { field: "ignore_case", index: 1, flag: "-i" }),
      say("help.tool_prefix", { field: "max", index: 2, prefix: "--max-count=" }),
      say("help.tool_argument", { field: "pattern", index: 4 }),
    ]
  ) assert.ok(lines.includes(line), `${line}\n${help.stdout}`);
  const helpJson = JSON.parse((await cli(dirs, ["call", "search", "--help", "--json"])).stdout);
  assert.equal(helpJson.command, runs);
  const show = await cli(dirs, ["show", "search"]);
  assert.ok(show.stdout.includes(`${runs}\n`), show.stdout);
  assert.match(show.stdout, new RegExp(`${say("show.success")}: +0, 1\n`));
  const json = JSON.parse((await cli(dirs, ["show", "search", "--json"])).stdout);
  assert.deepEqual(json.command, ["grep", ...COMMAND.slice(1)]);
  assert.deepEqual(json.success_exit_codes, [0, 1]);
  const uk = await cli(dirs, ["call", "search", "--help", "--locale", "uk-UA"]);
  const flagLine = uk.stdout.split("\n").find((line) =>
    line.includes("[-i]") && !line.includes("grep")
  );
  assert.ok(flagLine !== undefined && CYRILLIC.test(flagLine), uk.stdout);
  // A flag or prefix that needs quoting for a shell is quoted inside its brackets.
  await manifest(
    dirs,
    tools(["grep", { input: "ignore_case", flag: "-$x" }, "--", {
      input: "pattern",
    }]),
  );
  assert.ok((await cli(dirs, ["show", "search"])).stdout.includes("grep ['-$x'] -- <pattern>\n"));
});
