/**
 * End-to-end tests of `basis-tools mcp`: the real server as a subprocess, driven by the MCP SDK's
 * own client over stdio (and once by the MCP Inspector's CLI mode, when npx can fetch it).
 *
 * @module
 */

import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client";
// The SDK's "./*" export names no types for "….js" paths: point at them.
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
// @ts-types="@modelcontextprotocol/sdk/shared/transport"
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import {
  type CallToolResult,
  ElicitRequestSchema,
  type ElicitResult,
  type JSONRPCMessage,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import {
  cli,
  FIXTURES,
  oneTool,
  processesLeftInGroup,
  ROOT,
  type Scratch,
  scratch,
} from "./_cli.ts";

const ENTRY = Deno.env.get("BASIS_TEST_BUNDLE") ?? `${ROOT}src/main.ts`;
const MCP_FIXTURES = `${ROOT}tests/fixtures/mcp`;
const LINUX = Deno.build.os === "linux";

/** Every message the client sent and received, in order. */
type Recorded = { direction: "sent" | "received"; message: JSONRPCMessage };

/** Passes everything through to the real transport and records each message both ways. */
class RecordingTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  readonly #inner: Transport;
  readonly #log: Recorded[];

  constructor(inner: Transport, log: Recorded[]) {
    this.#inner = inner;
    this.#log = log;
  }

  start(): Promise<void> {
    this.#inner.onmessage = (message) => {
      this.#log.push({ direction: "received", message });
      this.onmessage?.(message);
    };
    this.#inner.onclose = () => this.onclose?.();
    this.#inner.onerror = (error) => this.onerror?.(error);
    return this.#inner.start();
  }

  send(message: JSONRPCMessage, options?: Parameters<Transport["send"]>[1]): Promise<void> {
    this.#log.push({ direction: "sent", message });
    return this.#inner.send(message, options);
  }

  close(): Promise<void> {
    return this.#inner.close();
  }
}

/** A connected client and what it saw. */
interface Session {
  client: Client;
  transport: StdioClientTransport;
  /** Every JSON-RPC message, both ways. */
  messages: Recorded[];
  /** Errors the client's transport or protocol reported (a stray line on stdout would be one). */
  errors: Error[];
  /** What the server wrote on stderr so far. */
  stderr(): string;
  /** Waits until the server's stderr holds the text. */
  stderrContains(text: string): Promise<void>;
  /** Closes stdin (the client goes away) and waits for the server to end. */
  close(): Promise<void>;
}

interface ConnectOptions {
  /** Arguments after `mcp`. */
  args?: string[];
  /** Extra environment variables for the server. */
  env?: Record<string, string>;
  /** Declares form elicitation and answers each request with this. */
  elicit?: (message: string, schema: unknown) => ElicitResult | Promise<ElicitResult>;
}

async function connect(dirs: Scratch, options: ConnectOptions = {}): Promise<Session> {
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: ["run", "-A", "--quiet", ENTRY, "mcp", ...(options.args ?? [])],
    cwd: dirs.root,
    env: {
      BASIS_CONFIG_DIR: dirs.configDir,
      BASIS_CACHE_DIR: dirs.cacheDir,
      BASIS_STATE_DIR: dirs.stateDir,
      NO_COLOR: "1",
      ...options.env,
    },
    stderr: "pipe",
  });
  let stderr = "";
  const waiting: { text: string; resolve: () => void }[] = [];
  transport.stderr?.on("data", (chunk: Uint8Array) => {
    stderr += new TextDecoder().decode(chunk);
    for (const wait of waiting.filter((w) => stderr.includes(w.text))) {
      waiting.splice(waiting.indexOf(wait), 1);
      wait.resolve();
    }
  });
  const messages: Recorded[] = [];
  const errors: Error[] = [];
  const client = new Client(
    { name: "basis-tools-test", version: "1.0.0" },
    options.elicit === undefined ? {} : { capabilities: { elicitation: { form: {} } } },
  );
  client.onerror = (error) => errors.push(error);
  if (options.elicit !== undefined) {
    const answer = options.elicit;
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      const params = request.params as { message: string; requestedSchema?: unknown };
      return await answer(params.message, params.requestedSchema);
    });
  }
  await client.connect(new RecordingTransport(transport, messages));
  return {
    client,
    transport,
    messages,
    errors,
    stderr: () => stderr,
    stderrContains: (text) =>
      stderr.includes(text) ? Promise.resolve() : new Promise((resolve) => {
        waiting.push({ text, resolve });
      }),
    close: () => client.close(),
  };
}

function text(result: unknown): string {
  const content = (result as CallToolResult).content;
  return content.map((item) => item.type === "text" ? item.text : `[${item.type}]`).join("\n");
}

function call(session: Session, name: string, args: Record<string, unknown> = {}) {
  return session.client.callTool({ name, arguments: args }) as Promise<CallToolResult>;
}

/** Resolves with the value, or rejects after `ms` saying what did not happen. */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Timed out after ${ms} ms waiting for ${what}`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Waits for a file to hold a number (a process group id written by a fixture). */
async function readPid(path: string): Promise<number> {
  const deadline = performance.now() + 10_000;
  while (performance.now() < deadline) {
    try {
      const text = (await Deno.readTextFile(path)).trim();
      if (/^\d+$/.test(text)) return Number(text);
    } catch {
      // Not written yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`${path} was never written`);
}

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
  const dirs = await scratch({
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
  const session = await connect(dirs);
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
  await dirs.cleanup();
});

Deno.test("mcp: a call runs the tool; bad input names the field; an unknown tool is a protocol error", async () => {
  const dirs = await scratch(ECHO);
  const session = await connect(dirs, { args: ["--approve", "always"] });
  try {
    const ok = await call(session, "echo", { text: "hello", count: 2 });
    assert.equal(ok.isError, undefined);
    assert.equal(text(ok), '{"text":"hello","count":2}');

    const refused = await call(session, "echo", { text: "hello", count: -1 });
    assert.equal(refused.isError, true);
    assert.match(text(refused), /^Input refused by tool "echo".*\/count/);
    const missing = await call(session, "echo", {});
    assert.equal(missing.isError, true);
    assert.match(text(missing), /text/);

    await assert.rejects(
      () => call(session, "ecoh", {}),
      (error: Error & { code?: number }) => {
        assert.equal(error.code, -32602);
        assert.match(error.message, /Unknown tool "ecoh"; did you mean "echo"\?/);
        return true;
      },
    );
  } finally {
    await session.close();
  }
  assert.deepEqual(session.errors, []);
  await dirs.cleanup();
});

Deno.test("mcp: with no rule and no elicitation a call is denied, saying how to add a rule", async () => {
  const marker = await Deno.makeTempFile();
  await Deno.remove(marker);
  const dirs = await scratch(oneTool("touch", { command: ["touch", marker] }));
  const session = await connect(dirs);
  try {
    const denied = await call(session, "touch", {});
    assert.equal(denied.isError, true);
    assert.match(text(denied), /^Call of tool "touch" denied: /);
    assert.match(text(denied), /rules add --tool touch/);
    assert.match(text(denied), /--approve always/);
    assert.ok(!(await exists(marker)), "a denied call must not run");

    const never = await connect(dirs, { args: ["--approve", "never"] });
    try {
      const result = await call(never, "touch", {});
      assert.equal(result.isError, true);
      assert.match(text(result), /denied/);
    } finally {
      await never.close();
    }
    assert.ok(!(await exists(marker)));
  } finally {
    await session.close();
  }
  await dirs.cleanup();
});

Deno.test("mcp: a remembered rule allows a call without asking anyone", async () => {
  const dirs = await scratch(ECHO);
  const added = await cli(dirs, ["rules", "add", "--tool", "echo"]);
  assert.equal(added.code, 0, added.stderr);
  let asked = 0;
  const session = await connect(dirs, {
    elicit: () => {
      asked++;
      return { action: "decline" };
    },
  });
  try {
    const result = await call(session, "echo", { text: "ruled" });
    assert.equal(result.isError, undefined, text(result));
    assert.equal(text(result), '{"text":"ruled"}');
    assert.equal(asked, 0);
  } finally {
    await session.close();
  }
  await dirs.cleanup();
});

Deno.test("mcp: elicitation asks the person; allow once runs, decline denies, always remembers", async () => {
  const dirs = await scratch(ECHO);
  const answers: string[] = [];
  const questions: string[] = [];
  const session = await connect(dirs, {
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
    const once = await call(session, "echo", { text: "once" });
    assert.equal(text(once), '{"text":"once"}');
    assert.match(questions[0]!, /tool +echo/);
    assert.match(questions[0]!, /command +cat/);
    assert.match(questions[0]!, /"text": "once"/);

    answers.push("decline");
    const declined = await call(session, "echo", { text: "no" });
    assert.equal(declined.isError, true);
    assert.match(text(declined), /^Call of tool "echo" denied/);

    answers.push("deny");
    const denied = await call(session, "echo", { text: "no" });
    assert.equal(denied.isError, true);

    answers.push("always_allow");
    const always = await call(session, "echo", { text: "always" });
    assert.equal(text(always), '{"text":"always"}');
    const rules = JSON.parse(await Deno.readTextFile(`${dirs.configDir}/rules.json`)) as {
      rules: { tool: string; decision: string; pattern?: string }[];
    };
    assert.equal(rules.rules.length, 1);
    assert.equal(rules.rules[0]!.tool, "echo");
    assert.equal(rules.rules[0]!.decision, "allow");
    assert.match(rules.rules[0]!.pattern ?? "", /"command":\["cat"\]/);

    // Remembered: the next call, with another input, asks no one.
    const again = await call(session, "echo", { text: "again" });
    assert.equal(text(again), '{"text":"again"}');
    assert.equal(questions.length, 4);
  } finally {
    await session.close();
  }
  assert.deepEqual(session.errors, []);
  await dirs.cleanup();
});

Deno.test("mcp: a failed run is an error result carrying its stderr", async () => {
  const dirs = await scratch({
    schema: 1,
    tools: {
      disk: { description: "d", input_schema: {}, command: [`${FIXTURES}/stderr_exit4.sh`] },
      gone: { description: "g", input_schema: {}, command: ["no-such-program-here"] },
      killed: { description: "k", input_schema: {}, command: [`${FIXTURES}/kill_self.sh`] },
    },
  });
  const session = await connect(dirs, { args: ["--approve", "always"] });
  try {
    const result = await call(session, "disk", {});
    assert.equal(result.isError, true);
    assert.match(text(result), /^Tool "disk" exited with code 4: boom: the disk is full/);
    const gone = await call(session, "gone", {});
    assert.equal(gone.isError, true);
    assert.match(text(gone), /^Tool "gone" could not start: .*no-such-program-here/);
    const killed = await call(session, "killed", {});
    assert.equal(killed.isError, true);
    assert.match(text(killed), /^Tool "killed" was killed by signal SIG/);
  } finally {
    await session.close();
  }
  await dirs.cleanup();
});

Deno.test({
  name: "mcp: a timed-out call stops its whole process group, grandchild included",
  ignore: !LINUX,
}, async () => {
  const pidFile = `${await Deno.makeTempDir()}/pgid`;
  const dirs = await scratch(
    oneTool("slow", { command: [`${FIXTURES}/grandchild.sh`, pidFile], timeout_ms: 400 }),
  );
  const session = await connect(dirs, { args: ["--approve", "always"] });
  try {
    const result = await call(session, "slow", {});
    assert.equal(result.isError, true);
    assert.match(text(result), /^Tool "slow" timed out after 400 ms/);
    const pgid = await readPid(pidFile);
    assert.deepEqual(await processesLeftInGroup(pgid), []);
  } finally {
    await session.close();
  }
  await dirs.cleanup();
});

Deno.test({
  name: "mcp: cancelling a request stops that call's process group; the server goes on",
  ignore: !LINUX,
}, async () => {
  const pidFile = `${await Deno.makeTempDir()}/pgid`;
  const dirs = await scratch({
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
  const session = await connect(dirs, { args: ["--approve", "always"] });
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
    assert.equal(text(await call(session, "echo", { text: "after" })), '{"text":"after"}');
  } finally {
    await session.close();
  }
  await dirs.cleanup();
});

Deno.test({
  name: "mcp: closing stdin ends the server and stops every running call",
  ignore: !LINUX,
}, async () => {
  const dir = await Deno.makeTempDir();
  const dirs = await scratch({
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
  const session = await connect(dirs, { args: ["--approve", "always"] });
  const serverPid = session.transport.pid;
  assert.ok(serverPid !== null);
  const running = [call(session, "one"), call(session, "two")];
  for (const call of running) call.catch(() => {});
  const groups = [await readPid(`${dir}/1`), await readPid(`${dir}/2`)];
  const started = performance.now();
  await session.close();
  // StdioClientTransport waits 2 s before it sends SIGTERM: the server must end well before.
  assert.ok(performance.now() - started < 1900, "the server ended on its own when stdin closed");
  for (const pgid of groups) assert.deepEqual(await processesLeftInGroup(pgid), []);
  assert.ok(!(await exists(`/proc/${serverPid}`)), "the server process is gone");
  await dirs.cleanup();
});

Deno.test("mcp: three calls in flight at once are independent", async () => {
  const barrier = await Deno.makeTempDir();
  const dirs = await scratch(
    oneTool("meet", { command: [`${MCP_FIXTURES}/barrier.sh`, barrier, "3"] }),
  );
  const session = await connect(dirs, { args: ["--approve", "always"] });
  try {
    // Each call waits until all three have started: run one after another, none would finish.
    const results = await Promise.all(
      ["a", "b", "c"].map((id) => call(session, "meet", { id })),
    );
    assert.deepEqual(results.map(text), ["a", "b", "c"]);
    assert.ok(results.every((result) => result.isError === undefined));
  } finally {
    await session.close();
  }
  await dirs.cleanup();
});

Deno.test("mcp: progress notifications while a tool prints, at most about ten a second", async () => {
  const dirs = await scratch({
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
  const session = await connect(dirs, { args: ["--approve", "always"] });
  try {
    const ticks: { progress: number; message?: string | undefined }[] = [];
    const result = await session.client.callTool({ name: "tick", arguments: {} }, undefined, {
      onprogress: (progress) => ticks.push(progress),
    });
    assert.match(text(result), /^line 1\n.*line 5$/s);
    assert.ok(ticks.length >= 3, `expected progress, got ${JSON.stringify(ticks)}`);
    for (let i = 1; i < ticks.length; i++) assert.ok(ticks[i]!.progress > ticks[i - 1]!.progress);
    assert.match(ticks[0]!.message ?? "", /^1 line of output so far$/);

    const burst: number[] = [];
    const started = performance.now();
    const big = await session.client.callTool({ name: "burst", arguments: {} }, undefined, {
      onprogress: (progress) => burst.push(progress.progress),
    });
    const seconds = (performance.now() - started) / 1000;
    assert.ok(burst.length <= Math.ceil(seconds * 10) + 2, `${burst.length} in ${seconds} s`);
    // Beyond 2,000 lines the result is cut, naming the file that holds all of it.
    const spill = /full output: (\S+)\]$/.exec(text(big))?.[1];
    assert.ok(spill, text(big).slice(-300));
    assert.equal((await Deno.readTextFile(spill)).split("\n").length, 3001);

    // Without a progress token, no progress.
    const before = session.messages.length;
    await call(session, "tick");
    const progress = session.messages.slice(before).filter((m) =>
      "method" in m.message && m.message.method === "notifications/progress"
    );
    assert.deepEqual(progress, []);
  } finally {
    await session.close();
  }
  await dirs.cleanup();
});

Deno.test("mcp: editing the manifest sends list_changed; a broken edit keeps the last good roster", async () => {
  const dirs = await scratch(ECHO);
  const session = await connect(dirs, { args: ["--approve", "always"] });
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
    assert.equal(text(await call(session, "shout", { a: 1 })), '{"a":1}');

    // A broken edit: logged on stderr, the roster stays as it was.
    changed = Promise.withResolvers<void>();
    await Deno.writeTextFile(`${dirs.root}/.basis/tools.json`, '{"schema": 1, "tools": {"x": ');
    await within(
      session.stderrContains("Cannot reload the roster"),
      10_000,
      "the reload error on stderr",
    );
    // The problem, file and position, on the lines that follow, in the same write.
    assert.match(session.stderr(), /Cannot reload the roster.*\nbasis-tools: +\S*tools\.json:1:/);
    const after = await session.client.listTools();
    assert.deepEqual(after.tools.map((tool) => tool.name), ["echo", "shout", "spawn"]);
    assert.equal(text(await call(session, "shout", { b: 2 })), '{"b":2}');

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
  await dirs.cleanup();
});

Deno.test("mcp: a broken manifest at start exits 6 with the problem on stderr, nothing on stdout", async () => {
  const dirs = await scratch('{"schema": 1, "tools": {"x": {"description": "x"}}}');
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", ENTRY, "mcp"],
    cwd: dirs.root,
    env: { BASIS_CONFIG_DIR: dirs.configDir, BASIS_STATE_DIR: dirs.stateDir },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(output.code, 6);
  assert.equal(output.stdout.length, 0);
  assert.match(new TextDecoder().decode(output.stderr), /tools\.json.*"x"/);
  await dirs.cleanup();
});

Deno.test("mcp: a secret never appears in any message, either way", async () => {
  const canary = "CANARY-mcp-5f4e3d2c1b";
  const dirs = await scratch({
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
        description: "Has the token in its argv too",
        input_schema: {},
        command: ["echo", "${MCP_CANARY}"],
        env: { TOKEN: "${MCP_CANARY}" },
      },
    },
  });
  const questions: string[] = [];
  const session = await connect(dirs, {
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
    assert.match(text(ok), /stdout says \[redacted\]/);
    const failed = await session.client.callTool(
      { name: "fail", arguments: {} },
      undefined,
      withProgress,
    );
    assert.equal(failed.isError, true);
    assert.match(text(failed), /stderr says \[redacted\]/);
    await call(session, "leak", { n: "not a number" });
    await call(session, "arg", {});
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
  await dirs.cleanup();
});

Deno.test({
  name: "the MCP Inspector's CLI mode lists and calls the tools (skipped when npx cannot fetch it)",
  ignore: Deno.env.get("BASIS_SKIP_INSPECTOR") === "1",
}, async (t) => {
  const dirs = await scratch(ECHO);
  const inspector = (...args: string[]) =>
    new Deno.Command("npx", {
      args: [
        "-y",
        "@modelcontextprotocol/inspector@0.15.0",
        "--cli",
        "-e",
        `BASIS_CONFIG_DIR=${dirs.configDir}`,
        "-e",
        `BASIS_CACHE_DIR=${dirs.cacheDir}`,
        "-e",
        `BASIS_STATE_DIR=${dirs.stateDir}`,
        Deno.execPath(),
        "run",
        "-A",
        "--quiet",
        ENTRY,
        "-C",
        dirs.root,
        "mcp",
        "--approve",
        "always",
        ...args,
      ],
      stdout: "piped",
      stderr: "piped",
      signal: AbortSignal.timeout(180_000),
    }).output();
  let listed: Deno.CommandOutput;
  try {
    listed = await inspector("--method", "tools/list");
  } catch (error) {
    console.warn(`skipped: cannot run npx: ${error}`);
    await dirs.cleanup();
    return;
  }
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  if (
    listed.code !== 0 && /npm (error|ERR!)|ENOTFOUND|EAI_AGAIN|network/i.test(decode(listed.stderr))
  ) {
    console.warn(
      `skipped: npx cannot fetch the MCP Inspector: ${decode(listed.stderr).slice(0, 200)}`,
    );
    await dirs.cleanup();
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
    assert.equal(text(result), '{"text":"from the inspector"}');
  });
  await dirs.cleanup();
});

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}
