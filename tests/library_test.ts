import assert from "node:assert/strict";
import { loadRoster, runProgram, validateInput } from "../src/mod.ts";

const ROOT = new URL("..", import.meta.url).pathname;

Deno.test("the library surface loads a roster, gates input and runs a tool, as mod.ts shows", async () => {
  const cacheDir = await Deno.makeTempDir();
  const roster = await loadRoster({ workspace: `${ROOT}examples`, configDir: cacheDir });
  const tool = roster.tools.get("word_count");
  assert.ok(tool);
  await assert.rejects(validateInput(tool, { txt: 1 }, { cacheDir }), /\/text/);
  const input = { text: "one two three" };
  await validateInput(tool, input, { cacheDir });
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
  await Deno.remove(cacheDir, { recursive: true });
});
