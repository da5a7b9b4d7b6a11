import assert from "node:assert/strict";
import { ROOT } from "./_cli.ts";

Deno.test("deno task compile fails in one line when DENORT_BIN names no file", async () => {
  const missing = `${ROOT}no-such-denort-${crypto.randomUUID()}`;
  const result = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", `${ROOT}scripts/compile.ts`],
    cwd: ROOT,
    env: { DENORT_BIN: missing, NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(result.code, 1);
  assert.equal(
    new TextDecoder().decode(result.stderr),
    `compile: Cannot build the binary: DENORT_BIN names "${missing}", which does not exist\n`,
  );
  assert.equal(result.stdout.length, 0);
});
