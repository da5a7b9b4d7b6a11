import assert from "node:assert/strict";
import { DeclaredToolBuilder, loadRoster, policyApprover, ToolError } from "../src/mod.ts";
import { tempDir } from "./_scratch.ts";

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
