import assert from "node:assert/strict";
import {
  catalogue,
  DeclaredToolBuilder,
  DEFINITION_FORMATS,
  describeFailure,
  localeFromEnv,
  LOCALES,
  matchLocale,
  messages,
  modelResult,
  parseSpawnInput,
  placeholders,
  policyApprover,
  refuseSpawn,
  resolveLocale,
  type RunResult,
  type SpawnConfig,
  spawnResultText,
  SpawnToolBuilder,
  ToolError,
  type ToolSpec,
} from "../src/mod.ts";
import { describeRun, spawnText } from "../src/contract/_run_words.ts";
import { renderRefusal } from "../src/contract/_schema_words.ts";
import { spawnInputRefusal, spawnRefusalText } from "../src/contract/_spawn_words.ts";
import { modelText } from "../src/contract/_words.ts";
import { spawnRefusal } from "../src/spawn/guard.ts";
import { describeError } from "../src/schema/_message.ts";
import { parseArgs } from "../src/cli/args.ts";
import { LocalizedError } from "../src/cli/_localized.ts";
import { millisecondsError, resolveSettings } from "../src/cli/settings.ts";
import { notADirectory } from "../src/cli/_workspace_root.ts";
import { cli, oneTool, scratch } from "./_cli.ts";

const EN = messages("en-US");
const UK = messages("uk-UA");
const CYRILLIC = /[\u0400-\u04FF]/;
/** Keys whose Ukrainian text is rightly the same as the English, or has no letters. */
const SAME_IN_BOTH = new Set(["found.null", "size.decimal"]);

Deno.test("the en-US and uk-UA catalogues have exactly the same keys and placeholders", () => {
  const en = catalogue("en-US");
  const uk = catalogue("uk-UA");
  assert.deepEqual(Object.keys(uk).sort(), Object.keys(en).sort());
  for (const key of Object.keys(en) as (keyof typeof en)[]) {
    assert.deepEqual(placeholders(uk[key]), placeholders(en[key]), `placeholders of ${key}`);
  }
});

Deno.test("every Ukrainian text is Ukrainian: it differs from the English and is in Cyrillic", () => {
  const en = catalogue("en-US");
  const uk = catalogue("uk-UA");
  for (const key of Object.keys(en) as (keyof typeof en)[]) {
    if (SAME_IN_BOTH.has(key)) continue;
    assert.notEqual(uk[key], en[key], key);
    assert.match(uk[key], CYRILLIC, key);
    // One apostrophe throughout, the typographic one.
    assert.ok(!/[а-яієїґ]'[а-яієїґ]/i.test(uk[key]), `${key}: use ’ as the apostrophe`);
  }
});

Deno.test("the locale comes from --locale, then BASIS_LOCALE, LC_ALL, LC_MESSAGES, LANG; English otherwise", () => {
  assert.deepEqual(LOCALES, ["en-US", "uk-UA"]);
  for (const tag of ["uk-UA", "uk_UA.UTF-8", "uk", "UK_ua@euro", " uk-UA "]) {
    assert.equal(resolveLocale(tag), "uk-UA", tag);
  }
  for (const tag of ["en-US", "en_GB.UTF-8", "C", "POSIX", "C.UTF-8", "de_DE", "", undefined]) {
    assert.equal(resolveLocale(tag), "en-US", String(tag));
  }
  assert.equal(matchLocale("fr-FR"), undefined);
  const env = (vars: Record<string, string>) => (name: string) => vars[name];
  assert.equal(localeFromEnv(env({ LANG: "uk_UA.UTF-8" })), "uk-UA");
  assert.equal(localeFromEnv(env({ LANG: "uk_UA.UTF-8", LC_ALL: "C" })), "en-US");
  assert.equal(localeFromEnv(env({ LANG: "en_US.UTF-8", LC_MESSAGES: "uk_UA" })), "uk-UA");
  assert.equal(localeFromEnv(env({ LC_ALL: "C", BASIS_LOCALE: "uk-UA" })), "uk-UA");
  assert.equal(localeFromEnv(env({ LC_ALL: "", LANG: "uk_UA.UTF-8" })), "uk-UA");
  assert.equal(localeFromEnv(env({})), "en-US");
});

/** A run's result to vary. */
function run(fields: Partial<RunResult> = {}): RunResult {
  return {
    command: ["/bin/x"],
    cwd: "/",
    durationMs: 1,
    exitCode: 0,
    signal: undefined,
    timedOut: false,
    cancelled: false,
    isForcefullyTerminated: false,
    startFailure: undefined,
    startError: undefined,
    stdout: "",
    stderr: "",
    stdoutBytes: 0,
    stderrBytes: 0,
    stdoutTruncated: false,
    stderrTruncated: false,
    spillPath: undefined,
    timeoutMs: 150,
    ...fields,
  };
}

const long = "é".repeat(3000);
const RUNS: RunResult[] = [
  run(),
  run({ stdout: "out\n\n", stdoutBytes: 5 }),
  run({ exitCode: 4, stderr: "bad thing\n", stderrBytes: 10 }),
  run({ exitCode: 4, stdout: "only stdout", stdoutBytes: 11 }),
  run({ exitCode: 7 }),
  run({ exitCode: 1, stderr: long, stderrBytes: 6000 }),
  run({ exitCode: 1, stderr: "cut", stderrBytes: 70_000, stderrTruncated: true }),
  run({ exitCode: undefined, signal: "SIGKILL", stderr: "x", stderrBytes: 1 }),
  run({ exitCode: undefined, timedOut: true, signal: "SIGTERM" }),
  run({ exitCode: undefined, cancelled: true, stderr: "partial", stderrBytes: 7 }),
  run({
    exitCode: undefined,
    startFailure: "not_found",
    startError: 'program "nope" was not found on PATH',
  }),
  run({ exitCode: undefined, startFailure: "other" }),
  run({ stdout: "a".repeat(100), stdoutBytes: 90_000, stdoutTruncated: true }),
  run({
    stdout: "a\n",
    stdoutBytes: 3_000_000,
    stdoutTruncated: true,
    spillPath: "/s/1.out",
  }),
  run({ stdout: "", stderr: "only stderr\n", stderrBytes: 12 }),
];

Deno.test("in English the contract words runs exactly as describeFailure() and modelResult() do", () => {
  const label = 'Tool "x"';
  for (const result of RUNS) {
    assert.equal(describeRun(EN, result, label), describeFailure(result, label));
    assert.equal(modelText(EN, result, label), modelResult(result, label));
  }
});

Deno.test("in English the contract words spawn calls exactly as spawnResultText() does", () => {
  const calls = [
    { mode: "command", body: "ls" },
    { mode: "command", body: "ls", target: "mac" },
    { mode: "agent", body: "sum up" },
  ] as const;
  for (const call of calls) {
    for (const result of RUNS) {
      assert.equal(spawnText(EN, call, result), spawnResultText(call, result));
    }
  }
});

Deno.test("in English the contract words spawn refusals exactly as the grammar and the guard do", () => {
  const inputs: unknown[] = [
    null,
    [],
    "!ls",
    7,
    {},
    { input: 7 },
    { input: {} },
    { input: null },
    { input: "!ls", extra: 1 },
    { input: "  " },
    { input: "!" },
    { input: "!@" },
    { input: "!@bad/name ls" },
    { input: "!@local ls" },
    { input: "!@mac" },
  ];
  for (const input of inputs) {
    const parsed = parseSpawnInput(input);
    assert.ok(!parsed.ok, JSON.stringify(input));
    assert.equal(spawnInputRefusal(EN, parsed.problem, input), parsed.message);
    assert.match(spawnInputRefusal(UK, parsed.problem, input), CYRILLIC);
  }
  const config: SpawnConfig = {
    file: "/c/spawn.json",
    agent: undefined,
    targets: new Map(),
    maxDepth: 2,
  };
  const withTargets = { ...config, agent: ["a"], targets: new Map([["mac", ["ssh"]]]) };
  const cases = [
    [{ mode: "command", body: "ls" }, { noShell: true, depth: 0, config }],
    [{ mode: "command", body: "ls", target: "x" }, { noShell: false, depth: 0, config }],
    [{ mode: "command", body: "ls", target: "x" }, {
      noShell: false,
      depth: 0,
      config: withTargets,
    }],
    [{ mode: "agent", body: "t" }, { noShell: false, depth: undefined, config }],
    [{ mode: "agent", body: "t" }, { noShell: false, depth: 2, config }],
    [{ mode: "agent", body: "t" }, { noShell: false, depth: 0, config }],
  ] as const;
  for (const [call, context] of cases) {
    const refusal = spawnRefusal(call, context);
    assert.ok(refusal !== undefined);
    assert.equal(spawnRefusalText(EN, refusal), refuseSpawn(call, context));
    assert.match(spawnRefusalText(UK, refusal), CYRILLIC);
  }
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
    const said = ajvText[failure.keyword];
    const withMessage = said === undefined ? failure : { ...failure, message: said };
    const gate = `Input refused by tool "wc" schema: ${describeError(withMessage)}`;
    assert.equal(renderRefusal(EN, "wc", failure), gate, failure.keyword);
    const uk = renderRefusal(UK, "wc", failure);
    assert.match(uk, /^Вхідні дані не відповідають схемі інструмента "wc": /);
    assert.match(uk, CYRILLIC);
  }
});

const SPEC: ToolSpec = {
  name: "word_count",
  description: "Count the words",
  inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
  command: ["sh", "-c", "echo oops >&2; exit 3"],
  program: "sh",
  cwd: "/",
  env: {},
  sideEffect: "process",
  timeoutMs: 10_000,
  file: "/w/.basis/tools.json",
  scope: "workspace",
};

const CONFIG: SpawnConfig = {
  file: "/c/spawn.json",
  agent: undefined,
  targets: new Map([["mac", ["ssh", "mac"]]]),
  maxDepth: 2,
};

async function error(promise: Promise<unknown>): Promise<ToolError> {
  try {
    await promise;
  } catch (caught) {
    assert.ok(caught instanceof ToolError);
    return caught;
  }
  assert.fail("expected a ToolError");
}

Deno.test("uk-UA changes texts and user-facing errors, never names, schemas or the version", async () => {
  const cacheDir = await Deno.makeTempDir();
  const approver = policyApprover({ policy: "always" });
  const [en, uk] = (["en-US", "uk-UA"] as const).map((locale) =>
    new DeclaredToolBuilder(SPEC, { locale, cacheDir, approver, spillDir: false }).build()
  );
  const [enSpawn, ukSpawn] = (["en-US", "uk-UA"] as const).map((locale) =>
    new SpawnToolBuilder(CONFIG, { locale, root: "/", approver, noShell: true }).build()
  );
  for (const [a, b] of [[en, uk], [enSpawn, ukSpawn]] as const) {
    assert.equal(b?.name, a?.name);
    assert.equal(b?.version, a?.version);
    assert.deepEqual(b?.inputSchema(), a?.inputSchema());
    assert.deepEqual(b?.outputSchema(), a?.outputSchema());
    assert.notEqual(b?.systemPrompt(), a?.systemPrompt());
    assert.notEqual(b?.help(), a?.help());
    assert.ok(b?.systemPrompt().startsWith(`${b.name}: `));
    assert.ok(a?.systemPrompt().startsWith(`${a.name}: `));
    assert.match(b?.help() ?? "", /^# /);
    for (const format of DEFINITION_FORMATS) {
      const left: unknown = a?.definition(format);
      const right: unknown = b?.definition(format);
      const strip = (definition: unknown) =>
        JSON.stringify(
          definition,
          (key, value) => key === "description" || key === "title" ? undefined : value,
        );
      assert.equal(strip(right), strip(left), format);
    }
  }
  // The declared tool's own description is the manifest's; spawn's is localized.
  assert.equal(uk?.description(), en?.description());
  assert.notEqual(ukSpawn?.description(), enSpawn?.description());
  assert.notEqual(ukSpawn?.displayName(), enSpawn?.displayName());

  // Every user-facing error is Ukrainian.
  const refusals = [
    await error(uk!.execution({})),
    await error(uk!.execution([1])),
    await error((await uk!.execution({ text: "a" })).execute()),
    await error(ukSpawn!.execution({ input: "!" })),
    await error((await ukSpawn!.execution({ input: "!ls" })).execute()),
    await error(
      (await new DeclaredToolBuilder({ ...SPEC, command: ["sleep", "5"], program: "sleep" }, {
        locale: "uk-UA",
        cacheDir,
        approver,
        timeoutMs: 100,
      }).build().execution({ text: "a" })).execute(),
    ),
    await error(
      (await new DeclaredToolBuilder(SPEC, {
        locale: "uk-UA",
        cacheDir,
        approval: { policy: "never" },
      }).build().execution({ text: "a" })).execute(),
    ),
  ];
  assert.deepEqual(refusals.map((refusal) => refusal.code), [
    "invalid_input",
    "invalid_input",
    "tool_failed",
    "invalid_input",
    "denied",
    "timed_out",
    "denied",
  ]);
  for (const refusal of refusals) {
    assert.ok(refusal.isUserFacing());
    assert.match(refusal.message, CYRILLIC, refusal.message);
  }
  assert.equal(refusals[2]?.message, 'Інструмент "word_count": завершено з кодом 3: oops');
  assert.equal(refusals[5]?.message, 'Інструмент "word_count": час очікування вичерпано (100 мс)');
  await Deno.remove(cacheDir, { recursive: true });
});

Deno.test("the CLI speaks the locale of --locale, BASIS_LOCALE or LANG; names and schemas stay", async () => {
  const dirs = await scratch(oneTool("wc", {
    input_schema: { type: "object", required: ["text"] },
    command: ["cat"],
  }));
  const refused = await cli(dirs, ["call", "wc", "{}", "--approve", "always", "--locale", "uk-UA"]);
  assert.equal(refused.code, 4);
  assert.equal(
    refused.stderr,
    'basis-tools: Вхідні дані не відповідають схемі інструмента "wc": /text: відсутня обов’язкова властивість\n',
  );
  const fromLang = await cli(dirs, ["call", "nope", "{}"], {
    env: { LANG: "uk_UA.UTF-8", BASIS_LOCALE: "" },
  });
  assert.equal(fromLang.code, 2);
  assert.match(fromLang.stderr, /^basis-tools: Не вдалося знайти інструмент "nope"/);
  const overridden = await cli(dirs, ["call", "nope", "{}", "--locale", "en-US"], {
    env: { LANG: "uk_UA.UTF-8" },
  });
  assert.match(overridden.stderr, /^basis-tools: Cannot find tool "nope"/);
  const unknown = await cli(dirs, ["frobnicate"], { env: { BASIS_LOCALE: "uk-UA" } });
  assert.equal(unknown.code, 2);
  assert.equal(
    unknown.stderr,
    'basis-tools: Невідома команда "frobnicate": див. basis-tools --help\n',
  );
  const fallback = await cli(dirs, ["frobnicate", "--locale", "fr-FR"]);
  assert.match(fallback.stderr, /Unknown command "frobnicate"/);
  const json = await cli(dirs, ["--json", "call", "wc", "[]", "--locale", "uk-UA"]);
  assert.equal(JSON.parse(json.stdout).error.kind, "invalid_input");
  assert.match(JSON.parse(json.stdout).error.message, /має бути об’єктом JSON, а отримано масив/);

  const en = JSON.parse((await cli(dirs, ["schema", "--format", "mcp"])).stdout);
  const uk = JSON.parse(
    (await cli(dirs, ["schema", "--format", "mcp", "--locale", "uk-UA"])).stdout,
  );
  assert.deepEqual(uk.map((tool: { name: string }) => tool.name), ["wc", "spawn"]);
  assert.deepEqual(
    uk.map((tool: { inputSchema: unknown }) => tool.inputSchema),
    en.map((tool: { inputSchema: unknown }) => tool.inputSchema),
  );
  assert.notEqual(uk[1].description, en[1].description);
  assert.match(uk[1].title, CYRILLIC);
  await dirs.cleanup();
});

Deno.test("the CLI's own errors carry English equal to the English catalogue's, for rewording", () => {
  const errors: LocalizedError[] = [];
  const capture = (action: () => unknown) => {
    try {
      action();
    } catch (error) {
      assert.ok(error instanceof LocalizedError, String(error));
      errors.push(error);
      return;
    }
    assert.fail("expected a LocalizedError");
  };
  const global = [
    { name: "json", kind: "boolean" },
    { name: "approve", kind: "string" },
    { name: "env", kind: "list" },
    { name: "spawn-timeout", kind: "string" },
  ] as const;
  capture(() => parseArgs(["--nope"], global, {}));
  capture(() => parseArgs(["--json=1"], global, {}));
  capture(() => parseArgs(["--approve"], global, {}));
  const env = (name: string) => name === "HOME" ? "/home/test" : undefined;
  capture(() => resolveSettings(parseArgs(["list", "--approve", "maybe"], global, {}), env));
  capture(() => resolveSettings(parseArgs(["list", "--env", "=x"], global, {}), env));
  capture(() => resolveSettings(parseArgs(["list", "--spawn-timeout", "-1"], global, {}), env));
  errors.push(millisecondsError("timeout", "soon"), notADirectory("/no/such"));
  for (const error of errors) {
    assert.equal(EN.t(error.key, error.params), error.message);
    assert.match(UK.t(error.key, error.params), CYRILLIC);
  }
});
