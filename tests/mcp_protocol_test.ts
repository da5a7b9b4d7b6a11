/**
 * End-to-end tests of what `basis-tools mcp` answers to messages no SDK client would send: an
 * oversized line, a line that is not JSON, JSON that is not JSON-RPC, params a method does not
 * take, and a request id used twice. The real server, driven over its stdin and stdout directly.
 *
 * @module
 */

import assert from "node:assert/strict";
import {
  FIXTURES,
  processesInGroup,
  processesLeftInGroup,
  readPid,
  scratch,
  unconfined,
} from "./_cli.ts";
import { type RawMcp, rawMcp } from "./_mcp.ts";
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
    assert.match(raw.stderr(), /Refused a message from the client: Message refused/);
    assert.deepEqual(raw.strayLines, []);

    const status = await raw.close();
    assert.equal(status.code, 0);
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
    assert.match(parse.error?.message ?? "", /^Message is not JSON: unexpected .* at 1:1$/);
    // Never echoed: a pasted secret would be.
    assert.doesNotMatch(parse.error?.message ?? "", /this is not/);

    await raw.write(new Uint8Array([0x7b, 0xff, 0xfe, 0x7d, 0x0a]));
    assert.match((await raw.response(null)).error?.message ?? "", /not valid UTF-8/);

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
      message: 'Invalid params of "tools/call": params.arguments must be an object, found an array',
    });

    await raw.send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { arguments: {} } });
    assert.deepEqual((await raw.response(2)).error, {
      code: -32602,
      message: 'Invalid params of "tools/call": params.name must be a string, found nothing',
    });

    await raw.send({ jsonrpc: "2.0", id: 3, method: "tools/call" });
    assert.equal((await raw.response(3)).error?.code, -32602);
    await raw.send({ jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: 5 } });
    assert.match((await raw.response(4)).error?.message ?? "", /params\.name must be a string/);
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
    assert.match(refused.error?.message ?? "", /^Invalid request: id 1 belongs to a request still/);
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
    const status = await raw.close();
    assert.equal(status.code, 0);
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
    const status = await raw.close();
    assert.equal(status.code, 0);
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
    assert.match(ping.error?.message ?? "", /^Invalid params of "ping": params is not valid$/);
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
