import assert from "node:assert/strict";
import { scratch } from "./_cli.ts";
import { tempDir } from "./_scratch.ts";

async function exists(path: string): Promise<boolean> {
  return await Deno.lstat(path).then(() => true, () => false);
}

Deno.test("tempDir() is removed when its block ends, even by a failed assertion", async () => {
  let path = "";
  await assert.rejects(async () => {
    await using dir = await tempDir();
    path = dir.path;
    await Deno.writeTextFile(`${dir.path}/file`, "x");
    assert.fail("the test fails here");
  }, /the test fails here/);
  assert.notEqual(path, "");
  assert.equal(await exists(path), false);
});

Deno.test("a tempDir() the test removed itself is not an error on dispose", async () => {
  await using dir = await tempDir();
  await Deno.remove(dir.path);
});

Deno.test("scratch() removes the workspace and its user directories, even when the test throws", async () => {
  let base = "";
  await assert.rejects(async () => {
    await using dirs = await scratch({ schema: 1, tools: {} });
    base = dirs.root.slice(0, dirs.root.lastIndexOf("/"));
    await Deno.mkdir(dirs.stateDir, { recursive: true });
    throw new Error("boom");
  }, /boom/);
  assert.notEqual(base, "");
  assert.equal(await exists(base), false);
});
