/**
 * End-to-end tests of `basis-tools mcp`: the real server as a subprocess, driven by the MCP SDK's
 * own client over stdio (and once by the MCP Inspector's CLI mode, when npx can fetch it).
 *
 * @module
 */

import assert from "node:assert/strict";
// @ts-types="@modelcontextprotocol/sdk/types"
import {
  type CallToolResult,
  type ElicitResult,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import {
  cli,
  cliCommand,
  FIXTURES,
  oneTool,
  processesLeftInGroup,
  readPid,
  ROOT,
  type Scratch,
  scratch,
  unconfined,
} from "./_cli.ts";
import { callTool, connectMcp, type McpSession, resultText, within } from "./_mcp.ts";
import { tempDir } from "./_scratch.ts";
import { assertNoEnglish, CYRILLIC } from "./_no_english.ts";
import { ECHO_MANIFEST } from "./_fixtures.ts";
import { opening, say, wording } from "./_wording.ts";
import { counted, phrase } from "../src/locale/messages.ts";

/** The label of a tool's run, as messages name it. */
const tool = (name: string) => phrase("label.tool", { tool: `"${name}"` });

const MCP_FIXTURES = `${ROOT}tests/fixtures/mcp`;
const LINUX = Deno.build.os === "linux";

const ECHO = oneTool("echo", {
  description: "Echo the input",
  input_schema: {
    type: "object",
    properties: { text: { type: "string" }, count: { type: "integer", minimum: 0 } },
    required: ["text"],
  },
  command: ["cat"],
});

Deno.test("mcp lists the roster with titles, schemas and annotations; stdout is the protocol only", async () => {
  await using dirs = await scratch({
    schema: 1,
    tools: {
      echo: (ECHO as { tools: Record<string, unknown> }).tools.echo,
      fetch_page: {
        description: "Fetch a web page",
        input_schema: {},
        command: ["cat"],
        side_effect: "external",
      },
    },
  });
  const session = await connectMcp(dirs, ["mcp"]);
  try {
    const { tools } = await session.client.listTools();
    assert.deepEqual(tools.map((tool) => tool.name), ["echo", "fetch_page", "spawn"]);
    const echo = tools[0]!;
    assert.equal(echo.title, "Echo");
    assert.equal(echo.description, "Echo the input");
    assert.deepEqual(echo.inputSchema.required, ["text"]);
    assert.deepEqual(echo.annotations, {
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: false,
    });
    // A manifest may leave "type" out; MCP clients refuse a schema without it.
    assert.equal(tools[1]!.inputSchema.type, "object");
    assert.equal(tools[1]!.annotations?.openWorldHint, true);
    assert.equal(tools[2]!.annotations?.openWorldHint, true);
    assert.ok(session.client.getServerCapabilities()?.tools?.listChanged);
    assert.equal(session.client.getServerVersion()?.name, "basis-tools");
  } finally {
    await session.close();
  }
  assert.deepEqual(session.errors, []);
});

Deno.test("mcp: a call runs the tool; bad input names the field; an unknown tool is a protocol error", async () => {
  await using dirs = await scratch(ECHO);
  const session = await connectMcp(dirs, ["mcp", "--approve", "always"]);
  try {
    const ok = await callTool(session, "echo", { text: "hello", count: 2 });
    assert.equal(ok.isError, undefined);
    assert.equal(resultText(ok), '{"text":"hello","count":2}');

    const refused = await callTool(session, "echo", { text: "hello", count: -1 });
    assert.equal(refused.isError, true);
    assert.match(
      resultText(refused),
      opening("schema.refused", { tool: '"echo"', pointer: "/count" }),
    );
    const missing = await callTool(session, "echo", {});
    assert.equal(missing.isError, true);
    assert.match(resultText(missing), /text/);

    await assert.rejects(
      () => callTool(session, "ecoh", {}),
      (error: Error & { code?: number }) => {
        assert.equal(error.code, -32602);
        assert.match(
          error.message,
          wording("mcp.unknown_tool_near", { tool: '"ecoh"', names: '"echo"' }),
        );
        return true;
      },
    );
  } finally {
    await session.close();
  }
  assert.deepEqual(session.errors, []);
});

Deno.test("mcp: with no rule and no elicitation a call is denied, saying how to add a rule", async () => {
  await using temp = await tempDir();
  const marker = `${temp.path}/marker`;
  await using dirs = await scratch(oneTool("touch", { command: ["touch", marker] }));
  const session = await connectMcp(dirs, ["mcp"]);
  try {
    const denied = await callTool(session, "touch", {});
    assert.equal(denied.isError, true);
    assert.match(resultText(denied), opening("elicit.no_client", { tool: '"touch"' }));
    assert.match(resultText(denied), /rules add --tool touch/);
    assert.match(resultText(denied), /--approve always/);
    assert.ok(!(await exists(marker)), "a denied call must not run");

    const never = await connectMcp(dirs, ["mcp", "--approve", "never"]);
    try {
      const result = await callTool(never, "touch", {});
      assert.equal(result.isError, true);
      assert.match(resultText(result), /denied/);
    } finally {
      await never.close();
    }
    assert.ok(!(await exists(marker)));
  } finally {
    await session.close();
  }
});

Deno.test("mcp: a remembered rule allows a call without asking anyone", async () => {
  await using dirs = await scratch(ECHO);
  const added = await cli(dirs, ["rules", "add", "--tool", "echo"]);
  assert.equal(added.code, 0, added.stderr);
  let asked = 0;
  const session = await connectMcp(dirs, ["mcp"], {
    elicit: () => {
      asked++;
      return { action: "decline" };
    },
  });
  try {
    const result = await callTool(session, "echo", { text: "ruled" });
    assert.equal(result.isError, undefined, resultText(result));
    assert.equal(resultText(result), '{"text":"ruled"}');
    assert.equal(asked, 0);
  } finally {
    await session.close();
  }
});

Deno.test("mcp: elicitation asks the person; allow once runs, decline denies, always remembers", async () => {
  await using dirs = await scratch(ECHO);
  const answers: string[] = [];
  const questions: string[] = [];
  const session = await connectMcp(dirs, ["mcp"], {
    elicit: (message, schema) => {
      questions.push(message);
      const decision = answers.shift();
      assert.ok(decision !== undefined, "asked more often than expected");
      const field = (schema as { properties: Record<string, { enum: string[] }> }).properties
        .decision!;
      assert.deepEqual(field.enum, ["allow_once", "always_allow", "deny"]);
      return decision === "decline"
        ? { action: "decline" }
        : { action: "accept", content: { decision } };
    },
  });
  try {
    answers.push("allow_once");
    const once = await callTool(session, "echo", { text: "once" });
    assert.equal(resultText(once), '{"text":"once"}');
    assert.match(questions[0]!, /tool +echo/);
    assert.match(questions[0]!, /command +cat/);
    assert.match(questions[0]!, /"text":"once"/);

    answers.push("decline");
    const declined = await callTool(session, "echo", { text: "no" });
    assert.equal(declined.isError, true);
    assert.match(resultText(declined), opening("elicit.declined", { tool: '"echo"' }));

    answers.push("deny");
    const denied = await callTool(session, "echo", { text: "no" });
    assert.equal(denied.isError, true);

    answers.push("always_allow");
    const always = await callTool(session, "echo", { text: "always" });
    assert.equal(resultText(always), '{"text":"always"}');
    const rules = JSON.parse(await Deno.readTextFile(`${dirs.configDir}/rules.json`)) as {
      rules: { tool: string; decision: string; when: Record<string, unknown> }[];
    };
    assert.equal(rules.rules.length, 1);
    assert.equal(rules.rules[0]!.tool, "echo");
    assert.equal(rules.rules[0]!.decision, "allow");
    // Pinned as shown: the resolved program, every argument, the cwd; any input (and the
    // program's content where root runs it: only then can this user change a system program).
    const when = rules.rules[0]!.when;
    assert.deepEqual(Object.keys(when).filter((key) => key !== "content"), [
      "program",
      "argv",
      "cwd",
    ]);
    assert.match(String(when.program), /^\/.*\/cat$/);
    assert.deepEqual(when.argv, ["cat"]);
    assert.match(questions[0]!, /program +\/.*\/cat\n/);

    // Remembered: the next call, with another input, asks no one.
    const again = await callTool(session, "echo", { text: "again" });
    assert.equal(resultText(again), '{"text":"again"}');
    assert.equal(questions.length, 4);
  } finally {
    await session.close();
  }
  assert.deepEqual(session.errors, []);
});

Deno.test("mcp: a failed run is an error result carrying its stderr", async () => {
  await using dirs = await scratch({
    schema: 1,
    tools: {
      disk: { description: "d", input_schema: {}, command: [`${FIXTURES}/stderr_exit4.sh`] },
      killed: { description: "k", input_schema: {}, command: [`${FIXTURES}/kill_self.sh`] },
    },
  });
  const session = await connectMcp(dirs, ["mcp", "--approve", "always"]);
  try {
    const result = await callTool(session, "disk", {});
    assert.equal(result.isError, true);
    assert.ok(
      resultText(result).startsWith(`${say("run.exit", { label: tool("disk"), code: 4 })}: boom`),
      resultText(result),
    );
    assert.match(resultText(result), /: boom: the disk is full/);
    const killed = await callTool(session, "killed", {});
    assert.equal(killed.isError, true);
    assert.match(resultText(killed), opening("run.signal", { label: tool("killed") }));
    assert.match(resultText(killed), /signal SIG/);
  } finally {
    await session.close();
  }
});

Deno.test({
  name: "mcp: a timed-out call stops its whole process group, grandchild included",
  ignore: !LINUX,
}, async () => {
  await using pids = await tempDir();
  const pidFile = `${pids.path}/pgid`;
  await using dirs = await scratch(
    oneTool("slow", { command: [`${FIXTURES}/grandchild.sh`, pidFile], timeout_ms: 400 }),
  );
  await unconfined(dirs);
  const session = await connectMcp(dirs, ["mcp", "--approve", "always"]);
  try {
    const result = await callTool(session, "slow", {});
    assert.equal(result.isError, true);
    assert.match(resultText(result), opening("run.timed_out", { label: tool("slow"), ms: 400 }));
    const pgid = await readPid(pidFile);
    assert.deepEqual(await processesLeftInGroup(pgid), []);
  } finally {
    await session.close();
  }
});

Deno.test({
  name: "mcp: cancelling a request stops that call's process group; the server goes on",
  ignore: !LINUX,
}, async () => {
  await using pids = await tempDir();
  const pidFile = `${pids.path}/pgid`;
  await using dirs = await scratch({
    schema: 1,
    tools: {
      forever: {
        description: "Never ends",
        input_schema: { type: "object" },
        command: [`${FIXTURES}/grandchild.sh`, pidFile],
      },
      echo: (ECHO as { tools: Record<string, unknown> }).tools.echo,
    },
  });
  await unconfined(dirs);
  const session = await connectMcp(dirs, ["mcp", "--approve", "always"]);
  try {
    const abort = new AbortController();
    const running = session.client.callTool({ name: "forever", arguments: {} }, undefined, {
      signal: abort.signal,
    });
    const pgid = await readPid(pidFile);
    abort.abort("the person changed their mind");
    await assert.rejects(running);
    assert.deepEqual(await processesLeftInGroup(pgid), []);
    const cancelled = session.messages.find((m) =>
      m.direction === "sent" && "method" in m.message &&
      m.message.method === "notifications/cancelled"
    );
    assert.ok(cancelled, "the client sent notifications/cancelled");
    // The server is still there.
    assert.equal(
      resultText(await callTool(session, "echo", { text: "after" })),
      '{"text":"after"}',
    );
  } finally {
    await session.close();
  }
});

Deno.test({
  name: "mcp: closing stdin ends the server and stops every running call",
  ignore: !LINUX,
}, async () => {
  await using records = await tempDir();
  const dir = records.path;
  await using dirs = await scratch({
    schema: 1,
    tools: {
      one: {
        description: "1",
        input_schema: {},
        command: [`${FIXTURES}/grandchild.sh`, `${dir}/1`],
      },
      two: {
        description: "2",
        input_schema: {},
        command: [`${FIXTURES}/grandchild.sh`, `${dir}/2`],
      },
    },
  });
  await unconfined(dirs);
  const session = await connectMcp(dirs, ["mcp", "--approve", "always"]);
  const serverPid = session.transport.pid;
  assert.ok(serverPid !== null);
  const running = [callTool(session, "one"), callTool(session, "two")];
  for (const call of running) call.catch(() => {});
  const groups = [await readPid(`${dir}/1`), await readPid(`${dir}/2`)];
  const started = performance.now();
  await session.close();
  // StdioClientTransport waits 2 s before it sends SIGTERM: the server must end well before.
  assert.ok(performance.now() - started < 1900, "the server ended on its own when stdin closed");
  for (const pgid of groups) assert.deepEqual(await processesLeftInGroup(pgid), []);
  assert.ok(!(await exists(`/proc/${serverPid}`)), "the server process is gone");
});

Deno.test("mcp: three calls in flight at once are independent", async () => {
  await using meeting = await tempDir();
  const barrier = meeting.path;
  await using dirs = await scratch(
    oneTool("meet", { command: [`${MCP_FIXTURES}/barrier.sh`, barrier, "3"] }),
  );
  await unconfined(dirs);
  const session = await connectMcp(dirs, ["mcp", "--approve", "always"]);
  try {
    // Each call waits until all three have started: run one after another, none would finish.
    const results = await Promise.all(
      ["a", "b", "c"].map((id) => callTool(session, "meet", { id })),
    );
    assert.deepEqual(results.map(resultText), ["a", "b", "c"]);
    assert.ok(results.every((result) => result.isError === undefined));
  } finally {
    await session.close();
  }
});

Deno.test("mcp: progress notifications while a tool prints, at most about ten a second", async () => {
  await using dirs = await scratch({
    schema: 1,
    tools: {
      tick: {
        description: "t",
        input_schema: {},
        command: [`${MCP_FIXTURES}/tick.sh`, "5", "0.15"],
      },
      burst: { description: "b", input_schema: {}, command: [`${FIXTURES}/lines.sh`, "3000"] },
    },
  });
  const session = await connectMcp(dirs, ["mcp", "--approve", "always"]);
  try {
    const ticks: { progress: number; message?: string | undefined }[] = [];
    const result = await session.client.callTool({ name: "tick", arguments: {} }, undefined, {
      onprogress: (progress) => ticks.push(progress),
    });
    assert.match(resultText(result), /^line 1\n.*line 5$/s);
    assert.ok(ticks.length >= 3, `expected progress, got ${JSON.stringify(ticks)}`);
    for (let i = 1; i < ticks.length; i++) assert.ok(ticks[i]!.progress > ticks[i - 1]!.progress);
    assert.equal(
      ticks[0]!.message,
      say("mcp.progress", { count: 1, lines: counted(1, "count.lines") }),
    );

    const burst: number[] = [];
    const started = performance.now();
    const big = await session.client.callTool({ name: "burst", arguments: {} }, undefined, {
      onprogress: (progress) => burst.push(progress.progress),
    });
    const seconds = (performance.now() - started) / 1000;
    assert.ok(burst.length <= Math.ceil(seconds * 10) + 2, `${burst.length} in ${seconds} s`);
    // Beyond 2,000 lines the result is cut, naming the file that holds all of it.
    const spill = /full output: (\S+)\]$/.exec(resultText(big))?.[1];
    assert.ok(spill, resultText(big).slice(-300));
    assert.equal((await Deno.readTextFile(spill)).split("\n").length, 3001);

    // Without a progress token, no progress.
    const before = session.messages.length;
    await callTool(session, "tick");
    const progress = session.messages.slice(before).filter((m) =>
      "method" in m.message && m.message.method === "notifications/progress"
    );
    assert.deepEqual(progress, []);
  } finally {
    await session.close();
  }
});

Deno.test("mcp: editing the manifest sends list_changed; a broken edit keeps the last good roster", async () => {
  await using dirs = await scratch(ECHO);
  const session = await connectMcp(dirs, ["mcp", "--approve", "always"]);
  try {
    let changed = Promise.withResolvers<void>();
    session.client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      changed.resolve();
    });
    const manifest = {
      schema: 1,
      tools: {
        ...(ECHO as { tools: Record<string, unknown> }).tools,
        shout: { description: "Shout", input_schema: {}, command: ["cat"] },
      },
    };
    await Deno.writeTextFile(`${dirs.root}/.basis/tools.json`, JSON.stringify(manifest));
    await within(changed.promise, 10_000, "notifications/tools/list_changed");
    const { tools } = await session.client.listTools();
    assert.deepEqual(tools.map((tool) => tool.name), ["echo", "shout", "spawn"]);
    assert.equal(resultText(await callTool(session, "shout", { a: 1 })), '{"a":1}');

    // A broken edit: logged on stderr, the roster stays as it was.
    changed = Promise.withResolvers<void>();
    await Deno.writeTextFile(`${dirs.root}/.basis/tools.json`, '{"schema": 1, "tools": {"x": ');
    await session.stderrContains("Cannot reload the roster");
    // The problem, file and position, on the lines that follow, in the same write.
    assert.match(
      session.stderr(),
      new RegExp(`${wording("mcp.reload_failed").source}.*\\nbasis-tools: +\\S*tools\\.json:1:`),
    );
    const after = await session.client.listTools();
    assert.deepEqual(after.tools.map((tool) => tool.name), ["echo", "shout", "spawn"]);
    assert.equal(resultText(await callTool(session, "shout", { b: 2 })), '{"b":2}');

    // spawn.json in the config directory is watched too.
    await Deno.writeTextFile(
      `${dirs.configDir}/spawn.json`,
      JSON.stringify({ targets: { builder: ["ssh", "builder", "--"] } }),
    );
    await Deno.writeTextFile(`${dirs.root}/.basis/tools.json`, JSON.stringify(manifest));
    await within(changed.promise, 10_000, "list_changed after the fix");
    const spawn = (await session.client.listTools()).tools.find((t) => t.name === "spawn");
    assert.match(spawn?.description ?? "", /builder/);
  } finally {
    await session.close();
  }
  assert.deepEqual(session.errors, []);
});

Deno.test("mcp: the watch survives .basis/ being deleted and created again", async () => {
  await using dirs = await scratch(ECHO);
  const session = await connectMcp(dirs, ["mcp", "--approve", "always"]);
  try {
    let changed = Promise.withResolvers<void>();
    session.client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      changed.resolve();
    });
    const manifest = (names: string[]) =>
      JSON.stringify({
        schema: 1,
        tools: Object.fromEntries(
          names.map((name) => [name, { description: name, input_schema: {}, command: ["cat"] }]),
        ),
      });
    const names = async () => (await session.client.listTools()).tools.map((tool) => tool.name);

    // Replaced in one go, as `git checkout` or an editor's atomic save of a directory does.
    const basis = `${dirs.root}/.basis`;
    await Deno.remove(basis, { recursive: true });
    await Deno.mkdir(basis);
    await Deno.writeTextFile(`${basis}/tools.json`, manifest(["first"]));
    await within(changed.promise, 10_000, "list_changed after .basis/ was replaced");
    assert.deepEqual(await names(), ["first", "spawn"]);

    // Later edits of the new directory are seen too, and the old command is gone.
    changed = Promise.withResolvers<void>();
    await Deno.writeTextFile(`${basis}/tools.json`, manifest(["second"]));
    await within(changed.promise, 10_000, "list_changed after an edit of the new .basis/");
    assert.deepEqual(await names(), ["second", "spawn"]);
    assert.equal(resultText(await callTool(session, "second", { n: 2 })), '{"n":2}');

    // And once more: deleted, nothing for a while, then back.
    changed = Promise.withResolvers<void>();
    await Deno.remove(basis, { recursive: true });
    await within(changed.promise, 10_000, "list_changed after .basis/ was deleted");
    assert.deepEqual(await names(), ["spawn"]);
    changed = Promise.withResolvers<void>();
    await Deno.mkdir(basis);
    await Deno.writeTextFile(`${basis}/tools.json`, manifest(["third"]));
    await within(changed.promise, 10_000, "list_changed after .basis/ came back");
    assert.deepEqual(await names(), ["third", "spawn"]);
  } finally {
    await session.close();
  }
  assert.deepEqual(session.errors, []);
});

Deno.test("mcp: a broken manifest at start exits 6 with the problem on stderr, nothing on stdout", async () => {
  await using dirs = await scratch('{"schema": 2, "tools": {"x": {"description": "x"}}}');
  const output = await cli(dirs, ["mcp"]);
  assert.equal(output.code, 6);
  assert.equal(output.stdout, "");
  assert.match(output.stderr, /tools\.json.*schema.*2/);
});

Deno.test("mcp: a secret never appears in any message, either way", async () => {
  const canary = "CANARY-mcp-5f4e3d2c1b";
  await using dirs = await scratch({
    schema: 1,
    tools: {
      leak: {
        description: "Prints its token",
        input_schema: { type: "object", properties: { n: { type: "integer" } } },
        command: [`${MCP_FIXTURES}/leak.sh`, "0"],
        env: { TOKEN: "${MCP_CANARY}" },
      },
      fail: {
        description: "Prints its token and fails",
        input_schema: {},
        command: [`${MCP_FIXTURES}/leak.sh`, "3"],
        env: { TOKEN: "${MCP_CANARY}" },
      },
      arg: {
        description: "Echoes its token",
        input_schema: {},
        command: ["sh", "-c", 'echo "$TOKEN"'],
        env: { TOKEN: "${MCP_CANARY}" },
      },
    },
  });
  const questions: string[] = [];
  const session = await connectMcp(dirs, ["mcp"], {
    env: { MCP_CANARY: canary },
    elicit: (message) => {
      questions.push(message);
      return { action: "accept", content: { decision: "always_allow" } };
    },
  });
  try {
    const withProgress = { onprogress: () => {} };
    const ok = await session.client.callTool(
      { name: "leak", arguments: {} },
      undefined,
      withProgress,
    );
    assert.match(resultText(ok), /stdout says \[redacted\]/);
    const failed = await session.client.callTool(
      { name: "fail", arguments: {} },
      undefined,
      withProgress,
    );
    assert.equal(failed.isError, true);
    assert.match(resultText(failed), /stderr says \[redacted\]/);
    await callTool(session, "leak", { n: "not a number" });
    await callTool(session, "arg", {});
    assert.ok(questions.length >= 3);
    await session.client.listTools();
  } finally {
    await session.close();
  }
  const everything = JSON.stringify(session.messages);
  assert.ok(everything.includes("[redacted]"), "the test must have seen redacted output");
  assert.ok(!everything.includes(canary), "a message carried the secret");
  assert.ok(!session.stderr().includes(canary), "the server's stderr carried the secret");
  const rules = await Deno.readTextFile(`${dirs.configDir}/rules.json`);
  assert.ok(!rules.includes(canary), "a remembered rule carried the secret");
});

/** The cache directory this Deno uses (DENO_DIR, else its default). */
async function denoDir(): Promise<string> {
  const set = Deno.env.get("DENO_DIR");
  if (set !== undefined) return set;
  const info = await new Deno.Command(Deno.execPath(), { args: ["info", "--json"] }).output();
  return (JSON.parse(new TextDecoder().decode(info.stdout)) as { denoDir: string }).denoDir;
}

Deno.test("the test client passes the server what its Deno needs (DENO_DIR and the like)", async () => {
  await using dirs = await scratch(oneTool("env", {
    command: ["sh", "-c", 'printf "%s|%s" "$DENO_DIR" "$DENO_NO_UPDATE_CHECK"'],
  }));
  const saved = ["DENO_DIR", "DENO_NO_UPDATE_CHECK"].map((name) => [name, Deno.env.get(name)]);
  // The same cache this Deno uses, named explicitly: what a custom DENO_DIR looks like.
  const cache = await denoDir();
  Deno.env.set("DENO_DIR", cache);
  Deno.env.set("DENO_NO_UPDATE_CHECK", "1");
  try {
    const session = await connectMcp(dirs, ["mcp", "--approve", "always"]);
    try {
      assert.equal(resultText(await callTool(session, "env")), `${cache}|1`);
    } finally {
      await session.close();
    }
  } finally {
    for (const [name, value] of saved) {
      if (value === undefined) Deno.env.delete(name!);
      else Deno.env.set(name!, value);
    }
  }
});

Deno.test({
  name: "the test client gives up on a server that never answers soon, saying why",
  // The bundle inlines its npm packages: with an empty cache it has nothing to download, so it
  // answers at once. The harness is the same either way; from source it is tested.
  ignore: Deno.env.get("BASIS_TEST_BUNDLE") !== undefined,
}, async () => {
  // A registry that takes connections and never answers: a Deno with an empty cache hangs on it.
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const held: Deno.Conn[] = [];
  const accepting = (async () => {
    for await (const conn of listener) held.push(conn);
  })().catch(() => {});
  await using emptyCache = await tempDir();
  await using dirs = await scratch(ECHO);
  try {
    const started = performance.now();
    const failed = await connectMcp(dirs, ["mcp"], {
      env: {
        DENO_DIR: emptyCache.path,
        NPM_CONFIG_REGISTRY: `http://127.0.0.1:${(listener.addr as Deno.NetAddr).port}/`,
      },
      readyMs: 2000,
    }).then(() => undefined, (error: Error) => error);
    assert.ok(failed instanceof Error, "connecting should have failed");
    assert.ok(performance.now() - started < 15_000, "it gave up soon");
    assert.match(failed.message, /^The MCP server did not answer initialize within 2000 ms/);
    assert.match(failed.message, /Passed to the server: DENO_DIR, NPM_CONFIG_REGISTRY\b/);
    assert.match(failed.message, /downloads them/);
  } finally {
    listener.close();
    for (const conn of held) conn.close();
    await accepting;
  }
});

Deno.test({
  name: "the MCP Inspector's CLI mode lists and calls the tools (skipped when npx cannot fetch it)",
  ignore: Deno.env.get("BASIS_SKIP_INSPECTOR") === "1",
}, async (t) => {
  await using dirs = await scratch(ECHO);
  const inspector = (...args: string[]) => {
    // The Inspector starts the server itself, from its own working directory: -C names ours.
    const server = cliCommand(dirs, ["-C", dirs.root, "mcp", "--approve", "always"]);
    const env = Object.entries(server.env).flatMap(([name, value]) => ["-e", `${name}=${value}`]);
    return new Deno.Command("npx", {
      args: [
        "-y",
        "@modelcontextprotocol/inspector@0.15.0",
        "--cli",
        ...env,
        server.command,
        ...server.args,
        ...args,
      ],
      stdout: "piped",
      stderr: "piped",
      signal: AbortSignal.timeout(180_000),
    }).output();
  };
  let listed: Deno.CommandOutput;
  try {
    listed = await inspector("--method", "tools/list");
  } catch (error) {
    console.warn(`skipped: cannot run npx: ${error}`);
    return;
  }
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  if (
    listed.code !== 0 && /npm (error|ERR!)|ENOTFOUND|EAI_AGAIN|network/i.test(decode(listed.stderr))
  ) {
    console.warn(
      `skipped: npx cannot fetch the MCP Inspector: ${decode(listed.stderr).slice(0, 200)}`,
    );
    return;
  }
  await t.step("tools/list", () => {
    assert.equal(listed.code, 0, decode(listed.stderr));
    const tools = (JSON.parse(decode(listed.stdout)) as { tools: { name: string }[] }).tools;
    assert.deepEqual(tools.map((tool) => tool.name), ["echo", "spawn"]);
  });
  await t.step("tools/call", async () => {
    const called = await inspector(
      "--method",
      "tools/call",
      "--tool-name",
      "echo",
      "--tool-arg",
      "text=from the inspector",
    );
    assert.equal(called.code, 0, decode(called.stderr));
    const result = JSON.parse(decode(called.stdout)) as CallToolResult;
    assert.equal(resultText(result), '{"text":"from the inspector"}');
  });
});

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}

// --- Wording in en-US and uk-UA ---
// The approval form an MCP client shows (`elicitation/create`), and the server's other words about
// approval, in the locale of `basis-tools mcp --locale`: the real server, driven by the SDK's client.

/** What the client was asked. */
interface Asked {
  message: string;
  schema: {
    properties: Record<string, { title: string; description: string; enum: string[] }>;
    required: string[];
  };
  /** The decision field's `enumNames`. */
  titles: string[];
}

/**
 * Starts `basis-tools mcp --locale LOCALE` and connects a client to it; with `elicit`, the client
 * declares form elicitation and answers with it.
 */
function serve(
  dirs: Scratch,
  locale: string,
  elicit?: (asked: Asked) => ElicitResult,
): Promise<McpSession> {
  const args = ["mcp", "--locale", locale];
  if (elicit === undefined) return connectMcp(dirs, args);
  return connectMcp(dirs, args, {
    elicit: (message, requested) => {
      const schema = requested as Asked["schema"];
      const field = schema.properties.decision as unknown as { enumNames: string[] };
      return elicit({ message, schema, titles: field.enumNames });
    },
  });
}

/** Asks once in a locale, allowing the call; returns what was asked. */
async function askOnce(dirs: Scratch, locale: string): Promise<Asked> {
  const asked: Asked[] = [];
  const session = await serve(dirs, locale, (form) => {
    asked.push(form);
    return { action: "accept", content: { decision: "allow_once" } };
  });
  try {
    const result = await callTool(session, "echo", { text: "hi" });
    assert.equal(resultText(result), '{"text":"hi"}');
  } finally {
    await session.close();
  }
  assert.equal(asked.length, 1);
  return asked[0] as Asked;
}

Deno.test("mcp: the approval form follows --locale uk-UA; its answers stay allow_once|always_allow|deny", async () => {
  await using dirs = await scratch(ECHO_MANIFEST);
  const en = await askOnce(dirs, "en-US");
  const uk = await askOnce(dirs, "uk-UA");
  const enField = en.schema.properties.decision!;
  const ukField = uk.schema.properties.decision!;

  // What runs first (a client may show only a few lines), then the rest.
  assert.match(
    en.message,
    /^ {2}command +cat\n {2}cwd +\/.*\n {2}input +\{"text":"hi"\}\n {2}tool +echo\n/,
  );
  assert.match(en.message, /\n\nAllow this call\?$/);
  assert.equal(enField.title, "Allow this call?");
  assert.equal(
    enField.description,
    "Always allow remembers a rule for this exact command (any input); deny refuses this call",
  );
  assert.deepEqual(en.titles, [
    "Allow once",
    "Always allow (remember this exact command)",
    "Deny",
  ]);

  // Ukrainian: the terminal prompt's own words.
  assert.match(uk.message, /^ {2}команда +cat\n/);
  assert.match(uk.message, /^ {2}інструмент +echo$/m);
  assert.match(uk.message, /^ {2}вхідні дані +\{"text":"hi"\}$/m);
  assert.match(uk.message, /\n\nДозволити цей виклик\?$/);
  assert.equal(ukField.title, "Дозволити цей виклик?");
  assert.match(ukField.description, CYRILLIC);
  assert.deepEqual(uk.titles, [
    "Дозволити один раз",
    "Дозволяти завжди (запам’ятати саме цю команду)",
    "Відхилити",
  ]);
  const said = (asked: Asked, field: typeof enField) =>
    [asked.message, field.title, field.description, ...asked.titles].join("\n");
  assertNoEnglish(said(uk, ukField), said(en, enField), [
    /\b(?:basis-tools|echo|cat|process)\b/g,
  ]);

  // What is answered never changes with the locale.
  for (const asked of [en, uk]) {
    assert.deepEqual(asked.schema.properties.decision!.enum, [
      "allow_once",
      "always_allow",
      "deny",
    ]);
    assert.deepEqual(asked.schema.required, ["decision"]);
  }
});

Deno.test("mcp: without elicitation a call is denied in uk-UA, saying how to add a rule", async () => {
  await using dirs = await scratch(ECHO_MANIFEST);
  const root = await Deno.realPath(dirs.root);
  const denied = async (locale: string) => {
    const session = await serve(dirs, locale);
    try {
      const result = await callTool(session, "echo", { text: "hi" });
      assert.equal(result.isError, true);
      return resultText(result);
    } finally {
      await session.close();
    }
  };
  assert.equal(
    await denied("en-US"),
    'Call of tool "echo" denied: no remembered rule allows it and this MCP client cannot ask ' +
      "for approval (it does not support elicitation); allow it with " +
      `\`basis-tools -C ${root} rules add --tool echo\`, or start the MCP server with ` +
      "--approve always",
  );
  const uk = await denied("uk-UA");
  assert.equal(
    uk,
    'Виклик інструмента "echo" відхилено: жодне збережене правило його не дозволяє, а цей ' +
      "клієнт MCP не вміє запитувати підтвердження (він не підтримує elicitation); дозвольте " +
      `його командою \`basis-tools -C ${root} rules add --tool echo\` або запустіть сервер MCP ` +
      "з --approve always",
  );
});

Deno.test("mcp: when the client fails to answer the form, the server says so in uk-UA and denies", async () => {
  await using dirs = await scratch(ECHO_MANIFEST);
  const failed = async (locale: string) => {
    const session = await serve(dirs, locale, () => {
      throw new Error("the person closed the window");
    });
    try {
      const result = await callTool(session, "echo", { text: "hi" });
      assert.equal(result.isError, true);
      // The log line and the reply race each other: wait for the line (a few ms at most).
      await session.stderrContains('"echo"');
      return { result: resultText(result), stderr: session.stderr() };
    } finally {
      await session.close();
    }
  };
  const en = await failed("en-US");
  assert.match(
    en.stderr,
    /^basis-tools: Cannot ask the MCP client about a call of tool "echo": .*the person closed the window.*; the call is denied$/m,
  );
  // It says what denied the call: the client could not ask (not "at the prompt").
  assert.equal(
    en.result,
    `Call of tool "echo" denied: the MCP client could not ask for approval (see the server's log)`,
  );
  const uk = await failed("uk-UA");
  assert.match(
    uk.stderr,
    /^basis-tools: Не вдалося запитати клієнта MCP про виклик інструмента "echo": .*the person closed the window.*; виклик відхилено$/m,
  );
  assert.equal(
    uk.result,
    'Виклик інструмента "echo" відхилено: клієнт MCP не зміг спитати дозволу (див. журнал сервера)',
  );
});
