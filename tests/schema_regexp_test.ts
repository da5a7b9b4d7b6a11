/**
 * The gate's patterns run on a linear-time engine (RE2) with JavaScript's meaning; `check` names
 * the patterns it cannot take; `multipleOf` is judged exactly in decimal. Fresh compiles and the
 * disk cache give the same verdicts.
 */

import assert from "node:assert/strict";
import { BasisError } from "../src/errors.ts";
import { english, type Phrase, phrase } from "../src/locale/messages.ts";
import { schemaProblem, validateInput } from "../src/schema/gate.ts";
import { linearRegExp } from "../src/schema/_regexp.ts";
import { forgetValidators, RE2JS_VERSION, stats } from "../src/schema/_validator.ts";
import { denoRunArgs } from "./_deno_run.ts";
import { cli, oneTool, ROOT, scratch } from "./_cli.ts";
import { moduleGraph, staticallyReachable } from "./_module_graph.ts";
import { tempDir } from "./_scratch.ts";
import { say } from "./_wording.ts";
import { checkSchema } from "./_schema.ts";

/** What `check` says of a pattern the linear-time engine cannot take. */
function unsupported(pattern: string, pointer: string, reason: Phrase): string {
  return say("schema_problem.pattern_unsupported", {
    pattern: JSON.stringify(pattern),
    pointer,
    reason,
  });
}

/** How tool "t"'s schema refuses an input. */
function refused(pointer: string, reason: Phrase): string {
  return say("schema.refused", { tool: '"t"', pointer, reason });
}

type Schema = Record<string, unknown>;

/** `ok`, or the refusal's message. */
async function verdict(schema: Schema, input: unknown, cacheDir: string): Promise<string> {
  try {
    await validateInput({ name: "t", inputSchema: schema }, input, { cacheDir });
    return "ok";
  } catch (error) {
    if (!(error instanceof BasisError)) throw error;
    return error.message;
  }
}

const PATTERNS = [
  ".",
  "^.$",
  "\\s",
  "^\\s+$",
  "\\S",
  "^[^]$",
  "[]",
  "^\\u00e9$",
  "^\\ud83d\\ude00$",
  "^\\u{1F600}$",
  "^[😀-😂]$",
  "^\\p{L}+$",
  "^\\p{Script=Greek}+$",
  "^\\p{Letter}$",
  "^\\p{gc=Lu}$",
  "\\cJ",
  "\\0",
  "[\\b]",
  "^[\\s]$",
  "^[a\\s]+$",
  "(?<year>\\d{4})",
  "^a$",
  "\\bfoo\\b",
  "[[]",
  "^[a-z\\-]+$",
  "^x{2,3}$",
  "(?:ab)+?",
  "a|b",
  "\\/",
  "(?<=a)b",
  "(?<!a)b",
  "^$",
  "",
  "^[\\w.-]+@",
  "^\\x41$",
  "[\\u0041-\\u0043]",
  "\\$\\^",
  "[\\]]",
  "[^\\n]",
  "\\W",
  "\\B",
  "(?i:ab)",
  "^\\t\\v\\f$",
  "\\P{L}",
];

const TEXTS = [
  "",
  "a",
  "A",
  "\n",
  "\r",
  "\u2028",
  "\u00a0",
  "\v",
  " ",
  "é",
  "😀",
  "😁",
  "αβγ",
  "foo bar",
  "xfoo",
  "2024-01",
  "abab",
  "ba",
  "b",
  "a\n",
  "xx",
  "xxxx",
  "a-b",
  "[",
  "]",
  "/",
  "$^",
  "a@b",
  "\b",
  "\0",
  "\t\v\f",
  "\ufeff",
  "a b",
  "aB",
];

Deno.test("linearRegExp() matches what JavaScript's RegExp matches, pattern by pattern", () => {
  for (const pattern of PATTERNS) {
    const js = new RegExp(pattern, "u");
    const linear = linearRegExp(pattern, "u");
    for (const text of TEXTS) {
      assert.equal(
        linear.test(text),
        js.test(text),
        `${JSON.stringify(pattern)} on ${JSON.stringify(text)}`,
      );
    }
  }
  // ajv tells patterns apart by their text.
  assert.notEqual(String(linearRegExp("a", "u")), String(linearRegExp("b", "u")));
});

Deno.test("linearRegExp() gives JavaScript's SyntaxError for a pattern JavaScript refuses", () => {
  assert.throws(() => linearRegExp("(", "u"), SyntaxError);
});

Deno.test("check names each pattern the linear-time engine cannot take, and where it is", async () => {
  await using cacheDir = await tempDir({ prefix: "basis-regexp-" });
  const cases: [Schema, string][] = [
    [
      { properties: { id: { type: "string", pattern: "^(a)\\1$" } } },
      unsupported(
        "^(a)\\1$",
        "/properties/id/pattern",
        phrase("schema_problem.regex_backreference"),
      ),
    ],
    [
      { patternProperties: { "^(?!x-)": { type: "string" } } },
      unsupported(
        "^(?!x-)",
        "/patternProperties/^(?!x-)",
        phrase("schema_problem.regex_lookahead"),
      ),
    ],
    [
      { propertyNames: { pattern: "(?<n>a)\\k<n>" } },
      unsupported(
        "(?<n>a)\\k<n>",
        "/propertyNames/pattern",
        phrase("schema_problem.regex_backreference"),
      ),
    ],
    [
      { items: { pattern: "a{1001}" } },
      unsupported(
        "a{1001}",
        "/items/pattern",
        phrase("schema_problem.regex_engine", { detail: "invalid repeat count: `{1001}`" }),
      ),
    ],
  ];
  for (const pass of ["compiled", "cached"]) {
    if (pass === "cached") forgetValidators();
    for (const [schema, line] of cases) {
      assert.equal(
        await checkSchema({ name: "t", inputSchema: schema }, { cacheDir: cacheDir.path }),
        line,
      );
      const problem = await schemaProblem({ name: "t", inputSchema: schema }, {
        cacheDir: cacheDir.path,
      });
      assert.equal(problem?.key, "schema_problem.pattern_unsupported");
      assert.equal(english(problem!), line);
    }
  }
  // A captureless lookbehind runs in linear time: it is taken.
  assert.equal(await checkSchema({ name: "t", inputSchema: { pattern: "(?<=a)b" } }), undefined);
});

/** How long a run may take before it counts as hung (JavaScript's engine would take hours). */
const WATCHDOG_MS = 60_000;

/** A script that validates once against the cache directory given, as a fresh process would. */
const PATHOLOGICAL = `
import { validateInput } from "${ROOT}src/schema/gate.ts";
import { stats } from "${ROOT}src/schema/_validator.ts";
const schema = {
  type: "object",
  properties: { s: { type: "string", pattern: "^(a+)+$" }, r: { format: "regex" } },
  patternProperties: { "^(x+x+)+y$": { type: "string" } },
};
const outcome = [];
for (const input of [
  { s: "a".repeat(43) + "!" },
  { ["x".repeat(43)]: 1 },
  { r: "^(a+)+$" + "(a|aa)*".repeat(500) },
  { s: "a".repeat(44) },
]) {
  outcome.push(await validateInput({ name: "t", inputSchema: schema }, input, {
    cacheDir: Deno.args[0],
  }).then(() => "ok", (error) => error.message));
}
console.log(JSON.stringify({ outcome, compiles: stats.compiles, diskHits: stats.diskHits }));
`;

Deno.test("a pattern that backtracks for hours in JavaScript is answered at once, fresh and from the disk cache", async () => {
  await using cacheDir = await tempDir({ prefix: "basis-redos-" });
  const script = `${cacheDir.path}/redos.ts`;
  await Deno.writeTextFile(script, PATHOLOGICAL);
  const expected = [
    refused("/s", phrase("schema.pattern", { pattern: "^(a+)+$" })),
    "ok",
    "ok",
    "ok",
  ];
  for (const pass of [{ compiles: 1, diskHits: 0 }, { compiles: 0, diskHits: 1 }]) {
    // A watchdog, not a timing: the JavaScript engine takes hours here; without one a regression
    // would hang the suite instead of failing it.
    const run = await new Deno.Command(Deno.execPath(), {
      args: denoRunArgs(script, [`--config=${ROOT}deno.json`, "-A"], [cacheDir.path]),
      stdout: "piped",
      stderr: "piped",
      signal: AbortSignal.timeout(WATCHDOG_MS),
    }).output();
    const stderr = new TextDecoder().decode(run.stderr);
    assert.equal(run.code, 0, `killed by the watchdog, or failed: ${stderr}`);
    assert.deepEqual(JSON.parse(new TextDecoder().decode(run.stdout)), {
      outcome: expected,
      ...pass,
    });
  }
});

Deno.test("multipleOf is exact in decimal: 0.07, 0.29 and 19.99 are multiples of 0.01, fresh and cached", async () => {
  await using cacheDir = await tempDir({ prefix: "basis-multiple-" });
  const cents = { type: "object", properties: { price: { type: "number", multipleOf: 0.01 } } };
  const tenth = { multipleOf: 0.1 };
  for (const pass of ["compiled", "cached"]) {
    if (pass === "cached") forgetValidators();
    const compiles = stats.compiles;
    for (const price of [0.07, 0.29, 19.99, 0, -4.5, 1e21, 123456.78]) {
      assert.equal(await verdict(cents, { price }, cacheDir.path), "ok", `${price}`);
    }
    for (const price of [0.075, 0.001, 19.999]) {
      assert.equal(
        await verdict(cents, { price }, cacheDir.path),
        refused("/price", phrase("schema.multiple_of", { value: 0.01 })),
      );
    }
    assert.equal(await verdict(tenth, 0.3, cacheDir.path), "ok");
    assert.equal(
      await verdict(tenth, 0.30000000000000004, cacheDir.path),
      refused("(root)", phrase("schema.multiple_of", { value: 0.1 })),
    );
    assert.equal(await verdict({ multipleOf: 3 }, 9, cacheDir.path), "ok");
    assert.equal(
      await verdict({ multipleOf: 3 }, 10, cacheDir.path),
      refused("(root)", phrase("schema.multiple_of", { value: 3 })),
    );
    assert.equal(await verdict({ multipleOf: 1e-7 }, 3e-7, cacheDir.path), "ok");
    if (pass === "cached") assert.equal(stats.compiles, compiles, "the cached pass compiled");
  }
});

Deno.test("the gate imports the regular expression engine only when a pattern needs it", async () => {
  const graph = await moduleGraph(`${ROOT}src/schema/gate.ts`);
  const seen = staticallyReachable(graph, graph.roots);
  assert.ok(seen.size > 5, "the walk should have found the gate's modules");
  assert.deepEqual([...seen].filter((url) => /re2js/.test(url)), []);
});

Deno.test("the cache key follows the re2js version in deno.json", async () => {
  const config = JSON.parse(await Deno.readTextFile(new URL("../deno.json", import.meta.url)));
  assert.equal(config.imports.re2js, `npm:re2js@${RE2JS_VERSION}`);
});

Deno.test("`check` flags a pattern RE2 cannot take (exit 6) and a call of that tool is refused the same way", async () => {
  await using dirs = await scratch(
    oneTool("ids", {
      input_schema: {
        type: "object",
        properties: { id: { type: "string", pattern: "^(\\w)\\1$" } },
      },
      command: ["cat"],
    }),
  );
  const line = unsupported(
    "^(\\w)\\1$",
    "/properties/id/pattern",
    phrase("schema_problem.regex_backreference"),
  );
  const check = await cli(dirs, ["check"]);
  assert.equal(check.code, 6);
  assert.ok(check.stdout.includes('tool "ids"') && check.stdout.includes(line), check.stdout);
  const call = await cli(dirs, ["call", "ids", '{"id":"aa"}', "--approve", "always"]);
  assert.equal(call.code, 6);
  assert.ok(call.stderr.includes(line), call.stderr);
});
