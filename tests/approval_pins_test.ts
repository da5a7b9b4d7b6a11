/**
 * What is approved is what runs (issue 22, items 1–8): through the real CLI, a rule the user added
 * is attacked by what a repository (or `git pull`, or an agent's edit) can change — the code a
 * rule runs, how a number is spelt, the manifest around an ask rule, a task instead of a command, a
 * workspace tool shadowing a global one, a path spelt another way, a literal in an input's place,
 * a command too long to show. Each attack must end asked about (exit 5 where no one can be asked)
 * with nothing run, and the file that changed named.
 *
 * @module
 */

import assert from "node:assert/strict";
import { cli, exists, manifest, ROOT, type Scratch, scratch } from "./_cli.ts";
import { callTool, connectMcp, resultText } from "./_mcp.ts";
import { hasTmux, inPseudoTerminal } from "./_tmux.ts";
import { say, wording } from "./_wording.ts";

/** A real workspace with no tools: a confined spawn command may run (and write) in its root. */
const WORKSPACE = { schema: 1, tools: {} };
const ENTRY = Deno.env.get("BASIS_TEST_BUNDLE") ?? `${ROOT}src/main.ts`;
const ALWAYS = ["--approve", "always"];

/** The cache directory this Deno uses (DENO_DIR, else its default). */
async function denoDir(): Promise<string> {
  const set = Deno.env.get("DENO_DIR");
  if (set !== undefined) return set;
  const info = await new Deno.Command(Deno.execPath(), { args: ["info", "--json"] }).output();
  return (JSON.parse(new TextDecoder().decode(info.stdout)) as { denoDir: string }).denoDir;
}

/** Writes an executable file (directories made). */
async function script(path: string, text: string): Promise<void> {
  await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
  await Deno.writeTextFile(path, text);
  await Deno.chmod(path, 0o755);
}

/** Adds a rule through the CLI; returns it as stored. */
async function addRule(
  dirs: Scratch,
  args: string[],
  env: Record<string, string> = {},
): Promise<{ id: string; when: Record<string, unknown> }> {
  const added = await cli(dirs, ["rules", "add", ...args, "--json"], { env });
  assert.equal(added.code, 0, added.stderr);
  return JSON.parse(added.stdout);
}

/** Asserts that a call was denied for a file changed since rule `id`, and that nothing ran. */
async function assertChanged(
  dirs: Scratch,
  args: string[],
  options: { id: string; files: string[]; marker: string; env?: Record<string, string> },
) {
  const denied = await cli(dirs, args, { env: options.env ?? {} });
  assert.equal(denied.code, 5, `${denied.stdout}\n${denied.stderr}`);
  assert.ok(!(await exists(options.marker)), "the changed code ran");
  const files = options.files.map((file) => JSON.stringify(file)).join(", ");
  assert.match(denied.stderr, wording("denied.no_terminal_changed", { rule: options.id, files }));
  const [, name = "", input] = args;
  const test = await cli(dirs, ["rules", "test", name, ...(input ? [input] : [])], {
    env: options.env ?? {},
  });
  assert.equal(test.code, 5);
  assert.match(test.stdout, wording("rules.test_changed", { rule: options.id, files }));
}

// --- 1. Content pinning --------------------------------------------------------------------------

Deno.test("1: init's hello.sh, approved, then edited: asked again, naming the script", async () => {
  await using dirs = await scratch();
  assert.equal((await cli(dirs, ["init"])).code, 0);
  const rule = await addRule(dirs, ["--tool", "hello"]);
  assert.equal((await cli(dirs, ["call", "hello", '{"name":"a"}'])).code, 0);

  const marker = `${dirs.root}/EDITED`;
  await Deno.writeTextFile(`${dirs.root}/.basis/tools/hello.sh`, `touch '${marker}'\n`, {
    append: true,
  });
  await assertChanged(dirs, ["call", "hello", '{"name":"a"}'], {
    id: rule.id,
    files: [".basis/tools/hello.sh"],
    marker,
  });
  const content = rule.when.content as Record<string, string>;
  assert.match(content.program!, /^[0-9a-f]{64}$/);
  assert.match(content.files!, /^[0-9a-f]{64}$/);
  const json = JSON.parse(
    (await cli(dirs, ["--json", "rules", "test", "hello", '{"name":"a"}'])).stdout,
  );
  assert.deepEqual(json.changed, {
    rule_id: rule.id,
    files: [{ path: ".basis/tools/hello.sh", change: "changed" }],
  });
});

Deno.test("1: an interpreter's workspace script is pinned; check hints at what it loads", async () => {
  await using dirs = await scratch();
  const marker = `${dirs.root}/EDITED`;
  await script(`${dirs.root}/tools/x.sh`, "echo ok\n");
  await manifest(dirs, { x: { command: ["sh", "tools/x.sh"] } });
  const rule = await addRule(dirs, ["--tool", "x"]);
  assert.equal((await cli(dirs, ["call", "x", "{}"])).stdout, "ok\n");
  await Deno.writeTextFile(`${dirs.root}/tools/x.sh`, `touch '${marker}'\necho ok\n`);
  await assertChanged(dirs, ["call", "x", "{}"], { id: rule.id, files: ["tools/x.sh"], marker });
  assert.deepEqual(Object.keys(rule.when.content as object).filter((k) => k !== "program"), [
    "argv[1]",
  ]);
  const checked = await cli(dirs, ["check"]);
  assert.equal(checked.code, 0);
  assert.match(
    checked.stdout,
    wording("check.files_hint", { script: '"tools/x.sh"', program: '"sh"', dir: "tools" }),
  );
  // Back as it was approved: the rule holds again.
  await Deno.writeTextFile(`${dirs.root}/tools/x.sh`, "echo ok\n");
  assert.equal((await cli(dirs, ["call", "x", "{}"])).code, 0);
});

Deno.test("1: check hints at a script no approval can pin: a directory, or a name its interpreter completes", async () => {
  await using dirs = await scratch();
  await script(`${dirs.root}/tools/x.js`, "console.log(1)\n");
  await script(`${dirs.root}/app/index.js`, "console.log(2)\n");
  await manifest(dirs, {
    bare: { command: ["node", "tools/x"] },
    folder: { command: ["node", "app"] },
  });
  const checked = await cli(dirs, ["check"]);
  assert.equal(checked.code, 0);
  for (const [script, dir] of [["tools/x", "tools"], ["app/", "app"]] as const) {
    const hint = wording("check.files_hint", {
      script: JSON.stringify(script),
      program: '"node"',
      dir,
    });
    assert.match(checked.stdout, hint);
  }
});

Deno.test("1: a module a tool declares in files is pinned, and so is a file added there", async () => {
  await using dirs = await scratch();
  const marker = `${dirs.root}/EDITED`;
  await script(`${dirs.root}/tools/main.sh`, '. "$(dirname "$0")/lib/helper.sh"\ngreet\n');
  await script(`${dirs.root}/tools/lib/helper.sh`, "greet() { echo hi; }\n");
  await manifest(dirs, { m: { command: ["sh", "tools/main.sh"], files: ["tools/lib/**"] } });
  assert.doesNotMatch((await cli(dirs, ["check"])).stdout, wording("check.hint"));
  const rule = await addRule(dirs, ["--tool", "m"]);
  assert.ok("files" in (rule.when.content as object), JSON.stringify(rule.when));
  assert.equal((await cli(dirs, ["call", "m", "{}"])).stdout, "hi\n");

  await Deno.writeTextFile(
    `${dirs.root}/tools/lib/helper.sh`,
    `greet() { touch '${marker}'; echo hi; }\n`,
  );
  await assertChanged(dirs, ["call", "m", "{}"], {
    id: rule.id,
    files: ["tools/lib/helper.sh"],
    marker,
  });
  await Deno.writeTextFile(`${dirs.root}/tools/lib/helper.sh`, "greet() { echo hi; }\n");
  assert.equal((await cli(dirs, ["call", "m", "{}"])).code, 0);
  // A new file under the glob is part of the tool's code too.
  await script(`${dirs.root}/tools/lib/more/extra.sh`, "echo extra\n");
  await assertChanged(dirs, ["call", "m", "{}"], {
    id: rule.id,
    files: ["tools/lib/more/extra.sh"],
    marker,
  });
});

Deno.test("1: a program of the user's own outside the workspace (~/.local/bin) is pinned", async () => {
  await using dirs = await scratch();
  const home = `${dirs.root}/../home`;
  const program = `${home}/.local/bin/mytool`;
  const marker = `${dirs.root}/EDITED`;
  await script(program, "#!/bin/sh\necho mine\n");
  const env = {
    HOME: home,
    PATH: `${home}/.local/bin:${Deno.env.get("PATH")}`,
    // Deno's own cache stays where it is (its default is under HOME).
    DENO_DIR: await denoDir(),
  };
  await manifest(dirs, { mine: { command: ["mytool"] } });
  const rule = await addRule(dirs, ["--tool", "mine"], env);
  assert.equal(rule.when.program, Deno.realPathSync(program));
  assert.equal((await cli(dirs, ["call", "mine", "{}"], { env })).stdout, "mine\n");
  await script(program, `#!/bin/sh\ntouch '${marker}'\necho mine\n`);
  await assertChanged(dirs, ["call", "mine", "{}"], {
    id: rule.id,
    files: [Deno.realPathSync(program)],
    marker,
    env,
  });
  assert.match((rule.when.content as Record<string, string>).program!, /^[0-9a-f]{64}$/);
});

Deno.test("1: a system program only root can change is not pinned; as root it is, read once and cached", async () => {
  await using dirs = await scratch();
  await manifest(dirs, { cat: { command: ["cat"] } });
  const rule = await addRule(dirs, ["--tool", "cat"]);
  const program = rule.when.program as string;
  assert.equal((await cli(dirs, ["call", "cat", '{"a":1}'])).stdout, '{"a":1}');
  // The digest cache: one entry a file, each naming the file it is for.
  const digests = `${dirs.cacheDir}/digests`;
  const entries = new Map<string, string>();
  for await (const found of (await exists(digests)) ? Deno.readDir(digests) : []) {
    const text = await Deno.readTextFile(`${digests}/${found.name}`);
    entries.set(JSON.parse(text).path, `${digests}/${found.name}`);
  }
  if (Deno.uid() !== 0) {
    // Root's own file in root's own directories: the user's account cannot change it.
    assert.equal(rule.when.content, undefined);
    assert.ok(!entries.has(program), "a system program was read");
    return;
  }
  // Root running it can change /usr/bin: pinned like any other, and cached by what stat says.
  const pinned = (rule.when.content as Record<string, string>).program;
  const file = entries.get(program);
  assert.ok(file !== undefined, [...entries.keys()].join(", "));
  const entry = JSON.parse(await Deno.readTextFile(file));
  assert.equal(entry.path, program);
  assert.equal(entry.sha256, pinned);
  // The next call takes the digest from the cache, not from the program: a forged entry (same
  // stat, other digest) makes the rule fail, so the program was not read again.
  await Deno.writeTextFile(file, JSON.stringify({ ...entry, sha256: "0".repeat(64) }), {
    mode: 0o600,
  });
  assert.equal((await cli(dirs, ["call", "cat", "{}"])).code, 5);
  await Deno.writeTextFile(file, JSON.stringify(entry), { mode: 0o600 });
  assert.equal((await cli(dirs, ["call", "cat", "{}"])).code, 0);
});

Deno.test({
  name: "1: the prompt in a real terminal says which file changed, with the lines that differ",
  ignore: !hasTmux(),
}, async () => {
  await using dirs = await scratch();
  assert.equal((await cli(dirs, ["init"])).code, 0);
  const rule = await addRule(dirs, ["--tool", "hello"]);
  await Deno.writeTextFile(`${dirs.root}/.basis/tools/hello.sh`, "echo CHANGED\n", {
    append: true,
  });
  const env = {
    BASIS_CONFIG_DIR: dirs.configDir,
    BASIS_CACHE_DIR: dirs.cacheDir,
    BASIS_STATE_DIR: dirs.stateDir,
    NO_COLOR: "1",
    BASIS_LOCALE: "en-US",
  };
  const argv = [Deno.execPath(), "run", "-A", "--quiet", ENTRY, "-C", dirs.root];
  const run = await inPseudoTerminal([...argv, "call", "hello", '{"name":"a"}'], {
    keys: ["Escape"],
    env,
  });
  assert.equal(run.code, 5, run.screen);
  assert.match(
    run.screen,
    new RegExp(`changed +${say("prompt.changed_since", { rule: rule.id })}`),
  );
  assert.ok(
    run.screen.includes(say("prompt.change_changed", { path: ".basis/tools/hello.sh" })),
    run.screen,
  );
  assert.ok(run.screen.includes("+ echo CHANGED"), run.screen);
});

Deno.test("1: the MCP approval form says which file changed", async () => {
  await using dirs = await scratch();
  assert.equal((await cli(dirs, ["init"])).code, 0);
  const rule = await addRule(dirs, ["--tool", "hello"]);
  await Deno.writeTextFile(`${dirs.root}/.basis/tools/hello.sh`, "echo CHANGED\n", {
    append: true,
  });
  const questions: string[] = [];
  const session = await connectMcp(dirs, ["mcp"], {
    elicit: (message) => {
      questions.push(message);
      return { action: "accept", content: { decision: "deny" } };
    },
  });
  try {
    const denied = await callTool(session, "hello", { name: "a" });
    assert.equal(denied.isError, true, resultText(denied));
  } finally {
    await session.close();
  }
  assert.equal(questions.length, 1);
  assert.ok(questions[0]!.includes(say("prompt.changed_since", { rule: rule.id })), questions[0]);
  assert.ok(
    questions[0]!.includes(say("prompt.change_changed", { path: ".basis/tools/hello.sh" })),
  );
  assert.ok(questions[0]!.includes("+ echo CHANGED"), questions[0]);
});

Deno.test("1: an exact spawn command pins the workspace files its words name", async () => {
  await using dirs = await scratch(WORKSPACE);
  const marker = `${dirs.root}/EDITED`;
  await script(`${dirs.root}/build.sh`, "#!/bin/sh\necho built\n");
  const rule = await addRule(dirs, ["--tool", "spawn", "--body", "./build.sh --fast"]);
  const built = await cli(dirs, ["spawn", "!./build.sh --fast"]);
  assert.equal(built.stdout, "built\n", built.stderr);
  await script(`${dirs.root}/build.sh`, `#!/bin/sh\ntouch '${marker}'\necho built\n`);
  const denied = await cli(dirs, ["spawn", "!./build.sh --fast"]);
  assert.equal(denied.code, 5, denied.stdout);
  assert.ok(!(await exists(marker)), "the changed script ran");
  assert.match(
    denied.stderr,
    wording("denied.no_terminal_changed", { rule: rule.id, files: '"build.sh"' }),
  );
  assert.deepEqual(Object.keys(rule.when.content as object), ["word[0]"]);
});

// --- 2. Numbers ----------------------------------------------------------------------------------

Deno.test("2: a deny on a number holds however the number is spelt", async () => {
  await using dirs = await scratch();
  const schema = { type: "object", properties: { n: { type: "number" } } };
  await manifest(dirs, { num: { command: ["cat"], input_schema: schema } });
  await addRule(dirs, ["--tool", "num", "--deny", "--input", "/n=1"]);
  await addRule(dirs, ["--tool", "num", "--deny", "--input", "/n=12345678901234567890"]);
  for (
    const n of [
      "1",
      "1.0",
      "1e0",
      "10e-1",
      "1.00",
      "0.1E1",
      "12345678901234567890.0",
      "1.2345678901234567890e19",
    ]
  ) {
    const result = await cli(dirs, ["call", "num", `{"n":${n}}`, ...ALWAYS]);
    assert.equal(result.code, 5, `${n}: ${result.stdout}`);
    assert.equal(result.stdout, "", n);
  }
  const other = await cli(dirs, ["call", "num", '{"n":1.5}', ...ALWAYS]);
  assert.equal(other.stdout, '{"n":1.5}');
});

// --- 3. Ask and deny rules gain no pins ---------------------------------------------------------

Deno.test("3: an ask rule keeps applying when the manifest's env, program or script change", async () => {
  await using dirs = await scratch();
  const schema = { type: "object", properties: { env: { type: "string" } } };
  await script(`${dirs.root}/t/deploy.sh`, "#!/bin/sh\necho deployed\n");
  const deploy = (tool: Record<string, unknown>) =>
    manifest(dirs, { deploy: { input_schema: schema, ...tool } });
  await deploy({ command: ["./t/deploy.sh"], env: { TARGET: "a" } });
  const ask = await addRule(dirs, ["--tool", "deploy", "--ask", "--input", '/env="prod"']);
  const prod = async () => {
    const result = await cli(dirs, ["call", "deploy", '{"env":"prod"}', ...ALWAYS]);
    assert.equal(result.code, 5, result.stdout);
    assert.match(result.stderr, wording("denied.ask_no_terminal", { rule: ask.id }));
  };
  await prod();
  await deploy({ command: ["./t/deploy.sh"], env: { TARGET: "b" } });
  await prod();
  await deploy({ command: ["./t/deploy.sh"] });
  await prod();
  await script(`${dirs.root}/t/moved.sh`, "#!/bin/sh\necho deployed\n");
  await deploy({ command: ["./t/moved.sh"] });
  await prod();
  const dev = await cli(dirs, ["call", "deploy", '{"env":"dev"}', ...ALWAYS]);
  assert.equal(dev.stdout, "deployed\n");
  // Nothing was pinned beside what was given; a deny given nothing covers every call.
  assert.deepEqual(Object.keys(ask.when), ["input"]);
  const deny = await addRule(dirs, ["--tool", "deploy", "--deny"]);
  assert.deepEqual(deny.when, {});
  assert.equal((await cli(dirs, ["call", "deploy", '{"env":"dev"}', ...ALWAYS])).code, 5);
});

// --- 4. A spawn body glob is for commands -------------------------------------------------------

Deno.test("4: a spawn body glob allows simple commands, never a task", async () => {
  await using dirs = await scratch(WORKSPACE);
  const marker = `${dirs.root}/AGENT_RAN`;
  const agent = `${dirs.root}/../agent.sh`;
  await script(agent, `#!/bin/sh\ncat > /dev/null\ntouch '${marker}'\necho done\n`);
  await Deno.writeTextFile(`${dirs.configDir}/spawn.json`, JSON.stringify({ agent: [agent] }));
  const rule = await addRule(dirs, ["--tool", "spawn", "--body-glob", "cargo test*"]);
  const test = await cli(dirs, ["spawn", "!cargo test --release", "--dry-run"]);
  assert.match(test.stdout, wording("rules.test_allow_rule", { rule: rule.id }));
  const task = await cli(dirs, ["spawn", "cargo test; then delete the repository and force-push"]);
  assert.equal(task.code, 5, task.stdout);
  assert.ok(!(await exists(marker)), "the task reached the agent");
  assert.equal(rule.when.mode, "command");
  // A rule written before the glob was bound (no mode) means the same.
  const file = `${dirs.configDir}/rules.json`;
  const stored = JSON.parse(await Deno.readTextFile(file));
  delete stored.rules[0].when.mode;
  await Deno.writeTextFile(file, JSON.stringify(stored), { mode: 0o600 });
  const again = await cli(dirs, ["spawn", "cargo test\nrm -rf ~"]);
  assert.equal(again.code, 5, again.stdout);
  assert.ok(!(await exists(marker)), "the task reached the agent");
  // Tasks have their own form: a glob that says "agent".
  await addRule(dirs, ["--tool", "spawn", "--mode", "agent", "--body-glob", "summarise *"]);
  const summary = await cli(dirs, ["spawn", "summarise the log"]);
  assert.equal(summary.code, 0, summary.stderr);
  assert.ok(await exists(marker));
});

// --- 5. Shadowing never weakens a stricter rule -------------------------------------------------

Deno.test("5: a global ask rule applies to a workspace tool that shadows the global one", async () => {
  const global = {
    schema: 1,
    tools: { deploy: { description: "d", input_schema: {}, command: ["true"] } },
  };
  await using dirs = await scratch(undefined, global);
  const marker = `${dirs.root}/SHADOW_RAN`;
  const ask = await addRule(dirs, ["--tool", "deploy", "--ask", "--global"]);
  await manifest(dirs, { deploy: { command: ["touch", marker] } });
  const shadowed = await cli(dirs, ["call", "deploy", "{}", ...ALWAYS]);
  assert.equal(shadowed.code, 5);
  assert.match(shadowed.stderr, wording("denied.ask_no_terminal", { rule: ask.id }));
  assert.ok(!(await exists(marker)), "the shadowing tool ran");
});

// --- 6. Paths as typed and as resolved ----------------------------------------------------------

Deno.test("6: a deny naming a path another way than the preview does still applies", async () => {
  await using dirs = await scratch();
  const marker = `${dirs.root}/RAN`;
  await script(`${dirs.root}/t/real.sh`, `#!/bin/sh\ntouch '${marker}'\n`);
  await Deno.symlink("real.sh", `${dirs.root}/t/link.sh`);
  await manifest(dirs, { viaLink: { command: ["./t/link.sh"] } });
  // The program by its target, as typed.
  await addRule(dirs, ["--tool", "viaLink", "--deny", "--program", `${dirs.root}/t/real.sh`]);
  assert.equal((await cli(dirs, ["call", "viaLink", "{}", ...ALWAYS])).code, 5);
  assert.ok(!(await exists(marker)));

  // The cwd through a link to the workspace: stored resolved.
  await manifest(dirs, { here: { command: [`${dirs.root}/t/real.sh`] } });
  const link = `${dirs.root}/../link-to-work`;
  await Deno.symlink(dirs.root, link);
  const byCwd = await addRule(dirs, ["--tool", "here", "--deny", "--cwd", link]);
  assert.equal(byCwd.when.cwd, Deno.realPathSync(dirs.root));
  assert.equal((await cli(dirs, ["call", "here", "{}", ...ALWAYS])).code, 5);
  assert.ok(!(await exists(marker)));

  // /bin/x on a merged /usr, where the call finds /usr/bin/x.
  if (Deno.realPathSync("/bin") !== "/usr/bin") return;
  await manifest(dirs, { sh: { command: ["sh", "-c", `touch '${marker}'`] } });
  const typed = await addRule(dirs, ["--tool", "sh", "--deny", "--program", "/bin/sh"]);
  assert.equal(typed.when.program, "/usr/bin/sh");
  const env = { PATH: "/usr/bin:/bin" };
  assert.equal((await cli(dirs, ["call", "sh", "{}", ...ALWAYS], { env })).code, 5);
  // A rule stored as typed (by hand, or by an older version) holds too.
  const file = `${dirs.configDir}/rules.json`;
  const stored = JSON.parse(await Deno.readTextFile(file));
  stored.rules = stored.rules.map((rule: { id: string; when: Record<string, unknown> }) =>
    rule.id === typed.id ? { ...rule, when: { program: "/bin/sh" } } : rule
  );
  await Deno.writeTextFile(file, JSON.stringify(stored), { mode: 0o600 });
  assert.equal((await cli(dirs, ["call", "sh", "{}", ...ALWAYS], { env })).code, 5);
  assert.ok(!(await exists(marker)));
});

// --- 7. An argument from the input, after "--" -------------------------------------------------

Deno.test("7: an input argument after -- is pinned as the input's: a literal in its place asks", async () => {
  await using dirs = await scratch();
  const marker = `${dirs.root}/RAN`;
  await script(`${dirs.root}/t/tool.sh`, `#!/bin/sh\ntouch '${marker}'\necho "$@"\n`);
  const schema = {
    type: "object",
    properties: { path: { type: "string" } },
    required: ["path"],
  };
  await manifest(dirs, {
    t: { command: ["./t/tool.sh", "--", { input: "path" }], input_schema: schema },
  });
  const rule = await addRule(dirs, ["--tool", "t"]);
  assert.equal((await cli(dirs, ["call", "t", '{"path":"-x"}'])).stdout, "-- -x\n");
  await Deno.remove(marker);
  await manifest(dirs, {
    t: { command: ["./t/tool.sh", "--", "--exec=evil"], input_schema: schema },
  });
  const literal = await cli(dirs, ["call", "t", '{"path":"x"}']);
  assert.equal(literal.code, 5, literal.stdout);
  assert.ok(!(await exists(marker)));
  assert.deepEqual(rule.when.argv, ["./t/tool.sh", "--", { input: "path" }]);
});

// --- 8. A command not shown whole is not remembered ---------------------------------------------

Deno.test({
  name: "8: a spawn command too long to show whole can only be allowed once or denied",
  ignore: !hasTmux(),
}, async () => {
  await using dirs = await scratch(WORKSPACE);
  const lines = Array.from({ length: 45 }, (_, n) => `echo line ${n}`);
  const body = `!${lines.join("\n")}\ntouch HIDDEN_TAIL`;
  const env = {
    BASIS_CONFIG_DIR: dirs.configDir,
    BASIS_CACHE_DIR: dirs.cacheDir,
    BASIS_STATE_DIR: dirs.stateDir,
    NO_COLOR: "1",
    BASIS_LOCALE: "en-US",
  };
  const argv = [Deno.execPath(), "run", "-A", "--quiet", ENTRY, "-C", dirs.root, "spawn", body];
  // The second choice is "Deny" now: "Always allow" is not offered.
  const run = await inPseudoTerminal(argv, { keys: ["Down", "Enter"], env });
  assert.equal(run.code, 5, run.screen);
  assert.ok(run.screen.includes(say("prompt.not_whole")), run.screen);
  assert.ok(!run.screen.includes(say("prompt.always_allow")), run.screen);
  assert.ok(!run.screen.includes(say("prompt.never")), run.screen);
  assert.ok(!(await exists(`${dirs.root}/HIDDEN_TAIL`)), "the hidden tail ran");
  assert.ok(!(await exists(`${dirs.configDir}/rules.json`)), "a rule was remembered");
});

Deno.test("8: the MCP form offers no always allow for a command not shown whole, and refuses one", async () => {
  await using dirs = await scratch(WORKSPACE);
  const lines = Array.from({ length: 45 }, (_, n) => `echo line ${n}`);
  const offered: unknown[] = [];
  const session = await connectMcp(dirs, ["mcp"], {
    elicit: (_message, schema) => {
      offered.push(
        (schema as { properties: { decision: { enum: string[] } } }).properties
          .decision.enum,
      );
      // A client that answers what it was not offered.
      return { action: "accept", content: { decision: "always_allow" } };
    },
  });
  try {
    const result = await callTool(session, "spawn", {
      input: `!${lines.join("\n")}\ntouch HIDDEN_TAIL`,
    });
    assert.equal(result.isError, true, resultText(result));
  } finally {
    await session.close();
  }
  assert.deepEqual(offered, [["allow_once", "deny"]]);
  assert.ok(!(await exists(`${dirs.root}/HIDDEN_TAIL`)), "the hidden tail ran");
  assert.ok(!(await exists(`${dirs.configDir}/rules.json`)), "a rule was remembered");
});
