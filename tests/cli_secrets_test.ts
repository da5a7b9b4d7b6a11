/**
 * End to end: the secrets of a call (the tool's env values and the `--env` values) reach nothing
 * basis-tools prints or writes — cut results, error messages, streamed output, spill files, the
 * audit trail, spawn, MCP results.
 *
 * @module
 */

import assert from "node:assert/strict";
import { DeclaredToolBuilder } from "../src/contract/declared_tool.ts";
import type { ToolSpec } from "../src/manifest/types.ts";
import { cli, ROOT, SANDBOX_WORKS, type Scratch, scratch } from "./_cli.ts";
import { callTool, connectMcp, resultText } from "./_mcp.ts";
import { toolSpec, UNCONFINED_SANDBOX } from "./_fixtures.ts";
import { wording } from "./_wording.ts";
import { loadRoster } from "../src/manifest/load.ts";
import { DEFINITION_FORMATS } from "../src/contract/types.ts";

const RUN_FIXTURES = `${ROOT}tests/fixtures/run`;
const ALWAYS = ["--approve", "always"];
const SECRET = "Zq9W-straddle-secret-5e4d";
/** Its first characters: a secret cut short must not leave even these behind. */
const HEAD = SECRET.slice(0, 4);

function tools(entries: Record<string, Record<string, unknown>>): unknown {
  const out: Record<string, unknown> = {};
  for (const [name, tool] of Object.entries(entries)) {
    out[name] = { description: name, input_schema: { type: "object" }, ...tool };
  }
  return { schema: 1, tools: out };
}

/** A tool printing `before` bytes of "x", then the secret (on stderr and exiting 1 if `err`). */
function around(before: number, err = false): Record<string, unknown> {
  // The secret from env ("" says so): one written in the command itself is refused.
  const args = [String(before), "", ...(err ? ["stderr", "1"] : [])];
  return { command: [`${RUN_FIXTURES}/print_around.sh`, ...args], env: { TOKEN: SECRET } };
}

async function withScratch(manifest: unknown, body: (dirs: Scratch) => Promise<void>) {
  await using dirs = await scratch(manifest);
  await body(dirs);
}

Deno.test("call --json and MCP redact before they cut: a secret straddling the 50 KiB or the 4 KiB cut leaves no part of itself", async () => {
  const manifest = tools({
    result_cut: around(51_200 - 3),
    result_cut_early: around(51_200 - 8),
    error_cut: around(4096 - 2, true),
    error_cut_early: around(4096 - 8, true),
  });
  await withScratch(manifest, async (dirs) => {
    for (const name of ["result_cut", "result_cut_early", "error_cut", "error_cut_early"]) {
      const result = await cli(dirs, ["call", name, "{}", ...ALWAYS, "--json"]);
      const printed = result.stdout + result.stderr;
      assert.ok(!printed.includes(HEAD), `${name} printed part of the secret:\n${printed}`);
      const json = JSON.parse(result.stdout);
      assert.ok(
        name.startsWith("result") ? json.truncated : /cut; /.test(json.error.message),
        result.stdout.slice(-300),
      );
    }
    const session = await connectMcp(dirs, ["mcp", ...ALWAYS]);
    try {
      for (const name of ["result_cut", "error_cut"]) {
        const text = resultText(await callTool(session, name));
        assert.ok(!text.includes(HEAD), `MCP ${name} gave part of the secret:\n${text}`);
      }
    } finally {
      await session.close();
    }
  });
});

Deno.test("call streams a tool's output redacted, a secret split across two reads too", async () => {
  const half = SECRET.length / 2;
  const manifest = tools({
    split: {
      command: [
        `${RUN_FIXTURES}/print_split.sh`,
        `token=${SECRET.slice(0, half)}`,
        SECRET.slice(half),
      ],
      env: { TOKEN: SECRET },
    },
  });
  await withScratch(manifest, async (dirs) => {
    const result = await cli(dirs, ["call", "split", "{}", ...ALWAYS]);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, "token=[redacted]\n");
    assert.equal(result.stderr, "token=[redacted]\n");
  });
});

Deno.test("--env values are secrets: not in the streamed output, --json, spawn, MCP or the audit trail", async () => {
  const canary = "CANARY-env-flag-8d7c6b5a";
  const manifest = tools({
    show: { command: ["sh", "-c", 'printf "key %s\\n" "$API_KEY"; echo "err $API_KEY" >&2'] },
    fail: { command: ["sh", "-c", 'echo "bad $API_KEY" >&2; exit 3'] },
  });
  await withScratch(manifest, async (dirs) => {
    const flag = ["--env", `API_KEY=${canary}`];
    const runs = [
      ["call", "show", "{}"],
      ["call", "show", "{}", "--json"],
      ["call", "fail", "{}"],
      ["call", "fail", "{}", "--json"],
      ["spawn", '!echo "$API_KEY"; echo "$API_KEY" >&2'],
      ["spawn", '!echo "$API_KEY" >&2; exit 4', "--json"],
      ["call", "spawn", '{"input":"!echo $API_KEY"}', "--json"],
    ];
    for (const args of runs) {
      const result = await cli(dirs, [...args, ...ALWAYS, ...flag]);
      const printed = result.stdout + result.stderr;
      assert.ok(!printed.includes(canary), `${args.join(" ")} printed the canary:\n${printed}`);
      assert.match(printed, /\[redacted\]/, args.join(" "));
    }
    const session = await connectMcp(dirs, ["mcp", ...ALWAYS, ...flag]);
    try {
      for (
        const [name, input] of [["show", {}], ["fail", {}], ["spawn", { input: "!echo $API_KEY" }]]
      ) {
        const result = await callTool(session, name as string, input as Record<string, unknown>);
        const text = JSON.stringify(result);
        assert.ok(!text.includes(canary), `MCP ${name} gave the canary:\n${text}`);
      }
    } finally {
      await session.close();
    }
    // Inputs that hold the value are recorded redacted too.
    await cli(dirs, ["call", "show", JSON.stringify({ note: canary }), ...ALWAYS, ...flag]);
    const audit = await Deno.readTextFile(`${dirs.stateDir}/audit.jsonl`);
    assert.ok(audit.length > 0);
    assert.ok(!audit.includes(canary), audit);
  });
});

Deno.test("the approver is given the --env values among the secrets it must not show", async () => {
  const spec: ToolSpec = toolSpec("t", ["true"], { env: { TOKEN: "manifest-1234" } });
  let seen: readonly string[] = [];
  const tool = new DeclaredToolBuilder(spec, {
    env: { API_KEY: "flag-5678", SHORT: "no" },
    spillDir: false,
    sandbox: UNCONFINED_SANDBOX,
    approver: (_request, context) => {
      seen = context.secrets;
      return Promise.resolve({ allowed: false, by: "policy", ruleId: undefined, reason: "no" });
    },
  }).build();
  await assert.rejects((await tool.execution({})).execute());
  assert.deepEqual([...seen].sort(), ["flag-5678", "manifest-1234"]);
});

Deno.test("call --json spills the full output redacted, ends the spill file at 16 MiB, and keeps the state directory private", async () => {
  const big = 16 * 1024 * 1024 + 4096;
  const manifest = tools({
    spill: around(60_000),
    huge: { command: ["sh", "-c", `yes 0123456789abcde | head -c ${big}`] },
  });
  await withScratch(manifest, async (dirs) => {
    const spilled = JSON.parse(
      (await cli(dirs, ["call", "spill", "{}", ...ALWAYS, "--json", "--audit-log", "off"])).stdout,
    );
    const path = /full output: (\S+)\]$/.exec(spilled.result)?.[1] ?? "";
    const text = await Deno.readTextFile(path);
    assert.equal(text, `${"x".repeat(60_000)}[redacted]`);
    if (Deno.build.os !== "windows") {
      // No audit log made the state directory first: the spill file's directories are 0700 still.
      assert.equal((await Deno.stat(dirs.stateDir)).mode! & 0o777, 0o700);
      assert.equal((await Deno.stat(`${dirs.stateDir}/spill`)).mode! & 0o777, 0o700);
      assert.equal((await Deno.stat(path)).mode! & 0o777, 0o600);
    }

    const huge = JSON.parse((await cli(dirs, ["call", "huge", "{}", ...ALWAYS, "--json"])).stdout);
    assert.equal(huge.truncated, true);
    const note = /its first 16 MiB: (\S+)\]$/.exec(huge.result);
    assert.ok(note, huge.result.slice(-200));
    assert.equal((await Deno.stat(note[1] ?? "")).size, 16 * 1024 * 1024);
  });
});

Deno.test("a secret that is a number or a boolean in the input stays out of the audit trail and the dry run", async () => {
  const manifest = tools({ srv: { command: ["cat"], env: { PORT: "8080", DEBUG: "true" } } });
  await withScratch(manifest, async (dirs) => {
    const audit = `${dirs.root}/audit.jsonl`;
    const ran = await cli(dirs, [
      "call",
      "srv",
      '{"port":8080,"debug":true}',
      ...ALWAYS,
      "--audit-log",
      audit,
    ]);
    assert.equal(ran.code, 0, ran.stderr);
    const lines = await Deno.readTextFile(audit);
    assert.ok(!lines.includes("8080"), lines);
    assert.match(lines, /"input":\{"port":"\[redacted\]","debug":"\[redacted\]"\}/);
    for (
      const args of [["call", "srv", '{"port":8080}', "--dry-run"], [
        "rules",
        "test",
        "srv",
        '{"debug":true}',
      ]]
    ) {
      const dry = await cli(dirs, [...args, "--json"]);
      assert.equal(dry.code, 5, dry.stderr);
      assert.equal(dry.stderr, "");
      const shown = JSON.parse(dry.stdout).preview.input;
      assert.ok(!JSON.stringify(shown).includes("8080") && !JSON.stringify(shown).includes("true"));
    }
  });
});

Deno.test("an --env value quoted back by a refusal (spawn's input, a target, an unknown tool) is hidden", async () => {
  await withScratch(tools({}), async (dirs) => {
    const secret = "supersecret1";
    const runs = [
      ["call", "spawn", `{"input":"!ls","${secret}":1}`],
      ["spawn", `!@${secret} ls`],
      ["spawn", `!@x.${secret} ls`],
      ["call", secret, "{}"],
    ];
    for (const args of runs) {
      for (const json of [[], ["--json"]]) {
        const result = await cli(dirs, [...args, ...json, "--env", `TOKEN=${secret}`]);
        assert.notEqual(result.code, 0);
        assert.ok(!(result.stdout + result.stderr).includes(secret), result.stdout + result.stderr);
      }
    }
  });
});

Deno.test("a secret written into a title, a description, an input or output schema is not shown by list, show, help, schema in any format, the library or MCP", async () => {
  const secret = "hunter2-desc-secret";
  const manifest = {
    schema: 1,
    tools: {
      leak: {
        title: `Leaks ${secret}`,
        description: `Calls the API with ${secret}`,
        input_schema: { type: "object", properties: { k: { const: secret } } },
        output_schema: {
          type: "object",
          properties: { v: { type: "string", description: secret } },
        },
        command: ["cat"],
        env: { TOKEN: secret },
      },
    },
  };
  await withScratch(manifest, async (dirs) => {
    const runs = [
      ["list"],
      ["list", "--json"],
      ["show", "leak"],
      ["show", "leak", "--json"],
      ["call", "leak", "--help"],
      ...DEFINITION_FORMATS.map((format) => ["schema", "--format", format]),
    ];
    for (const args of runs) {
      const output = await cli(dirs, args);
      assert.equal(output.code, 0, output.stderr);
      const printed = output.stdout + output.stderr;
      assert.ok(!printed.includes(secret), `${args.join(" ")}:\n${printed}`);
      if (args[0] === "schema") assert.match(printed, /\[redacted\]/, args.join(" "));
    }
    const session = await connectMcp(dirs, ["mcp", "--approve", "always"]);
    try {
      const listed = await session.client.listTools();
      assert.ok(!JSON.stringify(listed).includes(secret), JSON.stringify(listed));
    } finally {
      await session.close();
    }
    // The library: everything a tool says of itself.
    const roster = await loadRoster({ workspace: dirs.root, configDir: dirs.configDir });
    const tool = new DeclaredToolBuilder(roster.tools.get("leak")!, {}).build();
    const said = [
      tool.displayName(),
      tool.description(),
      tool.help(),
      tool.systemPrompt(),
      tool.inputSchema(),
      tool.outputSchema(),
      ...DEFINITION_FORMATS.map((format) => tool.definition(format)),
    ];
    for (const text of said) {
      const shown = typeof text === "string" ? text : JSON.stringify(text);
      assert.ok(!shown.includes(secret), shown);
    }
  });
});

Deno.test("list shows a broken tool's description without its env secrets or the --env ones", async () => {
  const secret = "hunter2-broken-secret";
  const passed = "passed-broken-secret-31";
  const manifest = tools({
    broken: {
      description: `Uses ${secret} and ${passed}`,
      command: ["cat"],
      env: { TOKEN: secret, OTHER: { value: "x" } },
      timout_ms: 5,
    },
  });
  await withScratch(manifest, async (dirs) => {
    for (const json of [[], ["--json"]]) {
      const listed = await cli(dirs, ["list", "--env", `P=${passed}`, ...json]);
      assert.equal(listed.code, 0, listed.stderr);
      if (json.length > 0) {
        const row = JSON.parse(listed.stdout).find((row: { name: string }) =>
          row.name === "broken"
        );
        assert.equal(row.description, "Uses [redacted] and [redacted]");
      }
      assert.ok(!listed.stdout.includes(secret) && !listed.stdout.includes(passed), listed.stdout);
    }
  });
});

Deno.test("a secret the program writes JSON-escaped is hidden in --json's structured_content, result and stdout, and in MCP's structuredContent and text", async () => {
  // "Säkret-Wert-42" and "AZ-token-9931", as a program's JSON encoder may write them.
  const escaped = '{"name":"S\\u00e4kret-Wert-42","t":"\\u0041Z-token-9931"}';
  const manifest = tools({
    structured: {
      command: ["/bin/printf", "%s", escaped],
      env: { A: "Säkret-Wert-42", B: "AZ-token-9931" },
      output_schema: { type: "object" },
    },
  });
  const hidden = { name: "[redacted]", t: "[redacted]" };
  const clear = /Säkret|Z-token|S\\u00e4kret|u0041Z/;
  await withScratch(manifest, async (dirs) => {
    const result = await cli(dirs, ["call", "structured", "{}", ...ALWAYS, "--json"]);
    assert.equal(result.code, 0, result.stderr);
    const json = JSON.parse(result.stdout);
    assert.deepEqual(json.structured_content, hidden);
    assert.deepEqual(JSON.parse(json.result), hidden);
    assert.deepEqual(JSON.parse(json.stdout), hidden);
    assert.doesNotMatch(result.stdout, clear);
    const session = await connectMcp(dirs, ["mcp", ...ALWAYS]);
    try {
      const called = await callTool(session, "structured");
      assert.deepEqual(called.structuredContent, hidden);
      assert.deepEqual(JSON.parse(resultText(called)), hidden);
      assert.doesNotMatch(JSON.stringify(called), clear);
    } finally {
      await session.close();
    }
  });
});

Deno.test({
  name:
    "rules.json never holds a secret: pinned grant paths, --argv and --cwd, and an always-allow, all by digest",
  ignore: !SANDBOX_WORKS,
}, async () => {
  const secret = "Gr4nt-s3cret-dir";
  await using dirs = await scratch();
  const grant = `${await Deno.realPath(`${dirs.root}/..`)}/${secret}`;
  await Deno.mkdir(grant);
  // A secret of the call's (--env): one of the manifest's own may not be in a grant, shown
  // before approval (tests/manifest_test.ts).
  const env = ["--env", `TOKEN=${secret}`];
  const tool = { command: ["/bin/echo", "hi"], sandbox: { write: [grant] } };
  await Deno.writeTextFile(
    `${dirs.root}/.basis/tools.json`,
    JSON.stringify(tools({ grant: tool, asked: tool })),
  );
  const rulesFile = `${dirs.configDir}/rules.json`;
  const added = await cli(dirs, ["rules", "add", "--tool", "grant", ...env]);
  assert.equal(added.code, 0, added.stderr);
  const argv = JSON.stringify(["/bin/echo", secret]);
  const given = await cli(dirs, [
    "rules",
    "add",
    "--tool",
    "grant",
    "--deny",
    "--argv",
    argv,
    "--cwd",
    grant,
    ...env,
  ]);
  assert.equal(given.code, 0, given.stderr);
  assert.ok(!(await Deno.readTextFile(rulesFile)).includes(secret));
  assert.ok(!(added.stdout + given.stdout).includes(secret), added.stdout + given.stdout);
  // Where no digest can stand for it (an input value), the rule is refused, the secret unsaid.
  const input = await cli(dirs, [
    "rules",
    "add",
    "--tool",
    "grant",
    "--deny",
    "--input",
    `/x="${secret}"`,
    ...env,
  ]);
  assert.equal(input.code, 2, input.stderr);
  assert.match(input.stderr, wording("rules_file.holds_secret", { field: "when.input" }));
  assert.ok(!input.stderr.includes(secret), input.stderr);
  // The pinned rule still holds for exactly that call.
  const ran = await cli(dirs, ["call", "grant", "{}", "--approve", "never", ...env]);
  assert.equal(ran.code, 0, ran.stderr);
  const session = await connectMcp(dirs, ["mcp", ...env], {
    elicit: () => ({ action: "accept", content: { decision: "always_allow" } }),
  });
  try {
    assert.equal((await callTool(session, "asked")).isError, undefined);
  } finally {
    await session.close();
  }
  const stored = await Deno.readTextFile(rulesFile);
  assert.equal(JSON.parse(stored).rules.length, 3);
  assert.ok(!stored.includes(secret), stored);
  const again = await cli(dirs, ["call", "asked", "{}", "--approve", "never", ...env]);
  assert.equal(again.code, 0, again.stderr);
});
