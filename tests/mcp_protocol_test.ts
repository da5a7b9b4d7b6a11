/**
 * End-to-end tests of what `basis-tools mcp` answers to messages no SDK client would send: an
 * oversized line, a line that is not JSON, JSON that is not JSON-RPC, params a method does not
 * take, and a request id used twice. The real server, driven over its stdin and stdout directly.
 *
 * @module
 */

import assert from "node:assert/strict";
import { PassThrough } from "node:stream";
import { Client } from "@modelcontextprotocol/sdk/client";
// The SDK's "./*" export names no types for "….js" paths: point at them.
// @ts-types="@modelcontextprotocol/sdk/server/stdio"
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import type { ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import type { Tool } from "../src/contract/types.ts";
import { serveMcp } from "../src/mcp/serve_mcp.ts";
import {
  cli,
  FIXTURES,
  oneTool,
  processesInGroup,
  processesLeftInGroup,
  readPid,
  ROOT,
  type Scratch,
  scratch,
  unconfined,
} from "./_cli.ts";
import { callTool, connectMcp, type McpSession, type RawMcp, rawMcp, resultText } from "./_mcp.ts";
import { ECHO_MANIFEST } from "./_fixtures.ts";
import { phrase } from "../src/locale/messages.ts";
import { opening, say, wording } from "./_wording.ts";

/** The invalid-params message of a field given the wrong type. */
function wrongType(method: string, field: string, expected: string, found: string): string {
  return say("mcp.invalid_params_type", {
    method: JSON.stringify(method),
    field,
    expected: phrase(`found.${expected}` as "found.object"),
    found: phrase(`found.${found}` as "found.object"),
  });
}
import { assertNoEnglish, CYRILLIC } from "./_no_english.ts";
import { tempDir } from "./_scratch.ts";

const LINUX = Deno.build.os === "linux";
const MIB = 1024 * 1024;

/** Two tools: one that runs until stopped (recording its process group in `pidFile`), and cat. */
function tools(pidFile: string) {
  return {
    schema: 1,
    tools: {
      forever: {
        description: "Never ends",
        input_schema: {},
        command: [`${FIXTURES}/grandchild.sh`, pidFile],
      },
      echo: { description: "Echo", input_schema: {}, command: ["cat"] },
    },
  };
}

function call(id: string | number, name: string, args: unknown = {}) {
  return { jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } };
}

/** The server still answers: a ping gets its empty result. */
async function assertServing(raw: RawMcp, id: string): Promise<void> {
  await raw.send({ jsonrpc: "2.0", id, method: "ping" });
  assert.deepEqual((await raw.response(id)).result, {});
}

Deno.test({
  name:
    "mcp: a message over 10 MiB is refused with its id; calls in flight go on and so does the server",
  ignore: !LINUX,
}, async () => {
  await using pids = await tempDir();
  const pidFile = `${pids.path}/pgid`;
  await using dirs = await scratch(tools(pidFile));
  await unconfined(dirs);
  const raw = await rawMcp(dirs, ["mcp", "--approve", "always"]);
  try {
    await raw.send(call(1, "forever"));
    const pgid = await readPid(pidFile);

    // The SDK's client writes the id last, after the params; an "id" inside them is not it.
    const big = "x".repeat(11 * MIB);
    const line = `{"jsonrpc":"2.0","method":"tools/call","params":{"name":"echo",` +
      `"arguments":{"id":99,"text":"${big}"}},"id":"big-1"}\n`;
    // Written in pieces, as a pipe delivers it.
    const bytes = new TextEncoder().encode(line);
    for (let at = 0; at < bytes.length; at += MIB) await raw.write(bytes.subarray(at, at + MIB));
    const refused = await raw.response("big-1");
    assert.equal(refused.error?.code, -32600);
    assert.match(refused.error?.message ?? "", /^Message refused: .*\b10 MiB\b/);
    assert.ok(!refused.error?.message.includes("\n"));

    // An id written before the params is found too.
    const early = `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo",` +
      `"arguments":{"text":"${big}"}}}\n`;
    await raw.write(early);
    assert.equal((await raw.response(7)).error?.code, -32600);

    // The call in flight was not touched, and the server goes on.
    assert.ok(processesInGroup(pgid).length > 0, "the call in flight still runs");
    await raw.send(call(2, "echo", { text: "after" }));
    const echoed = await raw.response(2);
    assert.deepEqual(echoed.result?.content, [{ type: "text", text: '{"text":"after"}' }]);
    await assertServing(raw, "ping-1");
    assert.match(raw.stderr(), wording("mcp.refused", { reason: phrase("mcp.too_large") }));
    assert.deepEqual(raw.strayLines, []);

    // Stdin closed while a call ran: that call was interrupted.
    const status = await raw.close();
    assert.equal(status.code, 130);
    assert.deepEqual(await processesLeftInGroup(pgid), []);
  } finally {
    await raw.close();
  }
});

Deno.test("mcp: a line that is not JSON is a parse error with id null; JSON that is not JSON-RPC is an invalid request", async () => {
  await using dirs = await scratch(tools("/dev/null"));
  const raw = await rawMcp(dirs, ["mcp", "--approve", "always"]);
  try {
    await raw.write("this is not json\n");
    const parse = await raw.response(null);
    assert.equal(parse.jsonrpc, "2.0");
    assert.equal(parse.error?.code, -32700);
    assert.match(parse.error?.message ?? "", opening("mcp.not_json"));
    assert.match(parse.error?.message ?? "", / at 1:1$/);
    // Never echoed: a pasted secret would be.
    assert.doesNotMatch(parse.error?.message ?? "", /this is not/);

    await raw.write(new Uint8Array([0x7b, 0xff, 0xfe, 0x7d, 0x0a]));
    assert.match((await raw.response(null)).error?.message ?? "", wording("mcp.not_utf8"));

    // No method, no result: its id is answered.
    await raw.send({ jsonrpc: "2.0", id: 41 });
    const invalid = await raw.response(41);
    assert.equal(invalid.error?.code, -32600);
    assert.match(invalid.error?.message ?? "", /^Invalid request: /);

    // A batch, and a bare value: id null.
    await raw.send([{ jsonrpc: "2.0", id: 42, method: "ping" }]);
    assert.match((await raw.response(null)).error?.message ?? "", /batch/);
    await raw.send(5);
    assert.equal((await raw.response(null)).error?.code, -32600);

    // Blank lines are nothing to answer.
    await raw.write("\n  \r\n");
    await assertServing(raw, "ping-2");
    assert.deepEqual(raw.strayLines, []);
    assert.equal((await raw.close()).code, 0);
  } finally {
    await raw.close();
  }
});

Deno.test("mcp: tools/call with arguments that are not an object, or no name, is -32602 in one line", async () => {
  await using dirs = await scratch(tools("/dev/null"));
  const raw = await rawMcp(dirs, ["mcp", "--approve", "always"]);
  try {
    await raw.send(call(1, "echo", ["a", "b"]));
    const array = await raw.response(1);
    assert.deepEqual(array.error, {
      code: -32602,
      message: wrongType("tools/call", "params.arguments", "object", "array"),
    });

    await raw.send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { arguments: {} } });
    assert.deepEqual((await raw.response(2)).error, {
      code: -32602,
      message: wrongType("tools/call", "params.name", "string", "nothing"),
    });

    await raw.send({ jsonrpc: "2.0", id: 3, method: "tools/call" });
    assert.equal((await raw.response(3)).error?.code, -32602);
    await raw.send({ jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: 5 } });
    assert.equal(
      (await raw.response(4)).error?.message,
      wrongType("tools/call", "params.name", "string", "number"),
    );
    await raw.send({ jsonrpc: "2.0", id: 5, method: "tools/list", params: { cursor: 5 } });
    assert.equal((await raw.response(5)).error?.code, -32602);

    // The same call, well formed, runs.
    await raw.send(call(6, "echo", { a: 1 }));
    assert.deepEqual((await raw.response(6)).result?.content, [{ type: "text", text: '{"a":1}' }]);
    assert.deepEqual(raw.strayLines, []);
  } finally {
    await raw.close();
  }
});

Deno.test("mcp: protocol refusals follow --locale uk-UA", async () => {
  await using dirs = await scratch(tools("/dev/null"));
  const english = await rawMcp(dirs, ["mcp"]);
  const ukrainian = await rawMcp(dirs, ["--locale", "uk-UA", "mcp"]);
  try {
    for (const raw of [english, ukrainian]) {
      await raw.write("nope\n");
      await raw.send(call(1, "echo", []));
      await raw.send({ jsonrpc: "2.0", id: 2 });
    }
    for (const id of [null, 1, 2]) {
      const en = (await english.response(id)).error?.message ?? "";
      const uk = (await ukrainian.response(id)).error?.message ?? "";
      assert.match(uk, CYRILLIC);
      assertNoEnglish(uk, en, [/\b(?:JSON|JSON-RPC|MCP|params\.arguments)\b/g]);
    }
  } finally {
    await english.close();
    await ukrainian.close();
  }
});

Deno.test({
  name:
    "mcp: a request id still in progress is refused; the first call stays cancellable and never outlives the server",
  ignore: !LINUX,
}, async () => {
  await using dir = await tempDir();
  await using dirs = await scratch(tools(`${dir.path}/pgid`));
  await unconfined(dirs);
  const raw = await rawMcp(dirs, ["mcp", "--approve", "always"]);
  try {
    await raw.send(call(1, "forever"));
    const first = await readPid(`${dir.path}/pgid`);
    await Deno.remove(`${dir.path}/pgid`);

    await raw.send(call(1, "echo", { text: "second" }));
    const refused = await raw.response(1);
    assert.equal(refused.error?.code, -32600);
    assert.equal(refused.error?.message, say("mcp.duplicate_id", { id: 1 }));
    assert.ok(processesInGroup(first).length > 0, "the first call still runs");

    // Cancelling id 1 stops the first call; then the id may be used again.
    await raw.send({
      jsonrpc: "2.0",
      method: "notifications/cancelled",
      params: { requestId: 1, reason: "test" },
    });
    assert.deepEqual(await processesLeftInGroup(first), []);
    await raw.send(call(1, "echo", { text: "again" }));
    assert.deepEqual((await raw.response(1)).result?.content, [
      { type: "text", text: '{"text":"again"}' },
    ]);

    // A duplicate of a call in flight when stdin closes: the call is stopped all the same.
    await raw.send(call("two", "forever"));
    const second = await readPid(`${dir.path}/pgid`);
    await raw.send(call("two", "forever"));
    assert.equal((await raw.response("two")).error?.code, -32600);
    // Stdin closed while a call ran: that call was interrupted.
    const status = await raw.close();
    assert.equal(status.code, 130);
    assert.deepEqual(await processesLeftInGroup(second), []);
    assert.ok(!(await exists(`/proc/${raw.pid}`)), "the server is gone");
  } finally {
    await raw.close();
  }
});

Deno.test({
  name:
    "mcp: an id cancelled and reused at once: the second call is still stopped when stdin closes",
  ignore: !LINUX,
}, async () => {
  await using dir = await tempDir();
  await using dirs = await scratch(tools(`${dir.path}/pgid`));
  await unconfined(dirs);
  const raw = await rawMcp(dirs, ["mcp", "--approve", "always"]);
  try {
    await raw.send(call(5, "forever"));
    const first = await readPid(`${dir.path}/pgid`);
    await Deno.remove(`${dir.path}/pgid`);
    // No wait between them: the first call's handler ends after the second took its id. (MCP
    // says an id is never reused in a session; when the two lines arrive together the SDK's cancel
    // may reach the second call instead, which then never starts. Either way nothing may survive.)
    await raw.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 5 } });
    await raw.send(call(5, "forever"));
    const second = await readPid(`${dir.path}/pgid`).catch(() => undefined);
    // (When the cancel reached the second call instead, the first still runs: it must not outlive
    // the server either.)
    // Stdin closed while a call ran: that call was interrupted.
    const status = await raw.close();
    assert.equal(status.code, 130);
    assert.deepEqual(await processesLeftInGroup(first), [], "the first call outlived the server");
    if (second !== undefined) {
      assert.deepEqual(
        await processesLeftInGroup(second),
        [],
        "the second call outlived the server",
      );
    }
  } finally {
    await raw.close();
  }
});

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}

Deno.test("mcp: params of the wrong shape are invalid params; an id no reply could carry is answered with id null; a malformed cancel is one log line", async () => {
  await using dirs = await scratch(tools("/dev/null"));
  const raw = await rawMcp(dirs, ["mcp", "--approve", "always"]);
  try {
    await raw.send({ jsonrpc: "2.0", id: 11, method: "ping", params: [1] });
    const ping = await raw.response(11);
    assert.equal(ping.error?.code, -32602);
    assert.equal(
      ping.error?.message,
      say("mcp.invalid_params", { method: '"ping"', field: "params" }),
    );
    await raw.send({
      jsonrpc: "2.0",
      id: 12,
      method: "tools/call",
      params: { name: "echo", arguments: {}, _meta: { progressToken: { not: "a token" } } },
    });
    assert.equal((await raw.response(12)).error?.code, -32602);
    await raw.write('{"jsonrpc":"2.0","id":12345678901234567890,"method":"ping"}\n');
    const big = await raw.response(null);
    assert.equal(big.error?.code, -32600);
    await raw.send({
      jsonrpc: "2.0",
      method: "notifications/cancelled",
      params: { requestId: {} },
    });
    await raw.send({ jsonrpc: "2.0", id: 13, method: "ping" });
    assert.deepEqual((await raw.response(13)).result, {});
    const log = raw.stderr();
    assert.ok(!/ZodError|"code":|invalid_union/.test(log), log);
    assert.match(log, /notification/i);
  } finally {
    await raw.close();
  }
});

// --- Wording in en-US and uk-UA ---
// What the MCP server itself says, in the locale of `basis-tools mcp --locale`: its log on stderr,
// its instructions, protocol errors, progress, the audit log's warning; and the audit trail, which
// stays English whatever the caller is told. The real server driven by the SDK's client, and
// `serveMcp()` in process for a bug (which no real tool can cause).

const MCP_FIXTURES = `${ROOT}tests/fixtures/mcp`;

interface ServeOptions {
  /** Arguments after `mcp`. */
  args?: string[];
  /** Deno's permission flags. @default ["-A"] */
  permissions?: string[];
  /** Declares form elicitation and answers each request with this. */
  elicit?: () => ElicitResult;
}

/** Runs `body` with `basis-tools --locale LOCALE mcp` and a client connected to it. */
async function withSession<T>(
  dirs: Scratch,
  locale: string,
  options: ServeOptions,
  body: (session: McpSession) => Promise<T>,
): Promise<T> {
  const session = await connectMcp(dirs, ["--locale", locale, "mcp", ...(options.args ?? [])], {
    permissions: options.permissions,
    elicit: options.elicit,
  });
  try {
    return await body(session);
  } finally {
    await session.close();
  }
}

/** The message of the JSON-RPC error a call is refused with, after checking its code. */
async function protocolError(promise: Promise<unknown>, code: number): Promise<string> {
  let message = "";
  await assert.rejects(promise, (error: Error & { code?: number }) => {
    assert.equal(error.code, code);
    message = error.message;
    return true;
  });
  return message;
}

/** Lines of stderr, without the `basis-tools: ` prefix, that start with `start`. */
function logLines(stderr: string, start: string): string[] {
  return stderr.split("\n")
    .map((line) => line.replace(/^basis-tools: /, ""))
    .filter((line) => line.startsWith(start));
}

Deno.test("mcp: the start-up line and the instructions follow --locale uk-UA, with Ukrainian plurals", async () => {
  const many = {
    schema: 1,
    tools: Object.fromEntries(
      ["a", "b", "c", "d"].map((
        name,
      ) => [name, { description: name, input_schema: {}, command: ["cat"] }]),
    ),
  };
  const cases = [
    { manifest: { schema: 1, tools: {} }, en: "1 tool", uk: "1 інструмент" },
    { manifest: ECHO_MANIFEST, en: "2 tools", uk: "2 інструменти" },
    { manifest: many, en: "5 tools", uk: "5 інструментів" },
  ];
  for (const { manifest, en, uk } of cases) {
    await using dirs = await scratch(manifest);
    const root = JSON.stringify(await Deno.realPath(dirs.root));
    const english = `Serving ${en} over MCP (stdio) for ${root}`;
    const enInstructions = await withSession(dirs, "en-US", {}, async (session) => {
      await session.stderrContains(english);
      assert.match(session.stderr(), new RegExp(`^basis-tools: ${escape(english)}$`, "m"));
      return session.client.getInstructions();
    });
    const ukrainian = `Сервер MCP (stdio) надає ${uk} для робочого простору ${root}`;
    const ukInstructions = await withSession(dirs, "uk-UA", {}, async (session) => {
      await session.stderrContains(ukrainian);
      assert.match(session.stderr(), new RegExp(`^basis-tools: ${escape(ukrainian)}$`, "m"));
      assert.doesNotMatch(session.stderr(), /Serving/);
      return session.client.getInstructions();
    });
    assertNoEnglish(ukrainian, english, [/\b(?:MCP|stdio)\b/g]);

    // The instructions are read by the client's model, like the tools' descriptions.
    assert.equal(
      enInstructions,
      "Tools declared for this workspace, and spawn. Every call is checked against the tool's " +
        "input schema and approved before anything runs.",
    );
    assert.equal(
      ukInstructions,
      "Інструменти, оголошені для цього робочого простору, і spawn. Кожен виклик перевіряється " +
        "за схемою вхідних даних інструмента й підтверджується, перш ніж щось буде запущено.",
    );
    assertNoEnglish(ukInstructions ?? "", enInstructions ?? "", [/\bspawn\b/g]);
  }
});

Deno.test("mcp: an unknown tool is a protocol error worded in uk-UA; names stay", async () => {
  await using dirs = await scratch({
    schema: 1,
    tools: {
      echo: { description: "e", input_schema: {}, command: ["cat"] },
      ecco: { description: "e", input_schema: {}, command: ["cat"] },
    },
  });
  const unknown = (session: McpSession, name: string) =>
    protocolError(callTool(session, name), -32602).then((message) =>
      // The SDK's client puts its own prefix in front.
      message.replace(/^MCP error -32602: /, "")
    );
  const en = await withSession(dirs, "en-US", {}, async (session) => ({
    one: await unknown(session, "spwan"),
    two: await unknown(session, "eco"),
    none: await unknown(session, "zzzzzz"),
  }));
  assert.equal(en.one, 'Unknown tool "spwan"; did you mean "spawn"?');
  assert.equal(en.two, 'Unknown tool "eco"; did you mean "ecco" or "echo"?');
  assert.equal(en.none, 'Unknown tool "zzzzzz"; see tools/list');

  const uk = await withSession(dirs, "uk-UA", {}, async (session) => ({
    one: await unknown(session, "spwan"),
    two: await unknown(session, "eco"),
    none: await unknown(session, "zzzzzz"),
  }));
  assert.equal(uk.one, 'Невідомий інструмент "spwan"; можливо, ви мали на увазі "spawn"?');
  assert.equal(
    uk.two,
    'Невідомий інструмент "eco"; можливо, ви мали на увазі "ecco" або "echo"?',
  );
  assert.equal(uk.none, 'Невідомий інструмент "zzzzzz"; див. tools/list');
  for (const key of ["one", "two", "none"] as const) {
    // "tools/list" is the protocol's method (its "/list" goes as a path, "tools" is left).
    assertNoEnglish(uk[key], en[key], [/\btools\b/g]);
  }
});

Deno.test("mcp: a broken edit is logged in uk-UA, the manifest's problem too", async () => {
  await using dirs = await scratch(ECHO_MANIFEST);
  const manifest = `${dirs.root}/.basis/tools.json`;
  const broken = async (locale: string, heading: string) => {
    await Deno.writeTextFile(manifest, JSON.stringify(ECHO_MANIFEST));
    return await withSession(dirs, locale, {}, async (session) => {
      await Deno.writeTextFile(manifest, '{"schema": 1, "tools": {"x": ');
      await session.stderrContains(heading);
      // The problem lines follow in the same write.
      const lines = session.stderr().split("\n");
      const at = lines.findIndex((line) => line === `basis-tools: ${heading}`);
      assert.notEqual(at, -1, session.stderr());
      const problem = lines[at + 1] ?? "";
      assert.match(problem, /^basis-tools: {3}\S*tools\.json:1:\d+: /);
      return problem.replace(/^basis-tools: {3}\S*tools\.json:1:\d+: /, "");
    });
  };
  const enHeading = "Cannot reload the roster; the last good one stays in use:";
  const en = await broken("en-US", enHeading);
  assert.match(en, /^invalid JSON: unexpected end of file/);
  const ukHeading =
    "Не вдалося перезавантажити перелік інструментів; далі використовується останній справний:";
  const uk = await broken("uk-UA", ukHeading);
  assert.match(uk, CYRILLIC);
  assertNoEnglish(`${ukHeading}\n${uk}`, `${enHeading}\n${en}`);
});

Deno.test("mcp: a directory that cannot be watched is logged in uk-UA; the system's reason stays", async () => {
  await using dirs = await scratch(ECHO_MANIFEST);
  // Confined so that the config directory's files can be read but not the directory itself: the
  // watch falls back to the nearest ancestor it may look at, "/", and may not watch that either.
  const readable = [
    dirs.root,
    dirs.cacheDir,
    dirs.stateDir,
    ...["tools.json", "spawn.json", "sandbox.json", "rules.json"].map((file) =>
      `${dirs.configDir}/${file}`
    ),
  ];
  const permissions = [
    "--allow-env",
    "--allow-run",
    "--allow-write",
    "--allow-sys",
    `--allow-read=${readable.join(",")}`,
  ];
  const cannotWatch = (locale: string, start: string, serving: string) =>
    withSession(dirs, locale, { permissions }, async (session) => {
      await session.stderrContains(serving);
      const lines = logLines(session.stderr(), start);
      assert.equal(lines.length, 1, session.stderr());
      return lines[0] as string;
    });
  const en = await cannotWatch("en-US", "Cannot watch ", "Serving ");
  const reason = /^Cannot watch "\/": (.+)$/.exec(en)?.[1];
  assert.ok(reason, en);
  assert.match(reason, /read access/);
  const uk = await cannotWatch("uk-UA", "Не вдалося стежити ", "Сервер MCP");
  assert.equal(uk, `Не вдалося стежити за каталогом "/": ${reason}`);
  assertNoEnglish(uk.replace(reason, ""), en.replace(reason, ""));
});

Deno.test("mcp: progress says how many lines so far in uk-UA, with Ukrainian plurals", async () => {
  await using dirs = await scratch(oneTool("tick", {
    input_schema: {},
    command: [`${MCP_FIXTURES}/tick.sh`, "5", "0.15"],
  }));
  const ticks = (locale: string) =>
    withSession(dirs, locale, { args: ["--approve", "always"] }, async (session) => {
      const seen: { progress: number; message?: string | undefined }[] = [];
      await session.client.callTool({ name: "tick", arguments: {} }, undefined, {
        onprogress: (progress) => seen.push(progress),
      });
      assert.ok(seen.length >= 2, JSON.stringify(seen));
      return seen;
    });
  for (const tick of await ticks("en-US")) {
    const noun = tick.progress === 1 ? "line" : "lines";
    assert.equal(tick.message, `${tick.progress} ${noun} of output so far`);
  }
  const uk = await ticks("uk-UA");
  assert.equal(uk[0]?.message, "Поки що виведено 1 рядок");
  const forms = ["", "рядок", "рядки", "рядки", "рядки", "рядків"];
  for (const tick of uk) {
    assert.equal(tick.message, `Поки що виведено ${tick.progress} ${forms[tick.progress]}`);
    assertNoEnglish(tick.message ?? "", `${tick.progress} lines of output so far`);
  }
});

Deno.test("mcp: the audit trail stays English for every denial while the caller is told in uk-UA", async () => {
  await using dirs = await scratch(ECHO_MANIFEST);
  const root = await Deno.realPath(dirs.root);
  const auditLog = `${dirs.stateDir}/audit.jsonl`;
  const args = (...more: string[]) => ["--audit-log", auditLog, ...more];
  const denied = async (options: ServeOptions, name = "echo", input = {}) =>
    await withSession(dirs, "uk-UA", options, async (session) => {
      const result = await callTool(session, name, input);
      assert.equal(result.isError, true);
      return resultText(result);
    });
  const shown = [
    // The client cannot ask anyone (no elicitation).
    await denied({ args: args() }),
    // --approve never.
    await denied({ args: args("--approve", "never") }),
    // The person declined in the client's form.
    await denied({ args: args(), elicit: () => ({ action: "decline" }) }),
    // The spawn guard, before anyone is asked.
    await denied({ args: args("--no-shell") }, "spawn", { input: "!ls" }),
  ];
  // No terminal to ask, on the command line.
  const noTerminal = await cli(dirs, [
    "--locale",
    "uk-UA",
    "--audit-log",
    auditLog,
    "call",
    "echo",
  ]);
  assert.equal(noTerminal.code, 5, noTerminal.stderr);
  shown.push(noTerminal.stderr);
  // A remembered rule that denies, with its reason.
  const added = await cli(dirs, [
    "rules",
    "add",
    "--tool",
    "echo",
    "--deny",
    "--reason",
    "not now",
  ]);
  assert.equal(added.code, 0, added.stderr);
  shown.push(await denied({ args: args() }));

  assert.equal(
    shown[0],
    'Виклик інструмента "echo" відхилено: жодне збережене правило його не дозволяє, а цей ' +
      "клієнт MCP не вміє запитувати підтвердження (він не підтримує elicitation); дозвольте " +
      `його командою \`basis-tools -C ${root} rules add --tool echo\` або запустіть сервер MCP ` +
      "з --approve always",
  );
  for (const said of shown) assert.match(said, CYRILLIC);

  const entries = (await Deno.readTextFile(auditLog)).trim().split("\n")
    .map((line) => JSON.parse(line))
    .filter((entry) => entry.type === "decision");
  const reasons = entries.map((entry) => entry.reason as string);
  const rule = /by rule (\S+):/.exec(reasons[5] ?? "")?.[1];
  assert.ok(rule, reasons[5]);
  assert.deepEqual(reasons, [
    'Call of tool "echo" denied: no remembered rule allows it and this MCP client cannot ask ' +
    "for approval (it does not support elicitation); allow it with " +
    `\`basis-tools -C ${root} rules add --tool echo\`, or start the MCP server with ` +
    "--approve always",
    'Call of tool "echo" denied by --approve never',
    'Call of tool "echo" denied: the person declined the approval request in the MCP client',
    'Spawn refused: commands are turned off (--no-shell); a task without a leading "!" can ' +
    "still be delegated",
    `Call of tool "echo" denied: no remembered rule allows it and there is no terminal to ask; ` +
    `allow it with \`basis-tools -C ${root} rules add --tool echo\` or --approve always`,
    `Call of tool "echo" denied by rule ${rule}: not now`,
  ]);
  assert.deepEqual(entries.map((entry) => entry.allowed), Array(6).fill(false));
});

Deno.test("mcp: an audit log that cannot be written is warned about in uk-UA; the call goes on", async () => {
  await using dirs = await scratch(ECHO_MANIFEST);
  // A file where the log's directory should be.
  await Deno.mkdir(dirs.stateDir, { recursive: true });
  const blocker = `${dirs.stateDir}/not-a-directory`;
  await Deno.writeTextFile(blocker, "");
  const auditLog = `${blocker}/audit.jsonl`;
  const warned = (locale: string, start: string) =>
    withSession(
      dirs,
      locale,
      { args: ["--audit-log", auditLog, "--approve", "always"] },
      async (session) => {
        const result = await callTool(session, "echo", { text: "hi" });
        assert.equal(resultText(result), '{"text":"hi"}');
        await session.stderrContains(start);
        const lines = session.stderr().split("\n").filter((line) => line.startsWith(start));
        assert.equal(lines.length, 1, session.stderr());
        return lines[0] as string;
      },
    );
  const en = await warned("en-US", "basis-tools: warning: ");
  const pattern = new RegExp(
    `^basis-tools: warning: Cannot write audit log ${
      escape(JSON.stringify(auditLog))
    }: (.+); calls go on unaudited$`,
  );
  const reason = pattern.exec(en)?.[1];
  assert.ok(reason, en);
  const uk = await warned("uk-UA", "basis-tools: попередження: ");
  assert.equal(
    uk,
    `basis-tools: попередження: Не вдалося записати журнал аудиту ${
      JSON.stringify(auditLog)
    }: ${reason}; далі виклики виконуються без аудиту`,
  );
  assertNoEnglish(uk.replace(reason, ""), en.replace(reason, ""), [/\bbasis-tools\b/g]);
});

Deno.test("mcp: a tool whose schema cannot be used is left out, logged once in uk-UA, its call refused", async () => {
  await using dirs = await scratch(oneTool("bad", {
    input_schema: { type: "object", properties: { a: { type: "nope" } } },
    command: ["cat"],
  }));
  const unusable = (locale: string, start: string) =>
    withSession(dirs, locale, { args: ["--approve", "always"] }, async (session) => {
      const { tools } = await session.client.listTools();
      assert.deepEqual(tools.map((tool) => tool.name), ["spawn"]);
      const message = await protocolError(callTool(session, "bad", { a: 1 }), -32602);
      await session.stderrContains(start);
      const lines = logLines(session.stderr(), start);
      assert.equal(lines.length, 1, session.stderr());
      return { message: message.replace(/^MCP error -32602: /, ""), log: session.stderr() };
    });
  const en = await unusable("en-US", 'Tool "bad" cannot be used and is left out');
  assert.match(
    en.message,
    /^Tool "bad" cannot be used: .*tools\.json: tool "bad": input_schema: /,
  );
  assert.match(en.log, /\nbasis-tools: {3}.*tools\.json: tool "bad": input_schema: /);
  // The problem is worded where schema problems are; the server words what it adds.
  const uk = await unusable("uk-UA", 'Інструментом "bad" не можна скористатися; його немає');
  assert.match(uk.message, /^Інструментом "bad" не можна скористатися: /);
});

Deno.test("serveMcp() words a bug inside a call in its locale; the stack trace stays as it is", async () => {
  const boom = {
    name: "boom",
    definition: () => ({ name: "boom", description: "b", inputSchema: { type: "object" } }),
    inputSchema: () => ({ type: "object" }),
    execution: () => Promise.reject(new Error("kaboom")),
  } as unknown as Tool;
  const bug = async (locale: "en-US" | "uk-UA") => {
    const toServer = new PassThrough();
    const fromServer = new PassThrough();
    const stop = new AbortController();
    const logged: string[] = [];
    const served = serveMcp({
      load: () => Promise.resolve([boom]),
      configDir: "/nonexistent/config",
      root: "/nonexistent/work",
      locale,
      log: (line) => logged.push(line),
      stdin: toServer,
      stdout: fromServer,
      signal: stop.signal,
    });
    const client = new Client({ name: "basis-tools-locale-test", version: "1.0.0" });
    await client.connect(new StdioServerTransport(fromServer, toServer));
    try {
      const message = await protocolError(
        client.callTool({ name: "boom", arguments: {} }),
        -32603,
      );
      const log = logged.find((line) => line.includes("kaboom"));
      assert.ok(log, logged.join("\n"));
      return { message: message.replace(/^MCP error -32603: /, ""), log };
    } finally {
      await client.close();
      stop.abort();
      await served;
    }
  };
  const en = await bug("en-US");
  assert.equal(
    en.message,
    `Tool "boom" failed inside basis-tools; the server's stderr has the details`,
  );
  assert.match(en.log, /^Tool "boom" failed inside basis-tools: Error: kaboom\n +at /);
  const uk = await bug("uk-UA");
  assert.equal(
    uk.message,
    'Внутрішня помилка basis-tools під час виклику інструмента "boom"; подробиці — у stderr сервера',
  );
  assert.match(
    uk.log,
    /^Внутрішня помилка basis-tools під час виклику інструмента "boom": Error: kaboom\n +at /,
  );
  const sentence = (log: string) => log.slice(0, log.indexOf(": Error: kaboom"));
  assertNoEnglish(uk.message, en.message, [/\b(?:basis-tools|stderr)\b/g]);
  assertNoEnglish(sentence(uk.log), sentence(en.log), [/\bbasis-tools\b/g]);
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

Deno.test("mcp: before initialize only ping is answered; tools/call is refused (-32600) and runs nothing", async () => {
  await using dirs = await scratch();
  const out = `${dirs.root}/stdin.txt`;
  await Deno.writeTextFile(
    `${dirs.root}/.basis/tools.json`,
    JSON.stringify(oneTool("capture", { command: [`${FIXTURES}/stdin_to_file.sh`, out] })),
  );
  const raw = await rawMcp(dirs, ["mcp", "--approve", "always"], { handshake: false });
  try {
    await raw.send(call(1, "capture", { a: 1 }));
    await raw.send({ jsonrpc: "2.0", id: 2, method: "tools/list" });
    for (const [id, method] of [[1, "tools/call"], [2, "tools/list"]] as const) {
      assert.deepEqual((await raw.response(id)).error, {
        code: -32600,
        message: say("mcp.not_initialized", { method: JSON.stringify(method) }),
      });
    }
    await assertServing(raw, "ping");
    await raw.send({
      jsonrpc: "2.0",
      id: "init",
      method: "initialize",
      params: {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "early", version: "1" },
      },
    });
    assert.ok((await raw.response("init")).result !== undefined);
    await raw.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    await assert.rejects(Deno.stat(out), Deno.errors.NotFound);
    await raw.send(call(3, "capture", { a: 1 }));
    assert.equal((await raw.response(3)).error, undefined);
    assert.equal(await Deno.readTextFile(out), '{"a":1}');
  } finally {
    await raw.close();
  }
});

Deno.test("mcp: logging/setLevel with bad params is -32602 in one line; a good level is taken", async () => {
  await using dirs = await scratch(tools("/dev/null"));
  const raw = await rawMcp(dirs, ["mcp", "--approve", "always"]);
  try {
    for (const [id, params] of [[1, { level: "loud" }], [2, {}], [3, { level: 3 }]] as const) {
      await raw.send({ jsonrpc: "2.0", id, method: "logging/setLevel", params });
      const { error } = await raw.response(id);
      assert.equal(error?.code, -32602, JSON.stringify(error));
      assert.ok(!error.message.includes("\n"), error.message);
      assert.match(error.message, /params\.level/);
    }
    await raw.send({
      jsonrpc: "2.0",
      id: 4,
      method: "logging/setLevel",
      params: { level: "error" },
    });
    assert.deepEqual((await raw.response(4)).result, {});
  } finally {
    await raw.close();
  }
});

Deno.test("mcp: a response from the client to no request of the server is never answered", async () => {
  await using dirs = await scratch(tools("/dev/null"));
  const raw = await rawMcp(dirs, ["mcp", "--approve", "always"]);
  try {
    const strays = [
      { jsonrpc: "2.0", id: 77, result: {} },
      { jsonrpc: "2.0", id: 78, result: 5 },
      { jsonrpc: "2.0", id: 79, error: { code: 1, message: "no" } },
      { jsonrpc: "2.0", id: null, error: { code: -32700, message: "no" } },
      { jsonrpc: "2.0", id: 80, result: null },
    ];
    for (const stray of strays) await raw.send(stray);
    // Messages are taken in order: once the ping is answered, any reply to them would be here.
    await assertServing(raw, "after");
    const replies = raw.pending().filter((message) => message.method === undefined);
    assert.deepEqual(replies, []);
  } finally {
    await raw.close();
  }
});
