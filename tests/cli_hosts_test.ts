/**
 * The command line's side of fitting agent hosts: structured output in `call --json` and in the
 * definitions `schema` prints (OpenAI's strict mode only where it qualifies), `call --quiet` and
 * `--result`, a broken `spawn.json` that leaves the declared tools working, and `list --json` as the
 * README describes it.
 */

import assert from "node:assert/strict";
import { qualifiesForStrict } from "../src/contract/_strict.ts";
import { cli, oneTool, scratch } from "./_cli.ts";
import { phrase } from "../src/locale/messages.ts";
import { say, wording } from "./_wording.ts";

/** A tool's label, as a message names it. */
const tool = (name: string) => phrase("label.tool", { tool: `"${name}"` });

/** Output of tool "bad" refused at /rows ("must be array" is the type check's reason). */
const BAD_ROWS = say("schema.output_refused", {
  tool: '"bad"',
  pointer: "/rows",
  reason: phrase("schema.type", { types: "array" }),
});

const ALWAYS = ["--approve", "always"];
const ROWS = {
  type: "object",
  properties: { rows: { type: "array", items: { type: "integer" } } },
  required: ["rows"],
};
const CLOSED = {
  type: "object",
  properties: { q: { type: "string" }, n: { type: ["integer", "null"] } },
  required: ["q", "n"],
  additionalProperties: false,
};

Deno.test("call --json of a tool with output_schema gains structured_content; a mismatch is invalid_output, exit 1", async () => {
  await using dirs = await scratch({
    schema: 1,
    tools: {
      q: {
        description: "Query",
        input_schema: {},
        output_schema: ROWS,
        command: ["/bin/sh", "-c", `cat >/dev/null; echo '{"rows": [1, 2]}'`],
      },
      bad: {
        description: "Query",
        input_schema: {},
        output_schema: ROWS,
        command: ["/bin/sh", "-c", `cat >/dev/null; echo '{"rows": "none"}'`],
      },
      plain: { description: "Plain", input_schema: {}, command: ["cat"] },
    },
  });
  const q = JSON.parse((await cli(dirs, ["call", "q", "{}", "--json", ...ALWAYS])).stdout);
  assert.deepEqual(q.structured_content, { rows: [1, 2] });
  assert.equal(q.result, '{"rows": [1, 2]}');
  const plain = JSON.parse(
    (await cli(dirs, ["call", "plain", "{}", "--json", ...ALWAYS])).stdout,
  );
  assert.equal(plain.structured_content, null);
  const bad = await cli(dirs, ["call", "bad", "{}", "--json", ...ALWAYS]);
  assert.equal(bad.code, 1);
  const object = JSON.parse(bad.stdout);
  assert.equal(object.ok, false);
  assert.equal(object.structured_content, null);
  assert.deepEqual(object.error, {
    kind: "invalid_output",
    message: BAD_ROWS,
  });
  // On the terminal: the output as it came, then why it is refused.
  const streamed = await cli(dirs, ["call", "bad", "{}", ...ALWAYS]);
  assert.equal(streamed.code, 1);
  assert.equal(streamed.stdout, '{"rows": "none"}\n');
  assert.ok(streamed.stderr.endsWith(`${BAD_ROWS}\n`), streamed.stderr);
});

Deno.test("an output_schema that does not compile makes the tool unavailable before anything runs", async () => {
  await using dirs = await scratch(oneTool("q", {
    output_schema: { type: "object", properties: { a: { type: "nope" } } },
    command: ["/bin/sh", "-c", "echo ran >&2"],
  }));
  const check = await cli(dirs, ["check"]);
  assert.equal(check.code, 6);
  assert.match(
    check.stdout,
    new RegExp(`tool "q": output_schema: ${wording("schema_problem.invalid").source}`),
  );
  const call = await cli(dirs, ["call", "q", "{}", ...ALWAYS]);
  assert.equal(call.code, 6);
  assert.doesNotMatch(call.stderr, /ran/);
  assert.match(call.stderr, /tool "q": output_schema: /);
});

Deno.test("schema puts output schemas where each format has a place, and strict only where it qualifies", async () => {
  await using dirs = await scratch({
    schema: 1,
    tools: {
      closed: {
        description: "Closed",
        input_schema: CLOSED,
        output_schema: ROWS,
        command: ["cat"],
      },
      open: { description: "Open", input_schema: { type: "object" }, command: ["cat"] },
    },
  });
  const format = async (name: string) =>
    JSON.parse((await cli(dirs, ["schema", "--format", name])).stdout) as Record<
      string,
      unknown
    >[];
  const mcp = await format("mcp");
  // MCP's names its draft: its clients read a schema without one as 2020-12.
  assert.deepEqual(mcp[0]?.outputSchema, {
    $schema: "http://json-schema.org/draft-07/schema#",
    ...ROWS,
  });
  assert.equal("outputSchema" in (mcp[1] ?? {}), false);
  const gemini = await format("gemini");
  assert.deepEqual(gemini[0]?.responseJsonSchema, ROWS);
  const openai = await format("openai");
  const strict = openai.map((definition) => (definition.function as { strict: boolean }).strict);
  assert.deepEqual(strict.slice(0, 2), [true, false]);
  const anthropic = await format("anthropic");
  assert.deepEqual(Object.keys(anthropic[0] ?? {}), ["name", "description", "input_schema"]);
});

Deno.test("qualifiesForStrict() takes only what OpenAI's strict mode takes", () => {
  assert.equal(qualifiesForStrict(CLOSED), true);
  const nested = {
    ...CLOSED,
    properties: {
      ...CLOSED.properties,
      o: {
        type: "object",
        properties: { x: { anyOf: [{ type: "string" }, { $ref: "#/$defs/n" }] } },
        required: ["x"],
        additionalProperties: false,
      },
      list: { type: "array", items: { type: "string", enum: ["a", "b"] } },
    },
    required: ["q", "n", "o", "list"],
    $defs: { n: { type: "number", minimum: 0 } },
  };
  assert.equal(qualifiesForStrict(nested), true);
  const refused: Record<string, unknown>[] = [
    { type: "object" }, // open: additionalProperties is not false
    { ...CLOSED, required: ["q"] }, // an optional property
    { ...CLOSED, properties: { q: { type: "string", minLength: 1 }, n: { type: "integer" } } },
    { ...CLOSED, properties: { q: {}, n: { type: "integer" } } }, // a schema of no kind
    { ...CLOSED, properties: { q: { type: "string", format: "uri" }, n: { type: "integer" } } },
    { ...CLOSED, $schema: "http://json-schema.org/draft-07/schema#" },
    { ...CLOSED, properties: { q: { allOf: [{ type: "string" }] }, n: { type: "integer" } } },
    { anyOf: [CLOSED], type: "object" },
  ];
  for (const schema of refused) {
    assert.equal(qualifiesForStrict(schema), false, JSON.stringify(schema));
  }
  let deep: Record<string, unknown> = { type: "string" };
  for (let i = 0; i < 11; i++) {
    deep = {
      type: "object",
      properties: { a: deep },
      required: ["a"],
      additionalProperties: false,
    };
  }
  assert.equal(qualifiesForStrict(deep), false);
});

Deno.test("call --quiet says nothing of its own on stderr when the call succeeds; --result prints the model's text", async () => {
  await using dirs = await scratch({
    schema: 1,
    tools: {
      silent: { description: "Silent", input_schema: {}, command: ["true"] },
      chatty: {
        description: "Chatty",
        input_schema: {},
        command: ["/bin/sh", "-c", "echo note >&2; printf 'out\\n\\n'"],
      },
      fail: {
        description: "Fail",
        input_schema: {},
        command: ["/bin/sh", "-c", "echo bad >&2; exit 2"],
      },
    },
  });
  const loud = await cli(dirs, ["call", "silent", "{}", ...ALWAYS]);
  assert.match(loud.stderr, wording("run.printed_nothing", { label: tool("silent") }));
  const quiet = await cli(dirs, ["call", "silent", "{}", "--quiet", ...ALWAYS]);
  assert.deepEqual([quiet.code, quiet.stdout, quiet.stderr], [0, "", ""]);
  // The tool's own stderr still streams under --quiet: only basis-tools' notes are held.
  const chatty = await cli(dirs, ["call", "chatty", "{}", "-q", ...ALWAYS]);
  assert.deepEqual([chatty.stdout, chatty.stderr], ["out\n\n", "note\n"]);
  // --result: the text a model reads, and nothing of the program's stderr on success.
  const result = await cli(dirs, ["call", "chatty", "{}", "--result", ...ALWAYS]);
  assert.deepEqual([result.code, result.stdout, result.stderr], [0, "out\n", ""]);
  const sentence = await cli(dirs, ["call", "silent", "{}", "--result", "--quiet", ...ALWAYS]);
  assert.equal(sentence.stdout, `${say("run.printed_nothing", { label: tool("silent") })}\n`);
  // A failure says everything, the program's stderr included, even under --quiet.
  const failed = await cli(dirs, ["call", "fail", "{}", "--result", "--quiet", ...ALWAYS]);
  assert.equal(failed.code, 1);
  assert.equal(failed.stdout, "");
  assert.equal(
    failed.stderr,
    `basis-tools: ${say("run.exit", { label: tool("fail"), code: 2 })}: bad\n`,
  );
  const spawn = await cli(dirs, ["spawn", "!true", "--quiet", ...ALWAYS]);
  assert.deepEqual([spawn.code, spawn.stderr], [0, ""]);
});

Deno.test("a broken spawn.json makes only spawn unavailable: list works, spawn exits 6, check reports it", async () => {
  await using dirs = await scratch(oneTool("echo", { command: ["cat"] }));
  await Deno.writeTextFile(`${dirs.configDir}/spawn.json`, '{"agent": "claude -p"}');
  const list = await cli(dirs, ["list", "--json"]);
  assert.equal(list.code, 0, list.stderr);
  const rows = JSON.parse(list.stdout);
  assert.deepEqual(
    rows.map((row: { name: string; available: boolean }) => [row.name, row.available]),
    [
      ["echo", true],
      ["spawn", false],
    ],
  );
  assert.match(rows[1].problems[0].message, /spawn\.json:\d+:\d+: agent: /);
  assert.equal((await cli(dirs, ["call", "echo", "{}", ...ALWAYS])).code, 0);
  assert.equal((await cli(dirs, ["spawn", "!true", ...ALWAYS])).code, 6);
  assert.equal((await cli(dirs, ["check"])).code, 6);
  const schema = await cli(dirs, ["schema"]);
  assert.equal(schema.code, 0);
  assert.deepEqual(
    JSON.parse(schema.stdout).map((d: { function: { name: string } }) => d.function.name),
    [
      "echo",
    ],
  );
  assert.match(schema.stderr, wording("cli.left_out", { tool: '"spawn"' }));
  assert.match(schema.stderr, /spawn\.json/);
});

Deno.test("list --json is as the README says: source built-in for spawn, its side effect, availability", async () => {
  await using dirs = await scratch({
    schema: 1,
    tools: {
      echo: { description: "Echo", input_schema: {}, command: ["cat"], side_effect: "external" },
      job: {
        description: "Job",
        input_schema: {},
        command: ["curl"],
        env: { TOKEN: "${BASIS_UNSET_JOB_TOKEN}" },
      },
    },
  });
  const rows = JSON.parse((await cli(dirs, ["list", "--json"])).stdout);
  for (const row of rows) {
    assert.deepEqual(Object.keys(row), [
      "name",
      "side_effect",
      "source",
      "description",
      "available",
      "problems",
    ]);
  }
  assert.deepEqual(rows[0], {
    name: "echo",
    side_effect: "external",
    source: "workspace",
    description: "Echo",
    available: true,
    problems: [],
  });
  assert.equal(rows[1].name, "job");
  assert.equal(rows[1].available, false);
  assert.equal(rows[1].problems[0].field, "env.TOKEN");
  assert.equal(rows[2].source, "built-in");
  assert.equal(rows[2].side_effect, "process, local state");
  const text = await cli(dirs, ["list"]);
  assert.match(
    text.stdout,
    /^job\s+-\s+workspace\s+unavailable: env\.TOKEN: variable "BASIS_UNSET_JOB_TOKEN"/m,
  );
});
