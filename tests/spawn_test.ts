import assert from "node:assert/strict";
import { ManifestError } from "../src/errors.ts";
import type { RunResult } from "../src/run/types.ts";
import { loadSpawnConfig, parseSpawnConfig } from "../src/spawn/config.ts";
import { parseSpawnDepth } from "../src/spawn/lineage.ts";
import { runSpawn } from "../src/spawn/run_spawn.ts";
import { SPAWN_INPUT_SCHEMA } from "../src/spawn/tool_definition.ts";
import type { SpawnCall } from "../src/spawn/types.ts";
import { type SpawnGuardContext, spawnRefusal } from "../src/spawn/guard.ts";
import { spawnOutput, spawnResultText } from "../src/spawn/result.ts";
import { spawnPreview } from "../src/spawn/preview.ts";
import { spawnTimeout } from "../src/spawn/limits.ts";
import { english, phrase } from "../src/locale/messages.ts";
import { runResult, RUNS } from "./_run_result.ts";
import { CYRILLIC } from "./_no_english.ts";
import { spawnConfig } from "./_fixtures.ts";
import { tempDir } from "./_scratch.ts";
import { messages, type SpawnConfig, SpawnToolBuilder } from "../src/mod.ts";
import { parseSpawnInput } from "../src/spawn/grammar.ts";
import { caught } from "./_caught.ts";
import { closing, say, wording } from "./_wording.ts";

const FIXTURES = new URL("./fixtures/spawn", import.meta.url).pathname;

const config = spawnConfig;

/** The guard's refusal in English, or `undefined` when the call may go on. */
function refuseSpawn(call: SpawnCall, context: SpawnGuardContext): string | undefined {
  const refusal = spawnRefusal(call, context);
  return refusal === undefined ? undefined : english(refusal);
}

function result(fields: Partial<RunResult> = {}): RunResult {
  return runResult({ command: ["/bin/sh", "-c", "x"], cwd: "/w", timeoutMs: 120000, ...fields });
}

Deno.test("spawnPreview() pins the key order and says local when no target is named", () => {
  const local = spawnPreview({ mode: "command", body: "ls" }, "/w");
  assert.equal(JSON.stringify(local), '{"mode":"command","body":"ls","cwd":"/w","target":"local"}');
  const targeted = spawnPreview({ mode: "command", body: "ls", target: "mac" }, "/w");
  assert.equal(
    JSON.stringify(targeted),
    '{"mode":"command","body":"ls","cwd":"/w","target":"mac"}',
  );
  const agent = spawnPreview({ mode: "agent", body: "sum up" }, "/w");
  assert.equal(
    JSON.stringify(agent),
    '{"mode":"agent","body":"sum up","cwd":"/w","target":"local"}',
  );
});

Deno.test("the input schema has one required string property, input", () => {
  assert.deepEqual(SPAWN_INPUT_SCHEMA.required, ["input"]);
  assert.deepEqual(Object.keys(SPAWN_INPUT_SCHEMA.properties as object), ["input"]);
  assert.equal((SPAWN_INPUT_SCHEMA.properties as { input: { type: string } }).input.type, "string");
});

Deno.test("the spawn tool's description mentions !@ only when targets exist, names sorted", () => {
  const describe = (targets: Map<string, string[]>) =>
    new SpawnToolBuilder(config({ targets })).build().description();
  assert.ok(!describe(new Map()).includes("!@"));
  const text = describe(new Map([["zeta", ["z"]], ["alpha", ["a"]], ["mac", ["m"]]]));
  assert.match(text, /"!@<target> <command>"/);
  assert.match(text, /alpha, mac, zeta\./);
});

Deno.test("parseSpawnConfig() reads the agent, the targets and the depth limit", async () => {
  const parsed = await parseSpawnConfig(
    JSON.stringify({
      agent: ["claude", "-p"],
      targets: { mac: ["ssh", "mac.local", "--"], box: ["./bin/box"] },
      max_depth: 3,
    }),
    "/c/spawn.json",
  );
  assert.deepEqual(parsed.agent, ["claude", "-p"]);
  assert.deepEqual([...parsed.targets.keys()], ["box", "mac"]);
  // A relative program with a "/" resolves against the config directory.
  assert.deepEqual(parsed.targets.get("box"), ["/c/bin/box"]);
  assert.equal(parsed.maxDepth, 3);
  const empty = await parseSpawnConfig("// nothing yet\n{}", "/c/spawn.json");
  assert.equal(empty.agent, undefined);
  assert.equal(empty.targets.size, 0);
  assert.equal(empty.maxDepth, 2);
});

Deno.test("parseSpawnConfig() refuses what it does not understand, one problem a line", async () => {
  const bad = JSON.stringify({
    agent: "claude -p",
    targets: { "a/b": ["x"], local: ["y"], ok: [] },
    max_depth: -1,
    agnet: [],
  });
  const error = await parseSpawnConfig(bad, "/c/spawn.json").catch((e) => e);
  assert.ok(error instanceof ManifestError);
  assert.equal(error.code, "manifest_invalid");
  const fields = error.problems.map((p) => p.field);
  assert.deepEqual(fields.sort(), [
    "agent",
    "agnet",
    "max_depth",
    "targets.a/b",
    "targets.local",
    "targets.ok",
  ]);
  const syntax = await parseSpawnConfig("{\n  agent: [}", "/c/spawn.json").catch((e) => e);
  assert.ok(syntax instanceof ManifestError);
  assert.equal(syntax.problems[0]?.line, 2);
});

Deno.test("loadSpawnConfig() treats a missing file as the defaults", async () => {
  await using dir = await tempDir();
  const loaded = await loadSpawnConfig(dir.path);
  assert.equal(loaded.agent, undefined);
  assert.equal(loaded.file, `${dir.path}/spawn.json`);
});

Deno.test("parseSpawnDepth() reads BASIS_SPAWN_DEPTH; garbage is unknown", () => {
  assert.equal(parseSpawnDepth(undefined), 0);
  assert.equal(parseSpawnDepth(""), 0);
  assert.equal(parseSpawnDepth("1"), 1);
  assert.equal(parseSpawnDepth("-1"), undefined);
  assert.equal(parseSpawnDepth("1.5"), undefined);
  assert.equal(parseSpawnDepth("99999999999999999999"), undefined);
});

Deno.test("spawnRefusal() refuses commands when off, unknown targets, depth and a missing agent", () => {
  const targets = new Map([["mac", ["ssh"]], ["box", ["x"]]]);
  const base = { noShell: false, depth: 0, config: config({ targets, agent: ["a"] }) };
  assert.equal(refuseSpawn({ mode: "command", body: "ls" }, base), undefined);
  assert.equal(refuseSpawn({ mode: "command", body: "ls", target: "mac" }, base), undefined);
  assert.equal(refuseSpawn({ mode: "agent", body: "t" }, base), undefined);

  const off = { ...base, noShell: true };
  assert.match(refuseSpawn({ mode: "command", body: "ls" }, off)!, /--no-shell/);
  assert.match(refuseSpawn({ mode: "command", body: "ls", target: "nope" }, off)!, /--no-shell/);
  assert.equal(refuseSpawn({ mode: "agent", body: "t" }, off), undefined);

  const unknown = refuseSpawn({ mode: "command", body: "ls", target: "nope" }, base)!;
  assert.equal(
    unknown,
    say("spawn.guard.unknown_target", { target: '"nope"', names: "box, mac" }),
  );
  const none = refuseSpawn(
    { mode: "command", body: "ls", target: "nope" },
    { ...base, config: config() },
  )!;
  assert.match(none, wording("spawn.guard.unknown_target_none", { target: '"nope"' }));

  const deep = { ...base, depth: 2 };
  assert.match(
    refuseSpawn({ mode: "agent", body: "t" }, deep)!,
    wording("spawn.guard.depth_limit", { depth: 2, max: 2 }),
  );
  assert.equal(refuseSpawn({ mode: "command", body: "ls" }, deep), undefined);
  const limit = { ...base, depth: 1, config: config({ agent: ["a"], maxDepth: 1 }) };
  assert.match(
    refuseSpawn({ mode: "agent", body: "t" }, limit)!,
    wording("spawn.guard.depth_limit", { depth: 1, max: 1 }),
  );
  assert.match(
    refuseSpawn({ mode: "agent", body: "t" }, { ...base, depth: undefined })!,
    /BASIS_SPAWN_DEPTH/,
  );
  const noAgent = refuseSpawn({ mode: "agent", body: "t" }, { ...base, config: config() })!;
  assert.match(noAgent, wording("spawn.guard.no_agent", { file: "/c/spawn.json" }));
});

Deno.test("spawnTimeout() defaults by mode and caps at 600000 ms", () => {
  assert.equal(spawnTimeout("command", undefined), 120000);
  assert.equal(spawnTimeout("agent", undefined), 600000);
  assert.equal(spawnTimeout("command", 150), 150);
  assert.equal(spawnTimeout("agent", 700000), 600000);
});

Deno.test("spawnResultText() follows the model rules for commands", () => {
  const command = { mode: "command", body: "x" } as const;
  assert.equal(spawnResultText(command, result({ stdout: "out\n", stderr: "err" })), "out");
  assert.equal(spawnResultText(command, result({ stdout: " \n", stderr: "err\n" })), "err");
  assert.equal(
    spawnResultText(command, result()),
    say("run.printed_nothing", { label: phrase("label.command") }),
  );
  const failed = { exitCode: 3 };
  assert.equal(spawnResultText(command, result({ ...failed, stdout: "o", stderr: "e" })), "e");
  assert.equal(spawnResultText(command, result({ ...failed, stdout: "o" })), "o");
  assert.equal(
    spawnResultText(command, result(failed)),
    say("spawn.exit_status", { label: phrase("label.command"), code: 3 }),
  );
  const timedOut = result({
    exitCode: undefined,
    signal: "SIGTERM",
    timedOut: true,
    timeoutMs: 150,
  });
  assert.equal(
    spawnResultText(command, timedOut),
    say("run.timed_out", { label: phrase("label.command"), ms: 150 }),
  );
  const cut = result({ stdout: "a".repeat(10), stdoutTruncated: true, stdoutBytes: 70000 });
  assert.match(
    spawnResultText(command, cut),
    closing("spawn.cut_note", { size: "64 KiB", bytes: 70000 }),
  );
});

Deno.test("spawnResultText() gives a subagent's answer, a sentence, or an error with stderr", () => {
  const agent = { mode: "agent", body: "t" } as const;
  assert.equal(spawnResultText(agent, result({ stdout: "the answer\n" })), "the answer");
  assert.equal(
    spawnResultText(agent, result({ stdout: "\n", stderr: "thinking…" })),
    say("spawn.agent_silent"),
  );
  assert.equal(
    spawnResultText(agent, result({ exitCode: 2, stderr: "no key" })),
    `${say("run.exit", { label: phrase("label.subagent"), code: 2 })}: no key`,
  );
});

Deno.test("spawnOutput() is the structured output, exit code 124 on a time-out", () => {
  const command = { mode: "command", body: "x" } as const;
  const ok = spawnOutput(command, result({ stdout: "hi\n" }));
  assert.deepEqual(ok, {
    stdout: "hi\n",
    stderr: "",
    exit_code: 0,
    error: null,
    stdout_truncated: false,
    stderr_truncated: false,
  });
  const late = spawnOutput(
    command,
    result({ exitCode: undefined, signal: "SIGTERM", timedOut: true, timeoutMs: 150 }),
  );
  assert.equal(late.exit_code, 124);
  assert.equal(late.error, say("run.timed_out", { label: phrase("label.command"), ms: 150 }));
  const targeted = spawnOutput(
    { mode: "command", body: "x", target: "mac" },
    result({ exitCode: 1, stderr: "bad" }),
  );
  const onMac = phrase("label.command_on", { target: '"mac"' });
  assert.equal(targeted.error, `${say("run.exit", { label: onMac, code: 1 })}: bad`);
});

Deno.test("runSpawn() runs a command with only PATH, HOME, LANG and the --env pairs", async () => {
  const parent: Record<string, string> = {
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    HOME: "/home/someone",
    LANG: "C.UTF-8",
    API_KEY: "secret-should-not-leak",
  };
  const run = await runSpawn(
    { mode: "command", body: 'echo "$HOME|$LANG|$API_KEY|$EXTRA|$(pwd)" | tr a-z A-Z' },
    "/",
    { config: config(), env: { EXTRA: "given" }, readEnv: (name) => parent[name] },
  );
  assert.equal(run.exitCode, 0, run.stderr);
  // The --env values are secrets, redacted from the output: upper-cased, EXTRA shows through.
  assert.equal(run.stdout, "/HOME/SOMEONE|C.UTF-8||GIVEN|/\n");
});

Deno.test("runSpawn() hands a target the body as one argument after its prefix", async () => {
  const targets = new Map([["box", [`${FIXTURES}/print_args.sh`, "--via"]]]);
  const run = await runSpawn(
    { mode: "command", body: 'echo "a  b"; ls', target: "box" },
    "/",
    { config: config({ targets }) },
  );
  assert.equal(run.stdout, 'argc=2\n[--via]\n[echo "a  b"; ls]\n');
});

Deno.test("runSpawn() gives a subagent the task on stdin and its depth plus one", async () => {
  const run = await runSpawn(
    { mode: "agent", body: "count the files" },
    "/",
    {
      config: config({ agent: [`${FIXTURES}/fake_agent.sh`] }),
      depth: 1,
      agentEnv: { BASIS_APPROVE: "never" },
    },
  );
  assert.equal(run.exitCode, 0, run.stderr);
  assert.equal(run.stdout, "depth=2 approve=never task=count the files\n");
});

// --- Wording in en-US and uk-UA ---

const EN = messages("en-US");
const UK = messages("uk-UA");

Deno.test("spawnResultText() in uk-UA is Ukrainian but for the program's own output", () => {
  const calls = [
    { mode: "command", body: "ls" },
    { mode: "command", body: "ls", target: "mac" },
    { mode: "agent", body: "sum up" },
  ] as const;
  const output = (text: string) => text.replace(/[\r\n]+$/, "");
  for (const call of calls) {
    for (const result of RUNS) {
      const en = spawnResultText(call, result);
      assert.equal(spawnResultText(call, result, EN), en);
      const uk = spawnResultText(call, result, UK);
      if (en === output(result.stdout) || en === output(result.stderr)) {
        assert.equal(uk, en);
      } else {
        assert.notEqual(uk, en);
        assert.match(uk, CYRILLIC, uk);
      }
    }
  }
});
Deno.test("in English the contract words spawn refusals exactly as the grammar and the guard do", () => {
  const inputs: unknown[] = [
    null,
    [],
    "!ls",
    7,
    {},
    { input: 7 },
    { input: {} },
    { input: null },
    { input: "!ls", extra: 1 },
    { input: "  " },
    { input: "!" },
    { input: "!@" },
    { input: "!@bad/name ls" },
    { input: "!@local ls" },
    { input: "!@mac" },
  ];
  for (const input of inputs) {
    const parsed = parseSpawnInput(input);
    assert.ok(!parsed.ok, JSON.stringify(input));
    assert.match(UK.say(parsed.phrase), CYRILLIC);
  }
  const config: SpawnConfig = {
    file: "/c/spawn.json",
    agent: undefined,
    targets: new Map(),
    maxDepth: 2,
  };
  const withTargets = { ...config, agent: ["a"], targets: new Map([["mac", ["ssh"]]]) };
  const cases = [
    [{ mode: "command", body: "ls" }, { noShell: true, depth: 0, config }],
    [{ mode: "command", body: "ls", target: "x" }, { noShell: false, depth: 0, config }],
    [{ mode: "command", body: "ls", target: "x" }, {
      noShell: false,
      depth: 0,
      config: withTargets,
    }],
    [{ mode: "agent", body: "t" }, { noShell: false, depth: undefined, config }],
    [{ mode: "agent", body: "t" }, { noShell: false, depth: 2, config }],
    [{ mode: "agent", body: "t" }, { noShell: false, depth: 0, config }],
  ] as const;
  for (const [call, context] of cases) {
    const refusal = spawnRefusal(call, context);
    assert.ok(refusal !== undefined);
    assert.match(UK.say(refusal), CYRILLIC);
  }
});

Deno.test("runSpawn() refusals (a library caller that skipped the guard) carry uk-UA words", async () => {
  const config: SpawnConfig = {
    file: "/nowhere/spawn.json",
    agent: undefined,
    targets: new Map(),
    maxDepth: 2,
  };
  const cases: [SpawnCall, string, string][] = [
    [
      { mode: "command", body: "make", target: "builder" },
      'Spawn refused: unknown target "builder"',
      'Виклик spawn відхилено: невідома ціль "builder"',
    ],
    [
      { mode: "agent", body: "write the tests" },
      "Spawn refused: no subagent is configured",
      "Виклик spawn відхилено: субагента не налаштовано",
    ],
  ];
  for (const [call, english, ukrainian] of cases) {
    const error = await caught(() => runSpawn(call, "/", { config }));
    assert.equal(error.code, "denied");
    assert.equal(error.message, english);
    assert.equal(error.wordedIn(UK), ukrainian);
    assert.match(ukrainian, CYRILLIC);
  }
});
