import assert from "node:assert/strict";
import { cli, FIXTURES, oneTool, ROOT, scratch } from "./_cli.ts";
import { hasTmux, inPseudoTerminal } from "./_tmux.ts";
import { assertNoEnglish } from "./_no_english.ts";
import { wording } from "./_wording.ts";

const ENTRY = Deno.env.get("BASIS_TEST_BUNDLE") ?? `${ROOT}src/main.ts`;

Deno.test({
  name: "the real prompt: always allow remembers the command; a changed command asks again",
  ignore: !hasTmux(),
}, async () => {
  const canary = "CANARY-prompt-7e6d5c4b";
  await using dirs = await scratch(
    oneTool("echo", { command: ["cat"], env: { TOKEN: canary }, side_effect: "external" }),
  );
  const env = {
    BASIS_CONFIG_DIR: dirs.configDir,
    BASIS_CACHE_DIR: dirs.cacheDir,
    BASIS_STATE_DIR: dirs.stateDir,
    NO_COLOR: "1",
  };
  const argv = [Deno.execPath(), "run", "-A", "--quiet", ENTRY, "-C", dirs.root];
  const call = [...argv, "call", "echo", '{"greeting":"hi"}'];

  // 1. A person answers "Always allow": the tool runs and a rule is remembered.
  const first = await inPseudoTerminal(call, { keys: ["Down", "Enter"], env });
  assert.equal(first.code, 0, first.screen);
  assert.match(first.screen, /tool +echo\n/);
  assert.match(first.screen, /side effect +external/);
  assert.match(first.screen, /program +\/\S*\/cat\n/);
  assert.match(first.screen, /command +cat\n/);
  assert.match(first.screen, new RegExp(`cwd +${dirs.root}\n`));
  assert.match(first.screen, /"greeting": "hi"/);
  assert.match(first.screen, /\{"greeting":"hi"\}/);
  const rules = JSON.parse(await Deno.readTextFile(`${dirs.configDir}/rules.json`));
  assert.equal(rules.rules.length, 1);
  assert.equal(rules.rules[0].decision, "allow");
  // Pinned as shown: the resolved program, every argument, the cwd.
  // An "external" tool asks for the network: confined, that grant is pinned too (unconfined where
  // no sandbox works here, there is none to pin). The program's content is pinned only where root
  // is the one running it (a system program another user cannot change needs no pin).
  const pinned = Object.keys(rules.rules[0].when).filter((key) =>
    key !== "sandbox" && key !== "content"
  );
  assert.deepEqual(pinned, ["program", "argv", "cwd", "env"]);
  assert.deepEqual(rules.rules[0].when.argv, ["cat"]);

  // 2. The next call, with other input and no terminal at all, runs without asking.
  const second = await cli(dirs, ["call", "echo", '{"greeting":"again"}']);
  assert.equal(second.code, 0, second.stderr);
  assert.equal(second.stdout, '{"greeting":"again"}');

  // 3. The manifest's command changes: the rule no longer applies, so it asks again.
  await Deno.writeTextFile(
    `${dirs.root}/.basis/tools.json`,
    JSON.stringify(oneTool("echo", { command: ["cat", "-"], env: { TOKEN: canary } })),
  );
  const unattended = await cli(dirs, ["call", "echo", '{"greeting":"hi"}']);
  assert.equal(unattended.code, 5);
  const asked = await inPseudoTerminal(call, { keys: ["Down", "Down", "Enter"], env });
  assert.match(asked.screen, /command +cat -\n/);
  assert.equal(asked.code, 5, asked.screen);

  // The canary is in no prompt and nowhere in the audit trail or the rules file.
  const audit = await Deno.readTextFile(`${dirs.stateDir}/audit.jsonl`);
  for (const text of [first.screen, asked.screen, audit, JSON.stringify(rules)]) {
    assert.ok(!text.includes(canary), text);
  }
  const entries = audit.trim().split("\n").map((line) => JSON.parse(line));
  assert.deepEqual(
    entries.filter((e) => e.type === "decision").map((e) => [e.allowed, e.by]),
    [[true, "prompt"], [true, "rule"], [false, "policy"], [false, "prompt"]],
  );
  assert.equal(entries.filter((e) => e.type === "run").length, 2);
});

Deno.test("without a terminal, a call no rule answers is denied with the exact command to allow it", async () => {
  await using dirs = await scratch(oneTool("echo", { command: ["cat"] }));
  const denied = await cli(dirs, ["call", "echo", "{}"]);
  assert.equal(denied.code, 5);
  const command = /`basis-tools (.+?)`/.exec(denied.stderr)?.[1];
  assert.ok(command, denied.stderr);
  const added = await cli(dirs, command.split(" "));
  assert.equal(added.code, 0, added.stderr);
  const allowed = await cli(dirs, ["call", "echo", '{"a":1}']);
  assert.equal(allowed.code, 0, allowed.stderr);
  assert.equal(allowed.stdout, '{"a":1}');
});

Deno.test("a rules file shipped in the workspace approves nothing", async () => {
  await using dirs = await scratch(oneTool("echo", { command: ["cat"] }));
  const rule = { id: "r-aaaaaaaa", tool: "echo", decision: "allow", scope: "global" };
  const document = JSON.stringify({ version: 1, rules: [rule] });
  await Deno.writeTextFile(`${dirs.root}/.basis/rules.json`, document);
  await Deno.mkdir(`${dirs.root}/.config/basis`, { recursive: true });
  await Deno.writeTextFile(`${dirs.root}/.config/basis/rules.json`, document);
  const result = await cli(dirs, ["call", "echo", "{}"]);
  assert.equal(result.code, 5, result.stderr);
});

Deno.test("a remembered deny answers first, even over --approve always, and shows its reason", async () => {
  await using dirs = await scratch();
  const marker = `${dirs.root}/ran`;
  await Deno.writeTextFile(
    `${dirs.root}/.basis/tools.json`,
    JSON.stringify(oneTool("t", { command: [`${FIXTURES}/stdin_to_file.sh`, marker] })),
  );
  const add = await cli(dirs, ["rules", "add", "--tool", "t", "--deny", "--reason", "not today"]);
  assert.equal(add.code, 0, add.stderr);
  const result = await cli(dirs, ["call", "t", "{}", "--approve", "always"]);
  assert.equal(result.code, 5);
  assert.match(result.stderr, /not today/);
  await assert.rejects(Deno.stat(marker), Deno.errors.NotFound);
});

Deno.test("deny beats ask beats allow; an input condition narrows an allow; ask asks even over an allow", async () => {
  await using dirs = await scratch(oneTool("echo", { command: ["cat"] }));
  const add = (...args: string[]) => cli(dirs, ["rules", "add", "--tool", "echo", ...args]);
  assert.equal((await add("--input", "/ok=true")).code, 0);
  assert.equal((await cli(dirs, ["call", "echo", '{"ok":true}'])).code, 0);
  assert.equal((await cli(dirs, ["call", "echo", '{"ok":false}'])).code, 5);
  // A rule that says ask: asked even though the allow matches, so denied with no terminal.
  assert.equal((await add("--ask", "--input", "/ask=true")).code, 0);
  const asked = await cli(dirs, ["call", "echo", '{"ok":true,"ask":true}']);
  assert.equal(asked.code, 5);
  assert.match(asked.stderr, wording("denied.ask_no_terminal"));
  const always = await cli(dirs, [
    "call",
    "echo",
    '{"ok":true,"ask":true}',
    "--approve",
    "always",
  ]);
  assert.equal(always.code, 5, "an ask rule is asked even under --approve always");
  assert.equal((await cli(dirs, ["call", "echo", '{"ok":true}'])).code, 0);
  // A deny covering every input beats both.
  assert.equal((await add("--deny", "--reason", "closed")).code, 0);
  const denied = await cli(dirs, ["call", "echo", '{"ok":true}']);
  assert.equal(denied.code, 5);
  assert.match(denied.stderr, /closed/);
  // rules test says the same, and runs nothing.
  const tested = await cli(dirs, ["rules", "test", "echo", '{"ok":true}', "--json"]);
  assert.equal(tested.code, 5);
  assert.equal(JSON.parse(tested.stdout).decision, "deny");
});

Deno.test("rules test and call --dry-run print the preview and the decision, and run nothing", async () => {
  await using dirs = await scratch();
  const marker = `${dirs.root}/ran`;
  await Deno.writeTextFile(
    `${dirs.root}/.basis/tools.json`,
    JSON.stringify(oneTool("touch", { command: ["touch", marker] })),
  );
  const asked = await cli(dirs, ["rules", "test", "touch", "{}"]);
  assert.equal(asked.code, 5, asked.stderr);
  assert.match(
    asked.stdout,
    /^preview +\{"tool":"touch","program":"\/[^"]+\/touch","command":\["touch",/,
  );
  assert.match(asked.stdout, wording("rules.test_ask"));
  const always = await cli(dirs, ["call", "touch", "{}", "--dry-run", "--approve", "always"]);
  assert.equal(always.code, 0);
  assert.match(always.stdout, wording("rules.test_allow_policy"));
  assert.equal((await cli(dirs, ["rules", "add", "--tool", "touch"])).code, 0);
  const ruled = await cli(dirs, ["rules", "test", "touch"], { stdin: "{}" });
  assert.equal(ruled.code, 0, ruled.stderr);
  assert.match(ruled.stdout, wording("rules.test_allow_rule"));
  assert.match(ruled.stdout, /, by rule r-/);
  // The preview's input is what the program would receive: the digits as written.
  const exact = await cli(dirs, [
    "rules",
    "test",
    "touch",
    '{"n":12345678901234567890}',
    "--json",
  ]);
  assert.match(exact.stdout, /"n": 12345678901234567890\n/);
  const never = await cli(dirs, ["rules", "test", "touch", "{}", "--approve", "never"]);
  assert.equal(never.code, 0, "a rule answers before the policy");
  // Input the schema refuses is refused as for a call (exit 4), before any decision.
  await Deno.writeTextFile(
    `${dirs.root}/.basis/tools.json`,
    JSON.stringify(oneTool("touch", {
      command: ["touch", marker],
      input_schema: { type: "object", required: ["x"] },
    })),
  );
  assert.equal((await cli(dirs, ["rules", "test", "touch", "{}"])).code, 4);
  // Spawn: the preview and the decision, and spawn's own refusals before any rule.
  const spawn = await cli(dirs, ["rules", "test", "spawn", '{"input":"!touch ran"}', "--json"]);
  assert.equal(spawn.code, 5);
  assert.deepEqual(JSON.parse(spawn.stdout).preview, {
    mode: "command",
    body: "touch ran",
    cwd: await Deno.realPath(dirs.root),
    target: "local",
  });
  const off = await cli(dirs, ["--no-shell", "spawn", "!touch ran", "--dry-run"]);
  assert.equal(off.code, 5);
  assert.match(off.stderr, wording("spawn.guard.no_shell"));
  await assert.rejects(Deno.stat(marker), Deno.errors.NotFound);
  await assert.rejects(Deno.stat(`${dirs.root}/ran`), Deno.errors.NotFound);
  await assert.rejects(Deno.stat(`${dirs.stateDir}/audit.jsonl`), Deno.errors.NotFound);
});

Deno.test("rules list, remove and check work from the CLI, with --json", async () => {
  await using dirs = await scratch(oneTool("echo", { command: ["cat"] }));
  const added = JSON.parse(
    (await cli(dirs, ["rules", "add", "--tool", "echo", "--global", "--json"])).stdout,
  );
  assert.equal(added.scope, "global");
  const listed = JSON.parse((await cli(dirs, ["rules", "list", "--json"])).stdout);
  assert.deepEqual(listed.rules.map((r: { id: string }) => r.id), [added.id]);
  assert.match((await cli(dirs, ["rules", "list"])).stdout, new RegExp(added.id));
  assert.equal((await cli(dirs, ["rules", "check"])).code, 0);
  const bad = await cli(dirs, [
    "rules",
    "add",
    "--tool",
    "echo",
    "--argv",
    '["cat","-n"]',
    "--match",
    '{"program":"/bin/cat","command":["cat"],"cwd":"/w"}',
  ]);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, wording("rules_file.example_unmatched", { index: 0 }));
  const notJson = await cli(dirs, ["rules", "add", "--tool", "echo", "--argv", "[cat]"]);
  assert.equal(notJson.code, 2);
  assert.match(notJson.stderr, wording("cli.rules_bad_json", { option: '"--argv"' }));
  const badArgv = await cli(dirs, [
    "rules",
    "add",
    "--tool",
    "echo",
    "--argv",
    '[{"rest":true},"x"]',
  ]);
  assert.equal(badArgv.code, 2);
  assert.match(
    badArgv.stderr,
    new RegExp(`when\\.argv\\[0\\]: ${wording("rules_file.rest_last").source}`),
  );
  assert.equal((await cli(dirs, ["rules", "remove", added.id])).code, 0);
  assert.equal((await cli(dirs, ["rules", "remove", added.id])).code, 2);
  assert.equal((await cli(dirs, ["rules", "frob"])).code, 2);
});

Deno.test("a corrupt rules file fails closed: denied, and rules check reports it", async () => {
  await using dirs = await scratch(oneTool("echo", { command: ["cat"] }));
  await Deno.writeTextFile(`${dirs.configDir}/rules.json`, '{"version": 2, "rules": [');
  const result = await cli(dirs, ["call", "echo", "{}", "--approve", "always"]);
  assert.equal(result.code, 5);
  assert.match(result.stderr, /rules\.json/);
  assert.equal(result.stderr.trimEnd().split("\n").length, 1);
  const check = await cli(dirs, ["rules", "check"]);
  assert.equal(check.code, 6);
});

Deno.test("--audit-log moves the trail, off disables it, and no env value is in it", async () => {
  const canary = "CANARY-audit-1a2b3c4d";
  await using dirs = await scratch(
    oneTool("echo", {
      command: ["sh", "-c", "cat; echo $TOKEN >&2; exit 3"],
      env: { TOKEN: canary },
    }),
  );
  const path = `${dirs.root}/trail.jsonl`;
  await cli(dirs, ["call", "echo", "{}", "--approve", "always", "--audit-log", path]);
  const lines = (await Deno.readTextFile(path)).trim().split("\n").map((l) => JSON.parse(l));
  assert.deepEqual(lines.map((l) => l.type), ["decision", "run"]);
  assert.equal(lines[1].exit_code, 3);
  assert.ok(!JSON.stringify(lines).includes(canary));
  await cli(dirs, ["call", "echo", "{}", "--approve", "always"], {
    env: { BASIS_AUDIT_LOG: "off" },
  });
  await assert.rejects(Deno.stat(`${dirs.stateDir}/audit.jsonl`), Deno.errors.NotFound);
});

// --- Wording in en-US and uk-UA ---

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
    /^Додано (r-[\w-]+): allow wc \(глобальне\)\n {2}воно закріплює те, що інструмент запускає зараз \(program, argv(?:, content)?\): \{"program":"[^"]+","argv":\["cat"\](?:,"content":\{[^}]*\})?\}\n$/,
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
