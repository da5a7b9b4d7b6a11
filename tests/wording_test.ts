import assert from "node:assert/strict";
import { EN_US } from "../src/locale/en_us.ts";
import { phrase } from "../src/locale/messages.ts";
import { say, wording } from "./_wording.ts";

Deno.test("say() words a phrase as the CLI does, nested phrases too", () => {
  assert.equal(EN_US["run.exit"], "{label} exited with code {code}");
  assert.equal(
    say("run.exit", { label: phrase("label.command"), code: 3 }),
    "Command exited with code 3",
  );
});

Deno.test("wording() fills the values given, matches anything for the rest, and escapes the text", () => {
  const pattern = wording("run.timed_out", { ms: 300 });
  assert.ok(pattern.test('Tool "slow" timed out after 300 ms'));
  assert.ok(!pattern.test('Tool "slow" timed out after 301 ms'), "a value given must match");
  const guarded = wording("spawn.guard.depth_limit", { depth: 2, max: 2 });
  assert.ok(guarded.test(say("spawn.guard.depth_limit", { depth: 2, max: 2 })));
  assert.ok(!guarded.test(say("spawn.guard.depth_limit", { depth: 1, max: 2 })));
  // "(" and ")" in the catalogue text are literal, not a group.
  assert.ok(!wording("spawn.guard.no_shell").test("commands are turned off --no-shell"));
});

Deno.test("wording() matches a nested phrase given without its own values as that phrase's pattern", () => {
  const refused = wording("mcp.refused", { reason: phrase("mcp.too_large") });
  const text = say("mcp.refused", {
    reason: phrase("mcp.too_large", { size: "11 MiB", limit: "10 MiB" }),
  });
  assert.ok(refused.test(text), text);
  assert.ok(!refused.test(say("mcp.refused", { reason: phrase("mcp.not_utf8") })));
  // A complete nested phrase is worded exactly.
  const exact = wording("mcp.refused", {
    reason: phrase("mcp.too_large", { size: "1", limit: "2" }),
  });
  assert.ok(!exact.test(text));
});
