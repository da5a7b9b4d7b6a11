import assert from "node:assert/strict";
import { schemaProblem, validateInput } from "../src/schema/gate.ts";
import {
  AJV_FORMATS_VERSION,
  AJV_VERSION,
  type AjvError,
  cacheKey,
  forgetValidators,
  stats,
  validatorPath,
} from "../src/schema/_validator.ts";
import { BasisError } from "../src/errors.ts";
import { oneLine } from "../src/text.ts";
import { denoRun } from "./_deno_run.ts";
import { moduleTempDir, tempDir } from "./_scratch.ts";
import { say } from "./_wording.ts";
import { EN_US, type MessageKey } from "../src/locale/en_us.ts";
import {
  listOf,
  loadLocale,
  messages,
  type Phrase,
  phrase,
  type PhraseParams,
} from "../src/locale/messages.ts";
import { assertNoEnglish, CYRILLIC } from "./_no_english.ts";
import { cli, ROOT, scratch } from "./_cli.ts";
import { moduleGraph, staticallyReachable } from "./_module_graph.ts";
import { keysOf } from "./_phrase.ts";
import { caught } from "./_caught.ts";
import { refusal } from "../src/schema/gate.ts";
import { checkSchema } from "./_schema.ts";

// --- helpers ---------------------------------------------------------------------------------------

function assertEquals(actual: unknown, expected: unknown, message?: string): void {
  const a = JSON.stringify(actual);
  const e = JSON.stringify(expected);
  if (a !== e) throw new Error(`${message ?? "not equal"}:\n  actual:   ${a}\n  expected: ${e}`);
}

const CACHE = moduleTempDir("basis-schema-test-");
const options = { cacheDir: CACHE };

function tool(inputSchema: Record<string, unknown>, name = "wc") {
  return { name, inputSchema };
}

/** The refusal message, or `"ok"` when the input passes. */
async function verdict(
  inputSchema: Record<string, unknown>,
  input: unknown,
  opts: { cacheDir?: string } = options,
): Promise<string> {
  try {
    await validateInput(tool(inputSchema), input, opts);
    return "ok";
  } catch (error) {
    if (!(error instanceof BasisError)) throw error;
    return `${error.code}: ${error.message}`;
  }
}

function refused(detail: string): string {
  const before = say("schema.refused", { tool: '"wc"', pointer: "\0", reason: "" }).split("\0")[0];
  return `invalid_input: ${before}${detail}`;
}

/** The root of the input, as a refusal names it. */
const WHOLE = phrase("schema.root");

/** What the CLI says when a call's input at `pointer` fails the check worded by `key`. */
function refusedBy(pointer: string | Phrase, key: MessageKey, params?: PhraseParams): string {
  return `invalid_input: ${
    say("schema.refused", { tool: '"wc"', pointer, reason: phrase(key, params) })
  }`;
}

async function listCache(dir: string): Promise<string[]> {
  const names: string[] = [];
  try {
    for await (const entry of Deno.readDir(`${dir}/validators`)) names.push(entry.name);
  } catch {
    // no directory: nothing cached
  }
  return names.sort();
}

const TYPICAL = {
  type: "object",
  additionalProperties: false,
  required: ["name", "count"],
  properties: {
    name: { type: "string", minLength: 1 },
    email: { type: "string", format: "email" },
    count: { type: "integer", minimum: 0, maximum: 100 },
    mode: { enum: ["fast", "slow"] },
    tags: { type: "array", items: { type: "string" } },
    opts: { type: "object", properties: { deep: { type: "boolean" } } },
  },
};

// --- verdicts --------------------------------------------------------------------------------------

Deno.test("validateInput() accepts a valid input", async () => {
  const input = { name: "a", email: "a@b.co", count: 5, mode: "fast", tags: ["x"], opts: {} };
  assertEquals(await verdict(TYPICAL, input), "ok");
});

Deno.test("validateInput() refuses an input that is not an object, naming the root", async () => {
  assertEquals(
    await verdict(TYPICAL, [1, 2]),
    refusedBy(WHOLE, "schema.type", { types: listOf(["object"], "join.or") }),
  );
  assertEquals(
    await verdict(TYPICAL, null),
    refusedBy(WHOLE, "schema.type", { types: listOf(["object"], "join.or") }),
  );
});

Deno.test("validateInput() points at a missing required property", async () => {
  assertEquals(
    await verdict({ type: "object", required: ["text"] }, {}),
    refusedBy("/text", "schema.required"),
  );
});

Deno.test("validateInput() names a wrong type deep in the input by its JSON pointer", async () => {
  const schema = {
    properties: {
      a: {
        properties: {
          b: { type: "array", items: { properties: { c: { type: "integer" } } } },
        },
      },
    },
  };
  assertEquals(
    await verdict(schema, { a: { b: [{ c: 1.5 }] } }),
    refusedBy("/a/b/0/c", "schema.type", { types: listOf(["integer"], "join.or") }),
  );
});

Deno.test("validateInput() escapes ~ and / in pointers", async () => {
  const schema = { properties: { "a/b~c": { type: "string" } }, additionalProperties: false };
  assertEquals(
    await verdict(schema, { "a/b~c": 1 }),
    refusedBy("/a~1b~0c", "schema.type", { types: listOf(["string"], "join.or") }),
  );
  assertEquals(await verdict(schema, { "x/y": 1 }), refusedBy("/x~1y", "schema.not_allowed"));
});

Deno.test("validateInput() points at a property that additionalProperties forbids", async () => {
  assertEquals(
    await verdict(TYPICAL, { name: "a", count: 1, colour: "red" }),
    refusedBy("/colour", "schema.not_allowed"),
  );
});

Deno.test("validateInput() lists the allowed values of an enum, cut when long", async () => {
  assertEquals(
    await verdict(TYPICAL, { name: "a", count: 1, mode: "medium" }),
    refusedBy("/mode", "schema.enum", { values: '"fast", "slow"' }),
  );
  const many = { enum: Array.from({ length: 100 }, (_, i) => `value-${i}`) };
  const message = await verdict(many, "nope");
  assert(message.includes('"value-0", "value-1"'), message);
  assert(/… \(\d+ more\)$/.test(message), message);
  assert(message.length < 250, message);
});

Deno.test("validateInput() checks formats email, date, date-time and uri", async () => {
  const schema = {
    properties: {
      email: { format: "email" },
      date: { format: "date" },
      when: { format: "date-time" },
      uri: { format: "uri" },
    },
  };
  const good = {
    email: "a@example.com",
    date: "2024-02-29",
    when: "2024-02-29T12:00:00Z",
    uri: "https://example.com/x",
  };
  assertEquals(await verdict(schema, good), "ok");
  assertEquals(
    await verdict(schema, { ...good, email: "not-an-email" }),
    refusedBy("/email", "schema.format", { format: "email" }),
  );
  assertEquals(
    await verdict(schema, { ...good, date: "2023-02-29" }),
    refusedBy("/date", "schema.format", { format: "date" }),
  );
  assertEquals(
    await verdict(schema, { ...good, when: "yesterday" }),
    refusedBy("/when", "schema.format", { format: "date-time" }),
  );
  assertEquals(
    await verdict(schema, { ...good, uri: "not a uri" }),
    refusedBy("/uri", "schema.format", { format: "uri" }),
  );
});

Deno.test("validateInput() ignores unknown keywords and unknown formats", async () => {
  const schema = {
    type: "object",
    "x-ui": { widget: "slider" },
    frobnicate: 12,
    properties: { a: { type: "string", format: "no-such-format", formatMinimum: "b" } },
  };
  assertEquals(await checkSchema(tool(schema), options), undefined);
  assertEquals(await verdict(schema, { a: "a" }), "ok");
});

Deno.test("validateInput() names the dependent property a present property requires", async () => {
  assertEquals(
    await verdict({ dependencies: { a: ["b"] } }, { a: 1 }),
    refusedBy("/b", "schema.required_when", { property: '"a"' }),
  );
});

Deno.test("validateInput() reads const, type unions and false schemas clearly", async () => {
  assertEquals(
    await verdict({ const: { a: 1 } }, { a: 2 }),
    refusedBy(WHOLE, "schema.const", { value: '{"a":1}' }),
  );
  assertEquals(
    await verdict({ type: ["string", "null"] }, 1),
    refusedBy(WHOLE, "schema.type", { types: listOf(["string", "null"], "join.or") }),
  );
  assertEquals(
    await verdict({ properties: { a: false } }, { a: 1 }),
    refusedBy("/a", "schema.false"),
  );
});

Deno.test("validateInput() keeps messages on one line whatever the input's keys", async () => {
  const message = await verdict({ additionalProperties: false }, { "line\nbreak\u2028": 1 });
  assertEquals(message, refusedBy("/line\\u000abreak\\u2028", "schema.not_allowed"));
});

// --- drafts ----------------------------------------------------------------------------------------

Deno.test("validateInput() selects draft 2019-09 by $schema (unevaluatedProperties, dependentRequired)", async () => {
  const body = { properties: { a: {} }, unevaluatedProperties: false };
  // draft-07 does not know unevaluatedProperties: ignored.
  assertEquals(await verdict(body, { a: 1, b: 2 }), "ok");
  const schema = { $schema: "https://json-schema.org/draft/2019-09/schema", ...body };
  assertEquals(await verdict(schema, { a: 1 }), "ok");
  assertEquals(await verdict(schema, { a: 1, b: 2 }), refusedBy("/b", "schema.not_allowed"));
  const dependent = {
    $schema: "https://json-schema.org/draft/2019-09/schema",
    dependentRequired: { a: ["b"] },
  };
  assertEquals(
    await verdict(dependent, { a: 1 }),
    refusedBy("/b", "schema.required_when", { property: '"a"' }),
  );
});

Deno.test("validateInput() selects draft 2020-12 by $schema (prefixItems)", async () => {
  const body = { prefixItems: [{ type: "integer" }, { type: "string" }] };
  // draft-07 does not know prefixItems: ignored.
  assertEquals(await verdict(body, ["x", 1]), "ok");
  const schema = { $schema: "https://json-schema.org/draft/2020-12/schema", ...body };
  assertEquals(await verdict(schema, [1, "x"]), "ok");
  assertEquals(
    await verdict(schema, ["x", 1]),
    refusedBy("/0", "schema.type", { types: listOf(["integer"], "join.or") }),
  );
});

Deno.test("validateInput() accepts draft-07 and draft-06 $schema spellings", async () => {
  for (
    const $schema of [
      "http://json-schema.org/draft-07/schema#",
      "http://json-schema.org/draft-07/schema",
      "https://json-schema.org/draft-07/schema#",
      "http://json-schema.org/draft-06/schema#",
      "https://json-schema.org/draft/2020-12/schema#",
    ]
  ) {
    const schema = { $schema, type: "integer" };
    assertEquals(await checkSchema(tool(schema), options), undefined, $schema);
    assertEquals(
      await verdict(schema, "x"),
      refusedBy(WHOLE, "schema.type", { types: listOf(["integer"], "join.or") }),
      $schema,
    );
  }
});

Deno.test("checkSchema() refuses a $schema naming an unsupported draft", async () => {
  const reason = await checkSchema(
    tool({ $schema: "http://json-schema.org/draft-04/schema#" }),
    options,
  );
  assertEquals(
    reason,
    'unsupported "$schema" "http://json-schema.org/draft-04/schema#": use draft-07 (the default), draft-06, 2019-09 or 2020-12',
  );
  assert((await checkSchema(tool({ $schema: 7 }), options))?.startsWith('unsupported "$schema"'));
});

Deno.test("validateInput() follows recursive $ref and $defs", async () => {
  const schema = {
    $ref: "#/$defs/node",
    $defs: {
      node: {
        type: "object",
        additionalProperties: false,
        properties: {
          value: { type: "integer" },
          kids: { type: "array", items: { $ref: "#/$defs/node" } },
        },
      },
    },
  };
  assertEquals(await verdict(schema, { value: 1, kids: [{ kids: [{ value: 2 }] }] }), "ok");
  assertEquals(
    await verdict(schema, { kids: [{ kids: [{ value: "2" }] }] }),
    refusedBy("/kids/0/kids/0/value", "schema.type", { types: listOf(["integer"], "join.or") }),
  );
  const recursive2020 = {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    $defs: { tree: { type: ["integer", "array"], items: { $ref: "#/$defs/tree" } } },
    $ref: "#/$defs/tree",
  };
  assertEquals(await verdict(recursive2020, [1, [2, [3]]]), "ok");
  assertEquals(
    await verdict(recursive2020, [1, [2, ["x"]]]),
    refusedBy("/1/1/0", "schema.type", { types: listOf(["integer", "array"], "join.or") }),
  );
});

Deno.test("validateInput() supports $async schemas", async () => {
  const schema = { $async: true, type: "object", required: ["a"] };
  assertEquals(await verdict(schema, { a: 1 }), "ok");
  assertEquals(await verdict(schema, {}), refusedBy("/a", "schema.required"));
});

// --- schemas that cannot be compiled --------------------------------------------------------------

Deno.test("checkSchema() gives a one-line reason for a schema ajv cannot compile", async () => {
  const reasons = await Promise.all(
    [{ type: 12 }, { minimum: "x" }, { $ref: "#/definitions/nope" }, { pattern: "(" }].map((s) =>
      checkSchema(tool(s), options)
    ),
  );
  assertEquals(reasons, [
    'invalid JSON Schema: /type: must be one of: "array", "boolean", "integer", "null", "number", "object", "string"',
    "invalid JSON Schema: /minimum: must be number",
    'cannot resolve "$ref" "#/definitions/nope"',
    "invalid JSON Schema: Invalid regular expression: /(/u: Unterminated group",
  ]);
  assertEquals(await checkSchema(tool(TYPICAL), options), undefined);
});

Deno.test("checkSchema() refuses __proto__ keys in a schema, which ajv mishandles", async () => {
  const schema = JSON.parse('{"properties": {"__proto__": {"type": "string"}}}');
  assertEquals(
    await checkSchema(tool(schema), options),
    'invalid JSON Schema: /properties/__proto__: "__proto__" cannot be used as a key',
  );
});

Deno.test("validateInput() throws manifest_invalid for a schema that cannot be compiled", async () => {
  assertEquals(
    await verdict({ minimum: "x" }, 1),
    'manifest_invalid: Cannot use input schema of tool "wc": invalid JSON Schema: /minimum: must be number',
  );
});

// --- untrusted input -------------------------------------------------------------------------------

Deno.test("validateInput() handles __proto__ keys in input without being fooled", async () => {
  const input = JSON.parse('{"a": 1, "__proto__": {"polluted": true}}');
  const before = JSON.stringify(input);
  assertEquals(
    await verdict({ properties: { a: { type: "integer" } }, additionalProperties: false }, input),
    refusedBy("/__proto__", "schema.not_allowed"),
  );
  assertEquals(await verdict({ properties: { a: { type: "integer" } } }, input), "ok");
  assertEquals(
    await verdict({ required: ["__proto__"] }, {}),
    refusedBy("/__proto__", "schema.required"),
  );
  assertEquals(await verdict({ required: ["__proto__"] }, input), "ok");
  assertEquals(
    await verdict({ required: ["constructor"] }, {}),
    refusedBy("/constructor", "schema.required"),
  );
  assertEquals(JSON.stringify(input), before);
  assertEquals(Object.getPrototypeOf(input), Object.prototype);
  assertEquals(({} as Record<string, unknown>).polluted, undefined);
});

Deno.test("validateInput() never modifies the input (no defaults, no coercion)", async () => {
  const schema = {
    properties: { n: { type: "integer" }, d: { type: "string", default: "filled" } },
    additionalProperties: false,
  };
  const input = { n: 1, extra: true };
  await verdict(schema, input);
  assertEquals(input, { n: 1, extra: true });
  const numeric = { n: "1" };
  assertEquals(
    await verdict(schema, numeric),
    refusedBy("/n", "schema.type", { types: listOf(["integer"], "join.or") }),
  );
  assertEquals(numeric, { n: "1" });
});

Deno.test("validateInput() compares null-prototype inputs like plain JSON", async () => {
  const input = Object.assign(Object.create(null), { a: 1 });
  assertEquals(await verdict({ const: { a: 1 } }, input), "ok");
  assertEquals(
    await verdict({ enum: [{ a: 2 }] }, input),
    refusedBy(WHOLE, "schema.enum", { values: '{"a":2}' }),
  );
});

Deno.test("validateInput() refuses, rather than crashes on, an input nested too deeply", async () => {
  let deep: unknown = 1;
  for (let i = 0; i < 200_000; i++) deep = [deep];
  const schema = {
    $defs: { n: { anyOf: [{ type: "integer" }, { type: "array", items: { $ref: "#/$defs/n" } }] } },
    $ref: "#/$defs/n",
  };
  const line = await verdict(schema, deep);
  assert(line.startsWith(refused("/0/0/0/")), line);
  assert(line.endsWith(`: ${say("schema.too_deep", { limit: 256 })}`), line);
  // As deep as the limit allows is checked as usual, whatever the schema recurses through.
  let limit: unknown = 1;
  for (let i = 0; i < 256; i++) limit = [limit];
  assertEquals(await verdict(schema, limit), "ok");
  const pointer = oneLine("/0".repeat(256), 200); // as every pointer is cut
  assertEquals(
    await verdict(schema, [limit]),
    refusedBy(pointer, "schema.too_deep", { limit: 256 }),
  );
});

Deno.test("validateInput() refuses, rather than crashes on, an input that is not JSON data", async () => {
  const cyclic: Record<string, unknown> = { a: 1 };
  cyclic.self = cyclic;
  assertEquals(await verdict({ type: "object" }, cyclic), refusedBy("/self", "schema.not_json"));
  assertEquals(await verdict({}, { n: 1n }), refusedBy("/n", "schema.not_json"));
});

// --- caching ---------------------------------------------------------------------------------------

const CASES: [Record<string, unknown>, unknown][] = [
  [TYPICAL, { name: "a", count: 5, tags: ["x"] }],
  [TYPICAL, { name: "a", count: 500 }],
  [TYPICAL, { name: "", count: 5 }],
  [{ properties: { when: { format: "date" }, at: { format: "time" } } }, { when: "2024-13-01" }],
  [{ properties: { when: { format: "date" }, at: { format: "time" } } }, { at: "25:00:00Z" }],
  [{ properties: { u: { format: "uri" }, r: { format: "regex" } } }, { r: "(" }],
  [{ uniqueItems: true }, [{ a: 1 }, { a: 1 }]],
  [{ maxLength: 2 }, "😀😀😀"],
  [{ enum: [{ a: [1] }, "x"] }, { a: [1] }],
  [{ $defs: { n: { type: "array", items: { $ref: "#/$defs/n" } } }, $ref: "#/$defs/n" }, [[[1]]]],
  [
    { $schema: "https://json-schema.org/draft/2019-09/schema", unevaluatedProperties: false },
    { a: 1 },
  ],
  [
    {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      $dynamicAnchor: "n",
      items: { $dynamicRef: "#n" },
      prefixItems: [{ type: "string" }],
    },
    ["a", [1]],
  ],
  [{ $async: true, type: "string" }, 1],
  [{ patternProperties: { "^x-": { type: "number" } } }, { "x-a": "1" }],
  [{ propertyNames: { pattern: "^[a-z]+$" } }, { Bad: 1 }],
];

async function runCases(cacheDir: string | undefined): Promise<string[]> {
  const out: string[] = [];
  for (const [schema, input] of CASES) {
    // Fresh objects each time, so nothing is answered by object identity.
    const copy = structuredClone(schema);
    out.push(
      await verdict(copy, structuredClone(input), cacheDir === undefined ? {} : { cacheDir }),
    );
  }
  return out;
}

Deno.test("validateInput() gives the same verdicts from the disk cache as from a compile", async () => {
  const dir = await Deno.makeTempDir({ dir: CACHE, prefix: "basis-schema-cache-" });
  forgetValidators();
  const compilesBefore = stats.compiles;
  const miss = await runCases(dir);
  const distinct = new Set(CASES.map(([s]) => JSON.stringify(s))).size;
  assertEquals(stats.compiles - compilesBefore, distinct, "one compile per distinct schema");
  assertEquals((await listCache(dir)).length, distinct, "one file per distinct schema");

  forgetValidators();
  const compiles = stats.compiles;
  const hits = stats.diskHits;
  const hit = await runCases(dir);
  assertEquals(hit, miss);
  assertEquals(stats.compiles, compiles, "the second run compiled nothing");
  assertEquals(stats.diskHits - hits, distinct, "the second run read every validator from disk");
  assert(miss.filter((v) => v === "ok").length >= 1 && miss.some((v) => v !== "ok"));
});

Deno.test("validateInput() in a fresh process with a warm cache never loads ajv's compiler", async () => {
  const dir = await Deno.makeTempDir({ dir: CACHE, prefix: "basis-schema-fresh-" });
  forgetValidators();
  await validateInput(tool(TYPICAL), { name: "a", count: 1 }, { cacheDir: dir });
  const script = await Deno.makeTempFile({ dir: CACHE, suffix: ".ts" });
  const gate = new URL("../src/schema/gate.ts", import.meta.url).href;
  const statsUrl = new URL("../src/schema/_validator.ts", import.meta.url).href;
  await Deno.writeTextFile(
    script,
    `import { validateInput } from ${JSON.stringify(gate)};
import { stats } from ${JSON.stringify(statsUrl)};
const schema = ${JSON.stringify(TYPICAL)};
let message = "ok";
await validateInput({ name: "wc", inputSchema: schema }, { name: "a", count: 1 }, { cacheDir: Deno.args[0] });
try {
  await validateInput({ name: "wc", inputSchema: schema }, { name: "a", count: -1 }, { cacheDir: Deno.args[0] });
} catch (error) { message = error.message; }
console.log(JSON.stringify({ message, ...stats }));`,
  );
  const { code, stdout, stderr } = await denoRun(script, ["-A"], { args: [dir] });
  await Deno.remove(script);
  assertEquals(code, 0, stderr);
  const report = JSON.parse(stdout);
  assertEquals(report, {
    message: 'Input refused by tool "wc" schema: /count: must be >= 0',
    compilerLoads: 0,
    compiles: 0,
    diskHits: 1,
    diskWrites: 0,
    diskRejects: 0,
  });
});

Deno.test("checkSchema() fills the cache that validateInput() then reads", async () => {
  const dir = await Deno.makeTempDir({ dir: CACHE, prefix: "basis-schema-check-" });
  const schema = { type: "object", properties: { checked: { type: "boolean" } } };
  assertEquals(await checkSchema(tool(schema), { cacheDir: dir }), undefined);
  assertEquals((await listCache(dir)).length, 1);
  forgetValidators();
  const compiles = stats.compiles;
  assertEquals(
    await verdict(schema, { checked: 1 }, { cacheDir: dir }),
    refusedBy("/checked", "schema.type", { types: listOf(["boolean"], "join.or") }),
  );
  assertEquals(stats.compiles, compiles);
});

Deno.test("validateInput() compiles each schema once per process, even when asked concurrently", async () => {
  const schema = { type: "object", properties: { once: { type: "string", minLength: 3 } } };
  const compiles = stats.compiles;
  const verdicts = await Promise.all(
    Array.from({ length: 10 }, (_, i) => verdict(structuredClone(schema), { once: "x".repeat(i) })),
  );
  assertEquals(stats.compiles - compiles, 1);
  assertEquals(verdicts.filter((v) => v === "ok").length, 7);
});

Deno.test("validateInput() does not compile at module load", async () => {
  const script = await Deno.makeTempFile({ dir: CACHE, suffix: ".ts" });
  await Deno.writeTextFile(
    script,
    `import "${new URL("../src/schema/gate.ts", import.meta.url).href}";
import { stats } from "${new URL("../src/schema/_validator.ts", import.meta.url).href}";
console.log(JSON.stringify(stats));`,
  );
  const { stdout } = await denoRun(script, []);
  await Deno.remove(script);
  const after = JSON.parse(stdout);
  assertEquals([after.compilerLoads, after.compiles], [0, 0]);
});

/** The first line of a cache file: what it holds, the format, the key and the body's SHA-256. */
async function cacheHeader(content: string, key: string, body: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(body));
  const hex = Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
  return `// basis-tools ${content} 2 ${key} ${hex}\n`;
}

Deno.test("validateInput() recovers from a corrupt cache file and rewrites it", async () => {
  const dir = await Deno.makeTempDir({ dir: CACHE, prefix: "basis-schema-corrupt-" });
  const schema = { type: "object", properties: { corrupt: { type: "integer" } } };
  const key = await cacheKey("draft-07", JSON.stringify(schema));
  const path = validatorPath(dir, key);
  await Deno.mkdir(`${dir}/validators`, { recursive: true });
  const code = 'throw new Error("boom");';
  const garbage = [
    "this is not javascript {{{",
    // A well-formed header on code that throws when loaded.
    `${await cacheHeader("validator", key, code)}${code}`,
    // A truncated file.
    `${await cacheHeader("validator", key, `"use strict"; ${code}`)}"use strict";`,
  ];
  for (const text of garbage) {
    await Deno.writeTextFile(path, text, { mode: 0o600 });
    forgetValidators();
    const rejects = stats.diskRejects;
    assertEquals(
      await verdict(schema, { corrupt: "x" }, { cacheDir: dir }),
      refusedBy("/corrupt", "schema.type", { types: listOf(["integer"], "join.or") }),
    );
    assertEquals(stats.diskRejects - rejects, 1);
    assert((await Deno.readTextFile(path)).startsWith(`// basis-tools validator 2 ${key} `));
    forgetValidators();
    const hits = stats.diskHits;
    assertEquals(await verdict(schema, { corrupt: 1 }, { cacheDir: dir }), "ok");
    assertEquals(stats.diskHits - hits, 1, "the rewritten file is used");
  }
});

Deno.test("validateInput() does not run a cache file that others can write", async () => {
  const dir = await Deno.makeTempDir({ dir: CACHE, prefix: "basis-schema-mode-" });
  const schema = { type: "object", properties: { shared: { type: "integer" } } };
  await checkSchema(tool(schema), { cacheDir: dir });
  const [name] = await listCache(dir);
  await Deno.chmod(`${dir}/validators/${name}`, 0o666);
  forgetValidators();
  const rejects = stats.diskRejects;
  assertEquals(await verdict(schema, { shared: 1 }, { cacheDir: dir }), "ok");
  assertEquals(stats.diskRejects - rejects, 1);
  assertEquals((await Deno.stat(`${dir}/validators/${name}`)).mode! & 0o077, 0);
});

Deno.test({
  name:
    "validateInput() does not run a cache file owned by another user, nor one in a shared directory",
  ignore: Deno.build.os === "windows" || Deno.uid() !== 0,
}, async () => {
  const dir = await Deno.makeTempDir({ dir: CACHE, prefix: "basis-schema-owner-" });
  const schema = { type: "object", properties: { owned: { type: "integer" } } };
  await checkSchema(tool(schema), { cacheDir: dir });
  const [name] = await listCache(dir);
  const path = `${dir}/validators/${name}`;
  // A file planted by someone else (mode 0644 is the default for their files).
  await Deno.chown(path, 65534, 65534);
  await Deno.chmod(path, 0o644);
  forgetValidators();
  let rejects = stats.diskRejects;
  assertEquals(await verdict(schema, { owned: 1 }, { cacheDir: dir }), "ok");
  assertEquals(stats.diskRejects - rejects, 1);
  // A directory others may write into is not trusted either, whatever the file looks like.
  await Deno.chmod(`${dir}/validators`, 0o777);
  forgetValidators();
  rejects = stats.diskRejects;
  assertEquals(await verdict(schema, { owned: 1 }, { cacheDir: dir }), "ok");
  assertEquals(stats.diskRejects - rejects, 1);
});

Deno.test("validateInput() still validates when the cache directory cannot be written", async () => {
  const file = await Deno.makeTempFile({ dir: CACHE });
  const unwritable = `${file}/cache`; // a directory under a regular file can never be created
  const writes = stats.diskWrites;
  forgetValidators();
  assertEquals(await verdict(TYPICAL, { name: "a", count: 1 }, { cacheDir: unwritable }), "ok");
  assertEquals(
    await verdict(TYPICAL, { count: 1 }, { cacheDir: unwritable }),
    refusedBy("/name", "schema.required"),
  );
  assertEquals(
    await checkSchema(tool({ minimum: "x" }), { cacheDir: unwritable }),
    "invalid JSON Schema: /minimum: must be number",
  );
  assertEquals(stats.diskWrites, writes);
  await Deno.remove(file);
});

Deno.test("the cache key follows the ajv and ajv-formats versions in deno.json", async () => {
  const config = JSON.parse(await Deno.readTextFile(new URL("../deno.json", import.meta.url)));
  assertEquals(config.imports.ajv, `npm:ajv@${AJV_VERSION}`);
  assertEquals(config.imports["ajv-formats"], `npm:ajv-formats@${AJV_FORMATS_VERSION}`);
  const a = await cacheKey("draft-07", "{}");
  assert(/^[0-9a-f]{64}$/.test(a));
  assert(a !== await cacheKey("2020-12", "{}"));
});

// --- Wording in en-US and uk-UA ---
// Input schemas that cannot be compiled, in both locales: every schema problem is reached by a real
// schema, its English is what it always was, its Ukrainian holds no English prose beyond ajv's own
// text where ajv gives nothing else; the disk cache keeps the problem as a phrase, so a warm call
// words it in any locale without ajv's compiler or the Ukrainian catalogue.

await loadLocale("uk-UA");
const EN = messages("en-US");
const UK = messages("uk-UA");
const WORDING_CACHE = moduleTempDir("basis-locale-schema-");
const TYPES = '"array", "boolean", "integer", "null", "number", "object", "string"';

type Schema = Record<string, unknown>;

function schemaTool(inputSchema: unknown, name = "t") {
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

Deno.test("every schema problem is worded in both locales, English unchanged", async () => {
  const reached = new Set<string>();
  const dir = await Deno.makeTempDir({ dir: WORDING_CACHE });
  for (const [schema, english] of SCHEMAS) {
    const problem = await schemaProblem(schemaTool(schema), { cacheDir: dir });
    assert.ok(problem !== undefined, english);
    keysOf(problem, reached);
    assert.equal(EN.say(problem), english);
    assert.equal(await checkSchema(schemaTool(schema), { cacheDir: dir }), english);
    assertUkrainian(UK.say(problem), english);
  }
  const missed = Object.keys(EN_US).filter((key) =>
    key.startsWith("schema_problem.") && !reached.has(key)
  );
  assert.deepEqual(missed, [], "messages no schema reached");
});

Deno.test("a call of a tool whose schema cannot be compiled fails with a phrase in the locale", async () => {
  const dir = await Deno.makeTempDir({ dir: WORDING_CACHE });
  for (const pass of ["compiled", "cached"]) {
    if (pass === "cached") forgetValidators();
    const error = await validateInput(schemaTool(NOPE_TYPE, "x"), {}, { cacheDir: dir }).catch((
      e,
    ) => e);
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
    const error = await validateInput(schemaTool(schema), input, { cacheDir: WORDING_CACHE }).catch(
      (e) => e,
    );
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
  const error = await validateInput(schemaTool(named), { b: 1 }, { cacheDir: WORDING_CACHE }).catch(
    (e) => e,
  );
  assert.equal(
    error.message,
    `Input refused by tool "t" schema: /b: property name ${error.cause.message}`,
  );
  const union = await validateInput(schemaTool({ type: ["string", "null", "object"] }), 1, {
    cacheDir: WORDING_CACHE,
  }).catch((e) => e);
  assert.equal(
    union.message,
    'Input refused by tool "t" schema: (root): must be string, null or object',
  );
});

Deno.test("a call of a broken schema is refused in English without the Ukrainian catalogue, and caches nothing", async () => {
  const dir = await Deno.makeTempDir({ dir: WORDING_CACHE });
  assert.ok(await schemaProblem(schemaTool(NOPE_TYPE), { cacheDir: dir }));
  const script = await Deno.makeTempFile({ dir: WORDING_CACHE, suffix: ".ts" });
  const url = (path: string) => JSON.stringify(new URL(path, import.meta.url).href);
  await Deno.writeTextFile(
    script,
    `import { validateInput } from ${url("../src/schema/gate.ts")};
import { stats } from ${url("../src/schema/_validator.ts")};
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
    compilerLoads: 1,
    compiles: 1,
    diskHits: 0,
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

Deno.test("an input schema that cannot be compiled at call time is worded in uk-UA, reason included", async () => {
  await using cacheDir = await tempDir({ prefix: "basis-locale-schema-" });
  const tool = { name: "bad", inputSchema: { type: "object", properties: { n: { type: 12 } } } };
  const error = await caught(() => validateInput(tool, {}, { cacheDir: cacheDir.path }));
  assert.equal(error.code, "manifest_invalid");
  assert.match(
    error.message,
    /^Cannot use input schema of tool "bad": invalid JSON Schema: \/properties\/n\/type: /,
  );
  const uk = error.wordedIn(UK);
  assert.equal(
    uk,
    'Не вдалося використати схему вхідних даних інструмента "bad": некоректна JSON Schema: /properties/n/type: має бути одним зі значень: "array", "boolean", "integer", "null", "number", "object", "string"',
  );
  assert.equal(error.wordedIn(EN), error.message);
  // The cached reason reads the same the second time.
  const again = await caught(() => validateInput(tool, {}, { cacheDir: cacheDir.path }));
  assert.equal(again.wordedIn(UK), uk);
});

Deno.test("in English the catalogue words schema refusals as the gate does", () => {
  const failures = [
    { instancePath: "", keyword: "required", params: { missingProperty: "text" } },
    { instancePath: "/a", keyword: "additionalProperties", params: { additionalProperty: "b/c" } },
    { instancePath: "/n", keyword: "type", params: { type: "integer" } },
    { instancePath: "/n", keyword: "type", params: { type: ["string", "null"] } },
    { instancePath: "/e", keyword: "enum", params: { allowedValues: ["a", 1, null] } },
    { instancePath: "/c", keyword: "const", params: { allowedValue: "x" } },
    { instancePath: "/s", keyword: "minLength", params: { limit: 3 } },
    { instancePath: "/s", keyword: "pattern", params: { pattern: "^a" } },
    { instancePath: "/s", keyword: "format", params: { format: "email" } },
    { instancePath: "/m", keyword: "minimum", params: { comparison: ">=", limit: 3 } },
    { instancePath: "/l", keyword: "maxItems", params: { limit: 0 } },
    { instancePath: "/u", keyword: "uniqueItems", params: { i: 1, j: 0 } },
    {
      instancePath: "",
      keyword: "dependentRequired",
      params: { missingProperty: "b", property: "a" },
    },
  ].map((failure) => ({ schemaPath: "#", ...failure }));
  const ajvText: Record<string, string> = {
    minLength: "must NOT have fewer than 3 characters",
    pattern: 'must match pattern "^a"',
    format: 'must match format "email"',
    minimum: "must be >= 3",
    maxItems: "must NOT have more than 0 items",
    uniqueItems: "must NOT have duplicate items (items ## 0 and 1 are identical)",
  };
  for (const failure of failures) {
    // Worded from the failure's data alone, the English is what ajv itself says.
    const said = ajvText[failure.keyword];
    if (said !== undefined) {
      const gate = `Input refused by tool "wc" schema: ${failure.instancePath}: ${said}`;
      assert.equal(EN.say(refusal("wc", failure)), gate, failure.keyword);
    }
    const uk = UK.say(refusal("wc", failure));
    assert.match(uk, /^Вхідні дані не відповідають схемі інструмента "wc": /);
    assert.match(uk, CYRILLIC);
  }
});

// --- config files against the shipped schemas -------------------------------------------------------

Deno.test("schemaIssues() names every failure of a config by pointer, compiling the schema once", async () => {
  const { schemaIssues } = await import("../src/schema/gate.ts");
  const schema = JSON.parse(Deno.readTextFileSync(`${ROOT}schemas/tools.schema.json`));
  const document = { schema: 1, tools: { a: { description: 1, command: [], timout_ms: 3 } } };
  await using cache = await tempDir({ prefix: "basis-schema-issues-" });
  const issues = await schemaIssues(schema, document, { cacheDir: cache.path, allErrors: true });
  assertEquals(
    issues.map(({ pointer, keyword }) => `${pointer} ${keyword}`),
    [
      "/tools/a/input_schema required",
      "/tools/a/timout_ms additionalProperties",
      "/tools/a/description type",
      "/tools/a/command minItems",
    ],
  );
  assertEquals(issues[1]?.instancePath, "/tools/a");
  assertEquals(issues[0]?.reason, phrase("schema.required"));
  const first = await schemaIssues(schema, document, { cacheDir: cache.path });
  assertEquals(first.map(({ pointer }) => pointer), ["/tools/a/input_schema"]);
  assertEquals(await schemaIssues(schema, { schema: 1, tools: {} }, { cacheDir: cache.path }), []);
  const compiles = stats.compiles;
  await schemaIssues(schema, {}, { cacheDir: cache.path, allErrors: true });
  assertEquals(stats.compiles, compiles);
  const files = await listCache(cache.path);
  assertEquals(files.length, 2);
  // The shipped schemas' patterns run on JavaScript's engine: a call never loads RE2 for them.
  for (const file of files) {
    const code = await Deno.readTextFile(`${cache.path}/validators/${file}`);
    assert(code.includes("new RegExp(") && !code.includes("linear-regexp"), file);
  }
});
