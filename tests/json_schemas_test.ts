/**
 * The JSON Schemas shipped for editors (schemas/*.schema.json) against the loaders: every example
 * in the repository and the README passes both, and on thousands of mutated documents they agree —
 * what the loader refuses for its shape the schema refuses, and what the schema refuses the loader
 * refuses too. Problems no JSON Schema can see (a `${VAR}` that is not set, a key given twice, an
 * argument naming a property the input schema lacks, duplicate rule ids, nesting depth) are left
 * to the loader and named below.
 */

import assert from "node:assert/strict";
import { Ajv } from "../src/schema/_compile.ts";
import type { Phrase } from "../src/locale/messages.ts";
import type { MessageKey } from "../src/locale/en_us.ts";
import { parseManifestText } from "../src/manifest/parse.ts";
import { parseSpawnConfig } from "../src/spawn/config.ts";
import { validateRulesDocument } from "../src/approval/rules/validate.ts";
import { ManifestError } from "../src/errors.ts";
import { parseJsonc } from "../src/json_text.ts";
import { phrase } from "../src/locale/messages.ts";
import { Fuzz } from "./_fuzz.ts";
import { ROOT } from "./_cli.ts";

const SEED = Number(Deno.env.get("BASIS_FUZZ_SEED") ?? 0x5C4E3A);
const CASES = 3000;

/** What the test uses of ajv (its default export's types do not say it constructs). */
interface Validate {
  (value: unknown): boolean;
  errors?: unknown[] | null;
}
interface AjvInstance {
  compile(schema: unknown): Validate;
  getSchema(ref: string): Validate | undefined;
  errorsText(errors: unknown): string;
}
const ajv = new (Ajv as unknown as new (options: unknown) => AjvInstance)({
  allErrors: true,
  // Strict, but for open tuples: the program first, then any number of arguments, is meant.
  strict: true,
  strictTuples: false,
  // and for "required" in a conditional, whose properties the referenced schema defines.
  strictRequired: false,
});
const load = (name: string) =>
  ajv.compile(JSON.parse(Deno.readTextFileSync(`${ROOT}schemas/${name}.schema.json`)));
const toolsSchema = load("tools");
const spawnSchema = load("spawn");
const rulesSchema = load("rules");
const ruleSchema = ajv.getSchema(
  "https://jsr.io/@basis/tools/0.1.0/schemas/rules.schema.json#/definitions/rule",
)!;

/** What no JSON Schema can see: the loaders refuse these, the schemas need not. */
const BEYOND_SHAPE = new Set<string>([
  // ${VAR} expansion: the environment, and the expansion grammar inside a string.
  "manifest.expand_unterminated",
  "manifest.expand_empty",
  "manifest.expand_bad_name",
  "manifest.expand_unset",
  "manifest.expand_unsupported",
  "manifest.expand_nested",
  "manifest.program_blank_expanded",
  // The text, not the value: a key given twice.
  "json.duplicate_key",
  "manifest.duplicate_tool",
  // Across fields: an argument against the input schema's properties and required.
  "manifest.argument_unknown",
  "manifest.argument_unknown_near",
  "manifest.argument_type",
  "manifest.argument_optional",
  // A sandbox path that climbs out of where it starts: counting "..", beyond a pattern.
  "manifest.sandbox_escapes",
  // Across keys of spawn.json: a placeholder an agent's argv uses against its child policy.
  "spawn_config.placeholder",
  // Anywhere in a schema: how deep, and a "__proto__" key.
  "manifest.schema_deep",
  "manifest.proto_key",
  // Rules: unique ids, the rest marker's place, depth, a timestamp's calendar.
  "rules_file.id_taken",
  "rules_file.rest_last",
  "rules_file.too_deep",
  "rules_file.timestamp",
]);

/** Every key of a phrase and the phrases inside it. */
function keysOf(reason: Phrase): MessageKey[] {
  const keys: MessageKey[] = [reason.key];
  for (const value of Object.values(reason.params ?? {})) {
    if (typeof value === "object" && value !== null && "key" in value) {
      keys.push(...keysOf(value as Phrase));
    }
  }
  return keys;
}

/** Whether any problem is one of shape (the innermost reason decides). */
function refusedForShape(reasons: readonly Phrase[]): boolean {
  return reasons.some((reason) => !keysOf(reason).some((key) => BEYOND_SHAPE.has(key)));
}

const env = (name: string) => (name === "HOME" ? "/home/x" : undefined);

async function manifestReasons(
  document: unknown,
  lookup: (name: string) => string | undefined = env,
): Promise<Phrase[]> {
  const parsed = await parseManifestText(JSON.stringify(document), "/w/.basis/tools.json", {
    root: "/w",
    env: lookup,
  });
  return parsed.problems.map((problem) => problem.reason);
}

async function spawnReasons(document: unknown): Promise<Phrase[]> {
  try {
    await parseSpawnConfig(JSON.stringify(document), "/c/spawn.json");
    return [];
  } catch (error) {
    if (!(error instanceof ManifestError)) throw error;
    return error.problems.map((problem) => problem.reason);
  }
}

function rulesReasons(document: unknown): readonly Phrase[] {
  const result = validateRulesDocument(structuredClone(document));
  return result.ok ? [] : result.problems;
}

// ---------------------------------------------------------------------------------------------
// Every example

/** The ```json and ```jsonc blocks of the README, parsed (a block that does not parse fails). */
async function readmeBlocks(): Promise<{ value: unknown; at: number }[]> {
  const text = await Deno.readTextFile(`${ROOT}README.md`);
  const blocks: { value: unknown; at: number }[] = [];
  for (const match of text.matchAll(/```jsonc?\n([\s\S]*?)```/g)) {
    const at = text.slice(0, match.index).split("\n").length;
    const parsed = await parseJsonc(match[1]!, phrase("manifest.empty_file"));
    if (parsed.ok) {
      blocks.push({ value: parsed.value, at });
      continue;
    }
    // JSON Lines (the audit trail) is one value a line; anything else must parse.
    const lines = match[1]!.split("\n").filter((line) => line.trim() !== "");
    assert.ok(
      lines.every((line) => {
        try {
          JSON.parse(line);
          return true;
        } catch {
          return false;
        }
      }),
      `README.md:${at}: a JSON block that does not parse`,
    );
  }
  return blocks;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

Deno.test("every manifest, spawn.json and rule the repository and the README show passes the shipped schema and the loader", async () => {
  const manifests: { value: unknown; where: string }[] = [];
  for (const file of ["examples/.basis/tools.json", "tests/fixtures/manifests/valid.json"]) {
    const parsed = await parseJsonc(
      await Deno.readTextFile(`${ROOT}${file}`),
      phrase("x.y" as MessageKey),
    );
    assert.ok(parsed.ok, file);
    manifests.push({ value: parsed.value, where: file });
  }
  const { initManifest } = await import("../src/cli/commands/_init_files.ts");
  manifests.push({ value: JSON.parse(initManifest()), where: "basis-tools init" });
  let spawns = 0;
  let rules = 0;
  for (const { value, at } of await readmeBlocks()) {
    const where = `README.md:${at}`;
    if (isRecord(value) && value.schema === 1 && "tools" in value) {
      manifests.push({ value, where });
    } else if (
      isRecord(value) &&
      ["agent", "agents", "targets", "max_depth", "reach", "child"].some((key) => key in value)
    ) {
      spawns++;
      assert.ok(spawnSchema(value), `${where}: ${ajv.errorsText(spawnSchema.errors)}`);
      assert.deepEqual(await spawnReasons(value), [], where);
    } else if (isRecord(value) && "decision" in value && "when" in value) {
      rules++;
      assert.ok(ruleSchema(value), `${where}: ${ajv.errorsText(ruleSchema.errors)}`);
      assert.deepEqual(rulesReasons({ version: 2, rules: [value] }), [], where);
    }
  }
  assert.ok(manifests.length >= 4 && spawns >= 1 && rules >= 1, "the README's examples were found");
  for (const { value, where } of manifests) {
    assert.ok(toolsSchema(value), `${where}: ${ajv.errorsText(toolsSchema.errors)}`);
    // Every ${VAR} an example uses is taken to be set.
    assert.deepEqual(await manifestReasons(value, () => "set"), [], where);
  }
});

// ---------------------------------------------------------------------------------------------
// The schema agrees with the loader

function baseSpawn(): Record<string, unknown> {
  return {
    $schema: "./spawn.schema.json",
    agent: ["claude", "-p"],
    targets: { builder: ["ssh", "builder.local", "--"], "b-2": ["./run"] },
    max_depth: 2,
    agents: {
      reviewer: ["claude", "-p", "--model", "{model}"],
      helper: { argv: ["./helper"], child: { roster: ["git", "wc"], system_prompt: "Be brief" } },
    },
    reach: { allow: ["local", "named"], default: "named" },
    child: { model: "small", roster: ["git"] },
  };
}

function baseRules(): Record<string, unknown> {
  const digest = { sha256: "a".repeat(64), salt: "b".repeat(32) };
  return {
    version: 2,
    rules: [
      {
        id: "r-aaaaaaaa",
        tool: "git",
        decision: "allow",
        scope: { workspace: "/home/me/app" },
        when: {
          program: "/usr/bin/git",
          argv: ["git", { glob: "l*" }, digest, { rest: true }],
          cwd: "/home/me/app",
          env: "any",
          sandbox: { network: false, write: ["/home/me/app/build"], read: [] },
          input: { "/branch": { equals: "main" }, "/a~1b": { glob: "x?" } },
        },
        reason: "fine",
        match: [],
        not_match: [],
        created: "2026-12-01T09:40:25.608Z",
      },
      {
        id: "r-bbbbbbbb",
        tool: "spawn",
        decision: "ask",
        scope: "global",
        when: {
          mode: "command",
          body: { glob: "cargo *" },
          target: "local",
          cwd: digest,
          sandbox: "any",
          reach: "named",
          child: { roster: ["git"], model: "m" },
        },
      },
      { id: "r-cccccccc", tool: "rm", decision: "deny", scope: "global", when: {} },
    ],
  };
}

/** Values a mutation puts somewhere: every kind, and the near misses of each field. */
const VALUES: readonly unknown[] = [
  null,
  true,
  false,
  0,
  -1,
  1,
  1.5,
  2 ** 31,
  2 ** 31 - 1,
  1e300,
  "",
  " ",
  "x",
  "a\nb",
  " Greet \n",
  "\u0000",
  "a\u0000",
  "object",
  "string",
  "process",
  "external",
  "local",
  "spawn",
  "global",
  "any",
  "allow",
  "deny",
  "ask",
  "command",
  "agent",
  "/abs",
  "/abs/",
  "/a/../b",
  "rel/x",
  "--",
  "-x",
  "${HOME}",
  "${UNSET}",
  "a\\",
  "r-zzzzzzzz",
  "#bad id",
  "~2",
  "/a~0b",
  "a".repeat(64),
  "f".repeat(32),
  "2026-12-01T09:40:25.608Z",
  "unconfined",
  "named",
  "~",
  "~x",
  "~/../x",
  "../up",
  "{model}",
  ["local"],
  ["any"],
  ["git", "-x"],
  [],
  ["cat"],
  [" "],
  [""],
  ["cat", 1],
  ["cat", { input: "n" }],
  [{ input: "n" }],
  { rest: true },
  { rest: false },
  { glob: "*" },
  { operand: "*" },
  { operand: 1 },
  { operand: "*", glob: "*" },
  { glob: 1 },
  { glob: "a\\" },
  { equals: 1 },
  { equals: 1, glob: "x" },
  { sha256: "a".repeat(64), salt: "b".repeat(32) },
  { sha256: "A".repeat(64), salt: "b".repeat(32) },
  { input: "n" },
  { input: "" },
  { input: 1 },
  { inptu: "n" },
  { workspace: "/w" },
  { workspace: "w" },
  { network: false, write: [], read: [] },
  { network: true, write: ["/a"], read: ["rel"] },
  { model: "m" },
  { allow: ["local"] },
  { type: "object" },
  { type: "array" },
  { type: ["object"] },
  {},
];

const KEYS: readonly string[] = [
  "extra",
  "$schema",
  "schema",
  "tools",
  "description",
  "title",
  "input_schema",
  "output_schema",
  "command",
  "cwd",
  "env",
  "side_effect",
  "timeout_ms",
  "timout_ms",
  "agent",
  "targets",
  "max_depth",
  "local",
  "bad name",
  "spawn",
  "mcp__x",
  "__proto__",
  "A=B",
  "version",
  "rules",
  "id",
  "tool",
  "decision",
  "scope",
  "when",
  "reason",
  "match",
  "created",
  "program",
  "argv",
  "input",
  "mode",
  "body",
  "target",
  "type",
  "rest",
  "operand",
  "glob",
  "equals",
  "sha256",
  "sandbox",
  "network",
  "write",
  "read",
  "agents",
  "reach",
  "child",
  "allow",
  "default",
  "roster",
  "model",
  "system_prompt",
];

type Container = Record<string, unknown> | unknown[];

/** Every object and array in a value, with itself first. */
function containers(value: unknown, out: Container[] = []): Container[] {
  if (typeof value !== "object" || value === null) return out;
  out.push(value as Container);
  for (const child of Object.values(value)) containers(child, out);
  return out;
}

/** One to three random edits: set, delete or add a key or an item. */
function mutate(fuzz: Fuzz, document: unknown): void {
  for (let steps = 1 + fuzz.int(3); steps > 0; steps--) {
    const target = fuzz.pick(containers(document));
    const value = structuredClone(fuzz.pick(VALUES));
    if (Array.isArray(target)) {
      const at = fuzz.int(target.length + 1);
      switch (fuzz.int(3)) {
        case 0:
          target.splice(at, 1);
          break;
        case 1:
          target.splice(at, 0, value);
          break;
        default:
          target[Math.min(at, Math.max(target.length - 1, 0))] = value;
      }
      continue;
    }
    const keys = Object.keys(target);
    switch (fuzz.int(3)) {
      case 0:
        if (keys.length > 0) delete target[fuzz.pick(keys)];
        break;
      case 1: {
        const key = fuzz.pick(KEYS);
        if (key !== "__proto__") target[key] = value;
        else Object.defineProperty(target, key, { value, enumerable: true, writable: true });
        break;
      }
      default:
        if (keys.length > 0) target[fuzz.pick(keys)] = value;
    }
  }
}

/**
 * Every single edit of a document: each key and item replaced by each value, deleted, and each key
 * of {@linkcode KEYS} added with a few values. Each is made on a fresh copy.
 */
function* singleEdits(base: () => Record<string, unknown>): Generator<unknown> {
  const count = containers(base()).length;
  for (let c = 0; c < count; c++) {
    const keys = Object.keys(containers(base())[c]!);
    for (const key of keys) {
      for (const value of [...VALUES, undefined]) {
        const document = base();
        const target = containers(document)[c] as Record<string, unknown>;
        if (value === undefined) {
          if (Array.isArray(target)) target.splice(Number(key), 1);
          else delete target[key];
        } else {
          target[key] = structuredClone(value);
        }
        yield document;
      }
    }
    for (const key of KEYS) {
      for (const value of ["x", 1, {}, [], null]) {
        const document = base();
        const target = containers(document)[c]!;
        if (Array.isArray(target)) target.push(value);
        else Object.defineProperty(target, key, { value, enumerable: true, writable: true });
        yield document;
      }
    }
  }
}

/** Compares the loader and the schema on mutations of one document; returns the counts. */
async function agree(
  name: string,
  base: () => Record<string, unknown>,
  schema: typeof toolsSchema,
  reasons: (document: unknown) => Promise<readonly Phrase[]> | readonly Phrase[],
  seed: number,
): Promise<{ refused: number; accepted: number }> {
  const fuzz = new Fuzz(seed);
  let refused = 0;
  let accepted = 0;
  const base0 = base();
  assert.ok(schema(base0), `${name}: the base document: ${ajv.errorsText(schema.errors)}`);
  assert.deepEqual(await reasons(base0), [], `${name}: the base document`);
  const edits = singleEdits(base);
  for (let i = 0;; i++) {
    // Every single edit, then random runs of one to three.
    const next = edits.next();
    if (next.done && i >= CASES * 2) break;
    const document = next.done ? base() : next.value;
    if (next.done) mutate(fuzz, document);
    const found = await reasons(document);
    const valid = schema(document);
    const text = JSON.stringify(document);
    const replay = `seed ${seed}, case ${i}: ${text.slice(0, 2000)}`;
    if (refusedForShape(found)) {
      assert.ok(
        !valid,
        `${name}: the loader refuses, the schema accepts (${replay}): ${
          found.map((reason) => reason.key).join(", ")
        }`,
      );
    }
    if (!valid) {
      assert.ok(
        found.length > 0,
        `${name}: the schema refuses, the loader accepts (${replay}): ${
          ajv.errorsText(schema.errors)
        }`,
      );
      refused++;
    } else {
      accepted++;
    }
  }
  return { refused, accepted };
}

Deno.test("spawn.schema.json refuses what the spawn.json loader refuses for shape, and nothing it accepts", async () => {
  const counts = await agree("spawn.json", baseSpawn, spawnSchema, spawnReasons, SEED + 1);
  assert.ok(counts.refused > CASES / 4 && counts.accepted > CASES / 20, JSON.stringify(counts));
});

Deno.test("rules.schema.json refuses what the rules loader refuses for shape, and nothing it accepts", async () => {
  const counts = await agree("rules.json", baseRules, rulesSchema, rulesReasons, SEED + 2);
  assert.ok(counts.refused > CASES / 4 && counts.accepted > CASES / 20, JSON.stringify(counts));
});

Deno.test("the schemas are in the published package and name the version that ships them", async () => {
  const config = JSON.parse(await Deno.readTextFile(`${ROOT}deno.json`));
  assert.ok(config.publish.include.includes("schemas/"), "deno.json publish.include");
  for (const name of ["tools", "spawn", "rules"]) {
    const schema = JSON.parse(await Deno.readTextFile(`${ROOT}schemas/${name}.schema.json`));
    assert.equal(
      schema.$id,
      `https://jsr.io/@basis/tools/${config.version}/schemas/${name}.schema.json`,
    );
  }
});
