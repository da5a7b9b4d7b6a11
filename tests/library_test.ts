import assert from "node:assert/strict";
import { DeclaredToolBuilder, loadRoster, policyApprover, ToolError } from "../src/mod.ts";
import { tempDir } from "./_scratch.ts";
import { scratch } from "./_cli.ts";
import { DENO_ENV } from "./_mcp.ts";

const ROOT = new URL("..", import.meta.url).pathname;

Deno.test("the library surface loads a roster, builds a tool, refuses bad input and runs it, as mod.ts shows", async () => {
  await using cacheDir = await tempDir();
  const roster = await loadRoster({ workspace: `${ROOT}examples`, configDir: cacheDir.path });
  const spec = roster.tools.get("word_count");
  assert.ok(spec);
  const tool = new DeclaredToolBuilder(spec, {
    root: roster.root,
    cacheDir: cacheDir.path,
    spillDir: false,
    approver: policyApprover({ policy: "always" }),
  }).build();
  assert.deepEqual(tool.sideEffects, [spec.sideEffect]);
  assert.equal(tool.definition("anthropic").name, "word_count");
  await assert.rejects(
    tool.execution({ txt: 1 }),
    (error) => error instanceof ToolError && error.code === "invalid_input",
  );
  const output = await (await tool.execution({ text: "one two three" })).execute();
  assert.deepEqual(JSON.parse(output.result), { words: 3, lines: 1, characters: 13 });
});

Deno.test("serveWorkspace() serves a workspace's tools over MCP in one call", async () => {
  const { Client } = await import("@modelcontextprotocol/sdk/client");
  // @ts-types="@modelcontextprotocol/sdk/client/stdio"
  const { StdioClientTransport } = await import("@modelcontextprotocol/sdk/client/stdio.js");
  await using dirs = await scratch({
    schema: 1,
    tools: { echo: { description: "Echo", input_schema: { type: "object" }, command: ["cat"] } },
  });
  const script = `${dirs.root}/../serve.ts`;
  await Deno.writeTextFile(
    script,
    `import { serveWorkspace } from ${
      JSON.stringify(new URL("../src/mod.ts", import.meta.url).href)
    };
const [workspace, configDir, cacheDir] = Deno.args;
await serveWorkspace({ workspace, configDir, cacheDir, policy: "always" });\n`,
  );
  const env: Record<string, string> = {};
  for (const name of DENO_ENV) {
    const value = Deno.env.get(name);
    if (value !== undefined) env[name] = value;
  }
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: [
      "run",
      "-A",
      "--quiet",
      "--config",
      `${ROOT}deno.json`,
      script,
      dirs.root,
      dirs.configDir,
      dirs.cacheDir,
    ],
    env,
    stderr: "pipe",
  });
  const client = new Client({ name: "basis-tools-test", version: "1.0.0" });
  await client.connect(transport);
  try {
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((tool) => tool.name).sort(), ["echo", "spawn"]);
    const result = await client.callTool({ name: "echo", arguments: { text: "hi" } });
    assert.deepEqual(result.content, [{ type: "text", text: '{"text":"hi"}' }]);
  } finally {
    await client.close();
  }
});
