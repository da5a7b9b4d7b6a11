import assert from "node:assert/strict";
import { english } from "../src/locale/messages.ts";
import { formatProblem, ManifestError } from "../src/errors.ts";
import { loadRoster } from "../src/manifest/load.ts";
import { type ParsedManifest, parseManifestText } from "../src/manifest/parse.ts";
import { Fuzz } from "./_fuzz.ts";
import { tempDir } from "./_scratch.ts";

/** Set BASIS_FUZZ_SEED to replay a failure; the seed is in every assertion message. */
const SEED = Number(Deno.env.get("BASIS_FUZZ_SEED") ?? 0xC0FFEE);
const TEXT_CASES = 2500;
const VALUE_CASES = 1500;
const DISK_CASES = 60;
const CANARY = "canary-F7zz-secret";
const FILE = "/fuzz/.basis/tools.json";
const NAME = /^[A-Za-z0-9_-]{1,64}$/;

const ENV: Record<string, string> = { HOME: "/home/fuzz", EMPTY: "", SECRET: CANARY };
const env = (name: string) => (Object.hasOwn(ENV, name) ? ENV[name] : undefined);

function baseManifest(): Record<string, unknown> {
  return {
    schema: 1,
    tools: {
      greet: {
        description: "Say hello",
        input_schema: {
          type: "object",
          properties: { name: { type: "string" }, n: { type: "integer", minimum: 0 } },
          required: ["name"],
        },
        command: ["./bin/greet", "--home=${HOME}", "${GREETING:-Hello}"],
        cwd: "sub/../dir",
        env: {
          TOKEN: CANARY,
          VIA: "${SECRET}",
          MODE: "${EMPTY:-fast}",
          DIR: { value: "${HOME}/notes", public: true },
        },
        side_effect: "external",
        timeout_ms: 5000,
      },
      "list-files": {
        description: "List files",
        input_schema: { type: "object" },
        command: ["ls", "-la"],
      },
    },
  };
}

const BASE_TEXTS = [
  JSON.stringify(baseManifest(), null, 2),
  JSON.stringify(baseManifest()),
  '// tools\n{\n  "schema": 1, /* v */\n  "tools": {\n    "t": {"description": "d", "input_schema": {"type": "object",}, "command": ["cat", "${HOME}",],},\n  },\n}\n',
];

const INSERTS = [
  "{",
  "}",
  "[",
  "]",
  ",",
  ":",
  '"',
  "\\",
  "/",
  "*",
  "//",
  "/*",
  "*/",
  "$",
  "${",
  "}",
  "${HOME}",
  "${X:-",
  "\n",
  "\r\n",
  " ",
  "\t",
  "\u0000",
  "\u2028",
  "\uFEFF",
  "🙂",
  "\ud800",
  "'",
  "null",
  "true",
  "1e999",
  "-0",
  "0.5",
  '"__proto__"',
  '"constructor"',
  "__proto__",
  "a",
  "Z",
  "é",
];

/** Character-level mutations of JSON text. */
function mutateText(fuzz: Fuzz, text: string): string {
  let out = text;
  const steps = 1 + fuzz.int(4);
  for (let i = 0; i < steps; i++) {
    const at = fuzz.int(out.length + 1);
    switch (fuzz.int(6)) {
      case 0: // delete a range
        out = out.slice(0, at) + out.slice(at + 1 + fuzz.int(8));
        break;
      case 1: // insert
        out = out.slice(0, at) + fuzz.pick(INSERTS) + out.slice(at);
        break;
      case 2: // replace one character
        out = out.slice(0, at) + fuzz.pick(INSERTS) + out.slice(at + 1);
        break;
      case 3: { // duplicate a slice
        const end = at + fuzz.int(40);
        out = out.slice(0, end) + out.slice(at, end) + out.slice(end);
        break;
      }
      case 4: // truncate
        out = out.slice(0, at);
        break;
      default: { // deep nesting, often unbalanced
        const depth = fuzz.pick([10, 200, 5000, 20000]);
        const open = fuzz.pick(["[", '{"a":']);
        const close = open === "[" ? "]" : "}";
        out = out.slice(0, at) + open.repeat(depth) +
          (fuzz.chance(0.5) ? close.repeat(depth) : "") +
          out.slice(at);
      }
    }
  }
  return out;
}

function randomValue(fuzz: Fuzz, depth = 0): unknown {
  switch (fuzz.int(depth > 3 ? 6 : 8)) {
    case 0:
      return null;
    case 1:
      return fuzz.chance(0.5);
    case 2:
      return fuzz.pick([0, -1, 1, 1.5, 2, 99, 2 ** 31, 1e308, -0]);
    case 3:
      return fuzz.pick([
        "",
        " ",
        "x",
        "${HOME}",
        "${UNSET}",
        "${",
        "${}",
        "${1A}",
        "$HOME",
        "object",
        "process",
        "a\nb",
      ]);
    case 4:
      return "x".repeat(fuzz.pick([1, 1000, 1000, 100_000]));
    case 5:
      return fuzz.pick(["spawn", "mcp__x", "has space", "emoji-🙂", "a".repeat(65), "ok_name"]);
    case 6: {
      const out: unknown[] = [];
      for (let i = fuzz.int(4); i > 0; i--) out.push(randomValue(fuzz, depth + 1));
      return out;
    }
    default: {
      const out: Record<string, unknown> = {};
      for (let i = fuzz.int(4); i > 0; i--) {
        Object.defineProperty(out, randomKey(fuzz), {
          value: randomValue(fuzz, depth + 1),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      return out;
    }
  }
}

function randomKey(fuzz: Fuzz): string {
  return fuzz.pick([
    "__proto__",
    "constructor",
    "prototype",
    "toString",
    "",
    "timout_ms",
    "descripton",
    "tols",
    "schema",
    "tools",
    "command",
    "env",
    "cwd",
    "type",
    "a b",
    "a\nb",
    "k".repeat(500),
    "🙂",
  ]);
}

/** Collects every container in a JSON value with the path to it. */
function containers(value: unknown): { node: Record<string, unknown> | unknown[] }[] {
  const out: { node: Record<string, unknown> | unknown[] }[] = [];
  const stack = [value];
  while (stack.length > 0) {
    const next = stack.pop();
    if (typeof next !== "object" || next === null) continue;
    out.push({ node: next as Record<string, unknown> | unknown[] });
    for (const child of Object.values(next)) stack.push(child);
  }
  return out;
}

function setOwn(target: Record<string, unknown> | unknown[], key: string | number, value: unknown) {
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

const DEEP = "\u0001deep:";
const DEEP_MARK = /"\\u0001deep:(\d+)([[{])"/g;

/** The JSON text of a mutated value, with each deep-nesting marker expanded. */
function textOf(value: unknown, indent: number | undefined): string {
  return JSON.stringify(value, null, indent).replace(
    DEEP_MARK,
    (_, depth: string, open: string) => {
      const n = Number(depth);
      return open === "["
        ? "[".repeat(n) + '"${HOME}"' + "]".repeat(n)
        : '{"type":'.repeat(n) + "{}" + "}".repeat(n);
    },
  );
}

/** Structural mutations: swap types, drop and rename keys, nest deeply, huge strings. */
function mutateValue(fuzz: Fuzz): unknown {
  const root = baseManifest();
  const steps = 1 + fuzz.int(4);
  for (let i = 0; i < steps; i++) {
    const { node } = fuzz.pick(containers(root));
    const keys = Object.keys(node);
    const key: string | number = Array.isArray(node)
      ? fuzz.int(node.length + 1)
      : keys.length > 0 && fuzz.chance(0.8)
      ? fuzz.pick(keys)
      : randomKey(fuzz);
    const current = (node as Record<string, unknown>)[key as string];
    switch (fuzz.int(5)) {
      case 0: // swap the value's type
        setOwn(node, key, randomValue(fuzz));
        break;
      case 1: // drop
        if (Array.isArray(node)) node.splice(Number(key), 1);
        else delete (node as Record<string, unknown>)[key as string];
        break;
      case 2: // rename
        if (!Array.isArray(node) && Object.hasOwn(node, key)) {
          delete (node as Record<string, unknown>)[key as string];
          setOwn(node, randomKey(fuzz), current);
        }
        break;
      case 3: // deep nesting, spliced in as text (JSON.stringify would overflow the stack)
        setOwn(node, key, `${DEEP}${fuzz.pick([50, 150, 3000, 50_000])}${fuzz.pick(["[", "{"])}`);
        break;
      default: // a huge string, or a new key
        setOwn(node, key, fuzz.chance(0.1) ? "${HOME}".repeat(20_000) : randomValue(fuzz));
    }
  }
  return root;
}

function assertOutcome(result: ParsedManifest, label: string, secretFree: boolean): void {
  assert.ok(Array.isArray(result.problems) && Array.isArray(result.tools), label);
  for (const tool of result.unavailable) {
    assert.ok(tool.problems.length > 0, `${label}: ${tool.name} unavailable for no reason`);
    for (const problem of tool.problems) {
      assert.notEqual(
        problem.reason.key,
        "schema.invalid",
        `${label}: ${JSON.stringify(result.problems)}`,
      );
    }
  }
  for (const problem of result.problems) {
    const line = formatProblem(problem);
    assert.equal(problem.file, FILE, label);
    assert.ok(english(problem.reason).length > 0, label);
    assert.ok(!/[\n\r]/.test(line), `${label}: not one line: ${JSON.stringify(line)}`);
    if (secretFree) assert.ok(!line.includes(CANARY), `${label}: secret in ${line}`);
  }
  for (const tool of result.tools) {
    assert.match(tool.name, NAME, label);
    assert.ok(!tool.name.startsWith("mcp__") && tool.name !== "spawn", label);
    assert.ok(tool.description.trim() === tool.description && tool.description !== "", label);
    assert.ok(
      tool.command.length > 0 && tool.command.every((arg: unknown) => typeof arg === "string"),
      label,
    );
    assert.ok(tool.program.trim() !== "", label);
    assert.ok(tool.cwd.startsWith("/"), label);
    assert.ok(Number.isInteger(tool.timeoutMs) && tool.timeoutMs > 0, label);
    assert.ok(tool.sideEffect === "process" || tool.sideEffect === "external", label);
    assert.equal(Object.getPrototypeOf(tool.env), null, label);
    assert.ok(Object.values(tool.env).every((value) => typeof value === "string"), label);
    assert.ok(typeof tool.inputSchema === "object" && !Array.isArray(tool.inputSchema), label);
  }
  assert.equal(({} as Record<string, unknown>).x, undefined, `${label}: prototype polluted`);
}

async function run(text: string, label: string, secretFree: boolean): Promise<void> {
  let result: ParsedManifest;
  try {
    result = await parseManifestText(text, FILE, { root: "/fuzz", env });
  } catch (error) {
    assert.fail(
      `${label}: parseManifestText threw ${error instanceof Error ? error.stack : error}`,
    );
  }
  assertOutcome(result, label, secretFree);
}

Deno.test("parseManifestText() survives thousands of character-level mutations", async () => {
  const fuzz = new Fuzz(SEED);
  const started = performance.now();
  for (let i = 0; i < TEXT_CASES; i++) {
    await run(mutateText(fuzz, fuzz.pick(BASE_TEXTS)), `seed ${SEED}, text case ${i}`, false);
  }
  assert.ok(performance.now() - started < 10_000, "too slow");
});

Deno.test("parseManifestText() survives thousands of structural mutations without leaking a secret", async () => {
  const fuzz = new Fuzz(SEED + 1);
  let deep = 0;
  for (let i = 0; i < VALUE_CASES; i++) {
    const value = mutateValue(fuzz);
    const text = textOf(value, fuzz.chance(0.5) ? 2 : undefined);
    if (text.includes("[[[[[") || text.includes('{"type":{"type":')) deep++;
    await run(text, `seed ${SEED + 1}, value case ${i}`, true);
  }
  assert.ok(deep > 50, `only ${deep} deeply nested cases`);
});

Deno.test("loadRoster() returns a roster or throws a ManifestError for mutated files", async () => {
  const fuzz = new Fuzz(SEED + 2);
  await using base = await tempDir({ prefix: "basis_fuzz_" });
  await Deno.mkdir(`${base.path}/ws/.basis`, { recursive: true });
  const file = `${base.path}/ws/.basis/tools.json`;
  for (let i = 0; i < DISK_CASES; i++) {
    const text = fuzz.chance(0.5)
      ? mutateText(fuzz, fuzz.pick(BASE_TEXTS))
      : textOf(mutateValue(fuzz), undefined);
    await Deno.writeTextFile(file, text);
    try {
      const roster = await loadRoster({
        workspace: `${base.path}/ws`,
        configDir: `${base.path}/none`,
        env,
      });
      assert.ok(roster.tools instanceof Map);
    } catch (error) {
      assert.ok(error instanceof ManifestError, `seed ${SEED + 2}, disk case ${i}: ${error}`);
      assert.ok(error.problems.length > 0);
    }
  }
});
