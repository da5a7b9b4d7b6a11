import assert from "node:assert/strict";
import { DEFAULT_POLICY } from "../src/sandbox/policy.ts";
import {
  type ApprovalRequest,
  type Approver,
  type AuditEntry,
  DeclaredToolBuilder,
  type DeclaredToolExtra,
  type DeclaredToolOptions,
  DEFINITION_FORMATS,
  type OutputChunk,
  policyApprover,
  type SpawnConfig,
  SpawnToolBuilder,
  ToolError,
  type ToolSpec,
} from "../src/mod.ts";
import { assertNoStackTrace, processesLeftInGroup, ROOT } from "./_cli.ts";
import { toolSpec } from "./_fixtures.ts";
import { tempDir } from "./_scratch.ts";
import { CYRILLIC } from "./_no_english.ts";
import { say, wording } from "./_wording.ts";
import { phrase } from "../src/locale/messages.ts";
import { formatSize } from "../src/run/size.ts";

/** The label of a tool's run, as messages name it. */
const toolLabel = (name: string) => phrase("label.tool", { tool: `"${name}"` });

const RUN_FIXTURES = `${ROOT}tests/fixtures/run`;
const CLI_FIXTURES = `${ROOT}tests/fixtures/cli`;
const decoder = new TextDecoder();

/** A scratch directory for one test, with a cache directory inside; removed when disposed. */
async function scratchDir(): Promise<{ dir: string; cacheDir: string } & AsyncDisposable> {
  const temp = await tempDir({ prefix: "basis-contract-" });
  return {
    dir: temp.path,
    cacheDir: `${temp.path}/cache`,
    [Symbol.asyncDispose]: temp[Symbol.asyncDispose],
  };
}

/** An approver that allows everything and remembers what it was asked. */
function recordingApprover(allowed = true): Approver & { asked: ApprovalRequest[] } {
  const asked: ApprovalRequest[] = [];
  const approver = (request: ApprovalRequest) => {
    asked.push(request);
    return Promise.resolve({
      allowed,
      by: "policy" as const,
      ruleId: undefined,
      reason: allowed ? undefined : "The host said no",
    });
  };
  return Object.assign(approver, { asked });
}

/** The OS sandbox off: these tests are about the contract (tests/sandbox_test.ts confines). */
const UNCONFINED = { policy: { ...DEFAULT_POLICY, file: "/c/sandbox.json", mode: "off" } } as const;

function builder(spec: ToolSpec, options: DeclaredToolOptions = {}): DeclaredToolBuilder {
  return new DeclaredToolBuilder(spec, {
    approver: policyApprover({ policy: "always" }),
    spillDir: false,
    sandbox: UNCONFINED,
    ...options,
  });
}

async function rejection(promise: Promise<unknown>): Promise<ToolError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof ToolError, `expected a ToolError, got ${error}`);
    return error;
  }
  assert.fail("expected a rejection");
}

async function collect(stream: ReadableStream<OutputChunk>): Promise<OutputChunk[]> {
  const chunks: OutputChunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

function joined(chunks: readonly OutputChunk[], kind: OutputChunk["kind"]): string {
  const parts = chunks.filter((chunk) => chunk.kind === kind).map((chunk) => chunk.data);
  const bytes = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    bytes.set(part, offset);
    offset += part.length;
  }
  return decoder.decode(bytes);
}

Deno.test("build() does not consume the builder: each build is a tool of the options held then", async () => {
  await using scratch = await scratchDir();
  const toolBuilder = builder(toolSpec("echo", ["cat"]), { cacheDir: scratch.cacheDir });
  const first = toolBuilder.build();
  const second = toolBuilder.build();
  assert.notEqual(first, second);
  assert.equal(first.name, "echo");
  assert.deepEqual(first.definition("openai"), second.definition("openai"));
  toolBuilder.configure({ locale: "uk-UA" });
  const third = toolBuilder.build();
  assert.equal(first.locale, "en-US");
  assert.equal(third.locale, "uk-UA");
  // Every tool works on its own, twice over.
  for (const tool of [first, second, third]) {
    const output = await (await tool.execution({ n: 1 })).execute();
    assert.equal(output.result, '{"n":1}');
  }
  const spawnBuilder = new SpawnToolBuilder(config(), { approver: recordingApprover() });
  assert.deepEqual(spawnBuilder.build().inputSchema(), spawnBuilder.build().inputSchema());
});

Deno.test("execution() validates first: refused input throws a user-facing error and nothing runs", async () => {
  await using scratch = await scratchDir();
  const marker = `${scratch.dir}/ran`;
  const approver = recordingApprover();
  const tool = builder(
    toolSpec("capture", [`${CLI_FIXTURES}/stdin_to_file.sh`, marker], {
      inputSchema: {
        type: "object",
        properties: { n: { type: "integer" } },
        required: ["n"],
      },
    }),
    { cacheDir: scratch.cacheDir, approver },
  ).build();
  for (
    const [args, pattern] of [
      [{}, /^Input refused by tool "capture" schema: \/n: required property is missing$/],
      [{ n: "x" }, /\/n: must be integer$/],
      [[1], /^Input refused by tool "capture": \(root\): must be a JSON object, found an array$/],
      [null, /found null$/],
    ] as const
  ) {
    const error = await rejection(tool.execution(args));
    assert.equal(error.code, "invalid_input");
    assert.ok(error.isUserFacing());
    assert.match(error.message, pattern);
    assert.equal(error.output, undefined);
    assertNoStackTrace(error.message);
  }
  assert.equal(approver.asked.length, 0, "bad input never reaches the approver");
  await assert.rejects(Deno.stat(marker), Deno.errors.NotFound);
  // Valid input makes an execution, and still nothing runs until execute().
  const execution = await tool.execution({ n: 2 });
  await assert.rejects(Deno.stat(marker), Deno.errors.NotFound);
  assert.equal(approver.asked.length, 0);
  await execution.execute();
  assert.equal(await Deno.readTextFile(marker), '{"n":2}');
});

Deno.test("outputStream() comes before execute(): after it started, or twice, is an internal error", async () => {
  const tool = builder(toolSpec("echo", ["cat"])).build();
  const late = await tool.execution({});
  const running = late.execute();
  assert.throws(() => late.outputStream(), (error: unknown) => {
    assert.ok(error instanceof ToolError);
    assert.equal(error.kind, "internal");
    assert.equal(error.code, "internal");
    assert.ok(!error.isUserFacing());
    assert.match(error.message, /execute\(\) has already started/);
    return true;
  });
  await running;
  const twice = await tool.execution({});
  twice.outputStream();
  assert.throws(() => twice.outputStream(), /one reader/);
  await twice.execute();
});

Deno.test("an execution runs once: executing twice is an internal error and the program ran once", async () => {
  await using scratch = await scratchDir();
  const log = `${scratch.dir}/runs`;
  await Deno.writeTextFile(log, "");
  const tool = builder(toolSpec("count", ["/bin/sh", "-c", `echo run >> '${log}'`])).build();
  const execution = await tool.execution({});
  await execution.execute();
  const error = await rejection(execution.execute());
  assert.equal(error.kind, "internal");
  assert.equal(error.code, "internal");
  assert.match(error.message, /twice/);
  assert.equal(await Deno.readTextFile(log), "run\n");
});

Deno.test("the final output is the truth of the run, not the concatenated chunks", async () => {
  const script = "printf 'line one\\n\\n\\n'; printf 'warn\\n' >&2";
  const tool = builder(toolSpec("speak", ["/bin/sh", "-c", script])).build();
  const execution = await tool.execution({});
  const chunks = collect(execution.outputStream());
  const output = await execution.execute();
  const seen = await chunks;
  // The chunks are the bytes as written; the result is stdout trimmed for a model.
  assert.equal(joined(seen, "stdout"), "line one\n\n\n");
  assert.equal(joined(seen, "stderr"), "warn\n");
  assert.equal(output.result, "line one");
  assert.deepEqual(output.content, [{ type: "text", text: "line one" }]);
  assert.equal(typeof output.metadata.durationMs, "number");
  assert.equal(output.metadata.extra.run.exitCode, 0);
  assert.equal(output.metadata.extra.run.stderr, "warn\n");
  // Beyond the cap: every byte streams, the result is cut with a note.
  const big = builder(toolSpec("big", ["/bin/sh", "-c", "head -c 80000 /dev/zero | tr '\\0' a"]))
    .build();
  const bigExecution = await big.execution({});
  const bigChunks = collect(bigExecution.outputStream());
  const bigOutput = await bigExecution.execute();
  assert.equal(joined(await bigChunks, "stdout").length, 80_000);
  assert.ok(
    bigOutput.result.endsWith(
      `\n${say("run.cut_note", { size: formatSize(51200), lines: 2000, bytes: 80000 })}`,
    ),
    bigOutput.result.slice(-200),
  );
  assert.ok(bigOutput.result.length < 60_000);
  // A program that prints nothing gets a sentence.
  const quiet = builder(toolSpec("quiet", ["true"])).build();
  assert.equal(
    (await (await quiet.execution({})).execute()).result,
    say("run.printed_nothing", { label: phrase("label.tool", { tool: '"quiet"' }) }),
  );
});

Deno.test("cancelling with an AbortSignal stops the whole process group", async () => {
  await using scratch = await scratchDir();
  const pids = `${scratch.dir}/pids`;
  const tool = builder(toolSpec("forever", [`${RUN_FIXTURES}/grandchild.sh`, pids])).build();
  const execution = await tool.execution({});
  const reader = execution.outputStream().getReader();
  const controller = new AbortController();
  const running = execution.execute({ signal: controller.signal });
  // Wait until it says it is ready (its grandchild is started by then).
  let seen = "";
  while (!seen.includes("ready")) {
    const { value, done } = await reader.read();
    if (done) break;
    seen += decoder.decode(value.data);
  }
  controller.abort();
  const error = await rejection(running);
  assert.equal(error.code, "interrupted");
  assert.ok(error.isUserFacing());
  assert.equal(error.message, 'Tool "forever" was cancelled');
  assert.equal(typeof error.output?.metadata.durationMs, "number");
  const [group] = (await Deno.readTextFile(pids)).trim().split(" ").map(Number);
  assert.deepEqual(await processesLeftInGroup(group ?? NaN), []);
  // Aborted before execute(): nothing is asked and nothing starts.
  const approver = recordingApprover();
  const early = builder(toolSpec("never", ["cat"]), { approver }).build();
  const aborted = AbortSignal.abort();
  const earlyError = await rejection((await early.execution({})).execute({ signal: aborted }));
  assert.equal(earlyError.code, "interrupted");
  assert.equal(approver.asked.length, 0);
});

Deno.test("error kinds: denials, failures and time-outs are user-facing and carry no secret", async () => {
  const secret = "s3cr3t-canary-value";
  const script = `echo "token is $TOKEN" >&2; exit 4`;
  const failing = builder(
    toolSpec("leak", ["/bin/sh", "-c", script], { env: { TOKEN: secret } }),
  ).build();
  const failed = await rejection((await failing.execution({})).execute());
  assert.equal(failed.code, "tool_failed");
  assert.ok(failed.isUserFacing());
  const exited = say("run.exit", { label: toolLabel("leak"), code: 4 });
  assert.equal(failed.message, `${exited}: token is [redacted]`);
  assert.equal(failed.summary, exited);
  assert.equal(failed.output?.result, failed.message);
  assert.ok(!JSON.stringify(failed.output).includes(secret));
  assertNoStackTrace(failed.message);

  const slow = builder(toolSpec("slow", ["sleep", "5"], { timeoutMs: 100 })).build();
  const timedOut = await rejection((await slow.execution({})).execute());
  assert.equal(timedOut.code, "timed_out");
  assert.equal(timedOut.message, say("run.timed_out", { label: toolLabel("slow"), ms: 100 }));

  const missing = builder(toolSpec("missing", ["no-such-program-basis"])).build();
  const notStarted = await rejection((await missing.execution({})).execute());
  assert.equal(notStarted.code, "spawn_failed");
  assert.match(
    notStarted.message,
    wording("run.not_started", {
      reason: phrase("start.not_on_path", { program: '"no-such-program-basis"' }),
    }),
  );
  // Why it did not start is kept as a phrase too: its values are redacted like the message.
  const hidden = builder(toolSpec("hidden", [`/no/${secret}/prog`], { env: { TOKEN: secret } }))
    .build();
  const unstarted = await rejection((await hidden.execution({})).execute());
  assert.equal(
    unstarted.message,
    say("run.not_started", {
      label: phrase("label.tool", { tool: '"hidden"' }),
      reason: phrase("start.missing", { program: '"/no/[redacted]/prog"' }),
    }),
  );
  const run = (unstarted.output?.metadata.extra as DeclaredToolExtra).run;
  assert.deepEqual(run.startReason, {
    key: "start.missing",
    params: { program: '"/no/[redacted]/prog"' },
  });
  assert.ok(!JSON.stringify(unstarted.output).includes(secret));

  const denied = builder(toolSpec("echo", ["cat"]), { approver: recordingApprover(false) }).build();
  const denial = await rejection((await denied.execution({})).execute());
  assert.equal(denial.code, "denied");
  assert.ok(denial.isUserFacing());
  assert.equal(denial.message, "The host said no");

  const never = new DeclaredToolBuilder(toolSpec("echo", ["cat"]), {
    approval: { policy: "never" },
    sandbox: UNCONFINED,
  })
    .build();
  const neverError = await rejection((await never.execution({})).execute());
  assert.equal(neverError.message, say("denied.never", { tool: '"echo"' }));

  await using scratch = await scratchDir();
  const broken = builder(toolSpec("broken", ["cat"], { inputSchema: { type: 12 } }), {
    cacheDir: scratch.cacheDir,
  }).build();
  const internal = await rejection(broken.execution({}));
  assert.equal(internal.kind, "internal");
  assert.equal(internal.code, "manifest_invalid");
  assert.ok(!internal.isUserFacing());
  assert.match(internal.message, /tool "broken": input_schema: /);
});

Deno.test("the approver is injectable and sits after the schema gate: it sees the pinned preview", async () => {
  const approver = recordingApprover();
  const entries: AuditEntry[] = [];
  const tool = builder(toolSpec("echo", ["cat"], { cwd: "/" }), {
    approver,
    audit: { record: (entry: AuditEntry) => entries.push(entry) },
    root: "/w",
  }).build();
  await (await tool.execution({ a: 1 })).execute();
  assert.equal(approver.asked.length, 1);
  assert.equal(
    JSON.stringify(approver.asked[0]?.preview),
    `{"tool":"echo","program":"${catPath()}","command":["cat"],"cwd":"/","env":[],"sandbox":"unconfined","input":{"a":1}}`,
  );
  assert.deepEqual(entries.map((entry) => entry.type), ["decision", "run"]);
  assert.equal(entries[0]?.type === "decision" && entries[0].workspace, "/w");
});

Deno.test("toService() is the tool as a plain function; it rejects with the same errors", async () => {
  const service = builder(toolSpec("echo", ["cat"])).build().toService();
  assert.deepEqual(await service({ b: [1, 2] }), { result: '{"b":[1,2]}' });
  const error = await rejection(service("not an object"));
  assert.equal(error.code, "invalid_input");
  const spawn = new SpawnToolBuilder(config(), {
    root: ROOT,
    approver: recordingApprover(),
    sandbox: UNCONFINED,
  })
    .build()
    .toService();
  const output = await spawn({ input: "!echo hi" }) as Record<string, unknown>;
  assert.equal(output.result, "hi");
  assert.equal(output.exit_code, 0);
  assert.equal(output.error, null);
});

/** Where `cat` is found on PATH, its directory's links resolved (what a preview names). */
function catPath(): string {
  for (const dir of (Deno.env.get("PATH") ?? "").split(":")) {
    try {
      if (dir.startsWith("/") && Deno.statSync(`${dir}/cat`).isFile) {
        return `${Deno.realPathSync(dir)}/cat`;
      }
    } catch {
      // Not here.
    }
  }
  throw new Error("cat is not on PATH");
}

function config(fields: Partial<SpawnConfig> = {}): SpawnConfig {
  return {
    file: "/home/me/.config/basis/spawn.json",
    agent: undefined,
    targets: new Map(),
    maxDepth: 2,
    ...fields,
  };
}

Deno.test("spawn under the contract: grammar refusals in execution(), guard refusals before the approver", async () => {
  const approver = recordingApprover();
  const tool = new SpawnToolBuilder(config(), {
    root: ROOT,
    approver,
    noShell: true,
    sandbox: UNCONFINED,
  }).build();
  const refused = await rejection(tool.execution({ input: "!" }));
  assert.equal(refused.code, "invalid_input");
  assert.equal(
    refused.message,
    say("input.refused", {
      tool: '"spawn"',
      pointer: "/input",
      reason: phrase("spawn.input.no_command"),
    }),
  );
  const guarded = await rejection((await tool.execution({ input: "!ls" })).execute());
  assert.equal(guarded.code, "denied");
  assert.equal(guarded.message, say("spawn.guard.no_shell"));
  const noAgent = await rejection((await tool.execution({ input: "sum up" })).execute());
  assert.match(noAgent.message, wording("spawn.guard.no_agent"));
  assert.equal(approver.asked.length, 0);

  const open = new SpawnToolBuilder(config(), { root: ROOT, approver, sandbox: UNCONFINED })
    .build();
  const execution = await open.execution({ input: "!printf 'x\\n'; exit 3" });
  const chunks = collect(execution.outputStream());
  const failed = await rejection(execution.execute());
  assert.equal(failed.code, "tool_failed");
  assert.equal(
    failed.message,
    `${say("run.exit", { label: phrase("label.command"), code: 3 })}: x`,
  );
  assert.equal(joined(await chunks, "stdout"), "x\n");
  assert.equal(approver.asked[0]?.kind, "spawn");
  assert.equal(
    JSON.stringify(approver.asked[0]?.preview),
    JSON.stringify({
      mode: "command",
      body: "printf 'x\\n'; exit 3",
      cwd: Deno.realPathSync(ROOT),
      target: "local",
    }),
  );
});

// --- Wording in en-US and uk-UA ---

/** A tool that fails, for the wording of its errors. */
const WORDING_SPEC: ToolSpec = {
  name: "word_count",
  description: "Count the words",
  inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
  command: ["sh", "-c", "echo oops >&2; exit 3"],
  program: "sh",
  cwd: "/",
  env: {},
  sideEffect: "process",
  timeoutMs: 10_000,
  sandbox: { network: false, write: [], read: [] },
  file: "/w/.basis/tools.json",
  scope: "workspace",
};

const WORDING_CONFIG: SpawnConfig = {
  file: "/c/spawn.json",
  agent: undefined,
  targets: new Map([["mac", ["ssh", "mac"]]]),
  maxDepth: 2,
};

Deno.test("uk-UA changes texts and user-facing errors, never names, schemas or the version", async () => {
  await using cacheDir = await tempDir();
  const approver = policyApprover({ policy: "always" });
  const [en, uk] = (["en-US", "uk-UA"] as const).map((locale) =>
    new DeclaredToolBuilder(WORDING_SPEC, {
      locale,
      cacheDir: cacheDir.path,
      approver,
      spillDir: false,
    })
      .build()
  );
  const [enSpawn, ukSpawn] = (["en-US", "uk-UA"] as const).map((locale) =>
    new SpawnToolBuilder(WORDING_CONFIG, { locale, root: "/", approver, noShell: true }).build()
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
    await rejection(uk!.execution({})),
    await rejection(uk!.execution([1])),
    await rejection((await uk!.execution({ text: "a" })).execute()),
    await rejection(ukSpawn!.execution({ input: "!" })),
    await rejection((await ukSpawn!.execution({ input: "!ls" })).execute()),
    await rejection(
      (await new DeclaredToolBuilder(
        { ...WORDING_SPEC, command: ["sleep", "5"], program: "sleep" },
        {
          locale: "uk-UA",
          cacheDir: cacheDir.path,
          approver,
          timeoutMs: 100,
        },
      ).build().execution({ text: "a" })).execute(),
    ),
    await rejection(
      (await new DeclaredToolBuilder(WORDING_SPEC, {
        locale: "uk-UA",
        cacheDir: cacheDir.path,
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
});
