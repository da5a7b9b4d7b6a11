import assert from "node:assert/strict";
import { phrase } from "../src/locale/messages.ts";
import { formatSize } from "../src/run/size.ts";
import {
  assertNoStackTrace,
  CALL_JSON_KEYS,
  cli,
  oneTool,
  processesLeftInGroup,
  ROOT,
  type Scratch,
  scratch,
  unconfined,
} from "./_cli.ts";
import { hasTmux, inPseudoTerminal } from "./_tmux.ts";
import { closing, errorLine, say, wording } from "./_wording.ts";
import { assertNoEnglish } from "./_no_english.ts";

const ALWAYS = ["--approve", "always"];
/** A real workspace with no tools: its root is writable from a confined command. */
const WORKSPACE = { schema: 1, tools: {} };
const SPAWN_FIXTURES = `${ROOT}tests/fixtures/spawn`;
const AGENT = `${SPAWN_FIXTURES}/fake_agent.sh`;
const ENTRY = Deno.env.get("BASIS_TEST_BUNDLE") ?? `${ROOT}src/main.ts`;

/** Writes the user's spawn.json. */
async function configure(dirs: Scratch, config: unknown): Promise<void> {
  await Deno.writeTextFile(`${dirs.configDir}/spawn.json`, JSON.stringify(config));
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}

async function auditEntries(dirs: Scratch): Promise<Record<string, unknown>[]> {
  const text = await Deno.readTextFile(`${dirs.stateDir}/audit.jsonl`);
  return text.trim().split("\n").map((line) => JSON.parse(line));
}

Deno.test("spawn !cmd runs through /bin/sh in the workspace root and streams its output", async () => {
  await using dirs = await scratch(WORKSPACE);
  const result = await cli(dirs, ["spawn", "!pwd; echo one | tr o O", ...ALWAYS], {
    cwd: "/",
    env: {},
  });
  // -C was not given and / holds no manifest: the root is the current directory.
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, "/\nOne\n");
  const here = await cli(dirs, ["spawn", "!pwd && ls -a .basis", ...ALWAYS]);
  assert.equal(here.stdout, `${dirs.root}\n.\n..\ntools.json\n`);
});

Deno.test("spawn --json prints the structured output with ok, mode, target and result", async () => {
  await using dirs = await scratch(WORKSPACE);
  const result = await cli(dirs, ["spawn", "--json", "!echo hi", ...ALWAYS]);
  assert.equal(result.code, 0, result.stderr);
  const object = JSON.parse(result.stdout);
  assert.deepEqual(Object.keys(object), [
    "ok",
    "mode",
    "target",
    "result",
    "stdout",
    "stderr",
    "exit_code",
    "error",
    "stdout_truncated",
    "stderr_truncated",
    "duration_ms",
  ]);
  assert.equal(object.ok, true);
  assert.equal(object.mode, "command");
  assert.equal(object.target, "local");
  assert.equal(object.result, "hi");
  assert.equal(object.stdout, "hi\n");
  assert.equal(object.exit_code, 0);
  assert.equal(object.error, null);
});

Deno.test("spawn of a command that prints only on stderr succeeds with stderr as the result", async () => {
  await using dirs = await scratch(WORKSPACE);
  const streamed = await cli(dirs, ["spawn", "!echo only-err >&2", ...ALWAYS]);
  assert.equal(streamed.code, 0, streamed.stderr);
  assert.equal(streamed.stdout, "");
  assert.equal(streamed.stderr, "only-err\n");
  const json = JSON.parse(
    (await cli(dirs, ["spawn", "!echo only-err >&2", "--json", ...ALWAYS])).stdout,
  );
  assert.equal(json.ok, true);
  assert.equal(json.result, "only-err");
  assert.equal(json.stdout, "");
  const silent = await cli(dirs, ["spawn", "!true", ...ALWAYS]);
  assert.equal(silent.code, 0);
  assert.match(silent.stderr, wording("run.printed_nothing", { label: phrase("label.command") }));
});

Deno.test("spawn of a failing command exits 1; the model sees stderr, else stdout, else the status", async () => {
  await using dirs = await scratch(WORKSPACE);
  const body = "!echo partial; echo broke >&2; exit 3";
  const streamed = await cli(dirs, ["spawn", body, ...ALWAYS]);
  assert.equal(streamed.code, 1);
  assert.equal(streamed.stdout, "partial\n");
  assert.equal(
    streamed.stderr,
    `broke\nbasis-tools: ${say("run.exit", { label: phrase("label.command"), code: 3 })}\n`,
  );
  const json = JSON.parse((await cli(dirs, ["spawn", body, "--json", ...ALWAYS])).stdout);
  assert.equal(json.ok, false);
  assert.equal(json.exit_code, 3);
  assert.equal(json.result, "broke");
  assert.equal(json.error.kind, "tool_failed");
  assert.equal(
    json.error.message,
    `${say("run.exit", { label: phrase("label.command"), code: 3 })}: broke`,
  );
  const stdoutOnly = JSON.parse(
    (await cli(dirs, ["spawn", "!echo o; exit 2", "--json", ...ALWAYS])).stdout,
  );
  assert.equal(stdoutOnly.result, "o");
  const quiet = JSON.parse((await cli(dirs, ["spawn", "!exit 4", "--json", ...ALWAYS])).stdout);
  assert.equal(quiet.result, say("spawn.exit_status", { label: phrase("label.command"), code: 4 }));
  assert.equal(quiet.exit_code, 4);
});

Deno.test({
  name:
    "spawn stops the whole group at --spawn-timeout: exit 3, exit_code 124, no grandchild survives",
  ignore: Deno.build.os !== "linux",
}, async () => {
  await using dirs = await scratch(WORKSPACE);
  await unconfined(dirs);
  const body = "!echo $$ > pgid; sleep 30 & echo started; sleep 30";
  const result = await cli(dirs, ["spawn", body, "--spawn-timeout", "300", ...ALWAYS]);
  assert.equal(result.code, 3, result.stderr);
  assert.equal(result.stdout, "started\n");
  assert.match(
    result.stderr,
    wording("run.timed_out", { label: phrase("label.command"), ms: 300 }),
  );
  const pgid = Number(await Deno.readTextFile(`${dirs.root}/pgid`));
  assert.ok(pgid > 0);
  assert.deepEqual(await processesLeftInGroup(pgid), []);

  const json = await cli(dirs, ["spawn", body, "--json", "--spawn-timeout", "300", ...ALWAYS]);
  assert.equal(json.code, 3);
  const object = JSON.parse(json.stdout);
  assert.equal(object.exit_code, 124);
  assert.equal(object.error.kind, "timed_out");
  assert.equal(object.result, "started");
  const second = Number(await Deno.readTextFile(`${dirs.root}/pgid`));
  assert.deepEqual(await processesLeftInGroup(second), []);
  const bad = await cli(dirs, ["spawn", "!true", "--spawn-timeout", "soon", ...ALWAYS]);
  assert.equal(bad.code, 2);
});

Deno.test("spawn clears the command's environment except PATH, HOME, LANG and the --env pairs", async () => {
  await using dirs = await scratch(WORKSPACE);
  const result = await cli(
    dirs,
    [
      "spawn",
      '!echo "[$SPAWN_CANARY][$FROM_FLAG][$HOME]"; echo "$PATH"; env',
      "--env",
      "FROM_FLAG=yes",
      ...ALWAYS,
    ],
    { env: { SPAWN_CANARY: "canary-9f8e7d", HOME: "/home/tester" } },
  );
  assert.equal(result.code, 0, result.stderr);
  const [first, path, ...env] = result.stdout.trimEnd().split("\n");
  assert.equal(first, "[][yes][/home/tester]");
  assert.ok(path && path.length > 0 && path === Deno.env.get("PATH"), path);
  assert.ok(!result.stdout.includes("canary-9f8e7d"));
  // Only what was kept, what was given, and what the shell sets itself.
  const names = env.map((line) => line.split("=")[0]).filter((name) =>
    !["PWD", "SHLVL", "_", "OLDPWD"].includes(name!)
  );
  assert.deepEqual(
    names.sort(),
    ["FROM_FLAG", "HOME", "LANG", "PATH"].filter((name) =>
      name !== "LANG" || Deno.env.get("LANG") !== undefined
    ),
  );
});

Deno.test("a command keeps the delegation depth and the roster: a basis-tools it runs is where this one is", async () => {
  await using dirs = await scratch(WORKSPACE);
  const result = await cli(
    dirs,
    ["spawn", '!echo "[$BASIS_SPAWN_DEPTH][$BASIS_ROSTER]"', ...ALWAYS],
    { env: { BASIS_SPAWN_DEPTH: "1", BASIS_ROSTER: "spawn,lint" } },
  );
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, "[1][lint,spawn]\n");
});

Deno.test("spawn keeps 64 KiB of each stream for --json and says it cut them", async () => {
  await using dirs = await scratch(WORKSPACE);
  const body = "!head -c 100000 /dev/zero | tr '\\0' a; head -c 70000 /dev/zero | tr '\\0' b >&2";
  const result = await cli(dirs, ["spawn", body, "--json", ...ALWAYS]);
  assert.equal(result.code, 0, result.stderr);
  const object = JSON.parse(result.stdout);
  assert.equal(object.stdout.length, 65536);
  assert.equal(object.stderr.length, 65536);
  assert.equal(object.stdout_truncated, true);
  assert.equal(object.stderr_truncated, true);
  assert.match(
    object.result,
    closing("spawn.cut_note", { size: formatSize(65536), bytes: 100000 }),
  );
  // Streaming to a terminal passes everything through.
  const streamed = await cli(dirs, ["spawn", body, ...ALWAYS]);
  assert.equal(streamed.stdout.length, 100000);
  assert.equal(streamed.stderr.length, 70000);
});

Deno.test("spawn refuses bad input with exit 4 before the approver, without running anything", async () => {
  await using dirs = await scratch(WORKSPACE);
  for (const text of ["!", "!@", "!@ mac ls", "!@ma/c ls", "!@local ls", "!@mac", "   "]) {
    const result = await cli(dirs, ["spawn", text, "--approve", "never"]);
    assert.equal(result.code, 4, `${text}: ${result.stderr}`);
    assert.match(result.stderr, errorLine("input.refused", { tool: '"spawn"', pointer: "/input" }));
    assertNoStackTrace(result.stderr);
  }
  const json = JSON.parse((await cli(dirs, ["spawn", "!", "--json"])).stdout);
  assert.equal(json.ok, false);
  assert.equal(json.error.kind, "invalid_input");
  assert.ok(
    !(await exists(`${dirs.stateDir}/audit.jsonl`)),
    "a refused input is never put to anyone",
  );
});

Deno.test("--no-shell refuses a command with exit 5 before any rule or approver; tasks still run", async () => {
  await using dirs = await scratch(WORKSPACE);
  await configure(dirs, { agent: [AGENT] });
  // A remembered rule allows every simple command: commands off must win anyway.
  const added = await cli(dirs, ["rules", "add", "--tool", "spawn", "--body-glob", "*"]);
  assert.equal(added.code, 0, added.stderr);
  const refused = await cli(dirs, ["--no-shell", "spawn", "!touch marker"]);
  assert.equal(refused.code, 5, refused.stderr);
  assert.match(refused.stderr, wording("spawn.guard.no_shell"));
  assert.ok(!(await exists(`${dirs.root}/marker`)));
  const always = await cli(dirs, ["spawn", "!@box touch marker", "--no-shell", ...ALWAYS]);
  assert.equal(always.code, 5);
  const inherited = await cli(dirs, ["spawn", "!touch marker"], { env: { BASIS_NO_SHELL: "1" } });
  assert.equal(inherited.code, 5);
  assert.ok(!(await exists(`${dirs.root}/marker`)));
  const decisions = (await auditEntries(dirs)).filter((e) => e.type === "decision");
  assert.deepEqual(decisions.map((e) => [e.allowed, e.by]), [
    [false, "policy"],
    [false, "policy"],
    [false, "policy"],
  ]);
  // The same call without --no-shell: the rule allows it.
  const allowed = await cli(dirs, ["spawn", "!touch marker"]);
  assert.equal(allowed.code, 0, allowed.stderr);
  assert.ok(await exists(`${dirs.root}/marker`));
  // A task is not a command (and a glob allows tasks only where it says mode "agent").
  const tasks = ["rules", "add", "--tool", "spawn", "--mode", "agent", "--body-glob", "*"];
  assert.equal((await cli(dirs, tasks)).code, 0);
  const task = await cli(dirs, ["--no-shell", "spawn", "tidy up"]);
  assert.equal(task.code, 0, task.stderr);
  assert.equal(task.stdout, "depth=1 approve=prompt task=tidy up\n");
});

Deno.test("spawn is denied (exit 5) with --approve never and with no terminal to ask", async () => {
  await using dirs = await scratch(WORKSPACE);
  const never = await cli(dirs, ["spawn", "!touch marker", "--approve", "never"]);
  assert.equal(never.code, 5);
  assert.match(never.stderr, wording("denied.never", { tool: '"spawn"' }));
  const unattended = await cli(dirs, ["spawn", "!touch marker"]);
  assert.equal(unattended.code, 5);
  assert.match(unattended.stderr, wording("denied.no_terminal", { tool: '"spawn"' }));
  assert.match(unattended.stderr, /rules add --tool spawn/);
  assert.ok(!(await exists(`${dirs.root}/marker`)));
  const json = JSON.parse((await cli(dirs, ["spawn", "!touch marker", "--json"])).stdout);
  assert.equal(json.error.kind, "denied");
  assert.equal(json.mode, "command");
  const decisions = (await auditEntries(dirs)).filter((e) => e.type === "decision");
  assert.equal(decisions.length, 3);
  assert.deepEqual(decisions[0]!.preview, {
    mode: "command",
    body: "touch marker",
    cwd: dirs.root,
    target: "local",
  });
});

Deno.test("a remembered rule with an exact body allows one exact command and no other", async () => {
  await using dirs = await scratch(WORKSPACE);
  const added = await cli(dirs, ["rules", "add", "--tool", "spawn", "--body", "echo ok"]);
  assert.equal(added.code, 0, added.stderr);
  const ok = await cli(dirs, ["spawn", "!echo ok"]);
  assert.equal(ok.code, 0, ok.stderr);
  assert.equal(ok.stdout, "ok\n");
  const other = await cli(dirs, ["spawn", "!echo other"]);
  assert.equal(other.code, 5);
  const entries = await auditEntries(dirs);
  assert.deepEqual(entries.map((e) => [e.type, e.tool]), [
    ["decision", "spawn"],
    ["run", "spawn"],
    ["decision", "spawn"],
  ]);
});

Deno.test("a subagent gets the task on stdin and depth 1 at depth 0, depth 2 at depth 1", async () => {
  await using dirs = await scratch(WORKSPACE);
  const log = `${dirs.root}/agent.log`;
  await configure(dirs, { agent: [AGENT] });
  const zero = await cli(dirs, ["spawn", "summarise the log", ...ALWAYS], {
    env: { AGENT_LOG: log },
  });
  assert.equal(zero.code, 0, zero.stderr);
  assert.equal(zero.stdout, "depth=1 approve=always task=summarise the log\n");
  const one = await cli(dirs, ["spawn", "!!bang task", ...ALWAYS], {
    env: { AGENT_LOG: log, BASIS_SPAWN_DEPTH: "1" },
  });
  assert.equal(one.code, 0, one.stderr);
  assert.equal(one.stdout, "depth=2 approve=always task=!bang task\n");
  const json = JSON.parse(
    (await cli(dirs, ["spawn", "what now", "--json", ...ALWAYS], { env: { AGENT_LOG: log } }))
      .stdout,
  );
  assert.equal(json.mode, "agent");
  assert.equal(json.result, "depth=1 approve=always task=what now");
  assert.equal(await Deno.readTextFile(log), "1\n2\n1\n");
});

Deno.test("at depth 2 a task is refused before the approver (exit 5); a command still runs", async () => {
  await using dirs = await scratch(WORKSPACE);
  const log = `${dirs.root}/agent.log`;
  await configure(dirs, { agent: [AGENT] });
  const env = { AGENT_LOG: log, BASIS_SPAWN_DEPTH: "2" };
  const refused = await cli(dirs, ["spawn", "go deeper", ...ALWAYS], { env });
  assert.equal(refused.code, 5);
  assert.match(refused.stderr, wording("spawn.guard.depth_limit", { depth: 2, max: 2 }));
  assert.ok(!(await exists(log)), "the subagent never started");
  const command = await cli(dirs, ["spawn", "!echo still here", ...ALWAYS], { env });
  assert.equal(command.code, 0, command.stderr);
  assert.equal(command.stdout, "still here\n");
  // The limit is the user's to set.
  await configure(dirs, { agent: [AGENT], max_depth: 3 });
  const deeper = await cli(dirs, ["spawn", "go deeper", ...ALWAYS], { env });
  assert.equal(deeper.code, 0, deeper.stderr);
  assert.equal(deeper.stdout, "depth=3 approve=always task=go deeper\n");
});

Deno.test("subagents that call spawn inherit the approval and stop at the depth limit", async () => {
  await using dirs = await scratch(WORKSPACE);
  const log = `${dirs.root}/agent.log`;
  await configure(dirs, { agent: [AGENT] });
  const env = { AGENT_LOG: log, BASIS_TEST_DENO: Deno.execPath(), BASIS_TEST_ENTRY: ENTRY };
  // depth 0 → subagent at 1 → spawn → subagent at 2 → spawn "!…" runs a command there.
  const chain = await cli(dirs, ["spawn", "delegate:delegate:!echo from depth 2", ...ALWAYS], {
    env,
  });
  assert.equal(chain.code, 0, chain.stderr);
  assert.equal(chain.stdout, "from depth 2\n");
  assert.equal(await Deno.readTextFile(log), "1\n2\n");
  // One more level of delegation is refused at depth 2, and the refusal travels back up.
  const tooDeep = await cli(dirs, ["spawn", "delegate:delegate:hello", ...ALWAYS], { env });
  assert.equal(tooDeep.code, 1);
  assert.match(tooDeep.stderr, wording("spawn.guard.depth_limit", { depth: 2, max: 2 }));
  assert.equal(await Deno.readTextFile(log), "1\n2\n1\n2\n");
});

Deno.test("a failing subagent exits 1 with its stderr; a silent one says so", async () => {
  await using dirs = await scratch(WORKSPACE);
  await configure(dirs, { agent: [AGENT] });
  const failed = await cli(dirs, ["spawn", "fail", ...ALWAYS]);
  assert.equal(failed.code, 1);
  assert.ok(
    failed.stderr.endsWith(
      `agent: cannot do that\nbasis-tools: ${
        say("run.exit", { label: phrase("label.subagent"), code: 2 })
      }\n`,
    ),
    failed.stderr,
  );
  const json = JSON.parse((await cli(dirs, ["spawn", "fail", "--json", ...ALWAYS])).stdout);
  assert.equal(json.error.kind, "tool_failed");
  assert.equal(
    json.error.message,
    `${say("run.exit", { label: phrase("label.subagent"), code: 2 })}: agent: cannot do that`,
  );
  assert.equal(
    json.result,
    `${say("run.exit", { label: phrase("label.subagent"), code: 2 })}: agent: cannot do that`,
  );
  const silent = await cli(dirs, ["spawn", "silent", ...ALWAYS]);
  assert.equal(silent.code, 0);
  assert.match(silent.stderr, wording("spawn.agent_silent"));
  const silentJson = JSON.parse((await cli(dirs, ["spawn", "silent", "--json", ...ALWAYS])).stdout);
  assert.equal(silentJson.result, say("spawn.agent_silent"));
});

Deno.test("a task with no subagent configured is refused (exit 5) saying how to configure one", async () => {
  await using dirs = await scratch(WORKSPACE);
  const result = await cli(dirs, ["spawn", "write the release notes", ...ALWAYS]);
  assert.equal(result.code, 5);
  assert.match(
    result.stderr,
    wording("spawn.guard.no_agent", { file: `${dirs.configDir}/spawn.json` }),
  );
  assert.ok(result.stderr.includes(`${dirs.configDir}/spawn.json`), result.stderr);
});

Deno.test("an unknown target is refused before the approver, listing the configured names", async () => {
  await using dirs = await scratch(WORKSPACE);
  const none = await cli(dirs, ["spawn", "!@mac ls", ...ALWAYS]);
  assert.equal(none.code, 5);
  assert.match(none.stderr, wording("spawn.guard.unknown_target_none", { target: '"mac"' }));
  await configure(dirs, { targets: { zeta: ["true"], alpha: ["true"] } });
  const unknown = await cli(dirs, ["spawn", "!@mac ls", ...ALWAYS]);
  assert.equal(unknown.code, 5);
  assert.match(unknown.stderr, /unknown target "mac"; configured targets: alpha, zeta\n$/);
  const decision = (await auditEntries(dirs)).at(-1)!;
  assert.equal(decision.allowed, false);
  assert.equal((decision.preview as { target: string }).target, "mac");
});

Deno.test("a configured target gets the body as one argument after its argv prefix", async () => {
  await using dirs = await scratch(WORKSPACE);
  await configure(dirs, { targets: { box: [`${SPAWN_FIXTURES}/print_args.sh`, "--via", "x y"] } });
  const result = await cli(dirs, ["spawn", '!@box echo "a  b"; ls *', ...ALWAYS]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, 'argc=3\n[--via]\n[x y]\n[echo "a  b"; ls *]\n');
  const json = JSON.parse((await cli(dirs, ["spawn", "!@box pwd", "--json", ...ALWAYS])).stdout);
  assert.equal(json.target, "box");
});

Deno.test("a broken spawn.json is a config error (exit 6) naming the file and the field", async () => {
  await using dirs = await scratch(WORKSPACE);
  await configure(dirs, { agent: "claude -p" });
  const result = await cli(dirs, ["spawn", "!ls", ...ALWAYS]);
  assert.equal(result.code, 6);
  assert.match(
    result.stderr,
    new RegExp(`spawn\\.json:1:10: agent: ${wording("schema.type", { types: "array" }).source}`),
  );
  assertNoStackTrace(result.stderr);
  const check = await cli(dirs, ["check"]);
  assert.equal(check.code, 6);
  assert.match(check.stdout, /spawn\.json:1:10: agent: /);
});

Deno.test("call spawn runs the same code with JSON input and call's --json shape", async () => {
  await using dirs = await scratch(oneTool("echo", { command: ["cat"] }));
  const result = await cli(dirs, ["call", "spawn", '{"input":"!echo via call"}', ...ALWAYS]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, "via call\n");
  const piped = await cli(dirs, ["call", "spawn", ...ALWAYS], {
    stdin: '{"input": "!echo piped"}',
  });
  assert.equal(piped.stdout, "piped\n");
  const json = JSON.parse(
    (await cli(dirs, ["--json", "call", "spawn", '{"input":"!exit 3"}', ...ALWAYS])).stdout,
  );
  assert.deepEqual(Object.keys(json), CALL_JSON_KEYS);
  assert.equal(json.tool, "spawn");
  assert.equal(json.exit_code, 3);
  assert.equal(json.error.kind, "tool_failed");
  for (
    const [input, code] of [['{"input":7}', 4], ["{}", 4], ['{"command":"ls"}', 4], [
      "nope",
      2,
    ]] as const
  ) {
    const refused = await cli(dirs, ["call", "spawn", input, ...ALWAYS]);
    assert.equal(refused.code, code, `${input}: ${refused.stderr}`);
  }
  const timeout = await cli(dirs, [
    "call",
    "spawn",
    '{"input":"!sleep 5"}',
    "--timeout",
    "150",
    ...ALWAYS,
  ]);
  assert.equal(timeout.code, 3);
  assert.match(timeout.stderr, wording("run.timed_out", { ms: 150 }));
});

Deno.test("list shows spawn as built-in with its side effects; its description names targets", async () => {
  await using dirs = await scratch(oneTool("echo", { command: ["cat"] }));
  const json = JSON.parse((await cli(dirs, ["list", "--json"])).stdout);
  assert.deepEqual(json.map((row: { name: string }) => row.name), ["echo", "spawn"]);
  const spawn = json[1];
  assert.equal(spawn.side_effect, "process, local state");
  assert.equal(spawn.source, "built-in");
  assert.ok(!spawn.description.includes("!@"), spawn.description);
  const text = await cli(dirs, ["list"]);
  assert.equal(text.code, 0, text.stderr);
  assert.match(text.stdout, /\nspawn +process, local state +built-in +Run a shell command/);
  await configure(dirs, { targets: { mac: ["ssh", "mac"], builder: ["ssh", "b"] } });
  const withTargets = JSON.parse((await cli(dirs, ["list", "--json"])).stdout);
  assert.match(withTargets[1].description, /"!@<target> <command>".*: builder, mac\./);
});

Deno.test("spawn's input field teaches what its description does: targets and named agents", async () => {
  await using dirs = await scratch(oneTool("echo", { command: ["cat"] }));
  const field = async () => {
    const tools = JSON.parse((await cli(dirs, ["schema", "--format", "mcp"])).stdout);
    const spawn = tools.find((tool: { name: string }) => tool.name === "spawn");
    return spawn.inputSchema.properties.input.description as string;
  };
  const plain = await field();
  assert.doesNotMatch(plain, /!@|@<agent>/);
  await configure(dirs, { targets: { mac: ["ssh", "mac"], builder: ["ssh", "b"] } });
  assert.equal(await field(), say("spawn.schema.input_targets", { names: "builder, mac" }));
  await configure(dirs, {
    targets: { mac: ["ssh", "mac"] },
    agents: { reviewer: { argv: ["claude", "-p"] } },
  });
  const input = say("spawn.schema.input_targets", { names: "mac" });
  const both = say("spawn.schema.input_agents", { input, names: "reviewer" });
  assert.equal(await field(), both);
  // call spawn --help lists the same field.
  const help = await cli(dirs, ["call", "spawn", "--help"]);
  assert.equal(help.code, 0, help.stderr);
  assert.ok(help.stdout.replace(/\s+/g, " ").includes(both), help.stdout);
});

Deno.test("show spawn prints the built-in tool: modes, kept env, agent, targets, depth", async () => {
  await using dirs = await scratch(WORKSPACE);
  await configure(dirs, { agent: [AGENT, "--quiet"], targets: { box: ["ssh", "box", "--"] } });
  const text = await cli(dirs, ["show", "spawn"]);
  assert.equal(text.code, 0, text.stderr);
  assert.match(text.stdout, /^spawn — Run a shell command/);
  assert.match(
    text.stdout,
    wording("show.commands_env", { env: "PATH, HOME, LANG, BASIS_SPAWN_DEPTH, BASIS_ROSTER" }),
  );
  assert.match(text.stdout, /box: ssh box -- <command>/);
  assert.match(
    text.stdout,
    new RegExp(
      `${say("show.depth")}: +${wording("show.depth_value", { depth: 0, max: 2 }).source}`,
    ),
  );
  const json = JSON.parse((await cli(dirs, ["show", "spawn", "--json", "--no-shell"])).stdout);
  assert.equal(json.source, "built-in");
  assert.equal(json.commands, false);
  assert.deepEqual(json.agent, [AGENT, "--quiet"]);
  assert.deepEqual(json.targets, { box: ["ssh", "box", "--"] });
  assert.deepEqual(json.side_effects, { command: "process", agent: "local state" });
  assert.deepEqual(json.input_schema.required, ["input"]);
});

Deno.test("spawn --help documents the grammar", async () => {
  await using dirs = await scratch(WORKSPACE);
  const help = await cli(dirs, ["spawn", "--help"]);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /!@<target> <command>/);
  assert.match(help.stdout, /--spawn-timeout MS/);
});

Deno.test({
  name: "the real prompt shows the command and target; always allow remembers that exact body",
  ignore: !hasTmux(),
}, async () => {
  await using dirs = await scratch(WORKSPACE);
  const env = {
    BASIS_CONFIG_DIR: dirs.configDir,
    BASIS_CACHE_DIR: dirs.cacheDir,
    BASIS_STATE_DIR: dirs.stateDir,
    NO_COLOR: "1",
  };
  const argv = [Deno.execPath(), "run", "-A", "--quiet", ENTRY, "-C", dirs.root];
  const first = await inPseudoTerminal([...argv, "spawn", "!echo remembered"], {
    keys: ["Down", "Enter"],
    env,
  });
  assert.equal(first.code, 0, first.screen);
  assert.match(first.screen, /side effect +process/);
  assert.match(first.screen, /command +echo remembered\n/);
  assert.match(first.screen, /target +local\n/);
  // No terminal now: the remembered rule answers for the exact body, and only for it.
  const again = await cli(dirs, ["spawn", "!echo remembered"]);
  assert.equal(again.code, 0, again.stderr);
  assert.equal(again.stdout, "remembered\n");
  const other = await cli(dirs, ["spawn", "!echo remembered; rm -rf /tmp/nothing-here"]);
  assert.equal(other.code, 5);
});

// --- Wording in en-US and uk-UA ---

Deno.test("show spawn and the rules and permissions usage errors speak uk-UA", async () => {
  await using dirs = await scratch(WORKSPACE);
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
