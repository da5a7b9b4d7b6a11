import assert from "node:assert/strict";
import { english } from "../src/locale/messages.ts";
import { checkRules } from "../src/approval/rules/check.ts";
import { decideCall } from "../src/approval/rules/decide.ts";
import { pinConditions } from "../src/approval/rules/pin.ts";
import type { Rule } from "../src/approval/rules/types.ts";
import { validateRulesDocument } from "../src/approval/rules/validate.ts";
import type { RuleQuery, SpawnConditions } from "../src/approval/rules/types.ts";
import type { SpawnPreview } from "../src/spawn/types.ts";
import { wording } from "./_wording.ts";
import type { RuleConditions, RuleInput } from "../src/approval/rules/types.ts";
import type { Pinned } from "../src/approval/rules/pin.ts";
import { sealSecrets } from "../src/approval/rules/_seal.ts";

/** What is stored for what "always allow" pins: its conditions, each secret sealed by digest. */
async function storedWhen(pinned: Pinned, secrets: readonly string[]): Promise<RuleConditions> {
  const when = await pinConditions(pinned);
  const input = { tool: "t", decision: "allow", scope: "global", when } as RuleInput;
  return (await sealSecrets(input, secrets)).when;
}

const TASK: SpawnPreview = { mode: "agent", body: "review", cwd: "/w", target: "reviewer" };
const CHILD = { roster: ["lint", "spawn"], model: "opus" } as const;

function rule(id: string, when: SpawnConditions, decision: Rule["decision"] = "allow"): Rule {
  return { id, tool: "spawn", decision, scope: "global", when };
}

function query(preview: SpawnPreview): RuleQuery {
  return { tool: "spawn", kind: "spawn", sideEffect: "process", preview, root: "/w" };
}

async function winner(rules: Rule[], preview: SpawnPreview): Promise<string | undefined> {
  return (await decideCall(rules, query(preview))).match?.id;
}

Deno.test("a child condition holds for exactly that child; a rule without one holds whatever it is", async () => {
  const withChild = { ...TASK, child: CHILD };
  const exact = rule("r-c", {
    body: "review",
    child: { model: "opus", roster: ["spawn", "lint"] },
  });
  // The roster is a set: order and repeats do not matter; every other key must match.
  assert.equal(await winner([exact], withChild), "r-c");
  assert.equal(await winner([exact], TASK), undefined);
  assert.equal(await winner([exact], { ...TASK, child: { roster: ["lint", "spawn"] } }), undefined);
  assert.equal(
    await winner([exact], { ...TASK, child: { ...CHILD, system_prompt: "x" } }),
    undefined,
  );
  assert.equal(
    await winner([exact], {
      ...TASK,
      child: { roster: ["lint", "spawn", "deploy"], model: "opus" },
    }),
    undefined,
  );
  const any = rule("r-a", { body: "review" });
  assert.equal(await winner([any], withChild), "r-a");
  assert.equal(await winner([any], TASK), "r-a");
  // A deny names a child too.
  const deny = rule("r-d", { child: { roster: [] } }, "deny");
  assert.equal(await winner([any, deny], { ...TASK, child: { roster: [] } }), "r-d");
  assert.equal(await winner([any, deny], withChild), "r-a");
});

Deno.test("a reach condition holds only where the preview shows that reach", async () => {
  const named = rule("r-n", { body: "review", reach: "named" });
  assert.equal(await winner([named], { ...TASK, reach: "named" }), "r-n");
  assert.equal(await winner([named], { ...TASK, reach: "any" }), undefined);
  // The default reach is not shown, so it matches no reach condition.
  assert.equal(await winner([named], TASK), undefined);
});

Deno.test("pinConditions() pins the reach and the child a preview shows; a secret one is stored by digest", async () => {
  const plain = await pinConditions({ kind: "spawn", preview: TASK });
  assert.equal(
    JSON.stringify(plain),
    '{"mode":"agent","body":"review","target":"reviewer","cwd":"/w"}',
  );
  const shown = { ...TASK, reach: "named" as const, child: CHILD };
  const pinned = await pinConditions({ kind: "spawn", preview: shown });
  assert.equal(
    JSON.stringify(pinned),
    '{"mode":"agent","body":"review","target":"reviewer","cwd":"/w","reach":"named",' +
      '"child":{"roster":["lint","spawn"],"model":"opus"}}',
  );
  const r = rule("r-p", pinned as SpawnConditions);
  assert.equal(await winner([r], shown), "r-p");
  assert.equal(await winner([r], { ...shown, child: { ...CHILD, model: "haiku" } }), undefined);
  assert.equal(await winner([r], { ...shown, reach: "any" }), undefined);
  assert.equal(await winner([r], TASK), undefined);
  // A system prompt holding an --env value is never written into the rules file.
  const secret = { ...TASK, child: { system_prompt: "token s3cr3t-value here" } };
  const digested = await storedWhen({ kind: "spawn", preview: secret }, ["s3cr3t-value"]);
  assert.ok(!JSON.stringify(digested).includes("s3cr3t"), JSON.stringify(digested));
  const child = (digested as SpawnConditions).child as { sha256: string; salt: string };
  assert.match(child.sha256, /^[0-9a-f]{64}$/);
  assert.equal(await winner([rule("r-s", digested as SpawnConditions)], secret), "r-s");
  assert.equal(
    await winner([rule("r-s", digested as SpawnConditions)], {
      ...TASK,
      child: { system_prompt: "token other here" },
    }),
    undefined,
  );
});

Deno.test("rules files: reach and child conditions are checked, canonical, and refused when malformed", async () => {
  const stored = (when: unknown) => ({
    version: 2,
    rules: [{ id: "r-aaaaaaaa", tool: "spawn", decision: "allow", scope: "global", when }],
  });
  const ok = await validateRulesDocument(
    stored({ child: { model: "m", roster: ["b", "a", "b"] }, reach: "any", body: "x" }),
  );
  assert.ok(ok.ok);
  assert.equal(
    JSON.stringify(ok.value.rules[0]!.when),
    '{"body":"x","reach":"any","child":{"roster":["a","b"],"model":"m"}}',
  );
  for (
    const [when, field] of [
      [{ body: "x", reach: "far" }, "when.reach"],
      [{ body: "x", child: { roster: "lint" } }, "when.child"],
      [{ body: "x", child: { tools: [] } }, "when.child"],
      [{ body: "x", child: {} }, "when.child"],
      [{ body: "x", child: { model: 1 } }, "when.child"],
      [{ body: "x", child: { sha256: "x", salt: "y" } }, "when.child"],
    ] as const
  ) {
    const result = await validateRulesDocument(stored(when));
    assert.ok(!result.ok, JSON.stringify(when));
    assert.match(english(result.problems[0]!), new RegExp(`${field.replace(".", "\\.")}[.:]`));
  }
  // Still only for spawn.
  const tool = await validateRulesDocument({
    version: 2,
    rules: [{
      id: "r-aaaaaaaa",
      tool: "sh",
      decision: "allow",
      scope: "global",
      when: { program: "/bin/sh", child: {} },
    }],
  });
  assert.ok(!tool.ok);
});

Deno.test("checkRules() reads reach and child in spawn examples", async () => {
  const r: Rule = {
    ...rule("r-x", { body: "review", child: CHILD }),
    match: [{ mode: "agent", body: "review", target: "reviewer", child: CHILD }],
    not_match: [{ mode: "agent", body: "review", reach: "named" }],
  };
  assert.deepEqual(await checkRules([r]), []);
  const bad: Rule = { ...r, match: [{ mode: "agent", body: "review", reach: "far" }] };
  const problems = await checkRules([bad]);
  assert.equal(problems.length, 1);
  assert.match(english(problems[0]!.phrase), wording("rules_file.example_spawn_shape"));
});
