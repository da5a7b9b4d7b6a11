/**
 * The JSON Schemas shipped for editors (schemas/*.schema.json) against the loaders, which check
 * every config file with them: every example in the repository and the README passes both, and
 * every pattern has words.
 */

import { documents } from "./_docs.ts";
import assert from "node:assert/strict";
import addFormats from "ajv-formats";
import { Ajv } from "../src/schema/_compile.ts";
import type { Phrase } from "../src/locale/messages.ts";
import type { MessageKey } from "../src/locale/en_us.ts";
import { parseManifestText } from "../src/manifest/parse.ts";
import { parseSpawnConfig } from "../src/spawn/config.ts";
import { parseSandboxPolicy } from "../src/sandbox/policy.ts";
import { validateRulesDocument } from "../src/approval/rules/validate.ts";
import { ManifestError } from "../src/errors.ts";
import { PATTERNS } from "../src/config_shape.ts";
import { parseJsonc } from "../src/json_text.ts";
import { phrase } from "../src/locale/messages.ts";
import { ROOT } from "./_cli.ts";

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
  // and for "required" in a conditional, whose properties the referenced schema defines,
  strictRequired: false,
  // and for a value of one of two types (a string or a digest object), each keyword applying to
  // its own type (a digest's "required" to an object only, wherever it is referenced).
  allowUnionTypes: true,
  strictTypes: false,
});
(addFormats as unknown as (ajv: AjvInstance) => void)(ajv);
const load = (name: string) =>
  ajv.compile(JSON.parse(Deno.readTextFileSync(`${ROOT}schemas/${name}.schema.json`)));
const toolsSchema = load("tools");
const spawnSchema = load("spawn");
const sandboxSchema = load("sandbox");
load("rules");
const ruleSchema = ajv.getSchema(
  "https://jsr.io/@basis/tools/0.1.0/schemas/rules.schema.json#/definitions/rule",
)!;

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

/** The reasons a config parser (spawn's, the sandbox's) gives for a document; none when it loads. */
async function reasonsOf(
  parse: (text: string, path: string) => Promise<unknown>,
  document: unknown,
): Promise<Phrase[]> {
  try {
    await parse(JSON.stringify(document), "/c/config.json");
    return [];
  } catch (error) {
    if (!(error instanceof ManifestError)) throw error;
    return error.problems.map((problem) => problem.reason);
  }
}

async function rulesReasons(document: unknown): Promise<readonly Phrase[]> {
  const result = await validateRulesDocument(structuredClone(document));
  return result.ok ? [] : result.problems;
}

// ---------------------------------------------------------------------------------------------
// Every example

/**
 * The ```json and ```jsonc blocks of the README and docs/, parsed (a block that does not parse
 * fails), each with where it is (`docs/manifest.md:12`).
 */
async function documentBlocks(): Promise<{ value: unknown; where: string }[]> {
  const blocks: { value: unknown; where: string }[] = [];
  for (const file of await documents()) {
    const text = await Deno.readTextFile(`${ROOT}${file}`);
    for (const match of text.matchAll(/```jsonc?\n([\s\S]*?)```/g)) {
      const where = `${file}:${text.slice(0, match.index).split("\n").length}`;
      const parsed = await parseJsonc(match[1]!, phrase("manifest.empty_file"));
      if (parsed.ok) {
        blocks.push({ value: parsed.value, where });
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
        `${where}: a JSON block that does not parse`,
      );
    }
  }
  return blocks;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

Deno.test("every manifest, spawn.json, sandbox.json and rule the repository, the README and docs/ show passes the shipped schema and the loader", async () => {
  const manifests: { value: unknown; where: string }[] = [];
  for (const file of ["examples/.basis/tools.json", "tests/fixtures/manifests/valid.json"]) {
    const parsed = await parseJsonc(
      await Deno.readTextFile(`${ROOT}${file}`),
      phrase("x.y" as MessageKey),
    );
    assert.ok(parsed.ok, file);
    manifests.push({ value: parsed.value, where: file });
  }
  const { initManifest } = await import("../src/cli/commands/init.ts");
  manifests.push({ value: JSON.parse(initManifest()), where: "basis-tools init" });
  let spawns = 0;
  let sandboxes = 0;
  let rules = 0;
  for (const { value, where } of await documentBlocks()) {
    if (isRecord(value) && value.schema === 1 && "tools" in value) {
      manifests.push({ value, where });
    } else if (
      isRecord(value) &&
      ["agent", "agents", "targets", "max_depth", "reach", "child"].some((key) => key in value)
    ) {
      spawns++;
      assert.ok(spawnSchema(value), `${where}: ${ajv.errorsText(spawnSchema.errors)}`);
      assert.deepEqual(await reasonsOf(parseSpawnConfig, value), [], where);
    } else if (isRecord(value) && ["mode", "grantable", "hidden"].some((key) => key in value)) {
      sandboxes++;
      assert.ok(sandboxSchema(value), `${where}: ${ajv.errorsText(sandboxSchema.errors)}`);
      assert.deepEqual(await reasonsOf(parseSandboxPolicy, value), [], where);
    } else if (isRecord(value) && "decision" in value && "when" in value) {
      rules++;
      assert.ok(ruleSchema(value), `${where}: ${ajv.errorsText(ruleSchema.errors)}`);
      assert.deepEqual(
        await rulesReasons({ version: 2, rules: [{ id: "r-1", ...value }] }),
        [],
        where,
      );
    }
  }
  assert.ok(
    manifests.length >= 4 && spawns >= 1 && sandboxes >= 1 && rules >= 1,
    "the examples of the README and docs/ were found",
  );
  for (const { value, where } of manifests) {
    assert.ok(toolsSchema(value), `${where}: ${ajv.errorsText(toolsSchema.errors)}`);
    // Every ${VAR} an example uses is taken to be set.
    assert.deepEqual(await manifestReasons(value, () => "set"), [], where);
  }
});

Deno.test("every pattern of the config schemas has words: no problem shows a regular expression", () => {
  const patterns = new Set<string>();
  const walk = (node: unknown): void => {
    if (typeof node !== "object" || node === null) return;
    const { pattern } = node as { pattern?: unknown };
    if (typeof pattern === "string") patterns.add(pattern);
    Object.values(node).forEach(walk);
  };
  for (const name of ["spawn", "sandbox", "rules"]) {
    walk(JSON.parse(Deno.readTextFileSync(`${ROOT}schemas/${name}.schema.json`)));
  }
  assert.deepEqual([...patterns].filter((pattern) => !Object.hasOwn(PATTERNS, pattern)), []);
  assert.deepEqual(Object.keys(PATTERNS).filter((pattern) => !patterns.has(pattern)), []);
});

Deno.test("the schemas are in the published package and name the version that ships them", async () => {
  const config = JSON.parse(await Deno.readTextFile(`${ROOT}deno.json`));
  assert.ok(config.publish.include.includes("schemas/"), "deno.json publish.include");
  for (const name of ["tools", "spawn", "sandbox", "rules"]) {
    const schema = JSON.parse(await Deno.readTextFile(`${ROOT}schemas/${name}.schema.json`));
    assert.equal(
      schema.$id,
      `https://jsr.io/@basis/tools/${config.version}/schemas/${name}.schema.json`,
    );
  }
});
