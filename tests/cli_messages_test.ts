// The CLI's edge messages (issue 26), through the real CLI in en-US and uk-UA: what it says when
// nothing is where it looks, when the shell ate the quotes of a JSON input, when a subcommand is
// misspelt, when a rule is added twice, and when a result is cut.
import assert from "node:assert/strict";
import { cli, type CliOptions, oneTool, type Scratch, scratch } from "./_cli.ts";
import { messages, phrase, type PhraseParams } from "../src/locale/messages.ts";
import type { MessageKey } from "../src/locale/en_us.ts";
import { assertNoEnglish } from "./_no_english.ts";
import { say, wording } from "./_wording.ts";

const UK = messages("uk-UA");
const uk = (key: MessageKey, params?: PhraseParams) => UK.say(phrase(key, params));

/** Runs the CLI in English and in Ukrainian. */
async function both(dirs: Scratch, args: string[], options: CliOptions = {}) {
  const en = await cli(dirs, args, options);
  const ua = await cli(dirs, ["--locale", "uk-UA", ...args], options);
  return { en, uk: ua };
}

Deno.test("check with no manifest warns (exit 0), and --strict fails (exit 6), saying how to start or name a workspace", async () => {
  await using dirs = await scratch();
  const file = `${dirs.root}/.basis/tools.json`;
  const params = {
    global: JSON.stringify(`${dirs.configDir}/tools.json`),
    hint: phrase("hint.no_workspace"),
  };
  const plain = await both(dirs, ["check"]);
  assert.equal(plain.en.code, 0, plain.en.stderr);
  assert.equal(
    plain.en.stdout,
    `${say("check.warning", { problem: `${file}: ${say("check.missing_both", params)}` })}\n` +
      `${say("check.ok_no_manifest")}\n`,
  );
  assert.equal(plain.uk.code, 0);
  assert.equal(
    plain.uk.stdout,
    `${uk("check.warning", { problem: `${file}: ${uk("check.missing_both", params)}` })}\n` +
      `${uk("check.ok_no_manifest")}\n`,
  );
  assertNoEnglish(plain.uk.stdout, plain.en.stdout, ["basis-tools init", "-C DIR"]);

  const strict = await both(dirs, ["check", "--strict"]);
  assert.equal(strict.en.code, 6);
  assert.equal(strict.en.stdout, `${file}: ${say("check.missing_both", params)}\n`);
  assert.equal(strict.uk.code, 6);
  assert.equal(strict.uk.stdout, `${file}: ${uk("check.missing_both", params)}\n`);

  const json = JSON.parse((await cli(dirs, ["check", "--json"])).stdout);
  assert.equal(json.ok, true);
  assert.deepEqual(json.files, []);
  assert.deepEqual(json.warnings.map((w: { file: string }) => w.file), [file]);
  const failed = await cli(dirs, ["check", "--json", "--strict"]);
  assert.equal(failed.code, 6);
  assert.equal(JSON.parse(failed.stdout).ok, false);

  // A manifest in either place: no such warning.
  await Deno.writeTextFile(`${dirs.configDir}/tools.json`, '{"schema": 1, "tools": {}}');
  const global = await cli(dirs, ["check", "--strict"]);
  assert.equal(global.code, 0, global.stdout);
  assert.doesNotMatch(global.stdout, /warning/);
});

Deno.test("outside a workspace, call, show and list hint at init and -C, not at check", async () => {
  await using dirs = await scratch();
  const paths = [`${dirs.root}/.basis/tools.json`, `${dirs.configDir}/tools.json`];
  const quoted = paths.map((path) => JSON.stringify(path));
  const hint = phrase("hint.no_workspace");
  const params = {
    tool: '"x"',
    paths: phrase("join.and", { first: quoted[0]!, second: quoted[1]! }),
    hint,
  };
  for (const args of [["call", "x", "{}"], ["show", "x"], ["rules", "add", "--tool", "x"]]) {
    const run = await both(dirs, args);
    assert.equal(run.en.code, 2, args.join(" "));
    assert.equal(run.en.stderr, `basis-tools: ${say("cli.unknown_tool_no_manifest", params)}\n`);
    assert.doesNotMatch(run.en.stderr, /basis-tools check/);
    assert.equal(run.uk.code, 2);
    assert.equal(run.uk.stderr, `basis-tools: ${uk("cli.unknown_tool_no_manifest", params)}\n`);
  }
  const list = await both(dirs, ["list"]);
  const listed = { paths: `${paths[0]} and ${paths[1]}`, hint: say("hint.no_workspace") };
  assert.ok(list.en.stdout.endsWith(`${say("list.no_manifest", listed)}\n`), list.en.stdout);
  assert.match(list.uk.stdout, /basis-tools init створює робочий простір тут/);

  // A manifest that declares nothing: named, and no hint to start one.
  await Deno.writeTextFile(paths[0]!, '{"schema": 1, "tools": {}}');
  const empty = await both(dirs, ["call", "x", "{}"]);
  const none = { tool: '"x"', files: phrase("join.one", { item: quoted[0]! }) };
  assert.equal(empty.en.stderr, `basis-tools: ${say("cli.unknown_tool_none", none)}\n`);
  assert.equal(empty.uk.stderr, `basis-tools: ${uk("cli.unknown_tool_none", none)}\n`);
  assert.ok(
    (await cli(dirs, ["list"])).stdout.includes(say("list.no_tools", { paths: listed.paths })),
  );
});

Deno.test("JSON a shell took the quotes of, or split at spaces, gets the hint to single-quote it", async () => {
  await using dirs = await scratch(oneTool("echo", { command: ["cat"] }));
  // `call echo {"text":"hi"}` unquoted: the shell passes {text:hi}.
  const eaten = await both(dirs, ["call", "echo", "{text:hi}"]);
  assert.equal(eaten.en.code, 2);
  assert.match(eaten.en.stderr, /^basis-tools: Cannot parse the input of tool "echo" as JSON: /);
  const hint = say("json.quote_hint", { detail: "" }).trim();
  assert.ok(eaten.en.stderr.endsWith(` ${hint}\n`), eaten.en.stderr);
  assert.equal(eaten.uk.code, 2);
  const ukHint = uk("json.quote_hint", { detail: "" }).trim();
  assert.ok(eaten.uk.stderr.endsWith(` ${ukHint}\n`), eaten.uk.stderr);
  assertNoEnglish(eaten.uk.stderr, eaten.en.stderr);
  // Quotes that are there, or JSON from stdin: no hint (the shell did not take them).
  const runs: [string[], CliOptions][] = [
    [["call", "echo", '{"text":hi}'], {}],
    [["call", "echo"], { stdin: "{text:hi}" }],
  ];
  for (const [args, options] of runs) {
    const run = await cli(dirs, args, options);
    assert.equal(run.code, 2);
    assert.doesNotMatch(run.stderr, /single quotes/);
  }
  // `call echo {"text": "hi there"}` unquoted: three arguments.
  const split = await both(dirs, ["call", "echo", "{text:", "hi", "there}"]);
  const count = { count: 3, arguments: { count: 3, forms: "count.arguments" as const } };
  assert.equal(split.en.code, 2);
  assert.equal(split.en.stderr, `basis-tools: ${say("cli.split_call", count)}\n`);
  assert.equal(split.uk.stderr, `basis-tools: ${uk("cli.split_call", count)}\n`);
  const spawned = await both(dirs, ["spawn", "!cargo", "test"]);
  const two = { count: 2, arguments: { count: 2, forms: "count.arguments" as const } };
  assert.equal(spawned.en.code, 2);
  assert.equal(spawned.en.stderr, `basis-tools: ${say("cli.split_spawn", two)}\n`);
  assert.equal(spawned.uk.stderr, `basis-tools: ${uk("cli.split_spawn", two)}\n`);
  // A rule's JSON option too: `--input /text=hi` meant the string "hi".
  const rule = await cli(dirs, ["rules", "add", "--tool", "echo", "--input", "/text=hi"]);
  assert.equal(rule.code, 2);
  assert.match(rule.stderr, /"--input" is not JSON: .* \(did a shell take its quotes\?/);
});

Deno.test("rules add of a rule that is there already says so, exits 0 and writes nothing", async () => {
  await using dirs = await scratch(oneTool("echo", {
    command: ["cat", "${USER:-}", "--flag"],
    env: { NOTES_DIR: "/var/tmp/notes" },
  }));
  const file = `${dirs.configDir}/rules.json`;
  // The manifest's env is pinned by digest, and so is an argument holding an --env value: a fresh
  // salt each time, yet the same rule.
  const add = ["rules", "add", "--tool", "echo", "--env", "TOKEN=s3cr3t-value"];
  const first = await cli(dirs, add, { env: { USER: "s3cr3t-value" } });
  assert.equal(first.code, 0, first.stderr);
  const id = /^Added (r-[a-z2-7]{8}):/.exec(first.stdout)?.[1];
  assert.ok(id, first.stdout);
  const written = await Deno.readTextFile(file);
  assert.doesNotMatch(written, /s3cr3t-value|var\/tmp\/notes/);
  const again = await both(dirs, add, { env: { USER: "s3cr3t-value" } });
  const scope = { id, decision: "allow", tool: "echo" };
  assert.equal(again.en.code, 0, again.en.stderr);
  assert.match(again.en.stdout, wording("rules.exists", scope));
  assert.equal(again.uk.code, 0);
  assert.match(again.uk.stdout, new RegExp(`^Уже є як ${id}: allow echo `));
  const json = await cli(dirs, [...add, "--json"], { env: { USER: "s3cr3t-value" } });
  assert.equal(JSON.parse(json.stdout).id, id);
  assert.equal(JSON.parse(json.stdout).existing, true);
  assert.equal(await Deno.readTextFile(file), written);

  // Anything different is another rule: a reason, a decision, a changed env value.
  const deny = ["rules", "add", "--tool", "echo", "--deny"];
  assert.match((await cli(dirs, [...deny, "--reason", "not today"])).stdout, /^Added /);
  assert.match((await cli(dirs, [...deny, "--reason", "not today"])).stdout, /^Already there /);
  assert.match((await cli(dirs, [...deny, "--reason", "never"])).stdout, /^Added /);
  assert.match((await cli(dirs, add, { env: { USER: "other" } })).stdout, /^Added /);
  const rules = JSON.parse(await Deno.readTextFile(file)).rules;
  assert.equal(rules.length, 4);
});

Deno.test('a misspelt rules subcommand gets a "did you mean", in en-US and uk-UA', async () => {
  await using dirs = await scratch();
  const typos: [string, string][] = [["lst", "list"], ["ad", "add"], ["remvoe", "remove"], [
    "chek",
    "check",
  ]];
  for (const [typo, meant] of typos) {
    const run = await both(dirs, ["rules", typo]);
    const params = { command: `"rules ${typo}"`, names: `"rules ${meant}"` };
    assert.equal(run.en.code, 2);
    assert.equal(run.en.stderr, `basis-tools: ${say("cli.rules_subcommand_near", params)}\n`);
    assert.equal(run.uk.code, 2);
    assert.equal(run.uk.stderr, `basis-tools: ${uk("cli.rules_subcommand_near", params)}\n`);
  }
  const far = await cli(dirs, ["rules", "xyz"]);
  assert.equal(
    far.stderr,
    `basis-tools: ${say("cli.rules_subcommand", { command: '"rules xyz"' })}\n`,
  );
});
