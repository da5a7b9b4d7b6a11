/**
 * Rich results: a tool declaring `"output": "content"` prints a JSON array of MCP content blocks,
 * checked before they are served (strict shapes, base64 that is base64, a media type where one is
 * needed, the output caps) by one reader for every path: `call` prints their text, `call --json`
 * carries them, MCP serves them as `content` to the TypeScript SDK's client and the Python SDK's
 * (2026-07-28 and 2025) over stdio. A secret never reaches any output, in any kind of block.
 *
 * @module
 */

import assert from "node:assert/strict";
import { cli, cliCommand, type Scratch, scratch, unconfined } from "./_cli.ts";
import { callTool, connectMcp, DENO_ENV, resultText } from "./_mcp.ts";
import { PYTHON, PYTHON_BIN, pythonSkip } from "./_python_sdk.ts";
import { ROOT } from "./_fixtures.ts";
import { say, wording } from "./_wording.ts";
import { phrase } from "../src/locale/messages.ts";

/** A 1×1 red PNG. */
const PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
const SECRET = "s3cr3t-TOKEN-5e1f";

const EVERY_KIND = [
  { type: "text", text: "A red dot" },
  { type: "image", data: PNG, mimeType: "image/png" },
  { type: "audio", data: "UklGRg==", mimeType: "audio/wav" },
  { type: "resource", resource: { uri: "test://notes", mimeType: "text/plain", text: "hello" } },
  { type: "resource", resource: { uri: "test://raw", blob: "AAEC" } },
  { type: "resource_link", uri: "file:///tmp/plot.png", name: "plot", mimeType: "image/png" },
];

/**
 * A workspace whose tool `NAME` prints `out/NAME.json` (each `SECRET` in it replaced by the tool's
 * secret env value), for each name given.
 */
async function printing(outputs: Record<string, unknown>): Promise<Scratch> {
  const tools = Object.fromEntries(
    Object.keys(outputs).map((name) => [name, {
      description: "Print content",
      input_schema: { type: "object" },
      output: "content",
      command: ["/bin/sh", "-c", `cat >/dev/null; sed "s/SECRET/$SECRET/g" out/${name}.json`],
      env: { SECRET },
    }]),
  );
  const dirs = await scratch({ schema: 1, tools });
  await unconfined(dirs);
  await Deno.mkdir(`${dirs.root}/out`);
  for (const [name, value] of Object.entries(outputs)) {
    // `\\u0073` in a string: the JSON escape `\u0073` in the file.
    const text = typeof value === "string"
      ? value
      : JSON.stringify(value).replaceAll("\\\\u", "\\u");
    await Deno.writeTextFile(`${dirs.root}/out/${name}.json`, text);
  }
  return dirs;
}

Deno.test("call prints the text blocks and a line for each other block; --json carries the blocks", async () => {
  await using dirs = await printing({ every: EVERY_KIND });
  const plain = await cli(dirs, ["call", "every", "{}", "--approve", "always"]);
  assert.equal(plain.code, 0, plain.stderr);
  const size = (count: number) => say("size.bytes", { count });
  assert.equal(
    plain.stdout,
    [
      "A red dot",
      say("content.image", { media: "image/png", size: size(70) }),
      say("content.audio", { media: "audio/wav", size: size(4) }),
      say("content.resource_typed", { uri: "test://notes", media: "text/plain", size: size(5) }),
      say("content.resource", { uri: "test://raw", size: size(3) }),
      say("content.link", { uri: "file:///tmp/plot.png" }),
    ].join("\n") + "\n",
  );
  const json = JSON.parse(
    (await cli(dirs, ["--json", "call", "every", "{}", "--approve", "always"])).stdout,
  );
  assert.deepEqual(json.content, EVERY_KIND);
  assert.equal(json.ok, true);
  // show says what the tool prints.
  assert.match((await cli(dirs, ["show", "every"])).stdout, wording("show.output_content"));
  assert.equal(JSON.parse((await cli(dirs, ["--json", "show", "every"])).stdout).output, "content");
  const uk = await cli(dirs, ["--locale", "uk-UA", "call", "every", "{}", "--approve", "always"]);
  assert.match(uk.stdout, /^\[зображення image\/png, 70 Б\]$/m);
});

Deno.test("an empty array or nothing printed is the sentence saying so; a text tool's --json content is null", async () => {
  await using dirs = await printing({ empty: [], blank: "" });
  for (const tool of ["empty", "blank"]) {
    const json = JSON.parse(
      (await cli(dirs, ["--json", "call", tool, "{}", "--approve", "always"])).stdout,
    );
    assert.equal(json.ok, true);
    assert.match(json.result, wording("run.printed_nothing"));
    assert.deepEqual(json.content, [{ type: "text", text: json.result }]);
  }
  await Deno.writeTextFile(
    `${dirs.root}/.basis/tools.json`,
    JSON.stringify({
      schema: 1,
      tools: { echo: { description: "Echo", input_schema: { type: "object" }, command: ["cat"] } },
    }),
  );
  const text = JSON.parse(
    (await cli(dirs, ["--json", "call", "echo", "{}", "--approve", "always"])).stdout,
  );
  assert.equal(text.content, null);
});

/** Output that is not a valid block array, and the pointer its refusal names. */
const BAD: readonly [name: string, output: unknown, pointer: string][] = [
  ["object", { type: "text", text: "x" }, "(root)"],
  ["not_object", ["text"], "/0"],
  ["no_type", [{ text: "x" }], "/0/type"],
  ["unknown_type", [{ type: "video", data: PNG }], "/0/type"],
  ["text_number", [{ type: "text", text: 1 }], "/0/text"],
  ["extra_key", [{ type: "text", text: "x", colour: "red" }], "/0/colour"],
  ["meta", [{ type: "text", text: "x", _meta: {} }], "/0/_meta"],
  ["no_mime", [{ type: "text", text: "ok" }, { type: "image", data: PNG }], "/1/mimeType"],
  ["not_base64", [{ type: "image", data: "not base64!", mimeType: "image/png" }], "/0/data"],
  ["unpadded", [{ type: "audio", data: "UklGR", mimeType: "audio/wav" }], "/0/data"],
  ["image_as_audio", [{ type: "audio", data: PNG, mimeType: "image/png" }], "/0/mimeType"],
  ["bad_mime", [{ type: "image", data: PNG, mimeType: "png" }], "/0/mimeType"],
  ["no_uri", [{ type: "resource", resource: { text: "x" } }], "/0/resource/uri"],
  ["relative_uri", [{ type: "resource_link", uri: "plot.png", name: "p" }], "/0/uri"],
  [
    "text_and_blob",
    [{ type: "resource", resource: { uri: "a:b", text: "x", blob: "AA==" } }],
    "/0/resource",
  ],
  ["neither", [{ type: "resource", resource: { uri: "a:b" } }], "/0/resource/text"],
  ["no_name", [{ type: "resource_link", uri: "a:b" }], "/0/name"],
  [
    "priority",
    [{ type: "text", text: "x", annotations: { priority: 2 } }],
    "/0/annotations/priority",
  ],
];

Deno.test("output that is not a valid block array is a tool error naming the first bad block by pointer", async () => {
  const outputs = Object.fromEntries(BAD.map(([name, output]) => [name, output]));
  await using dirs = await printing({
    ...outputs,
    not_json: '[{"type": "text",',
    huge: [
      { type: "text", text: "x".repeat(60_000) },
    ],
  });
  for (const [name, , pointer] of BAD) {
    const run = await cli(dirs, ["--json", "call", name, "{}", "--approve", "always"]);
    assert.equal(run.code, 1, name);
    const json = JSON.parse(run.stdout);
    assert.equal(json.error.kind, "invalid_output", name);
    assert.match(
      json.error.message,
      wording("output.content_refused", { tool: `"${name}"`, pointer }),
      name,
    );
    assert.equal(json.content, null);
  }
  const notJson = JSON.parse(
    (await cli(dirs, ["--json", "call", "not_json", "{}", "--approve", "always"])).stdout,
  );
  assert.match(notJson.error.message, wording("output.content_not_json", { tool: '"not_json"' }));
  const huge = JSON.parse(
    (await cli(dirs, ["--json", "call", "huge", "{}", "--approve", "always"])).stdout,
  );
  assert.match(
    huge.error.message,
    wording("output.too_large_spilled", { label: phrase("label.tool", { tool: '"huge"' }) }),
  );
  // Without --json: the message, no stack trace, exit 1.
  const plain = await cli(dirs, ["call", "not_base64", "{}", "--approve", "always"]);
  assert.equal(plain.code, 1);
  assert.equal(plain.stdout, "");
  assert.match(plain.stderr, /^basis-tools: .*\/0\/data: .*\n$/);
});

Deno.test("the manifest's output is text or content, and content cannot go with output_schema", async () => {
  await using dirs = await scratch({
    schema: 1,
    tools: {
      both: {
        description: "x",
        input_schema: { type: "object" },
        output: "content",
        output_schema: { type: "object" },
        command: ["true"],
      },
      other: {
        description: "x",
        input_schema: { type: "object" },
        output: "pictures",
        command: ["true"],
      },
      text: {
        description: "x",
        input_schema: { type: "object" },
        output: "text",
        output_schema: { type: "object" },
        command: ["true"],
      },
    },
  });
  const checked = await cli(dirs, ["check"]);
  assert.equal(checked.code, 6);
  const said = checked.stdout + checked.stderr;
  assert.match(said, wording("manifest.output_with_schema", { value: '"content"' }));
  assert.match(said, wording("manifest.output", { value: '"pictures"' }));
  assert.doesNotMatch(said, /tool "text"/);
});

/** Every kind of block, each textual field holding the secret (once JSON-escaped). */
const LEAKY = [
  { type: "text", text: "token=SECRET" },
  { type: "text", text: "escaped=\\u0073" + SECRET.slice(1) },
  { type: "image", data: PNG, mimeType: "image/png", annotations: { audience: ["user"] } },
  { type: "resource", resource: { uri: "test://notes", mimeType: "text/plain", text: "SECRET" } },
  {
    type: "resource_link",
    uri: "https://example.com/notes",
    name: "SECRET",
    description: "SECRET",
    title: "SECRET",
  },
];

Deno.test("a secret a tool echoes into any kind of block never reaches an output: hidden, or the block refused", async () => {
  const b64 = btoa(`key: ${SECRET}`);
  await using dirs = await printing({
    leaky: LEAKY,
    in_data: [{ type: "image", data: b64, mimeType: "image/png" }],
    in_blob: [{ type: "resource", resource: { uri: "test://b", blob: b64 } }],
    as_data: [{ type: "audio", data: "SECRET", mimeType: "audio/wav" }],
    as_mime: [{ type: "image", data: PNG, mimeType: "image/SECRET" }],
    as_key: [{ type: "text", text: "x", SECRET: 1 }],
    as_uri: [{ type: "resource_link", uri: "test://SECRET", name: "n" }],
    as_date: [{ type: "text", text: "x", annotations: { lastModified: "SECRET" } }],
  });
  const outputs: string[] = [];
  for (
    const tool of [
      "leaky",
      "in_data",
      "in_blob",
      "as_data",
      "as_mime",
      "as_key",
      "as_uri",
      "as_date",
    ]
  ) {
    for (const json of [[], ["--json"]]) {
      const run = await cli(dirs, [...json, "call", tool, "{}", "--approve", "always"]);
      outputs.push(run.stdout, run.stderr);
    }
  }
  const session = await connectMcp(dirs, ["mcp", "--approve", "always"]);
  try {
    const leaky = await callTool(session, "leaky");
    assert.equal(leaky.isError, undefined);
    assert.equal(leaky.content.length, LEAKY.length);
    assert.deepEqual(leaky.content[0], { type: "text", text: "token=[redacted]" });
    assert.deepEqual(leaky.content[1], { type: "text", text: "escaped=[redacted]" });
    for (const tool of ["in_data", "in_blob"]) {
      const result = await callTool(session, tool);
      assert.equal(result.isError, true);
      const pointer = tool === "in_data" ? "/0/data" : "/0/resource/blob";
      assert.match(resultText(result), wording("output.content_secret"));
      assert.match(resultText(result), new RegExp(pointer));
    }
    for (const tool of ["as_data", "as_mime", "as_key", "as_uri", "as_date"]) {
      assert.equal((await callTool(session, tool)).isError, true, tool);
    }
    outputs.push(JSON.stringify(session.messages), session.stderr());
  } finally {
    await session.close();
  }
  // Nor the audit trail, nor a spill file.
  const files = [dirs.stateDir, dirs.cacheDir, dirs.configDir];
  const grep = await new Deno.Command("grep", { args: ["-rlF", SECRET, ...files] }).output();
  assert.equal(grep.code, 1, new TextDecoder().decode(grep.stdout));
  for (const text of outputs) {
    assert.ok(!text.includes(SECRET), text.slice(0, 2000));
    assert.ok(!text.includes(b64), text.slice(0, 2000));
  }
});

Deno.test("mcp: the TypeScript SDK's client gets the blocks as content over stdio; a bad array is an error result", async () => {
  await using dirs = await printing({
    every: EVERY_KIND,
    bad: [{ type: "image", data: "!", mimeType: "image/png" }],
  });
  const session = await connectMcp(dirs, ["mcp", "--approve", "always"]);
  try {
    const result = await callTool(session, "every");
    assert.equal(result.isError, undefined);
    assert.deepEqual(result.content, EVERY_KIND);
    const bad = await callTool(session, "bad");
    assert.equal(bad.isError, true);
    assert.match(
      resultText(bad),
      wording("output.content_refused", { tool: '"bad"', pointer: "/0/data" }),
    );
    assert.deepEqual(session.errors, []);
  } finally {
    await session.close();
  }
});

for (const mode of ["2026-07-28", "legacy"]) {
  Deno.test(
    `mcp: the Python SDK's client (${mode}) receives an image block over stdio${pythonSkip}`,
    {
      ignore: !PYTHON.ok,
    },
    async () => {
      await using dirs = await printing({ every: EVERY_KIND });
      const server = cliCommand(dirs, ["mcp", "--approve", "always"]);
      for (const name of DENO_ENV) {
        const value = Deno.env.get(name);
        if (value !== undefined) server.env[name] = value;
      }
      const output = await new Deno.Command(PYTHON_BIN, {
        args: [
          `${ROOT}tests/fixtures/mcp/python_wire.py`,
          JSON.stringify({ server, mode, content: true, calls: [{ name: "every" }] }),
        ],
        stdout: "piped",
        stderr: "piped",
      }).output();
      assert.equal(output.code, 0, new TextDecoder().decode(output.stderr));
      const driven = JSON.parse(new TextDecoder().decode(output.stdout));
      assert.equal(driven.version, mode === "legacy" ? "2025-11-25" : mode);
      const [result] = driven.results;
      assert.equal(result.is_error, false);
      assert.deepEqual(result.content, EVERY_KIND);
    },
  );
}
