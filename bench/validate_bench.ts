/**
 * The schema gate's hot paths: validating a typical input with a validator already in memory, and
 * turning a cached standalone validator back into a function (what a fresh process pays on a hit).
 *
 * Run: `deno bench -A bench/validate_bench.ts`
 */

import { validateInput } from "../src/schema/gate.ts";
import {
  AJV_OPTIONS,
  cacheKey,
  instantiate,
  obtainValidator,
  readCached,
} from "../src/schema/_validator.ts";

const TOOL = {
  name: "typical",
  inputSchema: {
    type: "object",
    additionalProperties: false,
    required: ["name", "count"],
    properties: {
      name: { type: "string", minLength: 1 },
      email: { type: "string", format: "email" },
      count: { type: "integer", minimum: 0, maximum: 100 },
      mode: { enum: ["fast", "slow"] },
      tags: { type: "array", items: { type: "string" } },
      opts: {
        type: "object",
        properties: { deep: { type: "boolean" }, level: { type: "integer" } },
      },
    },
  },
};

const GOOD = {
  name: "report",
  email: "someone@example.com",
  count: 42,
  mode: "fast",
  tags: ["alpha", "beta", "gamma"],
  opts: { deep: true, level: 3 },
};

const BAD = { ...GOOD, opts: { deep: "yes", level: 3 } };

const cacheDir = await Deno.makeTempDir({ prefix: "basis-schema-bench-" });
const options = { cacheDir };

// Warm up: compile once (writes the cache file), so every bench below measures a warm path.
await validateInput(TOOL, GOOD, options);
const entry = await obtainValidator(TOOL.inputSchema, cacheDir);
if (!("validate" in entry)) throw new Error("the bench schema does not compile");
const compiled = entry.validate;
const key = await cacheKey("draft-07", JSON.stringify(TOOL.inputSchema));
const code = await readCached(cacheDir, key);
if (typeof code !== "string") throw new Error("the bench schema was not cached");

globalThis.addEventListener("unload", () => Deno.removeSync(cacheDir, { recursive: true }));

Deno.bench({
  name: "compiled validator alone accepts a typical input",
  group: "validate",
  baseline: true,
  fn: () => {
    if (compiled(GOOD) !== true) throw new Error("refused");
  },
});

Deno.bench({
  name: "validateInput() accepts a typical input (validator in memory)",
  group: "validate",
  fn: async () => {
    await validateInput(TOOL, GOOD, options);
  },
});

Deno.bench({
  name: "validateInput() refuses a typical bad input (validator in memory)",
  group: "validate",
  fn: async () => {
    try {
      await validateInput(TOOL, BAD, options);
    } catch {
      return;
    }
    throw new Error("accepted");
  },
});

Deno.bench({
  name: "instantiate() builds a validator from cached standalone code",
  group: "cache hit",
  baseline: true,
  fn: async () => {
    const validate = await instantiate(code);
    if (validate(GOOD) !== true) throw new Error("refused");
  },
});

Deno.bench({
  name: "key + readCached() + instantiate(): the whole disk hit",
  group: "cache hit",
  fn: async () => {
    const found = await readCached(
      cacheDir,
      await cacheKey("draft-07", JSON.stringify(TOOL.inputSchema)),
    );
    if (typeof found !== "string") throw new Error("miss");
    await instantiate(found);
  },
});

// --- patterns: RE2 (the gate's engine) beside JavaScript's RegExp (what ajv used before) ---------

const PATTERN_SCHEMA = {
  type: "object",
  required: ["id", "email"],
  properties: {
    id: { type: "string", pattern: "^[a-z][a-z0-9_-]{2,31}$" },
    email: { type: "string", pattern: "^[^@\\s]+@[^@\\s]+\\.[a-z]{2,}$" },
    note: { type: "string", pattern: "\\bTODO\\b" },
  },
};
const PATTERN_GOOD = {
  id: "report_2024-q3",
  email: "someone@example.com",
  note: `${"lorem ipsum dolor sit amet ".repeat(38)}TODO`,
};
const patternEntry = await obtainValidator(PATTERN_SCHEMA, cacheDir);
if (!("validate" in patternEntry)) throw new Error("the pattern schema does not compile");
const linear = patternEntry.validate;
const patternCode = await readCached(
  cacheDir,
  await cacheKey("draft-07", JSON.stringify(PATTERN_SCHEMA)),
);
if (typeof patternCode !== "string") throw new Error("not cached");
// The same schema compiled as before: ajv's default engine, `new RegExp(pattern, "u")`.
const { Ajv } = await import("../src/schema/_compile.ts");
const nativeAjv = new (Ajv as unknown as new (options: unknown) => {
  compile(schema: unknown): (data: unknown) => boolean;
})(structuredClone(AJV_OPTIONS));
const native = nativeAjv.compile(PATTERN_SCHEMA);

Deno.bench({
  name: "patterns: compiled validator, JavaScript RegExp (ajv's default, before)",
  group: "pattern",
  baseline: true,
  fn: () => {
    if (native(PATTERN_GOOD) !== true) throw new Error("refused");
  },
});

Deno.bench({
  name: "patterns: compiled validator, RE2 (re2js, the gate's engine)",
  group: "pattern",
  fn: () => {
    if (linear(PATTERN_GOOD) !== true) throw new Error("refused");
  },
});

Deno.bench({
  name: "patterns: instantiate() a cached validator (compiles its 3 patterns with re2js)",
  group: "pattern cache hit",
  fn: async () => {
    await instantiate(patternCode);
  },
});
