/**
 * What agent hosts do that the protocol does not say, through the MCP seam (the real server, the
 * MCP SDK's client): Gemini CLI's `wait_for_previous` on every call, schemas in the dialect a
 * client assumes (checked again with the Python SDK's client), a float `multipleOf` check, the
 * output a timed-out call printed, and an approval form whose first lines are what runs.
 */

import assert from "node:assert/strict";
import { cli, cliCommand, ROOT, type Scratch, scratch } from "./_cli.ts";
import { driveJson } from "./_deno_run.ts";
import { callTool, connectMcp, DENO_ENV, resultText } from "./_mcp.ts";
import { opening, say } from "./_wording.ts";
import { floatMultipleOf } from "../src/schema/gate.ts";
import { phrase } from "../src/locale/messages.ts";
import { PYTHON, PYTHON_BIN, pythonSkip } from "./_python_sdk.ts";

const CLOSED = {
  type: "object",
  properties: { text: { type: "string" } },
  required: ["text"],
  additionalProperties: false,
};

Deno.test("mcp: wait_for_previous (Gemini CLI's, on every call) is dropped unless the schema declares it", async () => {
  await using dirs = await scratch({
    schema: 1,
    tools: {
      closed: { description: "Echo", input_schema: CLOSED, command: ["cat"] },
      open: { description: "Echo", input_schema: { type: "object" }, command: ["cat"] },
      own: {
        description: "Echo",
        input_schema: {
          type: "object",
          properties: { wait_for_previous: { type: "boolean" } },
          additionalProperties: false,
        },
        command: ["cat"],
      },
    },
  });
  const asked: string[] = [];
  const session = await connectMcp(dirs, ["mcp"], {
    elicit: (message) => {
      asked.push(message);
      return { action: "accept", content: { decision: "allow_once" } };
    },
  });
  try {
    // The request Gemini CLI 0.61.0 sends: the model's arguments as they are.
    const closed = await callTool(session, "closed", { text: "hi", wait_for_previous: true });
    assert.equal(closed.isError, undefined, resultText(closed));
    assert.equal(resultText(closed), '{"text":"hi"}');
    // What the person approves is what the program gets.
    assert.ok(asked[0] !== undefined && !asked[0].includes("wait_for_previous"), asked[0]);
    const open = await callTool(session, "open", { a: 1, wait_for_previous: false });
    assert.equal(resultText(open), '{"a":1}');
    const own = await callTool(session, "own", { wait_for_previous: true });
    assert.equal(resultText(own), '{"wait_for_previous":true}');
    // Anything else a closed schema does not take is still refused.
    const other = await callTool(session, "closed", { text: "hi", wait_for_next: true });
    assert.equal(other.isError, true);
    assert.match(resultText(other), /\/wait_for_next/);
  } finally {
    await session.close();
  }
});

interface PythonDriven {
  tools: { name: string; outputSchema?: Record<string, unknown> }[];
  results: ({ is_error: boolean; text: string; structured: unknown } | { raised: string })[];
}

/** Lists and calls the server's tools with the Python SDK's client (it approves each call). */
async function pythonClient(
  dirs: Scratch,
  calls: { name: string; arguments?: Record<string, unknown> }[],
): Promise<PythonDriven> {
  const server = cliCommand(dirs, ["mcp"]);
  const env = {
    ...server.env,
    ...Object.fromEntries(DENO_ENV.flatMap((name) => {
      const value = Deno.env.get(name);
      return value === undefined ? [] : [[name, value]];
    })),
  };
  return await driveJson<PythonDriven>(PYTHON_BIN, {
    args: [`${ROOT}tests/fixtures/mcp/python_client.py`, JSON.stringify({ ...server, env })],
  }, calls);
}

/** A tool printing `json` after reading its input, declaring `schema` as its output. */
function printing(json: string, schema: Record<string, unknown>) {
  return {
    description: "Query",
    input_schema: { type: "object" },
    output_schema: schema,
    command: ["/bin/sh", "-c", `cat >/dev/null; printf '%s\\n' '${json}'`],
  };
}

/** Draft-07 only: a tuple, what follows it, and a property that needs another. */
const TUPLE = {
  type: "object",
  properties: {
    pair: {
      type: "array",
      items: [{ type: "string" }, { type: "integer" }],
      additionalItems: false,
    },
    rest: { type: "array", items: [{ type: "string" }], additionalItems: { type: "integer" } },
  },
  dependencies: { rest: ["pair"] },
  required: ["pair"],
};

const DRAFT_07 = "http://json-schema.org/draft-07/schema#";

Deno.test(`mcp: draft-07 schemas are served with their $schema, so the TypeScript and Python SDKs' clients validate as the gate does${pythonSkip}`, async () => {
  await using dirs = await scratch({
    schema: 1,
    tools: {
      tuple: printing('{"pair": ["a", 1], "rest": ["b", 2, 3]}', TUPLE),
      named: printing('{"n": 1}', {
        $schema: "https://json-schema.org/draft/2020-12/schema",
        type: "object",
        properties: { n: { type: "integer" } },
      }),
      loose: printing('{"n": 1}', {
        $schema: "https://json-schema.org/draft-07/schema",
        type: "object",
      }),
    },
  });
  const session = await connectMcp(dirs, ["mcp", "--approve", "always"]);
  try {
    const { tools } = await session.client.listTools();
    const schemas = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
    assert.deepEqual(schemas.tuple?.outputSchema, { $schema: DRAFT_07, ...TUPLE });
    assert.equal(schemas.tuple?.inputSchema.$schema, DRAFT_07);
    // A schema that names its draft keeps it, spelled as the draft names itself.
    assert.equal(
      schemas.named?.outputSchema?.$schema,
      "https://json-schema.org/draft/2020-12/schema",
    );
    assert.equal(schemas.loose?.outputSchema?.$schema, DRAFT_07);
    // The TypeScript SDK's client checks structuredContent against outputSchema itself.
    const tuple = await callTool(session, "tuple", {});
    assert.equal(tuple.isError, undefined, resultText(tuple));
    assert.deepEqual(tuple.structuredContent, { pair: ["a", 1], rest: ["b", 2, 3] });
  } finally {
    await session.close();
  }
  assert.deepEqual(session.errors, []);
  if (!PYTHON.ok) return;
  const driven = await pythonClient(dirs, [{ name: "tuple" }, { name: "named" }, {
    name: "loose",
  }]);
  assert.deepEqual(driven.results, [
    {
      is_error: false,
      text: '{"pair": ["a", 1], "rest": ["b", 2, 3]}',
      structured: { pair: ["a", 1], rest: ["b", 2, 3] },
    },
    { is_error: false, text: '{"n": 1}', structured: { n: 1 } },
    { is_error: false, text: '{"n": 1}', structured: { n: 1 } },
  ]);
});

Deno.test(`mcp: a result a float multipleOf check would reject is refused with its text; one it accepts is served${pythonSkip}`, async () => {
  const cents = {
    type: "object",
    properties: { p: { type: "number", multipleOf: 0.01 }, n: { type: "integer" } },
  };
  await using dirs = await scratch({
    schema: 1,
    tools: {
      cents: printing('{"n": 2, "p": 0.07}', cents),
      round: printing('{"p": 0.5}', cents),
      quarter: printing('{"p": 0.75}', { ...cents, properties: { p: { multipleOf: 0.25 } } }),
    },
  });
  // What the gate says: 0.07 is a multiple of 0.01 (call shows it).
  const called = await cli(dirs, ["--approve", "always", "--json", "call", "cents", "{}"]);
  assert.equal(JSON.parse(called.stdout).ok, true, called.stdout);
  const refused = say("mcp.float_multiple_of", {
    tool: '"cents"',
    pointer: "/p",
    value: 0.07,
    divisor: 0.01,
  });
  const session = await connectMcp(dirs, ["mcp", "--approve", "always"]);
  try {
    // The client checks structuredContent against the outputSchema it listed.
    await session.client.listTools();
    const cut = await callTool(session, "cents", {});
    assert.equal(cut.isError, true);
    assert.equal(cut.structuredContent, undefined);
    assert.equal(resultText(cut), `${refused}\n{"n": 2, "p": 0.07}`);
    for (const [name, p] of [["round", 0.5], ["quarter", 0.75]] as const) {
      const served = await callTool(session, name, {});
      assert.equal(served.isError, undefined, resultText(served));
      assert.deepEqual(served.structuredContent, { p });
    }
  } finally {
    await session.close();
  }
  assert.deepEqual(session.errors, []);
  if (!PYTHON.ok) return;
  const driven = await pythonClient(dirs, [{ name: "cents" }, { name: "round" }]);
  assert.deepEqual(driven.results, [
    { is_error: true, text: `${refused}\n{"n": 2, "p": 0.07}`, structured: null },
    { is_error: false, text: '{"p": 0.5}', structured: { p: 0.5 } },
  ]);
});

Deno.test("floatMultipleOf() finds the number a float check would refuse, where the gate ran the check", async () => {
  const tool = (outputSchema: Record<string, unknown>) => ({ name: "q", outputSchema });
  const items = { items: { properties: { p: { multipleOf: 0.01 } } } };
  assert.deepEqual(
    await floatMultipleOf(tool({ properties: { rows: items } }), { rows: [{ p: 1 }, { p: 0.29 }] }),
    { pointer: "/rows/1/p", value: 0.29, divisor: 0.01 },
  );
  // ajv reads the quotient's text: 1e21 and beyond are no integer to it.
  assert.equal((await floatMultipleOf(tool({ multipleOf: 1 }), 1e21))?.value, 1e21);
  // Exact in binary too, or in a branch no client needs once an earlier one passed.
  assert.equal(await floatMultipleOf(tool({ multipleOf: 0.25 }), 0.75), undefined);
  const branches = { anyOf: [{ type: "number" }, { multipleOf: 0.01 }] };
  assert.equal(await floatMultipleOf(tool(branches), 0.07), undefined);
  assert.equal(await floatMultipleOf(tool({ type: "object" }), { p: 0.07 }), undefined);
});

Deno.test("mcp: a call that timed out keeps what it printed, redacted and cut like any result", async () => {
  const secret = "timeout-S3CRET-77";
  await using dirs = await scratch({
    schema: 1,
    tools: {
      slow: {
        description: "Print, then hang",
        input_schema: {},
        command: [
          "/bin/sh",
          "-c",
          'echo "row 1"; echo "token $TOKEN"; echo warn >&2; exec sleep 30',
        ],
        env: { TOKEN: secret },
        timeout_ms: 1500,
      },
      flood: {
        description: "Print a lot, then hang",
        input_schema: {},
        command: ["/bin/sh", "-c", "seq 1 100000; exec sleep 30"],
        timeout_ms: 1500,
      },
      silent: {
        description: "Hang",
        input_schema: {},
        command: ["sleep", "30"],
        timeout_ms: 300,
      },
    },
  });
  const session = await connectMcp(dirs, ["mcp", "--approve", "always"]);
  try {
    const slow = await callTool(session, "slow", {});
    assert.equal(slow.isError, true);
    const label = phrase("label.tool", { tool: '"slow"' });
    assert.deepEqual(slow.content, [
      { type: "text", text: `${say("run.timed_out", { label, ms: 1500 })}: warn` },
      { type: "text", text: `${say("mcp.printed_before")}\nrow 1\ntoken [redacted]` },
    ]);
    // Cut at the cap a result has, naming the file that holds all of it.
    const flood = await callTool(session, "flood", {});
    const printed = resultText(flood).split("\n");
    assert.equal(printed[1], say("mcp.printed_before"));
    assert.equal(printed[2], "1");
    assert.match(printed.at(-1)!, opening("run.cut_note_spilled", { lines: 2000 }));
    assert.ok(printed.length < 2_100, String(printed.length));
    // Nothing printed, nothing added.
    const silent = await callTool(session, "silent", {});
    assert.equal(silent.content.length, 1);
  } finally {
    await session.close();
  }
});

Deno.test("mcp: the approval form's first lines are the command, the cwd and the input (Claude Code shows four)", async () => {
  await using dirs = await scratch({
    schema: 1,
    tools: {
      echo: {
        description: "Echo",
        input_schema: CLOSED,
        command: ["cat", "-n"],
        env: { TOKEN: "form-S3CRET" },
      },
    },
  });
  const asked: string[] = [];
  const session = await connectMcp(dirs, ["mcp"], {
    elicit: (message) => {
      asked.push(message);
      return { action: "accept", content: { decision: "allow_once" } };
    },
  });
  try {
    const echoed = await callTool(session, "echo", { text: "hi" });
    assert.equal(resultText(echoed), '     1\t{"text":"hi"}');
    const long = "x".repeat(200);
    await callTool(session, "echo", { text: long });
    await callTool(session, "spawn", { input: "!echo from spawn" });
  } finally {
    await session.close();
  }
  const root = await Deno.realPath(dirs.root);
  const [first, long, spawned] = asked.map((message) => message.split("\n"));
  assert.deepEqual(first?.slice(0, 4), [
    "  command      cat -n",
    `  cwd          ${root}`,
    '  input        {"text":"hi"}',
    "  tool         echo",
  ]);
  // Then the rest, and the question; the secret is never shown.
  assert.ok(first?.some((line) => /^ {2}program +\//.test(line)), asked[0]);
  assert.equal(first?.at(-1), say("prompt.question"));
  assert.ok(!asked.join("\n").includes("form-S3CRET"));
  // A long input is shown whole, one field a line, as on the terminal.
  assert.equal(long?.[2], "  input        {");
  assert.deepEqual(spawned?.slice(0, 2), [
    "  command      echo from spawn",
    `  cwd          ${root}`,
  ]);
});
