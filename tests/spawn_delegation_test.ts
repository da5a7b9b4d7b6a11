import assert from "node:assert/strict";
import { type BasisError, ManifestError } from "../src/errors.ts";
import { english, phrase } from "../src/locale/messages.ts";
import {
  type ApprovalRequest,
  type Approver,
  policyApprover,
  type SpawnConfig,
  SpawnToolBuilder,
  ToolError,
} from "../src/mod.ts";
import { childPreview, fillPlaceholders, parseRoster, withinRoster } from "../src/spawn/child.ts";
import { parseSpawnConfig } from "../src/spawn/config.ts";
import { parseSpawnInput } from "../src/spawn/grammar.ts";
import { runSpawn } from "../src/spawn/run_spawn.ts";
import { spawnInputSchema } from "../src/spawn/tool_definition.ts";
import { spawnPreview } from "../src/spawn/preview.ts";
import { spawnRefusal } from "../src/spawn/guard.ts";
import type { SpawnCall } from "../src/spawn/types.ts";
import { inheritedLineage } from "../src/spawn/lineage.ts";
import { opening, say, wording } from "./_wording.ts";
import { ROOT } from "./_cli.ts";
import { spawnConfig, UNCONFINED_SANDBOX } from "./_fixtures.ts";
import { tempDir } from "./_scratch.ts";
import { denoRun } from "./_deno_run.ts";
import { DEFAULT_PERMISSIONS } from "../scripts/_permissions.ts";

const AGENT = new URL("./fixtures/spawn/recording_agent.sh", import.meta.url).pathname;

const config = spawnConfig;

function call(input: unknown): SpawnCall {
  const parsed = parseSpawnInput(input);
  assert.ok(parsed.ok, JSON.stringify(parsed));
  return parsed.call;
}

function refusal(input: unknown): { message: string; kind: string } {
  const parsed = parseSpawnInput(input);
  assert.ok(!parsed.ok, JSON.stringify(parsed));
  const message = english(parsed.phrase);
  assert.ok(!message.includes("\n"));
  const reason = parsed.phrase.params?.reason as { key: string };
  return { message, kind: reason.key.replace("spawn.input.", "") };
}

async function problemsOf(text: string): Promise<string[]> {
  const error = await parseSpawnConfig(text, "/c/spawn.json").catch((e) => e);
  assert.ok(error instanceof ManifestError, `${text} should be refused`);
  return error.problems.map((p) => `${p.line}:${p.column} ${p.field}: ${english(p.reason)}`);
}

/** A problem as `problemsOf` says it, its reason from the catalogue. */
function at(
  line: number,
  column: number,
  field: string,
  key: Parameters<typeof say>[0],
  params?: Parameters<typeof say>[1],
): string {
  return `${line}:${column} ${field}: ${say(key, params)}`;
}

function recordingApprover(): Approver & { asked: ApprovalRequest[] } {
  const asked: ApprovalRequest[] = [];
  const approver = (request: ApprovalRequest) => {
    asked.push(request);
    return Promise.resolve({
      allowed: false,
      by: "policy" as const,
      ruleId: undefined,
      reason: "no",
    });
  };
  return Object.assign(approver, { asked });
}

async function rejection(promise: Promise<unknown>): Promise<ToolError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof ToolError, String(error));
    return error;
  }
  throw new Error("expected a rejection");
}

Deno.test("parseSpawnInput() reads @name task as a task for a named agent, in the same pass", () => {
  assert.deepEqual(call({ input: " @reviewer  look at src/\n" }), {
    mode: "agent",
    body: "look at src/",
    target: "reviewer",
  });
  assert.deepEqual(call({ input: "@re-view_2\tgo" }), {
    mode: "agent",
    body: "go",
    target: "re-view_2",
  });
  // Only "@name" then white space is an address: a task that merely begins with "@" is text.
  for (const text of ["@types/node is outdated", "@alice, please", "@ everyone", "@", "@é x"]) {
    assert.deepEqual(call({ input: text }), { mode: "agent", body: text }, text);
  }
  // "@@" consumes exactly one "@": a task that begins with what looks like an address.
  assert.deepEqual(call({ input: "@@reviewer hello" }), { mode: "agent", body: "@reviewer hello" });
  assert.deepEqual(call({ input: "@@@x" }), { mode: "agent", body: "@@x" });
  // "!!" and "!@" are read first, as before.
  assert.deepEqual(call({ input: "!!@reviewer x" }), { mode: "agent", body: "!@reviewer x" });
  assert.deepEqual(call({ input: "!@box ls" }), { mode: "command", body: "ls", target: "box" });
});

Deno.test("parseSpawnInput() refuses @local and a name with no task, teaching the form", () => {
  const local = refusal({ input: "@local tidy up" });
  assert.equal(local.kind, "local_agent");
  assert.equal(
    local.message,
    say("input.refused", {
      tool: '"spawn"',
      pointer: "/input",
      reason: phrase("spawn.input.local_agent"),
    }),
  );
  const bare = refusal({ input: "  @reviewer \n" });
  assert.equal(bare.kind, "agent_no_task");
  assert.match(bare.message, wording("spawn.input.agent_no_task", { name: "reviewer" }));
});

Deno.test("parseSpawnInput() takes a typed reach beside input; anything else is refused at /reach", () => {
  for (const reach of ["local", "named", "any"] as const) {
    assert.deepEqual(call({ input: "@a go", reach }), {
      mode: "agent",
      body: "go",
      target: "a",
      reach,
    });
  }
  assert.deepEqual(call({ input: "!ls", reach: "local" }), {
    mode: "command",
    body: "ls",
    reach: "local",
  });
  // null is the same as leaving it out.
  assert.deepEqual(call({ input: "go", reach: null }), { mode: "agent", body: "go" });
  for (const reach of ["everything", "", 1, ["local"], {}]) {
    const refused = refusal({ input: "go", reach });
    assert.equal(refused.kind, "bad_reach");
    assert.match(refused.message, opening("input.refused", { tool: '"spawn"', pointer: "/reach" }));
    assert.match(refused.message, wording("spawn.input.bad_reach"));
  }
  assert.match(
    refusal({ input: "go", agent: "x" }).message,
    /\/agent: unexpected property; spawn takes only "input" and "reach"/,
  );
});

Deno.test("parseSpawnConfig() reads named agents, the reach policy and the child policy", async () => {
  const parsed = await parseSpawnConfig(
    JSON.stringify({
      agent: ["claude", "-p"],
      agents: {
        writer: ["./bin/writer"],
        reviewer: {
          argv: ["claude", "-p", "--model", "{model}"],
          child: { model: "opus", roster: ["test"] },
        },
      },
      reach: { allow: ["named", "local"], default: "local" },
      child: { roster: ["lint", "spawn", "lint"], system_prompt: "Be brief" },
    }),
    "/c/spawn.json",
  );
  assert.deepEqual([...parsed.agents!.keys()], ["reviewer", "writer"]);
  assert.deepEqual(parsed.agents!.get("writer"), {
    argv: ["/c/bin/writer"],
    child: { roster: ["lint", "spawn"], systemPrompt: "Be brief" },
  });
  // An agent's own keys are laid over the top-level policy's.
  assert.deepEqual(parsed.agents!.get("reviewer")!.child, {
    roster: ["test"],
    systemPrompt: "Be brief",
    model: "opus",
  });
  assert.deepEqual(parsed.reach, { allow: ["local", "named"], default: "local" });
  assert.deepEqual(parsed.child, { roster: ["lint", "spawn"], systemPrompt: "Be brief" });
  const empty = await parseSpawnConfig("{}", "/c/spawn.json");
  assert.deepEqual(empty.reach, { allow: ["local", "named", "any"], default: "any" });
  assert.deepEqual(empty.child, {});
  assert.equal(empty.agents!.size, 0);
  const anyByDefault = await parseSpawnConfig('{"reach": {"allow": ["any", "local"]}}', "/c/s");
  assert.deepEqual(anyByDefault.reach, { allow: ["local", "any"], default: "any" });
});

Deno.test("parseSpawnConfig() refuses malformed agents, reach and child with line:column and field", async () => {
  const text = [
    "{",
    '  "agents": {',
    '    "a.b": ["x"],',
    '    "local": ["y"],',
    '    "ok": {"argv": ["z", "{model}"], "chlid": {}},',
    '    "empty": []',
    "  },",
    '  "reach": {"allow": ["local", "all"], "default": "any"},',
    '  "child": {"roster": ["lint", "-x"], "model": " ", "extra": 1}',
    "}",
  ].join("\n");
  // The shape first: what its schema says, each at its place.
  assert.deepEqual(await problemsOf(text), [
    at(3, 5, "agents.a.b", "config.name"),
    at(4, 5, "agents.local", "schema.false"),
    at(5, 38, "agents.ok.chlid", "manifest.unknown_key_near", { key: '"child"' }),
    at(6, 14, "agents.empty", "schema.min_items", { limit: "1" }),
    at(8, 32, "reach.allow[1]", "schema.enum", { values: '"local", "named", "any"' }),
    at(9, 32, "child.roster[1]", "config.tool_name"),
    at(9, 48, "child.model", "config.not_blank"),
    at(9, 53, "child.extra", "manifest.unknown_key", { keys: "roster, model, system_prompt" }),
  ]);
  // Then what no schema says: a reach default against "allow", a placeholder against "child".
  assert.deepEqual(await problemsOf('{"reach": {"allow": ["local"]}}'), [
    at(1, 11, "reach", "spawn_config.reach_default_missing"),
  ]);
  assert.deepEqual(await problemsOf('{"reach": {"allow": ["local"], "default": "named"}}'), [
    at(1, 43, "reach.default", "spawn_config.reach_default_allowed", { allowed: '"local"' }),
  ]);
  assert.deepEqual(await problemsOf('{"agent": ["a", "--p={system_prompt}"], "reach": {}}'), [
    at(1, 17, "agent[1]", "spawn_config.placeholder", {
      placeholder: '"{system_prompt}"',
      key: "system_prompt",
    }),
  ]);
  assert.deepEqual(await problemsOf('{"agents": {"a": {"argv": ["a", "{model}"]}}}'), [
    at(1, 33, "agents.a.argv[1]", "spawn_config.placeholder", {
      placeholder: '"{model}"',
      key: "model",
    }),
  ]);
  assert.deepEqual(await problemsOf('{"agent": ["a"], "reach": []}'), [
    at(1, 27, "reach", "schema.type", { types: "object" }),
  ]);
  assert.deepEqual(await problemsOf('{\n  "agent": "claude -p"\n}'), [
    at(2, 12, "agent", "schema.type", { types: "array" }),
  ]);
});

Deno.test("spawnRefusal() checks reach, then the mode's limits, unknown agents, then coverage", () => {
  const agents = new Map([["reviewer", { argv: ["r"], child: {} }], ["b", {
    argv: ["b"],
    child: {},
  }]]);
  const base = {
    noShell: false,
    depth: 0,
    config: config({
      agent: ["a"],
      agents,
      reach: { allow: ["local", "any"], default: "local" },
    }),
  };
  const kind = (c: SpawnCall, context = base) => spawnRefusal(c, context)?.key;
  // A reach outside the policy is refused whatever the mode, before anything else.
  const outside = spawnRefusal({ mode: "command", body: "ls", reach: "named" }, {
    ...base,
    noShell: true,
  })!;
  assert.equal(outside.key, "spawn.guard.reach_not_allowed");
  assert.equal(
    english(outside),
    'Spawn refused: /reach "named" is not allowed by the user\'s reach policy; give "local" or "any", or leave "reach" out for "local"',
  );
  assert.equal(
    kind({ mode: "agent", body: "t", target: "reviewer", reach: "named" }),
    "spawn.guard.reach_not_allowed",
  );
  // The default reach here is local: a named agent needs "any".
  assert.equal(
    kind({ mode: "agent", body: "t", target: "reviewer" }),
    "spawn.guard.reach_local_only",
  );
  assert.match(
    english(spawnRefusal({ mode: "agent", body: "t", target: "reviewer" }, base)!),
    /reach "local" keeps a task with the configured subagent, and this one is for agent "reviewer": leave out "@reviewer"/,
  );
  assert.equal(kind({ mode: "agent", body: "t", target: "reviewer", reach: "any" }), undefined);
  assert.equal(kind({ mode: "agent", body: "t" }), undefined);
  // Unknown names are refused, listing the configured ones and the escape.
  const unknown = spawnRefusal({ mode: "agent", body: "t", target: "nobody", reach: "any" }, base)!;
  assert.equal(unknown.key, "spawn.guard.unknown_agent");
  assert.equal(
    english(unknown),
    say("spawn.guard.unknown_agent", { agent: '"nobody"', names: "b, reviewer", name: "nobody" }),
  );
  const none = spawnRefusal({ mode: "agent", body: "t", target: "x" }, {
    ...base,
    config: config({ agent: ["a"] }),
  })!;
  assert.match(
    english(none),
    wording("spawn.guard.unknown_agent_none", { agent: '"x"', file: "/c/spawn.json", name: "x" }),
  );
  // The depth limit comes first for a task.
  assert.equal(
    kind({ mode: "agent", body: "t", target: "nobody" }, { ...base, depth: 2 }),
    "spawn.guard.depth_limit",
  );
  // "named" refuses a plain task.
  const named = { ...base, config: config({ agent: ["a"], agents }) };
  assert.match(
    english(spawnRefusal({ mode: "agent", body: "t", reach: "named" }, named)!),
    /reach "named" lets a task go only to a named agent, and this one names none: write "@<name> <task>"/,
  );
  // No subagent, but named agents: the refusal points at them.
  const noLocal = { ...base, config: config({ agents }) };
  assert.match(
    english(spawnRefusal({ mode: "agent", body: "t" }, noLocal)!),
    /no subagent is configured for a task without "@<name>"; address a named agent \(b, reviewer\)/,
  );
});

Deno.test("the preview without a policy is exactly today's four keys, for every kind of call", async () => {
  // Snapshot: what every existing rule was written against.
  const root = Deno.realPathSync(ROOT);
  const snapshot = [
    `{"mode":"command","body":"ls","cwd":"${root}","target":"local"}`,
    `{"mode":"command","body":"make","cwd":"${root}","target":"box"}`,
    `{"mode":"agent","body":"sum up","cwd":"${root}","target":"local"}`,
    `{"mode":"agent","body":"@types/node is old","cwd":"${root}","target":"local"}`,
    `{"mode":"agent","body":"review","cwd":"${root}","target":"reviewer"}`,
    `{"mode":"agent","body":"go","cwd":"${root}","target":"local"}`,
  ];
  const approver = recordingApprover();
  const tool = new SpawnToolBuilder(
    config({
      agent: ["a"],
      targets: new Map([["box", ["ssh"]]]),
      agents: new Map([["reviewer", { argv: ["r"], child: {} }]]),
    }),
    { root: ROOT, approver, sandbox: UNCONFINED_SANDBOX },
  ).build();
  for (
    const input of [
      { input: "!ls" },
      { input: "!@box make" },
      { input: "sum up" },
      { input: "@types/node is old" },
      { input: "@reviewer review" },
      // A reach equal to the default is not shown.
      { input: "go", reach: "any" },
    ]
  ) {
    await rejection((await tool.execution(input)).execute());
  }
  assert.deepEqual(approver.asked.map((request) => JSON.stringify(request.preview)), snapshot);
});

Deno.test("a child policy and a reach other than the default are in the preview, after the four keys", async () => {
  const root = Deno.realPathSync(ROOT);
  const approver = recordingApprover();
  const tool = new SpawnToolBuilder(
    config({
      agent: ["a"],
      agents: new Map([["reviewer", {
        argv: ["r"],
        child: { roster: ["lint", "spawn", "test"], model: "opus" },
      }]]),
      child: { systemPrompt: "Be brief" },
    }),
    // This process itself serves only lint and spawn: a child never gets more.
    { root: ROOT, approver, roster: ["lint", "spawn"], sandbox: UNCONFINED_SANDBOX },
  ).build();
  await rejection((await tool.execution({ input: "@reviewer review", reach: "named" })).execute());
  await rejection((await tool.execution({ input: "sum up" })).execute());
  // A command has no child and no reach.
  await rejection((await tool.execution({ input: "!ls", reach: "local" })).execute());
  assert.deepEqual(approver.asked.map((request) => JSON.stringify(request.preview)), [
    `{"mode":"agent","body":"review","cwd":"${root}","target":"reviewer","reach":"named",` +
    `"child":{"roster":["lint","spawn"],"model":"opus"}}`,
    `{"mode":"agent","body":"sum up","cwd":"${root}","target":"local",` +
    `"child":{"system_prompt":"Be brief"}}`,
    `{"mode":"command","body":"ls","cwd":"${root}","target":"local"}`,
  ]);
});

Deno.test("refusals of named agents and reach come before the approver, worded in uk-UA too", async () => {
  const approver = recordingApprover();
  const agents = new Map([["reviewer", { argv: ["r"], child: {} }]]);
  const reach = { allow: ["local" as const], default: "local" as const };
  for (const locale of ["en-US", "uk-UA"]) {
    const tool = new SpawnToolBuilder(config({ agent: ["a"], agents, reach }), {
      root: ROOT,
      approver,
      locale,
    }).build();
    const unknown = await rejection((await tool.execution({ input: "@nobody go" })).execute());
    assert.equal(unknown.code, "denied");
    const outside = await rejection(
      (await tool.execution({ input: "go", reach: "any" })).execute(),
    );
    assert.equal(outside.code, "denied");
    const input = await rejection(tool.execution({ input: "go", reach: "far" }));
    assert.equal(input.code, "invalid_input");
    if (locale === "uk-UA") {
      assert.match(unknown.message, /невідомий агент "nobody"; налаштовані агенти: reviewer/);
      assert.match(outside.message, /\/reach "any" не дозволено політикою досяжності/);
      assert.match(input.message, /\/reach: має бути "local", "named" або "any"/);
    } else {
      assert.match(
        unknown.message,
        wording("spawn.guard.unknown_agent", { agent: '"nobody"', names: "reviewer" }),
      );
      assert.match(outside.message, wording("spawn.guard.reach_not_allowed", { reach: '"any"' }));
    }
  }
  assert.equal(approver.asked.length, 0);
});

Deno.test("the input schema offers reach, with the policy's values, only when it means something", () => {
  const plain = spawnInputSchema(config({ agent: ["a"], targets: new Map([["box", ["ssh"]]]) }));
  assert.deepEqual(Object.keys(plain.properties as object), ["input"]);
  const agents = new Map([["reviewer", { argv: ["r"], child: {} }]]);
  const withAgents = spawnInputSchema(config({ agents })) as {
    properties: { reach: { type: string; enum: string[]; description: string } };
    required: string[];
  };
  assert.deepEqual(withAgents.properties.reach.enum, ["local", "named", "any"]);
  assert.equal(
    withAgents.properties.reach.description,
    say("spawn.schema.reach", { default: '"any"' }),
  );
  assert.deepEqual(withAgents.required, ["input"]);
  const policy = spawnInputSchema(config({ reach: { allow: ["local"], default: "local" } })) as {
    properties: { reach: { enum: string[]; description: string } };
  };
  assert.deepEqual(policy.properties.reach.enum, ["local"]);
  assert.equal(
    policy.properties.reach.description,
    say("spawn.schema.reach", { default: '"local"' }),
  );
  // The tool's description and definitions follow.
  const describe = (fields: Partial<SpawnConfig>) =>
    new SpawnToolBuilder(config(fields)).build().description();
  assert.ok(!describe({ targets: new Map([["box", ["b"]]]) }).includes("@<agent>"));
  const named = new Map(["zed", "ann"].map((name) => [name, { argv: ["x"], child: {} }]));
  assert.match(describe({ agents: named }), /"@<agent> <task>" .*: ann, zed/);
  const tool = new SpawnToolBuilder(config({ agents }), {
    approver: policyApprover({ policy: "never" }),
  }).build();
  for (const format of ["openai", "anthropic", "mcp", "gemini"] as const) {
    const text = JSON.stringify(tool.definition(format));
    assert.match(text, /"reach":\{"type":"string","enum":\["local","named","any"\]/, format);
  }
  assert.match(tool.description(), /"@<agent> <task>"/);
  assert.match(tool.systemPrompt(), /"@<agent> <task>".*reviewer/);
  assert.match(tool.help(), /`@<agent> <task>`.*reviewer.*`reach`/);
  const bare = new SpawnToolBuilder(config(), {}).build();
  assert.ok(!bare.help().includes("@<agent>") && !bare.description().includes("@<agent>"));
});

Deno.test("child helpers: the preview's child, placeholders filled once, BASIS_ROSTER read strictly", () => {
  assert.equal(childPreview({}, ["a"]), undefined);
  assert.deepEqual(childPreview({ roster: ["a", "b"] }, ["b", "c"]), { roster: ["b"] });
  assert.deepEqual(childPreview({ roster: [] }, undefined), { roster: [] });
  assert.deepEqual(
    fillPlaceholders(["{model}", "-m", "{model}", "--sp={system_prompt}", "{other}"], {
      model: "{system_prompt}",
      system_prompt: "S",
    }),
    ["{model}", "-m", "{system_prompt}", "--sp=S", "{other}"],
  );
  assert.equal(parseRoster(undefined), undefined);
  assert.deepEqual(parseRoster(""), []);
  assert.deepEqual(parseRoster(" test ,lint,test"), ["lint", "test"]);
  assert.deepEqual(parseRoster("lint,,x"), { bad: "" });
  assert.deepEqual(parseRoster("lint;rm"), { bad: "lint;rm" });
  const map = new Map([["a", 1], ["b", 2]]);
  assert.equal(withinRoster(map, undefined), map);
  assert.deepEqual([...withinRoster(map, ["b", "z"])], [["b", 2]]);
});

Deno.test("runSpawn() gives the named agent the task, with the child's argv and variables", async () => {
  await using record = await tempDir();
  const agents = new Map([["reviewer", {
    argv: [AGENT, "reviewer", "--model={model}", "{system_prompt}"],
    child: { model: "opus" },
  }]]);
  const child = { roster: ["lint"], model: "opus", system_prompt: "Line one\nline two" };
  const result = await runSpawn({ mode: "agent", body: "look", target: "reviewer" }, record.path, {
    config: config({ agent: [AGENT, "local"], agents }),
    child,
    agentEnv: { AGENT_RECORD: record.path },
  });
  assert.equal(result.stdout, "reviewer did: look\n", result.stderr);
  const seen = JSON.parse(await Deno.readTextFile(`${record.path}/reviewer.json`));
  assert.deepEqual(seen, {
    args: ["--model=opus", "Line one\nline two"],
    stdin: "look",
    roster: "lint",
    model: "opus",
    system_prompt: "Line one\nline two",
    depth: "1",
  });
  // The configured subagent was never started.
  assert.deepEqual([...Deno.readDirSync(record.path)].map((entry) => entry.name), [
    "reviewer.json",
  ]);
});

Deno.test("spawnPreview() names the agent a task is for as its target", () => {
  assert.equal(
    JSON.stringify(spawnPreview({ mode: "agent", body: "x", target: "reviewer" }, "/w")),
    '{"mode":"agent","body":"x","cwd":"/w","target":"reviewer"}',
  );
});

Deno.test("inheritedLineage() takes the highest depth and the narrowest roster of this process and its ancestors", () => {
  const env = (values: Record<string, string>) => (name: string) => values[name];
  // A cleared environment under an ancestor at depth 2 with a roster.
  const cleared = inheritedLineage(env({}), [{ BASIS_SPAWN_DEPTH: "2", BASIS_ROSTER: "lint" }]);
  assert.deepEqual(cleared, { depth: 2, roster: ["lint"] });
  // Set anew lower and wider: the ancestors' still hold.
  const lowered = inheritedLineage(
    env({ BASIS_SPAWN_DEPTH: "0", BASIS_ROSTER: "deploy,lint,spawn" }),
    [{ BASIS_SPAWN_DEPTH: "1", BASIS_ROSTER: "lint,spawn" }, { BASIS_SPAWN_DEPTH: "2" }],
  );
  assert.deepEqual(lowered, { depth: 2, roster: ["lint", "spawn"] });
  // Higher and narrower is taken.
  assert.deepEqual(
    inheritedLineage(env({ BASIS_SPAWN_DEPTH: "3", BASIS_ROSTER: "lint" }), [
      { BASIS_SPAWN_DEPTH: "1", BASIS_ROSTER: "lint,spawn" },
    ]),
    { depth: 3, roster: ["lint"] },
  );
  // A depth that is not a number anywhere refuses every task; a malformed roster is named.
  assert.equal(inheritedLineage(env({}), [{ BASIS_SPAWN_DEPTH: "two" }]).depth, undefined);
  assert.deepEqual(inheritedLineage(env({}), [{ BASIS_ROSTER: "a b" }]).roster, { bad: "a b" });
  assert.deepEqual(inheritedLineage(env({}), []), { depth: 0, roster: undefined });
});

Deno.test("runSpawn() keeps a subagent's lineage record, keyed by its pid, only while it runs, cancelled too", async () => {
  await using state = await tempDir();
  const before = Deno.env.get("BASIS_STATE_DIR");
  Deno.env.set("BASIS_STATE_DIR", state.path);
  try {
    // The agent shows its record (its shell's pid is its own: setsid and setpriv exec in place).
    const agent = ["/bin/sh", "-c", 'read task; cat "$BASIS_STATE_DIR/lineage/$$"; exec sleep 60'];
    const stop = new AbortController();
    const result = await runSpawn({ mode: "agent", body: "look" }, state.path, {
      config: config({ agent }),
      depth: 1,
      child: { roster: ["lint"] },
      signal: stop.signal,
      onStdout: () => stop.abort(),
    });
    assert.ok(result.cancelled, result.stderr);
    assert.deepEqual(JSON.parse(result.stdout), { BASIS_SPAWN_DEPTH: "2", BASIS_ROSTER: "lint" });
    const mode = (path: string) => Deno.statSync(path).mode! & 0o777;
    assert.equal(mode(`${state.path}/lineage`), 0o700);
    assert.deepEqual([...Deno.readDirSync(`${state.path}/lineage`)], []);
  } finally {
    if (before === undefined) Deno.env.delete("BASIS_STATE_DIR");
    else Deno.env.set("BASIS_STATE_DIR", before);
  }
});

Deno.test("runSpawn() starts no subagent whose lineage record cannot be kept (a state directory it cannot write)", async () => {
  await using state = await tempDir();
  const blocked = `${state.path}/file`;
  await Deno.writeTextFile(blocked, "");
  const before = Deno.env.get("BASIS_STATE_DIR");
  // A state directory under a regular file cannot be made, whoever asks (root too).
  Deno.env.set("BASIS_STATE_DIR", `${blocked}/state`);
  try {
    const agent = ["/bin/sh", "-c", `touch ${state.path}/started`];
    await assert.rejects(
      () => runSpawn({ mode: "agent", body: "look" }, state.path, { config: config({ agent }) }),
      (error: BasisError) =>
        error.code === "denied" && error.phrase?.key === "error.spawn_no_lineage",
    );
    assert.throws(() => Deno.statSync(`${state.path}/started`), Deno.errors.NotFound);
  } finally {
    if (before === undefined) Deno.env.delete("BASIS_STATE_DIR");
    else Deno.env.set("BASIS_STATE_DIR", before);
  }
});

Deno.test("under the released binary's permissions a process reads its parent's lineage record; a FIFO or garbage there refuses every task", async () => {
  await using state = await tempDir();
  const record = `${state.path}/lineage/${Deno.pid}`;
  await Deno.mkdir(`${state.path}/lineage`);
  const lineage = new URL("../src/spawn/lineage.ts", import.meta.url).href;
  const script = `import { inheritedLineage } from "${lineage}";
    console.log(JSON.stringify(inheritedLineage((name) => Deno.env.get(name))));`;
  // This test process is the parent of the one it starts; it tries to lower and widen them.
  const seen = async () => {
    const env = { BASIS_STATE_DIR: state.path, BASIS_SPAWN_DEPTH: "0", BASIS_ROSTER: "a,lint" };
    const flags = DEFAULT_PERMISSIONS.filter((flag) => flag !== "--no-prompt");
    const { code, stdout, stderr } = await denoRun("-", flags, { stdin: script, env });
    assert.equal(code, 0, stderr);
    return JSON.parse(stdout);
  };
  assert.deepEqual(await seen(), { depth: 0, roster: ["a", "lint"] });
  await Deno.writeTextFile(record, '{"BASIS_SPAWN_DEPTH":"2","BASIS_ROSTER":"lint"}');
  assert.deepEqual(await seen(), { depth: 2, roster: ["lint"] });
  await Deno.writeTextFile(record, '{"BASIS_SPAWN_DEPTH":2}');
  assert.deepEqual(await seen(), { roster: ["a", "lint"] });
  await Deno.remove(record);
  assert.ok((await new Deno.Command("mkfifo", { args: [record] }).output()).success);
  assert.deepEqual(await seen(), { roster: ["a", "lint"] });
});
