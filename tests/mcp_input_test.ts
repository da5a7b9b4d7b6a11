/**
 * End-to-end tests of what `basis-tools mcp` does with a call's arguments: numbers the SDK's JSON
 * decoding cannot hold finitely are refused by the gate, deep arguments are refused without
 * crashing the server, and a schema pattern that backtracks in JavaScript cannot freeze it.
 *
 * @module
 */

import assert from "node:assert/strict";
import { cli as runCli, FIXTURES, oneTool, scratch } from "./_cli.ts";
import { callTool, connectMcp, resultText, within } from "./_mcp.ts";
import { phrase } from "../src/locale/messages.ts";
import { closing, wording } from "./_wording.ts";

/** `JSON.rawJSON`: lets the client write a number exactly as given (ES2025, in V8). */
const raw = (JSON as unknown as { rawJSON(text: string): unknown }).rawJSON;

/** How long a call may take before it counts as hung (a backtracking pattern takes hours). */
const WATCHDOG_MS = 60_000;

Deno.test("mcp: a number too large for a double is refused naming its field; others reach the program as the SDK decoded them", async () => {
  await using dirs = await scratch();
  const out = `${dirs.root}/stdin.txt`;
  await Deno.writeTextFile(
    `${dirs.root}/.basis/tools.json`,
    JSON.stringify(oneTool("capture", {
      input_schema: { type: "object", properties: { id: { type: "integer", minimum: 1 } } },
      command: [`${FIXTURES}/stdin_to_file.sh`, out],
    })),
  );
  const session = await connectMcp(dirs, ["mcp", "--approve", "always"]);
  try {
    const refused = await callTool(session, "capture", { id: raw("1e400") });
    assert.equal(refused.isError, true);
    assert.match(
      resultText(refused),
      wording("schema.refused", { pointer: "/id", reason: phrase("schema.not_finite") }),
    );
    await assert.rejects(Deno.stat(out), Deno.errors.NotFound);
    // The SDK parsed the request: the program gets each number as JavaScript writes that double.
    const ran = await callTool(session, "capture", {
      id: raw("12345678901234567890"),
      x: raw("1.0"),
    });
    assert.equal(ran.isError, undefined, resultText(ran));
    assert.equal(await Deno.readTextFile(out), '{"id":12345678901234567000,"x":1}');
  } finally {
    await session.close();
  }
});

Deno.test("mcp: arguments nested past the limit are refused, and the server goes on", async () => {
  await using dirs = await scratch(
    oneTool("echo", { command: ["cat"], env: { TOKEN: "mcp-deep-9c1e" } }),
  );
  const session = await connectMcp(dirs, ["mcp", "--approve", "always"]);
  try {
    for (const depth of [257, 30_000]) {
      let deep: unknown = "mcp-deep-9c1e";
      for (let i = 1; i < depth; i++) deep = [deep];
      const result = await callTool(session, "echo", { a: deep });
      assert.equal(result.isError, true);
      assert.match(resultText(result), closing("schema.too_deep", { limit: 256 }));
      assert.ok(!resultText(result).includes("mcp-deep-9c1e"));
    }
    assert.equal(resultText(await callTool(session, "echo", { a: 1 })), '{"a":1}');
    assert.deepEqual(session.errors, []);
  } finally {
    await session.close();
  }
});

Deno.test("mcp: a schema pattern that backtracks for hours in JavaScript neither freezes the server nor other calls", async () => {
  await using dirs = await scratch({
    schema: 1,
    tools: {
      check: {
        description: "A pattern that backtracks in JavaScript",
        input_schema: { type: "object", properties: { s: { type: "string", pattern: "^(a+)+$" } } },
        command: ["cat"],
      },
      echo: { description: "Echo", input_schema: {}, command: ["cat"] },
    },
  });
  const session = await connectMcp(dirs, ["mcp", "--approve", "always"]);
  try {
    const s = `${"a".repeat(43)}!`;
    const cancel = new AbortController();
    const cancelled = session.client.callTool({ name: "check", arguments: { s } }, undefined, {
      signal: cancel.signal,
    });
    cancel.abort("changed my mind");
    await assert.rejects(cancelled);
    // A watchdog, not a timing: a frozen server would answer none of these.
    const [pathological, other] = await within(
      Promise.all([callTool(session, "check", { s }), callTool(session, "echo", { b: 2 })]),
      WATCHDOG_MS,
      "the server to answer while a pathological pattern is checked",
    );
    assert.equal(pathological.isError, true);
    assert.match(
      resultText(pathological),
      wording("schema.refused", {
        pointer: "/s",
        reason: phrase("schema.pattern", { pattern: "^(a+)+$" }),
      }),
    );
    assert.equal(resultText(other), '{"b":2}');
    assert.equal(resultText(await callTool(session, "check", { s: "aaa" })), '{"s":"aaa"}');
  } finally {
    await session.close();
  }
});

Deno.test("mcp: arguments from the input are filled in as for call, and a value beginning with '-' is an isError result", async () => {
  await using dirs = await scratch(oneTool("args", {
    input_schema: {
      type: "object",
      properties: { n: { type: "integer" }, path: { type: "string" } },
      required: ["n", "path"],
    },
    command: [`${FIXTURES}/argv.sh`, "-n", { input: "n" }, { input: "path" }],
  }));
  const session = await connectMcp(dirs, ["mcp", "--approve", "always"]);
  try {
    const ran = await callTool(session, "args", { n: 3, path: "a b" });
    assert.equal(ran.isError, undefined, resultText(ran));
    assert.equal(resultText(ran), '[-n]\n[3]\n[a b]\nstdin:{"n":3,"path":"a b"}');
    const refused = await callTool(session, "args", { n: 3, path: "--force" });
    assert.equal(refused.isError, true);
    assert.match(
      resultText(refused),
      wording("input.refused", { tool: '"args"', pointer: "/path" }),
    );
    assert.match(
      resultText(refused),
      wording("input.argument_dash"),
    );
  } finally {
    await session.close();
  }
});

Deno.test("mcp: a __proto__ key in arguments reaches the program as the client sent it, as on the command line", async () => {
  await using dirs = await scratch();
  const out = `${dirs.root}/stdin.txt`;
  await Deno.writeTextFile(
    `${dirs.root}/.basis/tools.json`,
    JSON.stringify(oneTool("capture", { command: [`${FIXTURES}/stdin_to_file.sh`, out] })),
  );
  const sent = '{"__proto__":{"admin":true},"b":2}';
  const session = await connectMcp(dirs, ["mcp", "--approve", "always"]);
  try {
    const ran = await callTool(session, "capture", JSON.parse(sent));
    assert.equal(ran.isError, undefined, resultText(ran));
    assert.equal(await Deno.readTextFile(out), sent);
  } finally {
    await session.close();
  }
  const cli = await runCli(dirs, ["call", "capture", sent, "--approve", "always"]);
  assert.equal(cli.code, 0, cli.stderr);
  assert.equal(await Deno.readTextFile(out), sent);
});
