// The bundle's own steps: functions compiled with their chunk (build/_eager.ts: the rewritten module
// does what the original does, hoisting included) and the shipped schemas' validators built in
// (build/_validators.ts: they judge as the ones compiled at run time, and a run of the bundle
// compiles, hashes and caches none).

import assert from "node:assert/strict";
import { eagerFunctions } from "../build/_eager.ts";
import { builtInModules } from "../build/_validators.ts";
import { compileSchema } from "../src/schema/_compile.ts";
import { ROOT } from "./_fixtures.ts";
import { tempDir } from "./_scratch.ts";
import { exists } from "../src/quietly.ts";

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

Deno.test("a hashbang stays first, and a line without a semicolon is not continued", async () => {
  // `1` and the arrow on the next line are two statements (a semicolon is inserted between them).
  const code = "#!/usr/bin/env -S deno run\nlet a = 1\nx => x\n" +
    "function f() { return a; }\nexport const out = [a, f()];\n";
  const rewritten = eagerFunctions(code);
  assert.ok(rewritten.startsWith("#!/usr/bin/env -S deno run\nvar f=("));
  const body = (text: string) => text.slice(text.indexOf("\n") + 1);
  assert.deepEqual(await run(body(rewritten)), await run(body(code)));
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

/** The built-in validators, from the module text the bundle is built with. */
async function builtIn() {
  const source = Deno.readTextFileSync(`${ROOT}src/schema/_built_in.ts`);
  await using dir = await tempDir();
  for (const [name, text] of builtInModules(`${ROOT}schemas`, source)) {
    Deno.writeTextFileSync(`${dir.path}/${name}`, text);
  }
  return (await import(`file://${dir.path}/_built_in.ts`)).BUILT_IN as Map<
    string,
    () => Promise<{
      requires: string[];
      make: (require: (name: string) => unknown, module: { exports: unknown }) => void;
    }>
  >;
}

Deno.test("the built-in validators judge documents as those compiled at run time", async () => {
  const table = await builtIn();
  assert.equal(table.size, 4);
  const documents = [
    {
      schema: 1,
      tools: { a: { description: "x", input_schema: { type: "object" }, command: ["a"] } },
    },
    { schema: 1, tools: { "bad name": { description: "", command: [] } } },
    { version: 2, rules: [{ id: "x" }] },
    { mode: "sometimes", hidden: [3] },
    {},
    [],
  ];
  for (const [key, load] of table) {
    const entry = await load();
    const schema = JSON.parse(key.split("\n").slice(2).join("\n"));
    const fresh = compileSchema("draft-07", schema, "config-all");
    assert.ok("validate" in fresh);
    const module = { exports: undefined as unknown };
    entry.make(() => ({}), module);
    const validate = module.exports as ((value: unknown) => boolean) & { errors?: unknown };
    for (const document of documents) {
      assert.equal(validate(document), fresh.validate(document));
      assert.deepEqual(validate.errors, fresh.validate.errors);
    }
  }
});

Deno.test("a run of the bundle checks its config files without compiling or caching a validator", async () => {
  await using out = await tempDir({ prefix: "basis-bundle-" });
  const built = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", `${ROOT}build/bundle.ts`, "--outdir", out.path],
    stderr: "piped",
  }).output();
  assert.ok(built.success, new TextDecoder().decode(built.stderr));
  await using work = await tempDir();
  Deno.mkdirSync(`${work.path}/w/.basis`, { recursive: true });
  Deno.writeTextFileSync(
    `${work.path}/w/.basis/tools.json`,
    JSON.stringify({
      schema: 1,
      tools: { a: { description: "A", input_schema: {}, command: ["cat"] } },
    }),
  );
  Deno.mkdirSync(`${work.path}/config`);
  Deno.writeTextFileSync(`${work.path}/config/sandbox.json`, '{"mode": "off"}');
  Deno.writeTextFileSync(`${work.path}/config/spawn.json`, "{}");
  const run = (...args: string[]) =>
    new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", `${out.path}/basis-tools.js`, "-C", `${work.path}/w`, ...args],
      env: {
        BASIS_CONFIG_DIR: `${work.path}/config`,
        BASIS_CACHE_DIR: `${work.path}/cache`,
        BASIS_STATE_DIR: `${work.path}/state`,
      },
    }).output();
  const listed = await run("list", "--json");
  assert.ok(listed.success, new TextDecoder().decode(listed.stderr));
  assert.match(new TextDecoder().decode(listed.stdout), /"name":\s*"a"/);
  // The same checks refuse what they refused: a sandbox.json the schema does not allow.
  Deno.writeTextFileSync(`${work.path}/config/sandbox.json`, '{"mode": "sometimes"}');
  const refused = await run("call", "a", "{}", "--approve", "always");
  assert.equal(refused.success, false);
  assert.match(new TextDecoder().decode(refused.stderr), /sandbox\.json:1:\d+: mode: /);
  // Compiled nowhere, so cached nowhere.
  assert.equal(exists(`${work.path}/cache/validators`), false);
});
