/**
 * `execute({ onOutput })`: a tool's output by a callback, as the CLI streams it, with no stream
 * object — the same chunks `outputStream()` gives, and a callback that throws stops the run's
 * process group (nothing it started outlives the call).
 */

import assert from "node:assert/strict";
import { DeclaredToolBuilder, type OutputChunk, policyApprover } from "../src/mod.ts";
import { DEFAULT_POLICY } from "../src/sandbox/policy.ts";
import { processesLeftInGroup } from "./_cli.ts";
import { FIXTURES, toolSpec } from "./_fixtures.ts";
import { tempDir } from "./_scratch.ts";

const UNCONFINED = { policy: { ...DEFAULT_POLICY, file: "/c/sandbox.json", mode: "off" } } as const;

function tool(command: string[]) {
  return new DeclaredToolBuilder(toolSpec("t", command), {
    approver: policyApprover({ policy: "always" }),
    spillDir: false,
    sandbox: UNCONFINED,
  }).build();
}

const text = (chunks: OutputChunk[], kind: OutputChunk["kind"]) =>
  new TextDecoder().decode(
    new Uint8Array(chunks.filter((c) => c.kind === kind).flatMap((c) => [...c.data])),
  );

Deno.test("execute({onOutput}) gets stdout and stderr as they come, the same bytes outputStream() gets", async () => {
  const command = ["sh", "-c", "cat; echo err >&2"];
  const byCallback: OutputChunk[] = [];
  const output = await (await tool(command).execution({ a: 1 })).execute({
    onOutput: (chunk) => byCallback.push(chunk),
  });
  assert.equal(output.metadata.extra.run.outcome, "ok");
  assert.equal(text(byCallback, "stdout"), '{"a":1}');
  assert.equal(text(byCallback, "stderr"), "err\n");

  const execution = await tool(command).execution({ a: 1 });
  const stream = execution.outputStream();
  const running = execution.execute();
  const byStream: OutputChunk[] = [];
  for await (const chunk of stream) byStream.push(chunk);
  await running;
  assert.equal(text(byStream, "stdout"), text(byCallback, "stdout"));
  assert.equal(text(byStream, "stderr"), text(byCallback, "stderr"));
});

Deno.test({
  name: "a callback that throws stops the run's whole process group, and execute() rejects with it",
  ignore: Deno.build.os !== "linux",
  async fn() {
    await using temp = await tempDir({ prefix: "basis-onoutput-" });
    const dir = temp.path;
    // Prints, then leaves a grandchild (`sleep 30 &`) in its group and keeps running.
    const execution = await tool([`${FIXTURES}/grandchild.sh`, `${dir}/pgid`]).execution({});
    const refused = new Error("the reader went away");
    await assert.rejects(
      execution.execute({
        onOutput: () => {
          throw refused;
        },
      }),
      (error) => error === refused,
    );
    const pgid = Number((await Deno.readTextFile(`${dir}/pgid`)).trim().split(" ")[0]);
    assert.deepEqual(await processesLeftInGroup(pgid), []);
  },
});
