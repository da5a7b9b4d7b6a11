import { validateInput } from "../src/schema/gate.ts";
import { forgetValidators, stats } from "../src/schema/_validator.ts";
import { BasisError } from "../src/errors.ts";
import { readEnv } from "../src/paths.ts";
import { Fuzz } from "./_fuzz.ts";
import { tempDir } from "./_scratch.ts";
import { checkSchema } from "./_schema.ts";

/** `SCHEMA_FUZZ_SEED=n` explores other seeds; a failure message names the seed and case to replay. */
const SEED = Number(readEnv("SCHEMA_FUZZ_SEED") ?? 0x5eed_2024);
const SCHEMAS = 400;
const INPUTS_PER_SCHEMA = 8;

function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

const KEYS = ["a", "b", "count", "name", "__proto__", "constructor", "a/b", "~0", "", "x-y", "é"];
const STRINGS = [
  "",
  "a",
  "hello world",
  "a@b.co",
  "not an email",
  "2024-02-29",
  "2023-02-29",
  "12:00:00Z",
  "2024-02-29T12:00:00Z",
  "https://example.com/x?y#z",
  "not a uri",
  "(",
  "^a+$",
  "😀😀",
  "line\nbreak",
  "\u2028",
  "__proto__",
  "x".repeat(300),
];

function json(g: Fuzz, depth: number): unknown {
  const kind = g.between(0, depth > 0 ? 7 : 4);
  switch (kind) {
    case 0:
      return null;
    case 1:
      return g.chance(0.5);
    case 2:
      return g.pick([0, 1, -1, 2, 3, 5, 100, 101, 1.5, -0.5, 1e21, Number.MAX_SAFE_INTEGER]);
    case 3:
    case 4:
      return g.pick(STRINGS);
    case 5:
    case 6: {
      // Object.fromEntries makes own properties, even for "__proto__", as JSON.parse does.
      const entries = Array.from(
        { length: g.between(0, 4) },
        () => [g.pick(KEYS), json(g, depth - 1)],
      );
      return Object.fromEntries(entries);
    }
    default:
      return Array.from({ length: g.between(0, 4) }, () => json(g, depth - 1));
  }
}

/** Keys for schemas: `__proto__` (which the gate refuses in schemas) only now and then. */
function schemaKey(g: Fuzz): string {
  return g.chance(0.03) ? "__proto__" : g.pick(KEYS.filter((key) => key !== "__proto__"));
}

const TYPES = ["string", "number", "integer", "boolean", "object", "array", "null"];
const PATTERNS = ["^a", "^[a-z]+$", "b$", "\\d", "(", "[", "^(?:x|y)*$", "\\p{L}"];
const FORMATS = [
  "email",
  "date",
  "time",
  "date-time",
  "uri",
  "uri-reference",
  "ipv4",
  "uuid",
  "regex",
  "nope",
];
const REFS = ["#", "#/definitions/a", "#/$defs/a", "#/nope", "other.json", "#/properties/a", "#a"];
const DRAFTS = [
  undefined,
  undefined,
  undefined,
  "http://json-schema.org/draft-07/schema#",
  "http://json-schema.org/draft-06/schema#",
  "https://json-schema.org/draft/2019-09/schema",
  "https://json-schema.org/draft/2020-12/schema",
  undefined,
  undefined,
  "http://json-schema.org/draft-04/schema#",
];

function garbage(g: Fuzz): unknown {
  return g.pick<unknown>(["x", -1, 1.5, null, [], {}, true, [1, "a"], { type: 1 }]);
}

/** One keyword with a value that is usually sensible and sometimes not. */
function keyword(g: Fuzz, depth: number): [string, unknown] {
  const sub = () => schema(g, depth - 1);
  const bad = g.chance(0.08);
  const name = g.pick([
    "type",
    "type",
    "properties",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "prefixItems",
    "unevaluatedProperties",
    "dependentRequired",
    "dependencies",
    "enum",
    "const",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "multipleOf",
    "minLength",
    "maxLength",
    "minItems",
    "maxItems",
    "uniqueItems",
    "pattern",
    "format",
    "allOf",
    "anyOf",
    "oneOf",
    "not",
    "if",
    "then",
    "else",
    "$ref",
    "$defs",
    "definitions",
    "propertyNames",
    "patternProperties",
    "contains",
    "minProperties",
    "default",
    "x-unknown",
    "frobnicate",
    "$id",
  ]);
  if (bad) return [name, garbage(g)];
  switch (name) {
    case "type":
      return [name, g.chance(0.7) ? g.pick(TYPES) : [g.pick(TYPES), g.pick(TYPES)]];
    case "properties":
    case "$defs":
    case "definitions":
      return [
        name,
        Object.fromEntries(Array.from({ length: g.between(0, 3) }, () => [schemaKey(g), sub()])),
      ];
    case "patternProperties":
      return [name, { [g.pick(PATTERNS)]: sub() }];
    case "required":
      return [name, Array.from({ length: g.between(0, 3) }, () => g.pick(KEYS))];
    case "dependentRequired":
    case "dependencies":
      return [name, Object.fromEntries([[schemaKey(g), [g.pick(KEYS)]]])];
    case "additionalProperties":
    case "unevaluatedProperties":
    case "uniqueItems":
      return [name, g.chance(0.5) ? g.chance(0.5) : sub()];
    case "items":
      return [name, g.chance(0.7) ? sub() : [sub(), sub()]];
    case "prefixItems":
    case "allOf":
    case "anyOf":
    case "oneOf":
      return [name, Array.from({ length: g.between(1, 3) }, sub)];
    case "enum":
      return [name, Array.from({ length: g.between(1, 5) }, () => json(g, 1))];
    case "const":
    case "default":
    case "x-unknown":
    case "frobnicate":
      return [name, json(g, 2)];
    case "minimum":
    case "maximum":
    case "exclusiveMinimum":
      return [name, g.pick([0, 1, 2, -5, 100, 1.5])];
    case "multipleOf":
      return [name, g.pick([1, 2, 0.5, 0.1, 0])];
    case "minLength":
    case "maxLength":
    case "minItems":
    case "maxItems":
    case "minProperties":
      return [name, g.pick([0, 1, 2, 3, -1])];
    case "pattern":
      return [name, g.pick(PATTERNS)];
    case "format":
      return [name, g.pick(FORMATS)];
    case "$ref":
      return [name, g.pick(REFS)];
    case "$id":
      return [name, g.pick(["http://example.com/s", "#a", "s.json"])];
    default:
      return [name, sub()];
  }
}

function schema(g: Fuzz, depth: number): unknown {
  if (depth <= 0 || g.chance(0.15)) return g.chance(0.8) ? { type: g.pick(TYPES) } : g.chance(0.5);
  return Object.fromEntries(Array.from({ length: g.between(1, 4) }, () => keyword(g, depth)));
}

const BASE = {
  type: "object",
  additionalProperties: false,
  required: ["name", "count"],
  properties: {
    name: { type: "string", minLength: 1, pattern: "^[a-z]+$" },
    email: { type: "string", format: "email" },
    when: { type: "string", format: "date" },
    count: { type: "integer", minimum: 0, maximum: 100 },
    mode: { enum: ["fast", "slow"] },
    tags: { type: "array", items: { type: "string" }, uniqueItems: true },
    opts: { type: "object", properties: { deep: { type: "boolean" } } },
  },
  $defs: { node: { type: "object", properties: { kids: { items: { $ref: "#/$defs/node" } } } } },
};

/** The base schema with one to three random edits: a value replaced, a key dropped or added. */
function mutated(g: Fuzz): Record<string, unknown> {
  const root = structuredClone(BASE) as Record<string, unknown>;
  for (let edit = g.between(1, 3); edit > 0; edit--) {
    let node = root;
    while (true) {
      const keys = Object.keys(node);
      const key = g.pick(keys);
      const child = node[key];
      if (keys.length > 0 && typeof child === "object" && child !== null && g.chance(0.6)) {
        node = child as Record<string, unknown>;
        continue;
      }
      const action = g.between(0, 3);
      if (action === 0) delete node[key];
      else if (action === 1) node[key] = garbage(g);
      else if (action === 2) node[key] = schema(g, 1);
      else {
        const [name, value] = keyword(g, 1);
        node[name] = value;
      }
      break;
    }
  }
  return root;
}

const VALID = {
  name: "abc",
  email: "a@b.co",
  when: "2024-02-29",
  count: 5,
  mode: "fast",
  tags: ["x", "y"],
  opts: { deep: true },
};

/** An input that fits the base schema, with one field changed, dropped or added. */
function nearInput(g: Fuzz): unknown {
  const input: Record<string, unknown> = structuredClone(VALID);
  const key = g.pick([...Object.keys(VALID), g.pick(KEYS)]);
  const action = g.between(0, 2);
  if (action === 0) delete input[key];
  else if (action === 1) input[key] = json(g, 2);
  return g.chance(0.5) ? input : Object.fromEntries(Object.entries(input));
}

function rootSchema(g: Fuzz): Record<string, unknown> {
  if (g.chance(0.5)) return mutated(g);
  const root = schema(g, 3);
  const body = typeof root === "object" && root !== null ? root as Record<string, unknown> : {};
  const draft = g.pick(DRAFTS);
  return draft === undefined ? body : { $schema: draft, ...body };
}

async function verdict(
  inputSchema: Record<string, unknown>,
  input: unknown,
  cacheDir: string,
  expectCode: "invalid_input" | "manifest_invalid",
  where: string,
): Promise<string> {
  try {
    await validateInput({ name: "fuzz", inputSchema }, input, { cacheDir });
    return "ok";
  } catch (error) {
    assert(error instanceof BasisError, `${where}: not a BasisError: ${error}`);
    assert(
      error.code === expectCode,
      `${where}: code ${error.code}, wanted ${expectCode}: ${error.message}`,
    );
    assert(!/[\n\r]/.test(error.message), `${where}: message spans lines: ${error.message}`);
    return error.message;
  }
}

Deno.test("schema gate survives random schemas and inputs with only BasisErrors and reasons", async () => {
  const started = performance.now();
  await using cacheDir = await tempDir({ prefix: "basis-schema-fuzz-" });
  const g = new Fuzz(SEED);
  const cases = Array.from({ length: SCHEMAS }, () => ({
    schema: rootSchema(g),
    inputs: Array.from(
      { length: INPUTS_PER_SCHEMA },
      () => g.chance(0.5) ? nearInput(g) : json(g, 3),
    ),
  }));

  forgetValidators();
  const first: string[] = [];
  let compiled = 0;
  for (const [i, { schema, inputs }] of cases.entries()) {
    const where = `seed ${SEED} case ${i} ${JSON.stringify(schema).slice(0, 300)}`;
    const before = JSON.stringify(inputs);
    let reason: string | undefined;
    try {
      reason = await checkSchema({ name: "fuzz", inputSchema: schema }, {
        cacheDir: cacheDir.path,
      });
    } catch (error) {
      throw new Error(`${where}: checkSchema threw ${error}`);
    }
    assert(reason === undefined || (typeof reason === "string" && !/[\n\r]/.test(reason)), where);
    if (reason === undefined) compiled++;
    for (const input of inputs) {
      first.push(
        await verdict(
          schema,
          input,
          cacheDir.path,
          reason === undefined ? "invalid_input" : "manifest_invalid",
          where,
        ),
      );
    }
    assert(JSON.stringify(inputs) === before, `${where}: input was modified`);
  }

  // The same cases again from the disk cache: same verdicts, nothing rejected.
  forgetValidators();
  const rejects = stats.diskRejects;
  const again: string[] = [];
  for (const [i, { schema, inputs }] of cases.entries()) {
    const where = `seed ${SEED} case ${i} (from cache)`;
    const reason = await checkSchema({ name: "fuzz", inputSchema: structuredClone(schema) }, {
      cacheDir: cacheDir.path,
    });
    for (const input of inputs) {
      again.push(
        await verdict(
          schema,
          input,
          cacheDir.path,
          reason === undefined ? "invalid_input" : "manifest_invalid",
          where,
        ),
      );
    }
  }
  for (const [i, verdictOne] of first.entries()) {
    assert(
      verdictOne === again[i],
      `seed ${SEED} verdict ${i} differs: ${verdictOne} / ${again[i]}`,
    );
  }
  assert(stats.diskRejects === rejects, "a cache file written by a compile could not be loaded");

  const seconds = (performance.now() - started) / 1000;
  if (readEnv("SCHEMA_FUZZ_VERBOSE")) {
    const ok = first.filter((v) => v === "ok").length;
    console.log({ compiled, ok, refused: first.length - ok, seconds });
  }
  // A sanity check on the generator: a fair share compiles, a fair share does not.
  assert(
    compiled > SCHEMAS / 4 && compiled < SCHEMAS,
    `only ${compiled} of ${SCHEMAS} schemas compiled`,
  );
  assert(first.some((v) => v === "ok") && first.some((v) => v !== "ok"), "verdicts are all alike");
  assert(seconds < 30, `fuzzing took ${seconds.toFixed(1)} s`);
});
