/**
 * End-to-end tests of named agents, `reach` and the child policy: the real CLI with fake agent
 * programs that record their argv, the child's variables and their stdin.
 */

import assert from "node:assert/strict";
import { cli, cliCommand, ROOT, SANDBOX_WORKS, type Scratch, scratch } from "./_cli.ts";
import { DEFAULT_PERMISSIONS } from "../scripts/_permissions.ts";
import { connectMcp } from "./_mcp.ts";
import { hasTmux, inPseudoTerminal } from "./_tmux.ts";
import { listOf } from "../src/locale/messages.ts";
import { escape, say, wording } from "./_wording.ts";

const ALWAYS = ["--approve", "always"];
const AGENT = `${ROOT}tests/fixtures/spawn/recording_agent.sh`;
const ENTRY = Deno.env.get("BASIS_TEST_BUNDLE") ?? `${ROOT}src/main.ts`;

/** Two declared tools; a child policy may give a child only one of them. */
const MANIFEST = {
  schema: 1,
  tools: {
    lint: { description: "Lint", input_schema: {}, command: ["echo", "lint"] },
    deploy: { description: "Deploy", input_schema: {}, command: ["echo", "deploy"] },
  },
};

interface Recorded {
  args: string[];
  stdin: string;
  roster: string | null;
  model: string | null;
  system_prompt: string | null;
  depth: string | null;
}

/** A scratch workspace with a directory the fake agents record into. */
async function setUp(
  spawn: unknown,
): Promise<Scratch & { record: string; env: Record<string, string> }> {
  const dirs = await scratch(MANIFEST);
  const record = `${dirs.root}/../record`;
  await Deno.mkdir(record);
  await Deno.writeTextFile(`${dirs.configDir}/spawn.json`, JSON.stringify(spawn, null, 2));
  const env = { AGENT_RECORD: record, BASIS_TEST_DENO: Deno.execPath(), BASIS_TEST_ENTRY: ENTRY };
  return { ...dirs, record, env };
}

async function recorded(record: string): Promise<Record<string, Recorded>> {
  const out: Record<string, Recorded> = {};
  for await (const entry of Deno.readDir(record)) {
    out[entry.name.replace(/\.json$/, "")] = JSON.parse(
      await Deno.readTextFile(`${record}/${entry.name}`),
    );
  }
  return out;
}

async function auditLines(dirs: Scratch): Promise<string[]> {
  try {
    return (await Deno.readTextFile(`${dirs.stateDir}/audit.jsonl`)).trim().split("\n");
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return [];
    throw error;
  }
}

/** The three agents: the configured subagent and two named ones. */
const AGENTS = {
  agent: [AGENT, "local"],
  agents: {
    reviewer: [AGENT, "reviewer", "--fast"],
    writer: { argv: [AGENT, "writer"] },
  },
};

Deno.test("a task for a named agent reaches that agent and no other, with its argv, env and stdin", async () => {
  await using dirs = await setUp(AGENTS);
  const named = await cli(dirs, ["spawn", "@reviewer  look at src/\nand tests/", ...ALWAYS], {
    env: dirs.env,
  });
  assert.equal(named.code, 0, named.stderr);
  assert.equal(named.stdout, "reviewer did: look at src/\nand tests/\n");
  assert.deepEqual(await recorded(dirs.record), {
    reviewer: {
      args: ["--fast"],
      stdin: "look at src/\nand tests/",
      roster: null,
      model: null,
      system_prompt: null,
      depth: "1",
    },
  });
  const json = JSON.parse(
    (await cli(dirs, ["spawn", "@writer draft", "--json", ...ALWAYS], { env: dirs.env })).stdout,
  );
  assert.equal(json.mode, "agent");
  assert.equal(json.target, "writer");
  assert.equal(json.result, "writer did: draft");
  // "@@" and a task that merely begins with "@" go to the configured subagent.
  const escaped = await cli(dirs, ["spawn", "@@reviewer hello", ...ALWAYS], { env: dirs.env });
  assert.equal(escaped.stdout, "local did: @reviewer hello\n", escaped.stderr);
  const text = await cli(dirs, ["spawn", "@types/node is outdated", ...ALWAYS], {
    env: dirs.env,
  });
  assert.equal(text.stdout, "local did: @types/node is outdated\n", text.stderr);
  assert.deepEqual(Object.keys(await recorded(dirs.record)).sort(), [
    "local",
    "reviewer",
    "writer",
  ]);
  const decisions = (await auditLines(dirs)).map((line) => JSON.parse(line))
    .filter((entry) => entry.type === "decision");
  assert.deepEqual(decisions.map((entry) => entry.preview.target), [
    "reviewer",
    "writer",
    "local",
    "local",
  ]);
});

Deno.test("an unknown agent and a reach outside the policy are refused before any approver or rule", async () => {
  await using dirs = await setUp({
    ...AGENTS,
    reach: { allow: ["local", "named"], default: "local" },
  });
  // A rule that would allow the task: a structural refusal comes first.
  const added = await cli(dirs, ["rules", "add", "--tool", "spawn", "--body", "go"]);
  assert.equal(added.code, 0, added.stderr);
  const unknown = await cli(dirs, ["spawn", "@nobody go", ...ALWAYS], { env: dirs.env });
  assert.equal(unknown.code, 5);
  assert.equal(
    unknown.stderr,
    `basis-tools: ${
      say("spawn.guard.unknown_agent", {
        agent: '"nobody"',
        names: "reviewer, writer",
        name: "nobody",
      })
    }\n`,
  );
  const outside = await cli(dirs, [
    "call",
    "spawn",
    '{"input":"go","reach":"any"}',
    ...ALWAYS,
  ], { env: dirs.env });
  assert.equal(outside.code, 5);
  assert.match(
    outside.stderr,
    wording("spawn.guard.reach_not_allowed", {
      reach: '"any"',
      allowed: listOf(['"local"', '"named"'], "join.or"),
      default: '"local"',
    }),
  );
  // The default here is "local": a named agent needs the field.
  const excluded = await cli(dirs, ["spawn", "@reviewer go", ...ALWAYS], { env: dirs.env });
  assert.equal(excluded.code, 5);
  assert.match(
    excluded.stderr,
    wording("spawn.guard.reach_local_only", { reach: '"local"', agent: '"reviewer"' }),
  );
  const json = JSON.parse(
    (await cli(dirs, ["--json", "call", "spawn", '{"input":"@reviewer go","reach":"far"}']))
      .stdout,
  );
  assert.equal(json.error.kind, "invalid_input");
  assert.match(
    json.error.message,
    wording("input.refused", { tool: '"spawn"', pointer: "/reach" }),
  );
  assert.match(json.error.message, wording("spawn.input.bad_reach"));
  assert.deepEqual(await recorded(dirs.record), {}, "no agent ever started");
  const entries = (await auditLines(dirs)).map((line) => JSON.parse(line));
  assert.deepEqual(entries.map((e) => [e.type, e.allowed, e.by, e.rule_id ?? null]), [
    ["decision", false, "policy", null],
    ["decision", false, "policy", null],
    ["decision", false, "policy", null],
  ]);
  assert.match(entries[0].reason, wording("spawn.guard.unknown_agent", { agent: '"nobody"' }));
  assert.match(entries[1].reason, wording("spawn.guard.reach_not_allowed", { reach: '"any"' }));
  // With the field, the same task is allowed by the rule.
  const allowed = await cli(dirs, ["call", "spawn", '{"input":"@reviewer go","reach":"named"}'], {
    env: dirs.env,
  });
  assert.equal(allowed.code, 0, allowed.stderr);
  assert.equal(allowed.stdout, "reviewer did: go\n");
});

Deno.test({
  name: "the refusals show no prompt in a real terminal; only the refusal is recorded",
  ignore: !hasTmux(),
}, async () => {
  await using dirs = await setUp({ ...AGENTS, reach: { allow: ["local"], default: "local" } });
  const env = {
    BASIS_CONFIG_DIR: dirs.configDir,
    BASIS_CACHE_DIR: dirs.cacheDir,
    BASIS_STATE_DIR: dirs.stateDir,
    BASIS_LOCALE: "en-US",
    NO_COLOR: "1",
    ...dirs.env,
  };
  const argv = [Deno.execPath(), "run", "-A", "--quiet", ENTRY, "-C", dirs.root];
  // Each waits for the end of its refusal (a line the pane wraps may scroll out of view).
  for (
    const [args, end] of [
      [["spawn", "@nobody go"], 'start it with "@@")'],
      [["call", "spawn", '{"input":"go","reach":"named"}'], 'for "local"'],
    ] as const
  ) {
    const run = await inPseudoTerminal([...argv, ...args], { keys: [], waitFor: end, env });
    assert.equal(run.code, 5, run.screen);
    assert.ok(!run.screen.includes("asks before"), run.screen);
    assert.ok(!run.screen.includes("Allow once"), run.screen);
    assert.match(run.screen, /Spawn refused: /);
  }
  assert.deepEqual(await recorded(dirs.record), {});
  const entries = (await auditLines(dirs)).map((line) => JSON.parse(line));
  assert.deepEqual(entries.map((e) => [e.type, e.allowed, e.by]), [
    ["decision", false, "policy"],
    ["decision", false, "policy"],
  ]);
});

const CHILD_POLICY = {
  agent: [AGENT, "local"],
  agents: {
    reviewer: {
      argv: [AGENT, "reviewer", "--model", "{model}", "--system-prompt={system_prompt}"],
      child: { model: "opus", system_prompt: 'Review; say "ok" or why not' },
    },
  },
  child: { roster: ["lint", "spawn"] },
};

Deno.test("a child policy is in the preview and the audit line; the child gets it and lists only its roster", async () => {
  await using dirs = await setUp(CHILD_POLICY);
  const dry = JSON.parse(
    (await cli(dirs, ["spawn", "@reviewer list", "--dry-run", "--json"], { env: dirs.env }))
      .stdout,
  );
  assert.deepEqual(dry.preview, {
    mode: "agent",
    body: "list",
    cwd: Deno.realPathSync(dirs.root),
    target: "reviewer",
    child: {
      roster: ["lint", "spawn"],
      model: "opus",
      system_prompt: 'Review; say "ok" or why not',
    },
  });
  const ran = await cli(dirs, ["spawn", "@reviewer list", "--result", ...ALWAYS], {
    env: dirs.env,
  });
  assert.equal(ran.code, 0, ran.stderr);
  // The child basis-tools listed only its roster: no deploy.
  const listed = JSON.parse(ran.stdout);
  assert.deepEqual(listed.map((row: { name: string }) => row.name), ["lint", "spawn"]);
  const seen = (await recorded(dirs.record)).reviewer!;
  assert.deepEqual(seen.args, ["--model", "opus", '--system-prompt=Review; say "ok" or why not']);
  assert.equal(seen.roster, "lint,spawn");
  assert.equal(seen.model, "opus");
  assert.equal(seen.system_prompt, 'Review; say "ok" or why not');
  const decision = (await auditLines(dirs)).find((line) => line.includes('"type":"decision"'))!;
  assert.ok(
    decision.includes(
      '"target":"reviewer","child":{"roster":["lint","spawn"],"model":"opus",' +
        '"system_prompt":"Review; say \\"ok\\" or why not"}}',
    ),
    decision,
  );
});

Deno.test("without a child policy or reach, the preview is byte for byte the four keys", async () => {
  await using dirs = await setUp({ agent: [AGENT, "local"] });
  const root = Deno.realPathSync(dirs.root);
  for (const text of ["sum up", "!echo hi", "@types/node is old"]) {
    const result = await cli(dirs, ["spawn", text, ...ALWAYS], { env: dirs.env });
    assert.equal(result.code, 0, result.stderr);
  }
  const previews = (await auditLines(dirs))
    .filter((line) => line.includes('"type":"decision"'))
    .map((line) => /"preview":(\{[^}]*\})/.exec(line)?.[1]);
  assert.deepEqual(previews, [
    `{"mode":"agent","body":"sum up","cwd":"${root}","target":"local"}`,
    `{"mode":"command","body":"echo hi","cwd":"${root}","target":"local"}`,
    `{"mode":"agent","body":"@types/node is old","cwd":"${root}","target":"local"}`,
  ]);
  const dry = await cli(dirs, ["spawn", "sum up", "--dry-run"], { env: dirs.env });
  assert.match(
    dry.stdout,
    new RegExp(
      `^preview +\\{"mode":"agent","body":"sum up","cwd":"${root}","target":"local"\\}\\n`,
    ),
  );
});

Deno.test({
  name:
    "the prompt shows the child; always allow pins it, so a changed child policy is asked again",
  ignore: !hasTmux(),
}, async () => {
  await using dirs = await setUp(CHILD_POLICY);
  const env = {
    BASIS_CONFIG_DIR: dirs.configDir,
    BASIS_CACHE_DIR: dirs.cacheDir,
    BASIS_STATE_DIR: dirs.stateDir,
    BASIS_LOCALE: "en-US",
    NO_COLOR: "1",
    ...dirs.env,
  };
  const argv = [Deno.execPath(), "run", "-A", "--quiet", ENTRY, "-C", dirs.root];
  const first = await inPseudoTerminal([...argv, "spawn", "@reviewer check it"], {
    keys: ["Down", "Enter"],
    env,
  });
  assert.equal(first.code, 0, first.screen);
  assert.match(first.screen, /target +reviewer\n/);
  assert.match(
    first.screen,
    new RegExp(
      [
        `${say("prompt.child")} +${escape(say("prompt.child_roster", { names: "lint, spawn" }))}`,
        escape(say("prompt.child_model", { model: "opus" })),
        escape(say("prompt.child_system_prompt")),
        'Review; say "ok" or why not\\n',
      ].join("\\n +"),
    ),
  );
  assert.match(first.screen, /reviewer did: check it/);
  const rules = JSON.parse(await Deno.readTextFile(`${dirs.configDir}/rules.json`));
  assert.deepEqual(rules.rules[0].when.child, {
    roster: ["lint", "spawn"],
    model: "opus",
    system_prompt: 'Review; say "ok" or why not',
  });
  // No terminal now: the remembered rule answers for that exact child.
  const again = await cli(dirs, ["spawn", "@reviewer check it"], { env: dirs.env });
  assert.equal(again.code, 0, again.stderr);
  // The user changes the child policy: the rule no longer holds.
  const changed = structuredClone(CHILD_POLICY);
  changed.agents.reviewer.child.model = "haiku";
  await Deno.writeTextFile(`${dirs.configDir}/spawn.json`, JSON.stringify(changed));
  const asked = await cli(dirs, ["spawn", "@reviewer check it"], { env: dirs.env });
  assert.equal(asked.code, 5);
  assert.match(asked.stderr, wording("denied.no_terminal", { tool: '"spawn"' }));
});

Deno.test("BASIS_ROSTER: a child lists, shows, calls, describes and serves only its roster", async () => {
  await using dirs = await setUp({ agent: [AGENT, "local"] });
  const env = { ...dirs.env, BASIS_ROSTER: "lint" };
  const list = JSON.parse((await cli(dirs, ["list", "--json"], { env })).stdout);
  assert.deepEqual(list.map((row: { name: string }) => row.name), ["lint"]);
  const schema = JSON.parse((await cli(dirs, ["schema"], { env })).stdout);
  assert.equal(schema.length, 1);
  const call = await cli(dirs, ["call", "deploy", "{}", ...ALWAYS], { env });
  assert.equal(call.code, 2);
  assert.equal(
    call.stderr,
    `basis-tools: ${
      say("cli.not_in_roster", { tool: '"deploy"', variable: "BASIS_ROSTER", names: "lint" })
    }\n`,
  );
  assert.equal((await cli(dirs, ["show", "deploy"], { env })).code, 2);
  const spawn = await cli(dirs, ["spawn", "!touch marker", ...ALWAYS], { env });
  assert.equal(spawn.code, 2);
  assert.match(spawn.stderr, wording("cli.not_in_roster", { tool: '"spawn"' }));
  const ok = await cli(dirs, ["call", "lint", "{}", ...ALWAYS], { env });
  assert.equal(ok.code, 0, ok.stderr);
  // check still checks every file; an empty roster serves nothing; garbage is refused.
  assert.equal((await cli(dirs, ["check"], { env })).code, 0);
  const none = JSON.parse(
    (await cli(dirs, ["list", "--json"], { env: { BASIS_ROSTER: "" } })).stdout,
  );
  assert.deepEqual(none, []);
  const bad = await cli(dirs, ["list"], { env: { BASIS_ROSTER: "lint;rm -rf" } });
  assert.equal(bad.code, 2);
  assert.match(
    bad.stderr,
    wording("cli.bad_roster", { variable: "BASIS_ROSTER", name: '"lint;rm -rf"' }),
  );
  const session = await connectMcp(dirs, ["mcp"], { env: { BASIS_ROSTER: "spawn,lint" } });
  try {
    const { tools } = await session.client.listTools();
    assert.deepEqual(tools.map((tool) => tool.name), ["lint", "spawn"]);
  } finally {
    await session.close();
  }
});

Deno.test("list, show and permissions know the named agents; spawn.json problems have line:column", async () => {
  await using dirs = await setUp({
    ...AGENTS,
    reach: { allow: ["local", "any"], default: "local" },
    child: { roster: ["lint"] },
  });
  const list = JSON.parse((await cli(dirs, ["list", "--json"])).stdout);
  assert.match(list.at(-1).description, /"@<agent> <task>" .*: reviewer, writer/);
  const show = JSON.parse((await cli(dirs, ["show", "spawn", "--json"])).stdout);
  assert.deepEqual(show.agents.reviewer, {
    argv: [AGENT, "reviewer", "--fast"],
    child: { roster: ["lint"] },
  });
  assert.deepEqual(show.reach, { allow: ["local", "any"], default: "local" });
  assert.deepEqual(show.child, { roster: ["lint"] });
  assert.deepEqual(show.input_schema.properties.reach.enum, ["local", "any"]);
  const text = (await cli(dirs, ["show", "spawn"])).stdout;
  assert.match(text, /agents: +@reviewer: .*recording_agent\.sh reviewer --fast\n +@writer: /);
  assert.match(
    text,
    new RegExp(
      `${say("show.reach")}: +${
        wording("show.reach_value", { allowed: '"local", "any"', default: '"local"' }).source
      }`,
    ),
  );
  assert.match(text, /child: +agent: roster lint\n +@reviewer: roster lint\n/);
  const permissions = await cli(dirs, ["permissions"]);
  assert.equal(permissions.code, 0, permissions.stderr);
  assert.ok(permissions.stdout.includes(AGENT), permissions.stdout);
  assert.match(permissions.stdout, /BASIS_ROSTER/);
  await Deno.writeTextFile(
    `${dirs.configDir}/spawn.json`,
    '{\n  "agents": {"x": ["a", "{model}"]},\n  "reach": {"default": "far"}\n}',
  );
  // The shape first; a placeholder no child policy fills once the shape is right.
  const broken = await cli(dirs, ["spawn", "@x go", ...ALWAYS]);
  assert.equal(broken.code, 6);
  assert.equal(
    broken.stderr,
    `basis-tools: ${dirs.configDir}/spawn.json:3:24: reach.default: ${
      say("schema.enum", { values: '"local", "named", "any"' })
    }\n`,
  );
  await Deno.writeTextFile(`${dirs.configDir}/spawn.json`, '{"agents": {"x": ["a", "{model}"]}}');
  assert.equal(
    (await cli(dirs, ["spawn", "@x go", ...ALWAYS])).stderr,
    `basis-tools: ${dirs.configDir}/spawn.json:1:24: agents.x[1]: ${
      say("spawn_config.placeholder", { placeholder: '"{model}"', key: "model" })
    }\n`,
  );
});

/**
 * A subagent that is a standard MCP client (it strips the environment of the `basis-tools mcp` it
 * starts) at depth 1 of 1 with roster lint and spawn: it must be served only its roster and refused
 * a task, also when it tries to lower its depth and widen its roster.
 */
async function strippedChild(permissions?: string[], sandbox?: unknown) {
  const agent = [
    Deno.execPath(),
    "run",
    "-A",
    "--quiet",
    `--config=${ROOT}deno.json`,
    `${ROOT}tests/fixtures/spawn/mcp_agent.ts`,
  ];
  await using dirs = await setUp({
    agent: [...agent, "{}"],
    max_depth: 1,
    child: { roster: ["lint", "spawn"] },
  });
  // A confined child cannot read basis-tools' config directory: it is given one in the workspace.
  const childConfig = `${dirs.root}/child-config`;
  const confined = sandbox === undefined ? {} : { AGENT_CONFIG: childConfig };
  if (sandbox !== undefined) {
    await Deno.writeTextFile(`${dirs.configDir}/sandbox.json`, JSON.stringify(sandbox));
  }
  const options = permissions === undefined ? {} : { permissions };
  const server = cliCommand(dirs, ["mcp", "--approve", "always"], options);
  const spawn = { ...JSON.parse(await Deno.readTextFile(`${dirs.configDir}/spawn.json`)) };
  spawn.agent = [...agent, JSON.stringify({ command: server.command, args: server.args })];
  await Deno.writeTextFile(`${dirs.configDir}/spawn.json`, JSON.stringify(spawn));
  await Deno.mkdir(childConfig);
  await Deno.writeTextFile(`${childConfig}/spawn.json`, JSON.stringify(spawn));
  // As the client gives it: nothing of its own; then a lower depth and a wider roster.
  for (const lower of [{}, { AGENT_LOWER: "deploy,lint,spawn" }]) {
    const env = { ...dirs.env, ...lower, ...confined };
    const result = await cli(dirs, ["spawn", "delegate:look deeper", ...ALWAYS], {
      env,
      ...options,
    });
    assert.equal(result.code, 0, result.stderr);
    const [tools, delegated] = result.stdout.trim().split("\n");
    // The child serves only its roster, and at depth 1 it delegates no further.
    assert.equal(tools, "tools: lint,spawn");
    assert.equal(
      delegated,
      `spawn: error: ${say("spawn.guard.depth_limit", { depth: 1, max: 1 })}`,
    );
  }
  // Each record is gone with its subagent.
  assert.deepEqual([...Deno.readDirSync(`${dirs.stateDir}/lineage`)], []);
}

/** The released binary's flags (`--no-prompt` is the test runner's own). */
const RELEASED = DEFAULT_PERMISSIONS.filter((flag) => flag !== "--no-prompt");

Deno.test("depth and roster reach a child basis-tools whose MCP client strips the environment, and the child cannot lower or widen them", async () => {
  await strippedChild();
});

Deno.test("under the released binary's permissions (no /proc) depth and roster still reach a child whose MCP client strips the environment", async () => {
  await strippedChild(RELEASED);
});

Deno.test({
  name:
    "under the released binary's permissions depth and roster reach a child of a subagent confined by bwrap",
  ignore: !SANDBOX_WORKS,
  fn: async () => {
    // The agent's code is read in the sandbox: in a clone under the host's /tmp only a grant shows it.
    await strippedChild(RELEASED, { spawn: { agent: true, read: [ROOT] } });
  },
});
