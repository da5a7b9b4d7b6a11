// The bundle step that makes V8 compile functions with their chunk (build/_eager.ts): the rewritten
// module does what the original does, hoisting included, and every function it can reach is put in
// parentheses.

import assert from "node:assert/strict";
import { eagerFunctions } from "../build/_eager.ts";

/** What a module exports as `out`, run from its text. */
async function run(code: string): Promise<unknown> {
  const url = `data:text/javascript;base64,${btoa(code)}`;
  return (await import(url)).out;
}

const MODULE = `
const early = later(2);
function later(n) { return inner(n) * 2; function inner(m) { return m + 1; } }
const helper = { twice(n) { return n * 2; }, get three() { return this.twice(1) + 1; }, later };
class Box { constructor(v) { this.v = v; } get value() { return [this.v].map((x) => x * 10)[0]; } }
async function* gen() { yield 1; }
let collected = [];
for await (const v of gen()) collected.push(v);
function shadow(f) { function f() { return "declared"; } return f(); }
const { later: again } = helper;
if (true) { function inBlock() { return "block"; } collected.push(inBlock()); }
export const out = [early, helper.three, new Box(4).value, collected, shadow(1), again(1),
  typeof later, later.name, (function named() { return named.name; })()];
export { later as renamed, helper };
`;

Deno.test("a rewritten module computes what the original does, hoisting included", async () => {
  const expected = await run(MODULE);
  assert.deepEqual(await run(eagerFunctions(MODULE)), expected);
  assert.deepEqual(expected, [6, 3, 40, [1, "block"], "declared", 4, "function", "later", "named"]);
});

Deno.test("functions, arrows and declarations are put in parentheses, methods are not", () => {
  const code = eagerFunctions(MODULE);
  assert.ok(code.includes("var later=(function later(n)"));
  assert.ok(code.includes("var inner=(function inner(m)"));
  assert.ok(code.includes("((x) => x * 10)"));
  assert.ok(code.includes("twice(n) { return n * 2; }"));
  assert.ok(code.includes("export { later as renamed, helper };"));
  // Hoisted to the top of the module, before the statement that calls it.
  assert.deepEqual(code.indexOf("var later=") < code.indexOf("const early"), true);
});
