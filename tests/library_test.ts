import assert from "node:assert/strict";
import { loadRoster, runProgram, validateInput } from "../src/mod.ts";
import { tempDir } from "./_scratch.ts";

const ROOT = new URL("..", import.meta.url).pathname;

Deno.test("the library surface loads a roster, gates input and runs a tool, as mod.ts shows", async () => {
  await using cacheDir = await tempDir();
  const roster = await loadRoster({ workspace: `${ROOT}examples`, configDir: cacheDir.path });
  const tool = roster.tools.get("word_count");
  assert.ok(tool);
  await assert.rejects(validateInput(tool, { txt: 1 }, { cacheDir: cacheDir.path }), /\/text/);
  const input = { text: "one two three" };
  await validateInput(tool, input, { cacheDir: cacheDir.path });
  const result = await runProgram({
    program: tool.program,
    args: tool.command.slice(1),
    cwd: tool.cwd,
    stdin: new TextEncoder().encode(JSON.stringify(input)),
    env: [tool.env],
    timeoutMs: tool.timeoutMs,
  });
  assert.equal(result.exitCode, 0, result.stderr);
  assert.deepEqual(JSON.parse(result.stdout), { words: 3, lines: 1, characters: 13 });
});
