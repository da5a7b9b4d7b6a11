import assert from "node:assert/strict";
import { VERSION } from "../src/version.ts";
import { assertNoStackTrace, cli, FIXTURES, oneTool, ROOT, scratch, spawnCli } from "./_cli.ts";
import { moduleGraph, staticallyReachable } from "./_module_graph.ts";
import { assertNoEnglish, CYRILLIC } from "./_no_english.ts";

const TWO_TOOLS = {
  schema: 1,
  tools: {
    zeta: { description: "Last one", input_schema: { type: "object" }, command: ["cat"] },
    alpha: {
      description: "First one",
      input_schema: { type: "object", properties: { x: { type: "string" } } },
      command: ["cat", "-"],
      side_effect: "external",
      timeout_ms: 5000,
    },
  },
};

Deno.test("--version prints the version from deno.json", async () => {
  const config = JSON.parse(await Deno.readTextFile(`${ROOT}deno.json`));
  assert.equal(VERSION, config.version);
  await using dirs = await scratch();
  const result = await cli(dirs, ["--version"]);
  assert.equal(result.stdout, `basis-tools ${VERSION}\n`);
});

Deno.test("--help works on the program and on every command", async () => {
  await using dirs = await scratch();
  for (
    const args of [["--help"], ["list", "--help"], ["show", "-h"], ["check", "--help"], [
      "call",
      "--help",
    ]]
  ) {
    const result = await cli(dirs, args);
    assert.equal(result.code, 0, args.join(" "));
    assert.match(result.stdout, /Usage: basis-tools/);
  }
  const bare = await cli(dirs, []);
  assert.equal(bare.code, 2);
});

Deno.test("unknown commands, unknown flags and missing arguments exit 2 with one line", async () => {
  await using dirs = await scratch(TWO_TOOLS);
  for (
    const args of [["frobnicate"], ["list", "--frob"], ["show"], ["call"], ["list", "extra"], [
      "-C",
    ]]
  ) {
    const result = await cli(dirs, args);
    assert.equal(result.code, 2, `${args.join(" ")}: ${result.stderr}`);
    assert.equal(result.stderr.trimEnd().split("\n").length, 1, result.stderr);
    assertNoStackTrace(result.stderr);
  }
});

Deno.test("list prints workspace tools by name, then unshadowed global tools", async () => {
  const global = {
    schema: 1,
    tools: {
      alpha: { description: "Shadowed global", input_schema: {}, command: ["false"] },
      beta: { description: "Global only", input_schema: {}, command: ["cat"] },
    },
  };
  await using dirs = await scratch(TWO_TOOLS, global);
  const result = await cli(dirs, ["list"]);
  assert.equal(result.code, 0, result.stderr);
  const names = result.stdout.trim().split("\n").slice(1).map((line) => line.split(/\s+/)[0]);
  // Then the built-in spawn tool.
  assert.deepEqual(names, ["alpha", "zeta", "beta", "spawn"]);
  assert.match(result.stdout, /alpha\s+external\s+workspace\s+First one/);
  assert.match(result.stdout, /beta\s+process\s+global\s+Global only/);
  const json = JSON.parse((await cli(dirs, ["list", "--json"])).stdout);
  assert.deepEqual(json[0], {
    name: "alpha",
    side_effect: "external",
    source: "workspace",
    description: "First one",
    available: true,
    problems: [],
  });
});

Deno.test("list finds the workspace from a subdirectory, and -C names it explicitly", async () => {
  await using dirs = await scratch(TWO_TOOLS);
  await Deno.mkdir(`${dirs.root}/a/b`, { recursive: true });
  const nested = await cli(dirs, ["list", "--json"], { cwd: `${dirs.root}/a/b` });
  assert.equal(JSON.parse(nested.stdout).length, 3); // two declared, then spawn
  const explicit = await cli(dirs, ["-C", dirs.root, "list", "--json"], { cwd: "/" });
  assert.equal(JSON.parse(explicit.stdout).length, 3);
});

Deno.test("show prints one tool in full, and exits 2 for an unknown tool", async () => {
  await using dirs = await scratch(TWO_TOOLS);
  const result = await cli(dirs, ["show", "alpha"]);
  assert.equal(result.code, 0);
  assert.match(result.stdout, /command: +cat -/);
  assert.match(result.stdout, /timeout: +5000 ms/);
  assert.match(result.stdout, new RegExp(`cwd: +${dirs.root}`));
  const json = JSON.parse((await cli(dirs, ["show", "alpha", "--json"])).stdout);
  assert.equal(json.side_effect, "external");
  assert.deepEqual(json.command, ["cat", "-"]);
  const unknown = await cli(dirs, ["show", "nope"]);
  assert.equal(unknown.code, 2);
});

Deno.test("check exits 0 for valid manifests and 6 for a schema ajv cannot compile", async () => {
  await using dirs = await scratch(TWO_TOOLS);
  const ok = await cli(dirs, ["check"]);
  assert.equal(ok.code, 0, ok.stdout + ok.stderr);
  assert.match(ok.stdout, /^ok: 2 tools/);
  await Deno.writeTextFile(
    `${dirs.root}/.basis/tools.json`,
    JSON.stringify(
      oneTool("bad", { input_schema: { type: "object", minimum: "x" }, command: ["cat"] }),
    ),
  );
  const bad = await cli(dirs, ["check"]);
  assert.equal(bad.code, 6);
  assert.match(bad.stdout, /tool "bad": input_schema: /);
  assert.equal(bad.stdout.trimEnd().split("\n").length, 1);
  // list does not compile schemas; call does, and refuses with exit 6 before anything runs.
  assert.equal((await cli(dirs, ["list"])).code, 0);
  const call = await cli(dirs, ["call", "bad", "{}", "--approve", "always"]);
  assert.equal(call.code, 6);
});

Deno.test("no manifest anywhere is an empty roster, not an error", async () => {
  await using dirs = await scratch();
  const list = await cli(dirs, ["list", "--json"]);
  assert.equal(list.code, 0, list.stderr);
  // Only the built-in spawn tool.
  assert.deepEqual(JSON.parse(list.stdout).map((row: { name: string }) => row.name), ["spawn"]);
  assert.equal((await cli(dirs, ["check"])).code, 0);
});

Deno.test("a secret canary in env appears in no output of any command", async () => {
  const canary = "CANARY-5f1e2d3c4b5a";
  const indirect = "INDIRECT-9a8b7c6d5e4f";
  const manifest = {
    schema: 1,
    tools: {
      ok: {
        description: "Uses a secret",
        input_schema: { type: "object" },
        command: ["sh", "-c", 'test -n "$TOKEN" && echo "done"'],
        env: { TOKEN: canary, INDIRECT: "${CANARY_SOURCE}", PLAIN: "x" },
      },
      shown: {
        description: "Would show a host variable before approval: refused unread",
        input_schema: { type: "object" },
        command: ["echo", "${CANARY_SOURCE}", "--key=${CANARY_SOURCE:-x}"],
        cwd: "/tmp/${CANARY_SOURCE}",
      },
      leaky: {
        description: "Fails and prints its secret",
        input_schema: { type: "object", properties: { n: { type: "integer" } } },
        command: [
          "sh",
          "-c",
          'echo "token is $TOKEN and $INDIRECT"; echo "err $TOKEN" >&2; exit 9',
        ],
        env: { TOKEN: canary, INDIRECT: "${CANARY_SOURCE}" },
      },
      slow: {
        description: "Times out",
        input_schema: { type: "object" },
        command: ["sh", "-c", 'echo "$TOKEN" >&2; sleep 5'],
        env: { TOKEN: canary },
        timeout_ms: 200,
      },
      missing: {
        description: "Cannot start: its program's path holds a secret",
        input_schema: { type: "object" },
        command: [`/nonexistent/${canary}`],
        env: { TOKEN: canary },
      },
      unexecutable: {
        description: "Exists, but setsid(1) cannot execute it: its path holds a secret",
        input_schema: { type: "object" },
        command: [`./${canary}/run.sh`],
        env: { TOKEN: canary },
      },
    },
  };
  await using dirs = await scratch(manifest);
  await Deno.mkdir(`${dirs.root}/${canary}`);
  await Deno.writeTextFile(`${dirs.root}/${canary}/run.sh`, "#!/no/such/interpreter\n");
  await Deno.chmod(`${dirs.root}/${canary}/run.sh`, 0o755);
  const env = { CANARY_SOURCE: indirect };
  const runs = [
    ["list"],
    ["list", "--json"],
    ["show", "ok"],
    ["show", "shown"],
    ["call", "shown", "{}", "--approve", "always", "--json"],
    ["call", "shown", "{}", "--dry-run"],
    ["show", "leaky", "--json"],
    ["check"],
    ["check", "--json"],
    ["call", "ok", "{}", "--approve", "always"],
    ["call", "ok", "{}", "--approve", "always", "--json"],
    ["call", "leaky", "{}", "--approve", "always", "--json"],
    ["call", "leaky", '{"n":"x"}', "--approve", "always"],
    ["call", "leaky", '{"n":"x"}', "--approve", "always", "--json"],
    ["call", "ok", "{}"],
    ["call", "ok", "{}", "--json"],
    ["call", "slow", "{}", "--approve", "always", "--json"],
    ["call", "missing", "{}", "--approve", "always"],
    ["call", "missing", "{}", "--approve", "always", "--json"],
    ["call", "unexecutable", "{}", "--approve", "always"],
    ["call", "unexecutable", "{}", "--approve", "always", "--json"],
    // The program's own output, streamed: redacted as everything else.
    ["call", "leaky", "{}", "--approve", "always"],
    ["call", "slow", "{}", "--approve", "always"],
  ];
  // Every message is worded from phrases in either locale: both are checked.
  for (const args of runs.flatMap((run) => [run, [...run, "--locale", "uk-UA"]])) {
    const result = await cli(dirs, args, { env });
    const printed = result.stdout + result.stderr;
    for (const secret of [canary, indirect]) {
      assert.ok(!printed.includes(secret), `${args.join(" ")} printed a canary:\n${printed}`);
    }
  }
  // A broken manifest beside the secrets: its errors name fields, never values.
  const broken = structuredClone(manifest) as { tools: { ok: Record<string, unknown> } };
  broken.tools.ok.timout_ms = canary;
  broken.tools.ok.env = { TOKEN: canary, BAD: "${" + canary };
  await Deno.writeTextFile(`${dirs.root}/.basis/tools.json`, JSON.stringify(broken));
  for (
    const args of [["list"], ["list", "--json"], ["check"], ["check", "--json"], [
      "call",
      "ok",
      "{}",
      "--json",
    ]]
  ) {
    const result = await cli(dirs, args, { env });
    // Only tool "ok" is broken: list shows it unavailable; check and a call of it say why.
    const code = args[0] === "list" ? 0 : 6;
    assert.equal(result.code, code, `${args.join(" ")}: ${result.stdout}${result.stderr}`);
    const printed = result.stdout + result.stderr;
    assert.ok(!printed.includes(canary), `${args.join(" ")} printed the canary:\n${printed}`);
  }
  await Deno.writeTextFile(`${dirs.root}/.basis/tools.json`, JSON.stringify(manifest));
  const streamed = await cli(dirs, ["call", "leaky", "{}", "--approve", "always"], { env });
  assert.equal(streamed.stdout, "token is [redacted] and [redacted]\n");
  assert.match(streamed.stderr, /^err \[redacted\]\n/);
});

Deno.test("list, show and --help do not load ajv, the prompt library or the MCP SDK", async () => {
  const graph = await moduleGraph(`${ROOT}src/main.ts`);
  // Everything reachable from main.ts without crossing a dynamic import, plus the modules that the
  // list and show commands load statically.
  const starts = ["src/main.ts", "src/cli/commands/list.ts", "src/cli/commands/show.ts"].map((p) =>
    new URL(p, `file://${ROOT}`).href
  );
  const seen = staticallyReachable(graph, starts);
  const heavy = [...seen].filter((url) =>
    /ajv|inquirer|modelcontextprotocol|jsonc-parser/.test(url)
  );
  assert.deepEqual(heavy, []);
  assert.ok(seen.size > 5, "the walk should have found the CLI's modules");
});

Deno.test("list into a reader that stops early ends quietly with exit 130", async () => {
  const tools: Record<string, unknown> = {};
  for (let i = 0; i < 3000; i++) {
    tools[`tool_${i}`] = { description: "x".repeat(60), input_schema: {}, command: ["cat"] };
  }
  await using dirs = await scratch({ schema: 1, tools });
  const child = spawnCli(dirs, ["list"]);
  const reader = child.stdout.getReader();
  await reader.read();
  await reader.cancel();
  const status = await child.status;
  const stderr = new TextDecoder().decode(
    (await new Response(child.stderr).arrayBuffer()) as ArrayBuffer,
  );
  assert.ok(status.code === 130 || status.code === 0, `exit ${status.code}: ${stderr}`);
  assertNoStackTrace(stderr);
});

Deno.test("the examples workspace passes check", async () => {
  await using dirs = await scratch();
  const result = await cli(dirs, ["-C", `${ROOT}examples`, "check"]);
  assert.equal(result.code, 0, result.stdout + result.stderr);
});

Deno.test("fixtures used by the end-to-end tests are executable", async () => {
  for await (const entry of Deno.readDir(FIXTURES)) {
    if (entry.name === "not_executable.sh") continue;
    const info = await Deno.stat(`${FIXTURES}/${entry.name}`);
    assert.ok((info.mode ?? 0) & 0o100, `${entry.name} must be executable`);
  }
});

Deno.test("without HOME, a repository's .config or .cache is never taken for the user's", async () => {
  await using dirs = await scratch(oneTool("echo", { command: ["cat"] }));
  const planted = {
    schema: 1,
    tools: { planted: { description: "p", input_schema: {}, command: ["cat"] } },
  };
  await Deno.mkdir(`${dirs.root}/.config/basis`, { recursive: true });
  await Deno.writeTextFile(`${dirs.root}/.config/basis/tools.json`, JSON.stringify(planted));
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", `${ROOT}src/main.ts`, "list"],
    cwd: dirs.root,
    clearEnv: true,
    env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stdout = new TextDecoder().decode(output.stdout);
  const stderr = new TextDecoder().decode(output.stderr);
  assert.equal(output.code, 2, stdout + stderr);
  assert.match(stderr, /HOME/);
  assert.ok(!stdout.includes("planted"));
});

Deno.test("the MCP SDK is reachable only through the mcp command's dynamic import", async () => {
  const graph = await moduleGraph(`${ROOT}src/main.ts`);
  const url = (path: string) => new URL(path, `file://${ROOT}`).href;
  const sdk = (urls: Iterable<string>) =>
    [...urls].filter((u) => u.includes("modelcontextprotocol"));
  // Every other command, as loaded when it runs: no MCP SDK.
  const commands = [...Deno.readDirSync(`${ROOT}src/cli/commands`)]
    .map((entry) => entry.name)
    .filter((name) => name.endsWith(".ts") && name !== "mcp.ts")
    .map((name) => url(`src/cli/commands/${name}`));
  assert.deepEqual(sdk(staticallyReachable(graph, [url("src/main.ts"), ...commands])), []);
  // The mcp command loads it statically, and only run_cli.ts imports that command, dynamically.
  const mcp = url("src/cli/commands/mcp.ts");
  assert.ok(
    sdk(staticallyReachable(graph, [mcp])).length > 0,
    "the mcp command should load the SDK",
  );
  const importers = graph.modules.flatMap((m) =>
    (m.dependencies ?? []).filter((dep) => dep.code?.specifier === mcp).map((dep) => ({
      from: m.specifier,
      dynamic: dep.isDynamic === true,
    }))
  );
  assert.deepEqual(importers, [{ from: url("src/cli/run_cli.ts"), dynamic: true }]);
});

// --- Wording in en-US and uk-UA ---

/** Option names, commands, placeholders and shapes that help keeps as they are. */
const HELP_KEPT: (string | RegExp)[] = [
  /--?[a-zA-Z][\w-]*/g,
  /\{[^}\n]*\}/g,
  /\[[^\]\n]*\]/g,
  /<[^>\n]*>/g,
  /'[^'\n]*'/g,
  /"[^"\n]*"/g,
  /\$?[A-Z_]{2,}\b/g,
  /[\w.~/-]+\/[\w.~/-]*/g,
  /\b(?:basis-tools|init|help|list|show|check|call|spawn|schema|rules|add|remove|permissions|mcp)\b/g,
  /\b(?:prompt|always|never|off|openai|anthropic|gemini|flags|json|compile|deno|Deno|Gemini CLI)\b/g,
  /\b(?:discoveryCommand|elicitation|stdin|stdout|stderr|stdio|argv|timeout_ms|max_depth|kill|env|xargs|spawn\.json|rules\.json|settings\.json|deno\.json)\b/g,
  /\b(?:allow|deny|ask|test|cwd|command|agent)\b/g,
];

Deno.test("the CLI speaks the locale of --locale, BASIS_LOCALE or LANG; names and schemas stay", async () => {
  await using dirs = await scratch(oneTool("wc", {
    input_schema: { type: "object", required: ["text"] },
    command: ["cat"],
  }));
  const refused = await cli(dirs, ["call", "wc", "{}", "--approve", "always", "--locale", "uk-UA"]);
  assert.equal(refused.code, 4);
  assert.equal(
    refused.stderr,
    'basis-tools: Вхідні дані не відповідають схемі інструмента "wc": /text: відсутня обов’язкова властивість\n',
  );
  const fromLang = await cli(dirs, ["call", "nope", "{}"], {
    env: { LANG: "uk_UA.UTF-8", BASIS_LOCALE: "" },
  });
  assert.equal(fromLang.code, 2);
  assert.match(fromLang.stderr, /^basis-tools: Не вдалося знайти інструмент "nope"/);
  const overridden = await cli(dirs, ["call", "nope", "{}", "--locale", "en-US"], {
    env: { LANG: "uk_UA.UTF-8" },
  });
  assert.match(overridden.stderr, /^basis-tools: Cannot find tool "nope"/);
  const unknown = await cli(dirs, ["frobnicate"], { env: { BASIS_LOCALE: "uk-UA" } });
  assert.equal(unknown.code, 2);
  assert.equal(
    unknown.stderr,
    'basis-tools: Невідома команда "frobnicate": див. basis-tools --help\n',
  );
  const fallback = await cli(dirs, ["frobnicate", "--locale", "fr-FR"]);
  assert.match(fallback.stderr, /Unknown command "frobnicate"/);
  const json = await cli(dirs, ["--json", "call", "wc", "[]", "--locale", "uk-UA"]);
  assert.equal(JSON.parse(json.stdout).error.kind, "invalid_input");
  assert.match(JSON.parse(json.stdout).error.message, /має бути об’єктом JSON, а отримано масив/);

  const en = JSON.parse((await cli(dirs, ["schema", "--format", "mcp"])).stdout);
  const uk = JSON.parse(
    (await cli(dirs, ["schema", "--format", "mcp", "--locale", "uk-UA"])).stdout,
  );
  assert.deepEqual(uk.map((tool: { name: string }) => tool.name), ["wc", "spawn"]);
  assert.deepEqual(
    uk.map((tool: { inputSchema: unknown }) => tool.inputSchema),
    en.map((tool: { inputSchema: unknown }) => tool.inputSchema),
  );
  assert.notEqual(uk[1].description, en[1].description);
  assert.match(uk[1].title, CYRILLIC);
});

Deno.test("--help is Ukrainian for uk-UA (every command), English unchanged otherwise", async () => {
  await using dirs = await scratch();
  for (
    const command of [
      [],
      ["list"],
      ["show"],
      ["check"],
      ["call"],
      ["spawn"],
      ["schema"],
      [
        "rules",
      ],
      ["permissions"],
      ["mcp"],
      ["init"],
      ["help"],
    ]
  ) {
    const en = await cli(dirs, [...command, "--help"]);
    const uk = await cli(dirs, [...command, "--help", "--locale", "uk-UA"]);
    const fromLang = await cli(dirs, [...command, "--help"], {
      env: { BASIS_LOCALE: "", LANG: "uk_UA.UTF-8" },
    });
    assert.equal(uk.code, 0);
    assert.equal(fromLang.stdout, uk.stdout);
    assert.notEqual(uk.stdout, en.stdout, command.join(" "));
    assert.match(uk.stdout, CYRILLIC);
    assertNoEnglish(uk.stdout, en.stdout, HELP_KEPT);
    // Option names are never translated.
    const options = (text: string) => [...new Set(text.match(/--[a-z][a-z-]*/g))].sort();
    assert.deepEqual(options(uk.stdout), options(en.stdout), command.join(" "));
  }
  // No command: the program's help on stderr, exit 2, in the locale too.
  const bare = await cli(dirs, ["--locale", "uk-UA"]);
  assert.equal(bare.code, 2);
  assert.match(bare.stderr, /^basis-tools — оголошені програми/);
});
