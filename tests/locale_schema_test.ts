/**
 * Input schemas that cannot be compiled, in both locales: every schema problem is reached by a real
 * schema, its English is what it always was, its Ukrainian holds no English prose beyond ajv's own
 * text where ajv gives nothing else; the disk cache keeps the problem as a phrase, so a warm call
 * words it in any locale without ajv's compiler or the Ukrainian catalogue.
 */

import assert from "node:assert/strict";
import { BasisError } from "../src/errors.ts";
import { EN_US } from "../src/locale/en_us.ts";
import { loadLocale, messages } from "../src/locale/messages.ts";
import { checkSchema, schemaProblem, validateInput } from "../src/schema/mod.ts";
import { validatorPath } from "../src/schema/_cache.ts";
import { cacheKey } from "../src/schema/_key.ts";
import { stats } from "../src/schema/_stats.ts";
import { forgetValidators } from "../src/schema/_validator.ts";
import type { AjvError } from "../src/schema/_types.ts";
import { assertNoEnglish, CYRILLIC } from "./_no_english.ts";
import { cli, ROOT, scratch } from "./_cli.ts";
import { denoRun } from "./_deno_run.ts";
import { moduleGraph, staticallyReachable } from "./_module_graph.ts";
import { keysOf } from "./_phrase.ts";
import { moduleTempDir } from "./_scratch.ts";

await loadLocale("uk-UA");
const EN = messages("en-US");
const UK = messages("uk-UA");
const CACHE = moduleTempDir("basis-locale-schema-");
const TYPES = '"array", "boolean", "integer", "null", "number", "object", "string"';

type Schema = Record<string, unknown>;

function tool(inputSchema: unknown, name = "t") {
  return { name, inputSchema: inputSchema as Schema };
}

const cyclic: Schema = { type: "object" };
cyclic.properties = { self: cyclic };

/** A schema that cannot be compiled: "nope" is no JSON type. */
const NOPE_TYPE = { type: "object", properties: { a: { type: "nope" } } };
/** A declared tool whose input schema cannot be compiled. */
const NOPE_TOOL = { description: "d", input_schema: NOPE_TYPE, command: ["cat"] };

/** ajv's own English, kept inside the Ukrainian line (V8's words for a bad regular expression). */
const AJV_DETAIL = "Invalid regular expression: /(/u: Unterminated group";

/** RE2's own English, kept inside the Ukrainian line. */
const RE2_DETAIL = "invalid repeat count: `{1001}`";

/** Schemas that cannot be compiled, and what `check` has always said of them in English. */
const SCHEMAS: readonly [schema: unknown, english: string][] = [
  [[], "invalid JSON Schema: must be an object or a boolean"],
  [
    JSON.parse('{"properties": {"__proto__": {"type": "string"}}}'),
    'invalid JSON Schema: /properties/__proto__: "__proto__" cannot be used as a key',
  ],
  [cyclic, "invalid JSON Schema: cannot be written as JSON"],
  [{ $schema: 7 }, 'unsupported "$schema": must be a string'],
  [
    { $schema: "draft-04" },
    'unsupported "$schema" "draft-04": use draft-07 (the default), draft-06, 2019-09 or 2020-12',
  ],
  [{ $ref: "#/nowhere" }, 'cannot resolve "$ref" "#/nowhere"'],
  [{ pattern: "(" }, `invalid JSON Schema: ${AJV_DETAIL}`],
  [{ type: "nope" }, `invalid JSON Schema: /type: must be one of: ${TYPES}`],
  [{ properties: { a: 5 } }, "invalid JSON Schema: /properties/a: must be object or boolean"],
  [{ minLength: -1 }, "invalid JSON Schema: /minLength: must be >= 0"],
  [{ maxItems: 1.5 }, "invalid JSON Schema: /maxItems: must be integer"],
  [{ enum: [] }, "invalid JSON Schema: /enum: must NOT have fewer than 1 items"],
  [
    { required: ["a", "a"] },
    "invalid JSON Schema: /required: must NOT have duplicate items (items ## 1 and 0 are identical)",
  ],
  [
    { $schema: "https://json-schema.org/draft/2019-09/schema", $anchor: "1x" },
    'invalid JSON Schema: /$anchor: must match pattern "^[A-Za-z][-A-Za-z0-9.:_]*$"',
  ],
  [
    { pattern: "(a)\\1" },
    'unsupported pattern "(a)\\\\1" at /pattern: backreferences cannot run in linear time (patterns run on RE2)',
  ],
  [
    { pattern: "a(?=b)" },
    'unsupported pattern "a(?=b)" at /pattern: lookaheads cannot run in linear time (patterns run on RE2)',
  ],
  [
    { pattern: "a{1001}" },
    `unsupported pattern "a{1001}" at /pattern: the linear-time engine (RE2) refuses it: ${RE2_DETAIL}`,
  ],
];

/** What a Ukrainian line keeps as it is: values, pointers, names, notation and ajv's own text. */
const KEPT: readonly (string | RegExp)[] = [
  AJV_DETAIL,
  RE2_DETAIL,
  /"[^"]*"/g,
  /\/[\w./$-]*/g,
  /\bJSON Schema\b|\bJSON\b/g,
  /\bdraft-0[67]\b/g,
  /\b(?:array|boolean|integer|null|number|object|string)\b/g,
];

function assertUkrainian(uk: string, en: string): void {
  assert.match(uk, CYRILLIC, uk);
  assertNoEnglish(uk, en, KEPT);
  const rest = KEPT.reduce<string>((text, kept) => text.replaceAll(kept, " "), uk);
  const word = rest.match(/[A-Za-z]{3,}/)?.[0];
  assert.equal(word, undefined, `English "${word}" left in: ${uk}`);
}

/** Writes a cache file as an older or a foreign process would have. */
async function plant(cacheDir: string, schema: Schema, content: string, body: string) {
  const key = await cacheKey("draft-07", JSON.stringify(schema));
  const path = validatorPath(cacheDir, key);
  await Deno.mkdir(`${cacheDir}/validators`, { recursive: true, mode: 0o700 });
  await Deno.writeTextFile(path, `// basis-tools ${content} 1 ${key} ${body.length}\n${body}`, {
    mode: 0o600,
  });
  return path;
}

Deno.test("every schema problem is worded in both locales, English unchanged", async () => {
  const reached = new Set<string>();
  const dir = await Deno.makeTempDir({ dir: CACHE });
  for (const [schema, english] of SCHEMAS) {
    const problem = await schemaProblem(tool(schema), { cacheDir: dir });
    assert.ok(problem !== undefined, english);
    keysOf(problem, reached);
    assert.equal(EN.say(problem), english);
    assert.equal(await checkSchema(tool(schema), { cacheDir: dir }), english);
    assertUkrainian(UK.say(problem), english);
  }
  // ajv always says why its meta-schema refuses a schema; were it silent, the cache words it so.
  const silent = { description: "refused by a meta-schema that said nothing" };
  const meta = {
    key: "schema_problem.invalid",
    params: { detail: { key: "schema_problem.meta_rejected" } },
  };
  await plant(dir, silent, "problem", JSON.stringify(meta));
  forgetValidators();
  const rejected = await schemaProblem(tool(silent), { cacheDir: dir });
  assert.ok(rejected !== undefined);
  keysOf(rejected, reached);
  assert.equal(EN.say(rejected), "invalid JSON Schema: rejected by its meta-schema");
  assertUkrainian(UK.say(rejected), EN.say(rejected));

  const missed = Object.keys(EN_US).filter((key) =>
    key.startsWith("schema_problem.") && !reached.has(key)
  );
  assert.deepEqual(missed, [], "messages no schema reached");
});

Deno.test("a schema problem reads the same from the disk cache, in every locale", async () => {
  const dir = await Deno.makeTempDir({ dir: CACHE });
  const worded: string[][] = [];
  for (const pass of ["compiled", "cached"]) {
    if (pass === "cached") forgetValidators();
    const compiles = stats.compiles;
    const texts: string[] = [];
    for (const [schema] of SCHEMAS) {
      // A copy, so that nothing is answered by object identity.
      const problem = await schemaProblem(tool(structuredClone(schema)), { cacheDir: dir });
      assert.ok(problem !== undefined);
      texts.push(EN.say(problem), UK.say(problem));
    }
    if (pass === "cached") assert.equal(stats.compiles, compiles, "the cached pass compiled");
    worded.push(texts);
  }
  assert.deepEqual(worded[1], worded[0]);
});

Deno.test("a call of a tool whose schema cannot be compiled fails with a phrase in the locale", async () => {
  const dir = await Deno.makeTempDir({ dir: CACHE });
  for (const pass of ["compiled", "cached"]) {
    if (pass === "cached") forgetValidators();
    const error = await validateInput(tool(NOPE_TYPE, "x"), {}, { cacheDir: dir }).catch((e) => e);
    assert.ok(error instanceof BasisError, String(error));
    assert.equal(error.code, "manifest_invalid");
    assert.equal(
      error.message,
      `Cannot use input schema of tool "x": invalid JSON Schema: /properties/a/type: must be one of: ${TYPES}`,
    );
    assert.equal(error.wordedIn(EN), error.message);
    const uk = error.wordedIn(UK);
    assert.equal(
      uk,
      `Не вдалося використати схему вхідних даних інструмента "x": некоректна JSON Schema: /properties/a/type: має бути одним зі значень: ${TYPES}`,
    );
    assertUkrainian(uk, error.message);
  }
});

Deno.test("check words schema problems in the locale; --json keeps reason English", async () => {
  await using dirs = await scratch({
    schema: 1,
    tools: {
      x: NOPE_TOOL,
      y: {
        description: "d",
        input_schema: { type: "object", $ref: "#/nowhere" },
        command: ["cat"],
      },
      z: { description: "d", input_schema: { type: "object", pattern: "(" }, command: ["cat"] },
    },
  });
  const file = `${dirs.root}/.basis/tools.json`;
  const en = await cli(dirs, ["check"]);
  assert.equal(en.code, 6, en.stderr);
  assert.equal(
    en.stdout,
    `${file}: tool "x": input_schema: invalid JSON Schema: /properties/a/type: must be one of: ${TYPES}\n` +
      `${file}: tool "y": input_schema: cannot resolve "$ref" "#/nowhere"\n` +
      `${file}: tool "z": input_schema: invalid JSON Schema: ${AJV_DETAIL}\n`,
  );
  const expected =
    `${file}: інструмент "x": input_schema: некоректна JSON Schema: /properties/a/type: має бути одним зі значень: ${TYPES}\n` +
    `${file}: інструмент "y": input_schema: не вдалося розв’язати "$ref" "#/nowhere"\n` +
    `${file}: інструмент "z": input_schema: некоректна JSON Schema: ${AJV_DETAIL}\n`;
  // The first run compiles; the second reads every problem from the cache.
  for (const _ of [1, 2]) {
    const uk = await cli(dirs, ["check", "--locale", "uk-UA"]);
    assert.equal(uk.code, 6, uk.stderr);
    assert.equal(uk.stdout, expected);
    for (const line of uk.stdout.trim().split("\n")) {
      assertUkrainian(line.replace(`${file}: `, "").replace(": input_schema: ", ": "), en.stdout);
    }
  }

  const json = await cli(dirs, ["check", "--json", "--locale", "uk-UA"]);
  assert.equal(json.code, 6);
  const problems = JSON.parse(json.stdout).problems as Record<string, unknown>[];
  assert.deepEqual(problems.map((problem) => problem.reason), [
    `invalid JSON Schema: /properties/a/type: must be one of: ${TYPES}`,
    'cannot resolve "$ref" "#/nowhere"',
    `invalid JSON Schema: ${AJV_DETAIL}`,
  ]);
  assert.deepEqual(
    problems.map((problem) => `${problem.message}\n`).join(""),
    expected,
  );
  assert.ok(problems.every((problem) => !("phrase" in problem)));
  const enJson = JSON.parse((await cli(dirs, ["check", "--json"])).stdout);
  assert.equal(
    enJson.problems.map((problem: { message: string }) => `${problem.message}\n`).join(""),
    en.stdout,
  );
});

Deno.test("a call of a tool whose schema cannot be compiled is worded in the locale", async () => {
  await using dirs = await scratch({ schema: 1, tools: { x: NOPE_TOOL } });
  const file = `${dirs.root}/.basis/tools.json`;
  const en = await cli(dirs, ["call", "x", "{}", "--approve", "always"]);
  assert.equal(en.code, 6);
  assert.match(
    en.stderr,
    new RegExp(
      `^basis-tools: ${file}: tool "x": input_schema: invalid JSON Schema: /properties/a/type: `,
    ),
  );
  const uk = await cli(dirs, ["call", "x", "{}", "--approve", "always", "--locale", "uk-UA"]);
  assert.equal(uk.code, 6);
  assert.match(
    uk.stderr,
    new RegExp(`^basis-tools: ${file}: інструмент "x": input_schema: некоректна JSON Schema`),
  );
  const json = await cli(dirs, ["call", "x", "{}", "--json", "--locale", "uk-UA"]);
  assert.match(
    JSON.parse(json.stdout).error.message,
    /інструмент "x": input_schema: некоректна JSON Schema/,
  );
});

Deno.test("a reason cached as English text by an older version is compiled again, then worded", async () => {
  await using dirs = await scratch({
    schema: 1,
    tools: { y: { description: "d", input_schema: { $ref: "#/nowhere" }, command: ["cat"] } },
  });
  const path = await plant(
    dirs.cacheDir,
    { $ref: "#/nowhere" },
    "reason",
    'cannot resolve "$ref" "#/nowhere"',
  );
  const uk = await cli(dirs, ["check", "--locale", "uk-UA"]);
  assert.match(
    uk.stdout,
    /інструмент "y": input_schema: не вдалося розв’язати "\$ref" "#\/nowhere"\n$/,
  );
  const rewritten = await Deno.readTextFile(path);
  assert.match(rewritten, /^\/\/ basis-tools problem 1 /);
  assert.equal(
    rewritten.slice(rewritten.indexOf("\n") + 1),
    JSON.stringify({ key: "schema_problem.unresolved_ref", params: { ref: '"#/nowhere"' } }),
  );
});

Deno.test("a cached problem that is not one the gate writes is not trusted", async () => {
  const dir = await Deno.makeTempDir({ dir: CACHE });
  const schema = { $ref: "#/elsewhere" };
  for (
    const body of [
      "not json",
      JSON.stringify({ key: "label.tool", params: { tool: "x" } }),
      JSON.stringify({ key: "schema_problem.nope" }),
      '{"key": "schema_problem.unresolved_ref", "params": {"__proto__": {"key": "x"}}}',
      JSON.stringify({ key: "schema_problem.unresolved_ref", params: { ref: [1] } }),
    ]
  ) {
    await plant(dir, schema, "problem", body);
    forgetValidators();
    const rejects = stats.diskRejects;
    const problem = await schemaProblem(tool(schema), { cacheDir: dir });
    assert.equal(stats.diskRejects, rejects + 1, body);
    assert.ok(problem !== undefined);
    assert.equal(EN.say(problem), 'cannot resolve "$ref" "#/elsewhere"');
  }
});

Deno.test("the gate's English for a failure is ajv's own wherever the catalogue words it", async () => {
  const cases: [schema: Schema, input: unknown][] = [
    [{ minLength: 2 }, "a"],
    [{ maxLength: 1 }, "ab"],
    [{ minItems: 1 }, []],
    [{ maxItems: 0 }, [1]],
    [{ items: [{}], additionalItems: false }, [1, 2]],
    [{ minProperties: 1 }, {}],
    [{ maxProperties: 0 }, { a: 1 }],
    [{ minimum: 3 }, 1],
    [{ maximum: 3 }, 5],
    [{ exclusiveMinimum: 3 }, 3],
    [{ exclusiveMaximum: 3 }, 3],
    [{ pattern: "^a" }, "b"],
    [{ format: "email" }, "nope"],
    [{ multipleOf: 2 }, 3],
    [{ uniqueItems: true }, [1, 1]],
    [{ oneOf: [{}, {}] }, 1],
    [{ anyOf: [{ type: "string" }] }, 1],
    [{ not: {} }, 1],
    [{ if: { type: "number" }, then: { minimum: 5 } }, 1],
    [{ contains: { type: "string" } }, [1]],
    [{
      $schema: "https://json-schema.org/draft/2019-09/schema",
      unevaluatedItems: false,
      items: [{}],
    }, [1, 2]],
    [{ $schema: "https://json-schema.org/draft/2020-12/schema", prefixItems: [{}], items: false }, [
      1,
      2,
    ]],
    [{
      $schema: "https://json-schema.org/draft/2019-09/schema",
      contains: { type: "string" },
      maxContains: 1,
    }, ["a", "b"]],
  ];
  for (const [schema, input] of cases) {
    const error = await validateInput(tool(schema), input, { cacheDir: CACHE }).catch((e) => e);
    assert.ok(
      error instanceof BasisError && error.code === "invalid_input",
      JSON.stringify(schema),
    );
    const failure = error.cause as AjvError;
    assert.ok(typeof failure.message === "string");
    const pointer = failure.instancePath === "" ? "(root)" : failure.instancePath;
    assert.equal(
      error.message,
      `Input refused by tool "t" schema: ${pointer}: ${failure.message}`,
      JSON.stringify(schema),
    );
    // Worded by the catalogue, not ajv's English kept as it is.
    const uk = error.wordedIn(UK);
    assert.ok(!uk.includes(failure.message), uk);
  }
  const named = { propertyNames: { pattern: "^a" } };
  const error = await validateInput(tool(named), { b: 1 }, { cacheDir: CACHE }).catch((e) => e);
  assert.equal(
    error.message,
    `Input refused by tool "t" schema: /b: property name ${error.cause.message}`,
  );
  const union = await validateInput(tool({ type: ["string", "null", "object"] }), 1, {
    cacheDir: CACHE,
  }).catch((e) => e);
  assert.equal(
    union.message,
    'Input refused by tool "t" schema: (root): must be string, null or object',
  );
});

Deno.test("a warm call of a broken schema loads neither ajv's compiler nor the Ukrainian catalogue", async () => {
  const dir = await Deno.makeTempDir({ dir: CACHE });
  assert.ok(await schemaProblem(tool(NOPE_TYPE), { cacheDir: dir }));
  const script = await Deno.makeTempFile({ dir: CACHE, suffix: ".ts" });
  const url = (path: string) => JSON.stringify(new URL(path, import.meta.url).href);
  await Deno.writeTextFile(
    script,
    `import { validateInput } from ${url("../src/schema/mod.ts")};
import { stats } from ${url("../src/schema/_stats.ts")};
import { catalogue } from ${url("../src/locale/messages.ts")};
let message = "";
try {
  await validateInput({ name: "x", inputSchema: ${
      JSON.stringify(NOPE_TYPE)
    } }, {}, { cacheDir: Deno.args[0] });
} catch (error) { message = error.message; }
let ukrainian = true;
try { catalogue("uk-UA"); } catch { ukrainian = false; }
console.log(JSON.stringify({ message, ukrainian, ...stats }));`,
  );
  const { code, stdout, stderr } = await denoRun(script, ["-A"], { args: [dir] });
  assert.equal(code, 0, stderr);
  assert.deepEqual(JSON.parse(stdout), {
    message:
      `Cannot use input schema of tool "x": invalid JSON Schema: /properties/a/type: must be one of: ${TYPES}`,
    ukrainian: false,
    compilerLoads: 0,
    compiles: 0,
    diskHits: 1,
    diskWrites: 0,
    diskRejects: 0,
  });
});

Deno.test("the gate imports neither ajv nor the Ukrainian catalogue statically", async () => {
  const graph = await moduleGraph(`${ROOT}src/schema/gate.ts`);
  const seen = staticallyReachable(graph, graph.roots);
  assert.ok(seen.size > 5, "the walk should have found the gate's modules");
  assert.deepEqual([...seen].filter((u) => /ajv|uk_ua/.test(u)), []);
});
