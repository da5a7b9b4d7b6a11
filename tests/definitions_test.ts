import assert from "node:assert/strict";
import {
  DeclaredToolBuilder,
  DEFINITION_FORMATS,
  type SpawnConfig,
  SpawnToolBuilder,
  type ToolSpec,
} from "../src/mod.ts";
import { cli, oneTool, ROOT, scratch } from "./_cli.ts";
import { OPENAI_AGENTS_VERSION, openaiAgents } from "./_openai_agents.ts";
import { say } from "./_wording.ts";

const DRAFT_07 = "http://json-schema.org/draft-07/schema#";
const SNAPSHOT = new URL("./fixtures/definitions_snapshot.json", import.meta.url);
const UPDATE = Deno.env.get("BASIS_UPDATE_SNAPSHOTS") === "1";

const WORD_COUNT: ToolSpec = {
  name: "word_count",
  description: "Count the words, lines and characters of a text",
  inputSchema: {
    type: "object",
    properties: { text: { type: "string", description: "The text to count" } },
    required: ["text"],
    additionalProperties: false,
  },
  command: ["node", "tools/word_count.mjs"],
  program: "node",
  cwd: "/w",
  env: { TOKEN: "never-in-a-definition" },
  sideEffect: "process",
  timeoutMs: 120_000,
  sandbox: { network: false, write: [], read: [] },
  file: "/w/.basis/tools.json",
  scope: "workspace",
};

const DEPLOY: ToolSpec = {
  ...WORD_COUNT,
  name: "deploy-site",
  description: "Publish the site to the CDN.",
  inputSchema: { type: "object", properties: { env: { enum: ["staging", "production"] } } },
  command: ["./deploy.sh"],
  program: "/w/deploy.sh",
  sideEffect: "external",
};

const SPAWN_CONFIG: SpawnConfig = {
  file: "/home/me/.config/basis/spawn.json",
  agent: ["claude", "-p"],
  targets: new Map([["mac", ["ssh", "mac", "--"]], ["builder", ["ssh", "b"]]]),
  maxDepth: 2,
};

/** Every definition of the three tools, by locale and format. */
function definitions(): Record<string, Record<string, unknown[]>> {
  const all: Record<string, Record<string, unknown[]>> = {};
  for (const locale of ["en-US", "uk-UA"]) {
    const tools = [
      new DeclaredToolBuilder(WORD_COUNT, { locale }).build(),
      new DeclaredToolBuilder(DEPLOY, { locale }).build(),
      new SpawnToolBuilder(SPAWN_CONFIG, { locale, root: "/w" }).build(),
    ];
    all[locale] = Object.fromEntries(
      DEFINITION_FORMATS.map((format) => [format, tools.map((tool) => tool.definition(format))]),
    );
  }
  return all;
}

Deno.test("definitions match the snapshot for every format, for declared tools and spawn", async () => {
  const actual = definitions();
  const text = JSON.stringify(actual, null, 2) + "\n";
  if (UPDATE) await Deno.writeTextFile(SNAPSHOT, text);
  const expected = JSON.parse(await Deno.readTextFile(SNAPSHOT));
  assert.deepEqual(actual, expected, "run with BASIS_UPDATE_SNAPSHOTS=1 to accept a change");
  assert.ok(!text.includes("never-in-a-definition"), "env values never appear in a definition");
});

Deno.test("each format has the shape its API takes", () => {
  const en = definitions()["en-US"] ?? {};
  const [openai, anthropic, mcp, gemini, responses] = DEFINITION_FORMATS.map((format) =>
    (en[format] ?? []) as Record<string, unknown>[]
  );
  assert.deepEqual(Object.keys(openai?.[0] ?? {}), ["type", "function"]);
  assert.deepEqual(Object.keys((openai?.[0]?.function ?? {}) as object), [
    "name",
    "description",
    "parameters",
    "strict",
  ]);
  assert.deepEqual(Object.keys(anthropic?.[0] ?? {}), ["name", "description", "input_schema"]);
  assert.deepEqual(Object.keys(mcp?.[0] ?? {}), [
    "name",
    "title",
    "description",
    "inputSchema",
    "annotations",
  ]);
  // MCP annotations: never read-only; process is a closed world, external and spawn open.
  assert.deepEqual((mcp ?? []).map((definition) => definition.annotations), [
    { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  ]);
  assert.deepEqual(Object.keys(gemini?.[0] ?? {}), ["name", "description", "parametersJsonSchema"]);
  // The Responses API's (and the Agents SDK's) flat shape: Chat Completions' function, unwrapped.
  assert.deepEqual(Object.keys(responses?.[0] ?? {}), [
    "type",
    "name",
    "description",
    "parameters",
    "strict",
  ]);
  assert.deepEqual(
    responses?.map(({ type, ...rest }) => ({ type, function: rest })),
    openai,
  );
});

Deno.test("definitions are copies: changing one changes neither the tool nor the next one", () => {
  const tool = new DeclaredToolBuilder(WORD_COUNT).build();
  const first = tool.definition("anthropic");
  (first.input_schema as { type: string }).type = "array";
  assert.equal(tool.definition("anthropic").input_schema.type, "object");
  assert.equal(tool.inputSchema().type, "object");
  assert.equal(WORD_COUNT.inputSchema.type, "object");
});

Deno.test("`schema` prints the roster's definitions, openai by default; an unknown format exits 2", async () => {
  await using dirs = await scratch(oneTool("echo", { command: ["cat"] }));
  const plain = await cli(dirs, ["schema"]);
  assert.equal(plain.code, 0, plain.stderr);
  const openai = JSON.parse(plain.stdout);
  assert.deepEqual(openai.map((tool: { function: { name: string } }) => tool.function.name), [
    "echo",
    "spawn",
  ]);
  for (const format of DEFINITION_FORMATS) {
    const result = await cli(dirs, ["schema", "--format", format]);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(JSON.parse(result.stdout).length, 2);
  }
  const bad = await cli(dirs, ["schema", "--format", "soap"]);
  assert.equal(bad.code, 2);
  assert.equal(
    bad.stderr,
    `basis-tools: ${
      say("cli.bad_format", {
        value: '"soap"',
        formats: "openai, anthropic, mcp, gemini, openai-responses",
      })
    }\n`,
  );
  assert.equal(bad.stdout, "");
  const help = await cli(dirs, ["schema", "--help"]);
  assert.match(help.stdout, /discoveryCommand/);
});

Deno.test('every format says `"type": "object"` for a bare input_schema, in the library and in `schema`', async () => {
  const bare: ToolSpec = { ...WORD_COUNT, inputSchema: {} };
  const tool = new DeclaredToolBuilder(bare).build();
  const schemaOf = {
    openai: () => tool.definition("openai").function.parameters,
    anthropic: () => tool.definition("anthropic").input_schema,
    mcp: () => tool.definition("mcp").inputSchema,
    gemini: () => tool.definition("gemini").parametersJsonSchema,
    "openai-responses": () => tool.definition("openai-responses").parameters,
  };
  // MCP's names its draft (its clients read a schema without one as 2020-12).
  const bareOf = (format: string) =>
    format === "mcp" ? { $schema: DRAFT_07, type: "object" } : { type: "object" };
  for (const format of DEFINITION_FORMATS) assert.deepEqual(schemaOf[format](), bareOf(format));
  // What the gate validates is the schema as declared.
  assert.deepEqual(tool.inputSchema(), {});
  await using dirs = await scratch(oneTool("bare", { command: ["cat"], input_schema: {} }));
  const find = (definitions: unknown[], name: string) =>
    definitions.find((d) => JSON.stringify(d).includes(`"name":"${name}"`)) as Record<
      string,
      Record<string, unknown>
    >;
  const inCli: Record<string, (d: Record<string, Record<string, unknown>>) => unknown> = {
    openai: (d) => (d.function as Record<string, unknown>).parameters,
    anthropic: (d) => d.input_schema,
    mcp: (d) => d.inputSchema,
    gemini: (d) => d.parametersJsonSchema,
    "openai-responses": (d) => d.parameters,
  };
  for (const format of DEFINITION_FORMATS) {
    const result = await cli(dirs, ["schema", "--format", format]);
    assert.equal(result.code, 0, result.stderr);
    const definition = find(JSON.parse(result.stdout), "bare");
    assert.deepEqual(inCli[format]!(definition), bareOf(format), format);
  }
});

const agents = await openaiAgents();
const agentsSkip = agents.ok ? "" : ` (skipped: ${agents.reason})`;

Deno.test({
  name:
    `schema --format openai-responses is the tool the OpenAI Agents SDK ${OPENAI_AGENTS_VERSION} sends, and openai its Chat Completions one${agentsSkip}`,
  ignore: !agents.ok,
}, async () => {
  if (!agents.ok) return;
  await using dirs = await scratch({
    schema: 1,
    tools: {
      word_count: {
        description: WORD_COUNT.description,
        input_schema: WORD_COUNT.inputSchema,
        command: ["cat"],
      },
      deploy: {
        description: DEPLOY.description,
        input_schema: DEPLOY.inputSchema,
        command: ["cat"],
      },
      bare: { description: "Anything", input_schema: {}, command: ["cat"] },
    },
  });
  const format = async (name: string) => {
    const result = await cli(dirs, ["schema", "--format", name]);
    assert.equal(result.code, 0, result.stderr);
    return JSON.parse(result.stdout) as Record<string, unknown>[];
  };
  const [responses, chat] = [await format("openai-responses"), await format("openai")];
  // bare, deploy (open), word_count (closed), spawn.
  assert.deepEqual(responses.map((definition) => definition.strict), [false, false, true, true]);
  const child = new Deno.Command(agents.node, {
    args: [`${ROOT}tests/fixtures/openai/convert.mjs`, agents.modules],
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(JSON.stringify(responses)));
  await writer.close();
  const output = await child.output();
  assert.equal(output.code, 0, new TextDecoder().decode(output.stderr));
  const converted = JSON.parse(new TextDecoder().decode(output.stdout)) as unknown[];
  // The SDK takes each as it is (a strict one's schema too) and sends exactly it.
  assert.deepEqual(
    converted,
    responses.map((definition, i) => ({ responses: definition, chat: chat[i] })),
  );
});
