import assert from "node:assert/strict";
import { settle, until } from "./_poll.ts";

Deno.test("until() returns the probe's first value", async () => {
  let looks = 0;
  const found = await until(() => ++looks === 3 ? "ready" : undefined, {
    timeoutMs: 5000,
    intervalMs: 1,
    what: "the third look",
  });
  assert.equal(found, "ready");
  assert.equal(looks, 3);
});

Deno.test("until() fails past its deadline, saying what it waited for, and never hangs", async () => {
  let seen = 0;
  await assert.rejects(
    until(() => {
      seen++;
      return undefined;
    }, { timeoutMs: 30, intervalMs: 5, what: () => `a value (looked ${seen > 1} times)` }),
    /^Error: Timed out after 30 ms waiting for a value \(looked true times\)$/,
  );
});

Deno.test("settle() hands back the last value read when it never settles", async () => {
  let n = 0;
  const last = await settle(() => ++n, () => false, { timeoutMs: 30, intervalMs: 5 });
  assert.equal(last, n);
  assert.ok(n > 1, "it looked again");
});
