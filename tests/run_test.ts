import { deepStrictEqual, equal, match, notEqual, ok } from "node:assert/strict";
import {
  DEFAULT_MAX_SPILL_BYTES,
  describeFailure,
  modelResult,
  type RunOptions,
  runProgram,
  type RunRequest,
  type RunResult,
} from "../src/run/mod.ts";
import { english, messages, type Phrase, phrase } from "../src/locale/messages.ts";
import { launchFailure } from "../src/run/_launch.ts";
import { classifySpawnError } from "../src/run/_launch.ts";
import {
  pruneSpillDir,
  SPILL_KEEP_BYTES,
  SPILL_KEEP_FILES,
  SPILL_KEEP_MS,
} from "../src/run/_spill.ts";
import { processesLeftInGroup } from "./_cli.ts";
import { denoRun } from "./_deno_run.ts";
import { assertNoEnglish, CYRILLIC } from "./_no_english.ts";
import { runResult, RUNS } from "./_run_result.ts";
import { tempDir } from "./_scratch.ts";

const FIXTURES = new URL("./fixtures/run/", import.meta.url).pathname;
const IS_LINUX = Deno.build.os === "linux";
// Loaded by ./_no_english.ts.
const UK = messages("uk-UA");
const encoder = new TextEncoder();

/** Why the run did not start, in English. */
function startError(result: RunResult): string | undefined {
  return result.startReason === undefined ? undefined : english(result.startReason);
}

function fixture(name: string): string {
  return FIXTURES + name;
}

function request(
  program: string,
  args: string[] = [],
  extra: Partial<RunRequest> = {},
): RunRequest {
  return {
    program,
    args,
    cwd: FIXTURES,
    stdin: new Uint8Array(),
    timeoutMs: 10_000,
    ...extra,
  };
}

function run(
  program: string,
  args: string[] = [],
  extra: Partial<RunRequest> = {},
  options: RunOptions = {},
): Promise<RunResult> {
  return runProgram(request(program, args, extra), options);
}

async function isAlive(pid: number): Promise<boolean> {
  try {
    const stat = await Deno.readTextFile(`/proc/${pid}/stat`);
    const state = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[0];
    return state !== "Z" && state !== "X";
  } catch {
    return false;
  }
}

/** The group id and grandchild pid the grandchild fixture wrote. */
async function readPids(path: string): Promise<{ group: number; grandchild: number }> {
  const [group, grandchild] = (await Deno.readTextFile(path)).trim().split(" ").map(Number);
  return { group: group ?? NaN, grandchild: grandchild ?? NaN };
}

/** What the grandchild fixture prints for `n` bytes. */
function expectedBytes(n: number): Uint8Array {
  const line = encoder.encode("0123456789abcde\n");
  const out = new Uint8Array(n);
  for (let offset = 0; offset < n; offset += line.length) {
    out.set(line.subarray(0, Math.min(line.length, n - offset)), offset);
  }
  return out;
}

function result(fields: Partial<RunResult> = {}): RunResult {
  return runResult({ ...fields });
}

/** Runs `tests/fixtures/run/run_child.ts` in its own Deno with the given permission flags. */
async function runInChild(
  flags: string[],
  spec: Record<string, unknown>,
): Promise<RunResult & { peakKiB?: number }> {
  const { code, stdout, stderr } = await denoRun(fixture("run_child.ts"), flags, {
    args: [JSON.stringify(spec)],
  });
  equal(code, 0, `run_child failed: ${stderr}`);
  return JSON.parse(stdout);
}

// --- starting and passing data ----------------------------------------------------------------

Deno.test("runProgram() passes stdin byte for byte and runs no shell", async () => {
  const input =
    `{"q":"it's \\"quoted\\""}\n&& echo pwned; $x \`id\` $(id) | cat > /tmp/x\n\ttabs €\n`;
  const got = await run(fixture("echo_stdin.sh"), [], { stdin: encoder.encode(input) });
  equal(got.exitCode, 0);
  equal(got.stdout, input);
  equal(got.stdoutBytes, encoder.encode(input).length);
  deepStrictEqual(got.command, [fixture("echo_stdin.sh")]);
  equal(got.cwd, FIXTURES);
  equal(describeFailure(got, 'Tool "echo"'), undefined);
});

Deno.test("runProgram() passes arguments literally, never through a shell", async () => {
  const args = ["$x", "a && b", "`id`", "$(id)", "; rm -rf /tmp/nope", `'"`, "*", "with space"];
  const got = await run(fixture("print_args.sh"), args, { env: [{ x: "expanded" }] });
  equal(got.stdout, args.join("\n") + "\n");
});

Deno.test("runProgram() layers the environment: inherited, then each layer, later wins", async () => {
  const names = ["BASIS_RUN_A", "BASIS_RUN_B", "BASIS_RUN_C"];
  for (const name of names) Deno.env.set(name, "inherited");
  try {
    const got = await run(fixture("print_env.sh"), names, {
      env: [{ BASIS_RUN_A: "layer1", BASIS_RUN_B: "layer1" }, { BASIS_RUN_B: "layer2" }],
    });
    equal(got.stdout, "BASIS_RUN_A=layer1\nBASIS_RUN_B=layer2\nBASIS_RUN_C=inherited\n");
  } finally {
    for (const name of names) Deno.env.delete(name);
  }
});

Deno.test("runProgram() finds a bare name on the PATH of the last layer that sets it", async () => {
  const got = await run("print_args.sh", ["found"], {
    env: [{ PATH: "/nonexistent" }, { PATH: `/nonexistent:${FIXTURES}:/usr/bin:/bin` }],
  });
  equal(got.exitCode, 0);
  equal(got.stdout, "found\n");
  deepStrictEqual(got.command, [fixture("print_args.sh"), "found"]);
});

Deno.test("runProgram() writes 10 MiB to a program that never reads stdin without failing", async () => {
  const input = new Uint8Array(10 * 1024 * 1024).fill(0x61);
  const napping = await run(fixture("ignore_stdin.sh"), [], { stdin: input });
  equal(napping.exitCode, 0);
  equal(napping.startFailure, undefined);
  const quick = await run("true", [], { stdin: input });
  equal(quick.exitCode, 0);
});

// --- how runs fail ------------------------------------------------------------------------------

Deno.test("runProgram() reports a non-zero exit with its stderr", async () => {
  const got = await run(fixture("fail_4.sh"));
  equal(got.exitCode, 4);
  equal(got.signal, undefined);
  equal(got.stderr, "bad input: field q is missing\n");
  equal(got.stdout, "partial result\n");
  equal(
    describeFailure(got, 'Tool "x"'),
    'Tool "x" exited with code 4: bad input: field q is missing',
  );
});

Deno.test("runProgram() reports a silent exit with code 7", async () => {
  const got = await run(fixture("exit_7.sh"));
  equal(got.exitCode, 7);
  equal(got.stdout, "");
  equal(describeFailure(got, 'Tool "x"'), 'Tool "x" exited with code 7');
});

Deno.test("runProgram() reports a program killed by a signal", async () => {
  const got = await run(fixture("kill_self.sh"));
  equal(got.exitCode, undefined);
  equal(got.signal, "SIGKILL");
  equal(got.timedOut, false);
  equal(describeFailure(got, 'Tool "x"'), 'Tool "x" was killed by signal SIGKILL');
});

Deno.test("runProgram() reports a program that is not on PATH", async () => {
  const got = await run("basis-no-such-program-7c1e", ["a"]);
  equal(got.startFailure, "not_found");
  equal(startError(got), 'program "basis-no-such-program-7c1e" was not found on PATH');
  equal(got.exitCode, undefined);
  deepStrictEqual(got.command, ["basis-no-such-program-7c1e", "a"]);
  equal(
    describeFailure(got, 'Tool "x"'),
    'Tool "x" could not start: program "basis-no-such-program-7c1e" was not found on PATH',
  );
  const absolute = await run(fixture("missing.sh"));
  equal(absolute.startFailure, "not_found");
  equal(startError(absolute), `program "${fixture("missing.sh")}" does not exist`);
});

Deno.test("runProgram() reports a file that is not executable", async () => {
  const got = await run(fixture("not_executable.sh"));
  equal(got.startFailure, "not_executable");
  equal(
    startError(got),
    `program "${fixture("not_executable.sh")}" is not executable (no execute permission)`,
  );
  const dir = await run(FIXTURES.slice(0, -1));
  equal(dir.startFailure, "not_executable");
  match(startError(dir) ?? "", /is a directory$/);
});

Deno.test("runProgram() reports a working directory that does not exist", async () => {
  const got = await run(fixture("print_nothing.sh"), [], { cwd: "/nonexistent/basis" });
  equal(got.startFailure, "other");
  equal(startError(got), 'working directory "/nonexistent/basis" does not exist');
  equal(got.cwd, "/nonexistent/basis");
});

// --- stopping -----------------------------------------------------------------------------------

Deno.test("runProgram() stops the program when the timeout elapses", async () => {
  const started = performance.now();
  const got = await run("sleep", ["30"], { timeoutMs: 150 });
  const took = performance.now() - started;
  ok(took < 1000, `took ${took} ms`);
  equal(got.timedOut, true);
  equal(got.cancelled, false);
  equal(got.signal, "SIGTERM");
  equal(got.exitCode, undefined);
  equal(got.isForcefullyTerminated, false);
  equal(describeFailure(got, 'Tool "slow"'), 'Tool "slow" timed out after 150 ms');
});

Deno.test({
  name: "runProgram() kills the process group when the timeout elapses",
  ignore: !IS_LINUX,
  async fn() {
    await using dir = await tempDir();
    const got = await run(fixture("grandchild.sh"), [`${dir.path}/pids`], { timeoutMs: 400 });
    equal(got.timedOut, true);
    const { group, grandchild } = await readPids(`${dir.path}/pids`);
    deepStrictEqual(await processesLeftInGroup(group), []);
    equal(await isAlive(grandchild), false);
  },
});

for (const quiet of [false, true]) {
  const holding = quiet ? "that let go of the output" : "that holds the output open";
  Deno.test({
    name: `runProgram() stops a background grandchild ${holding} after a normal exit`,
    ignore: !IS_LINUX,
    async fn() {
      await using dir = await tempDir();
      const started = performance.now();
      const args = [`${dir.path}/pids`, "0", ...(quiet ? ["quiet"] : [])];
      const got = await run(fixture("grandchild.sh"), args);
      ok(performance.now() - started < 2000);
      equal(got.exitCode, 0);
      equal(got.stdout, "ready\n");
      equal(got.timedOut, false);
      const { group, grandchild } = await readPids(`${dir.path}/pids`);
      deepStrictEqual(await processesLeftInGroup(group), []);
      equal(await isAlive(grandchild), false);
    },
  });
}

/** Options that abort the run once the program printed "ready". */
function abortWhenReady(extra: RunOptions = {}): RunOptions {
  const controller = new AbortController();
  return {
    ...extra,
    signal: controller.signal,
    onStdout: (chunk) => {
      if (new TextDecoder().decode(chunk).includes("ready")) controller.abort();
    },
  };
}

Deno.test("runProgram() stops the process group when the caller aborts", async () => {
  const started = performance.now();
  const got = await run(fixture("ready_sleep.sh"), [], {}, abortWhenReady());
  ok(performance.now() - started < 1000);
  equal(got.cancelled, true);
  equal(got.timedOut, false);
  equal(got.signal, "SIGTERM");
  equal(got.isForcefullyTerminated, false);
  equal(got.stdout, "ready\n");
  equal(describeFailure(got, 'Tool "x"'), 'Tool "x" was cancelled');
});

Deno.test("runProgram() starts nothing when the signal is already aborted", async () => {
  const got = await run(fixture("ready_sleep.sh"), [], {}, { signal: AbortSignal.abort() });
  equal(got.cancelled, true);
  equal(got.exitCode, undefined);
  equal(got.startFailure, undefined);
});

Deno.test("runProgram() kills a group that ignores SIGTERM with SIGKILL", async () => {
  const started = performance.now();
  const got = await run(fixture("ignore_term.sh"), [], {}, abortWhenReady({ graceMs: 100 }));
  ok(performance.now() - started < 1000);
  equal(got.cancelled, true);
  equal(got.signal, "SIGKILL");
  equal(got.isForcefullyTerminated, true);
});

Deno.test({
  name: "runProgram() re-throws an onStdout error after stopping the process group",
  ignore: !IS_LINUX,
  async fn() {
    await using dir = await tempDir();
    const failing = run(fixture("grandchild.sh"), [`${dir.path}/pids`], {}, {
      onStdout: () => {
        throw new Error("caller bug");
      },
    });
    await failing.then(
      () => ok(false, "runProgram() resolved"),
      (error: Error) => equal(error.message, "caller bug"),
    );
    const { group, grandchild } = await readPids(`${dir.path}/pids`);
    deepStrictEqual(await processesLeftInGroup(group), []);
    equal(await isAlive(grandchild), false);
  },
});

// --- output -------------------------------------------------------------------------------------

Deno.test("runProgram() cuts stdout by bytes and spills all of it to a file", async () => {
  await using dir = await tempDir();
  const spillDir = `${dir.path}/nested/spill`;
  const options = { spillDir, maxLines: 1_000_000 };
  const got = await run(fixture("print_bytes.sh"), ["200000"], {}, options);
  equal(got.exitCode, 0);
  equal(got.stdoutTruncated, true);
  equal(got.stdoutBytes, 200_000);
  equal(got.stdout, new TextDecoder().decode(expectedBytes(51_200)));
  ok(got.spillPath?.startsWith(spillDir + "/"));
  deepStrictEqual(await Deno.readFile(got.spillPath ?? ""), expectedBytes(200_000));
  equal((await Deno.stat(got.spillPath ?? "")).mode! & 0o777, 0o600);
});

Deno.test("runProgram() cuts stdout by lines and spills all of it to a file", async () => {
  await using dir = await tempDir();
  const got = await run(fixture("print_bytes.sh"), ["40000"], {}, {
    spillDir: dir.path,
    maxLines: 100,
  });
  equal(got.stdoutTruncated, true);
  equal(got.stdout, new TextDecoder().decode(expectedBytes(1600)));
  equal(got.stdout.split("\n").length - 1, 100);
  deepStrictEqual(await Deno.readFile(got.spillPath ?? ""), expectedBytes(40_000));
});

Deno.test("runProgram() keeps output at the cap whole and without a spill directory", async () => {
  const exact = await run(fixture("print_bytes.sh"), ["3200"], {}, { maxLines: 200 });
  equal(exact.stdoutTruncated, false);
  equal(exact.stdout.length, 3200);
  const cut = await run(fixture("print_bytes.sh"), ["3201"], {}, { maxLines: 200 });
  equal(cut.stdoutTruncated, true);
  equal(cut.stdout.length, 3200);
  equal(cut.spillPath, undefined);
});

Deno.test("runProgram() never cuts stdout inside a multibyte character", async () => {
  const got = await run(fixture("print_utf8.sh"), [], {}, { maxBytes: 100 });
  equal(got.stdoutTruncated, true);
  equal(got.stdout, "€".repeat(33));
  equal(got.stdoutBytes, 300);
});

Deno.test("runProgram() keeps the first part of stderr up to its cap", async () => {
  const got = await run(fixture("print_bytes.sh"), ["100000", "stderr"]);
  equal(got.stderrTruncated, true);
  equal(got.stderrBytes, 100_000);
  equal(got.stderr, new TextDecoder().decode(expectedBytes(65_536)));
  equal(got.stdoutTruncated, false);
});

Deno.test("runProgram() streams raw stdout bytes to onStdout, invalid UTF-8 included", async () => {
  const chunks: Uint8Array[] = [];
  const got = await run(fixture("print_invalid_utf8.sh"), [], {}, {
    onStdout: (chunk) => chunks.push(chunk.slice()),
  });
  const joined = new Uint8Array(chunks.reduce((n, chunk) => n + chunk.length, 0));
  let offset = 0;
  for (const chunk of chunks) {
    joined.set(chunk, offset);
    offset += chunk.length;
  }
  deepStrictEqual(joined, new Uint8Array([0xff, 0xfe, 0x6f, 0x6b, 0xc3, 0x0a, 0xe2, 0x82]));
  equal(got.stdout, "\ufffd\ufffdok\ufffd\n\ufffd");
});

Deno.test({
  name: "runProgram() holds 100 MiB of output in bounded memory",
  ignore: !IS_LINUX,
  async fn() {
    await using dir = await tempDir();
    const size = 100 * 1024 * 1024;
    // -A: reading /proc/self/status needs every permission.
    const got = await runInChild(["-A"], {
      program: fixture("print_bytes.sh"),
      args: [String(size)],
      cwd: FIXTURES,
      spillDir: dir.path,
      timeoutMs: 60_000,
    });
    equal(got.exitCode, 0);
    equal(got.stdoutBytes, size);
    // The spill file stops at its cap; the rest is only counted.
    equal((await Deno.stat(got.spillPath ?? "")).size, DEFAULT_MAX_SPILL_BYTES);
    equal(got.spillTruncated, true);
    ok((got.peakKiB ?? 0) > 0 && (got.peakKiB ?? 0) < 200 * 1024, `peak ${got.peakKiB} KiB`);
  },
});

// --- secrets ------------------------------------------------------------------------------------

const SECRET = "Zq9W-run-secret-71c3";

/** Joins chunks into text. */
function joined(chunks: readonly Uint8Array[]): string {
  const decoder = new TextDecoder();
  return chunks.map((chunk) => decoder.decode(chunk, { stream: true })).join("") + decoder.decode();
}

Deno.test("runProgram() redacts secrets from the streamed chunks, one split across two reads too", async () => {
  const out: Uint8Array[] = [];
  const err: Uint8Array[] = [];
  const half = SECRET.length / 2;
  const got = await run(
    fixture("print_split.sh"),
    [`token=${SECRET.slice(0, half)}`, SECRET.slice(half)],
    {},
    {
      secrets: [SECRET],
      onStdout: (chunk) => out.push(chunk.slice()),
      onStderr: (chunk) => err.push(chunk.slice()),
    },
  );
  equal(joined(out), "token=[redacted]\n");
  equal(joined(err), "token=[redacted]\n");
  equal(got.stdout, "token=[redacted]\n");
  equal(got.stderr, "token=[redacted]\n");
  // The byte counts are what the program wrote.
  equal(got.stdoutBytes, `token=${SECRET}\n`.length);
});

Deno.test("runProgram() redacts before it cuts: a secret straddling a cap leaves no part of itself", async () => {
  for (const before of [95, 98, 99]) {
    const options = { secrets: [SECRET], maxBytes: 100, maxStderrBytes: 100 };
    const out = await run(fixture("print_around.sh"), [String(before), SECRET], {}, options);
    equal(out.stdoutTruncated, true);
    ok(!out.stdout.includes(SECRET.slice(0, 2)), `stdout after ${before}: ${out.stdout}`);
    const err = await run(
      fixture("print_around.sh"),
      [String(before), SECRET, "stderr", "3"],
      {},
      options,
    );
    equal(err.stderrTruncated, true);
    ok(!err.stderr.includes(SECRET.slice(0, 2)), `stderr after ${before}: ${err.stderr}`);
    ok(!(describeFailure(err, 'Tool "x"') ?? "").includes(SECRET.slice(0, 2)));
  }
});

Deno.test("runProgram() writes the spill file redacted and ends it at maxSpillBytes", async () => {
  await using dir = await tempDir();
  const options = { secrets: [SECRET], spillDir: `${dir.path}/state/spill`, maxBytes: 100 };
  const whole = await run(fixture("print_around.sh"), ["5000", SECRET], {}, options);
  equal(whole.spillTruncated, false);
  equal(
    await Deno.readTextFile(whole.spillPath ?? ""),
    `${"x".repeat(5000)}[redacted]`,
  );
  const capped = await run(fixture("print_bytes.sh"), ["200000"], {}, {
    ...options,
    maxSpillBytes: 10_000,
  });
  equal(capped.spillTruncated, true);
  equal(capped.stdoutBytes, 200_000);
  deepStrictEqual(await Deno.readFile(capped.spillPath ?? ""), expectedBytes(10_000));
});

Deno.test({
  name:
    "runProgram() makes the state and spill directories 0700, and tightens an old spill directory",
  ignore: Deno.build.os === "windows",
  async fn() {
    await using dir = await tempDir();
    const options = { spillDir: `${dir.path}/state/spill`, maxBytes: 100 };
    const got = await run(fixture("print_bytes.sh"), ["1000"], {}, options);
    ok(got.spillPath !== undefined);
    equal((await Deno.stat(`${dir.path}/state`)).mode! & 0o777, 0o700);
    equal((await Deno.stat(`${dir.path}/state/spill`)).mode! & 0o777, 0o700);
    await Deno.chmod(`${dir.path}/state/spill`, 0o755);
    await run(fixture("print_bytes.sh"), ["1000"], {}, options);
    equal((await Deno.stat(`${dir.path}/state/spill`)).mode! & 0o777, 0o700);
  },
});

Deno.test("runProgram() does not hold back output that cannot begin a secret", async () => {
  const controller = new AbortController();
  const got = await run(fixture("ready_sleep.sh"), [], { timeoutMs: 20_000 }, {
    secrets: [SECRET, "ready-or-not"],
    signal: controller.signal,
    graceMs: 100,
    // "ready\n" cannot begin either secret: it arrives while the program still sleeps.
    onStdout: () => controller.abort(),
  });
  equal(got.cancelled, true);
  equal(got.timedOut, false);
  equal(got.stdout, "ready\n");
});

Deno.test({
  name: "runProgram() redacts a secret in the path setsid(1) could not execute",
  ignore: !IS_LINUX,
  async fn() {
    await using dir = await tempDir();
    await Deno.mkdir(`${dir.path}/${SECRET}`);
    const script = `${dir.path}/${SECRET}/run.sh`;
    await Deno.writeTextFile(script, "#!/no/such/interpreter\n");
    await Deno.chmod(script, 0o755);
    const err: Uint8Array[] = [];
    const got = await runProgram(
      { program: script, args: [], cwd: dir.path, stdin: new Uint8Array(), timeoutMs: 10_000 },
      { secrets: [SECRET], onStderr: (chunk) => err.push(chunk.slice()) },
    );
    equal(got.startFailure, "not_found");
    const said = [
      joined(err),
      startError(got) ?? "",
      got.command.join(" "),
      describeFailure(got, 'Tool "x"') ?? "",
    ];
    for (const text of said) ok(!text.includes(SECRET), text);
    match(startError(got) ?? "", /\[redacted\]\/run\.sh/);
  },
});

Deno.test("pruneSpillDir() removes spill files oldest first past 100 files, 7 days or 256 MiB, and nothing else", async () => {
  await using dir = await tempDir();
  const now = Date.now();
  const make = async (name: string, ageMs: number, size = 0) => {
    const path = `${dir.path}/${name}`;
    await Deno.writeFile(path, new Uint8Array());
    if (size > 0) await Deno.truncate(path, size); // sparse: nothing on disk
    const time = new Date(now - ageMs);
    await Deno.utime(path, time, time);
    return path;
  };
  const files: string[] = [];
  for (let i = 0; i < 105; i++) {
    files.push(await make(`${now - i}-0000000${i % 10}.out`, i * 1000));
  }
  const other = await make("notes.txt", SPILL_KEEP_MS * 2);
  const stale = await make("1-abcdef01.out", SPILL_KEEP_MS + 1000);
  const removed = await pruneSpillDir(dir.path, 0, now);
  // The 99 newest stay (room for the new one), the rest and the stale one go; notes.txt stays.
  deepStrictEqual(new Set(removed), new Set([...files.slice(SPILL_KEEP_FILES - 1), stale]));
  ok((await Deno.stat(other)).isFile);

  for (const path of files.slice(0, SPILL_KEEP_FILES - 1)) await Deno.remove(path);
  const big = 100 * 1024 * 1024;
  const newest = await make(`${now}-aaaaaaaa.out`, 0, big);
  const middle = await make(`${now - 1}-bbbbbbbb.out`, 1000, big);
  const oldest = await make(`${now - 2}-cccccccc.out`, 2000, big);
  // 300 MiB is over the budget: the oldest goes; with 16 MiB reserved, 200 MiB still fits.
  deepStrictEqual(await pruneSpillDir(dir.path, 16 * 1024 * 1024, now), [oldest]);
  equal(SPILL_KEEP_BYTES, 256 * 1024 * 1024);
  deepStrictEqual(await pruneSpillDir(dir.path, 100 * 1024 * 1024, now), [
    middle,
  ]);
  ok((await Deno.stat(newest)).isFile);
});

// --- Deno's sandbox -----------------------------------------------------------------------------

Deno.test("runProgram() reports Deno refusing a program and names the flag", async () => {
  const program = fixture("exit_7.sh");
  const got = await runInChild(["--allow-read", "--allow-run=/bin/true"], {
    program,
    cwd: FIXTURES,
  });
  equal(got.startFailure, "permission_denied");
  equal(
    startError(got),
    `Deno's sandbox refused to start program "${program}"; allow it with --allow-run=${program}`,
  );
});

Deno.test("runProgram() explains that LD_* variables block a scoped --allow-run", async () => {
  const program = fixture("exit_7.sh");
  const got = await runInChild(["--allow-read", `--allow-run=${program}`], {
    program,
    cwd: FIXTURES,
    env: [{ LD_BASIS_TEST: "1" }],
  });
  equal(got.startFailure, "permission_denied");
  match(startError(got) ?? "", /holds LD_BASIS_TEST/);
  match(startError(got) ?? "", /unset LD_BASIS_TEST or grant unscoped --allow-run/);
});

Deno.test({
  name: "runProgram() stops the group with the kill program under a scoped --allow-run",
  ignore: !IS_LINUX,
  async fn() {
    await using dir = await tempDir();
    const program = fixture("grandchild.sh");
    const got = await runInChild(
      ["--allow-read", `--allow-run=${program},/bin/kill,/usr/bin/kill`],
      { program, args: [`${dir.path}/pids`], cwd: FIXTURES, timeoutMs: 400 },
    );
    equal(got.timedOut, true);
    const { group, grandchild } = await readPids(`${dir.path}/pids`);
    deepStrictEqual(await processesLeftInGroup(group), []);
    equal(await isAlive(grandchild), false);
  },
});

Deno.test("abortOnInterrupt() turns Ctrl-C into a prompt cancellation", async () => {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--no-prompt",
      "-A",
      fixture("run_child.ts"),
      JSON.stringify({ program: fixture("ready_sleep.sh"), cwd: FIXTURES, interrupt: true }),
    ],
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const stdout = new Response(child.stdout).text();
  const reader = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  let seen = "";
  while (!seen.includes("started")) {
    const { value, done } = await reader.read();
    if (done) break;
    seen += value;
  }
  const sent = performance.now();
  child.kill("SIGINT");
  await reader.cancel();
  const status = await child.status;
  ok(performance.now() - sent < 1500);
  equal(status.success, true);
  const got: RunResult = JSON.parse(await stdout);
  equal(got.cancelled, true);
  notEqual(got.signal, undefined);
});

// --- why a program did not start, in any locale ------------------------------------------------

/**
 * Asserts that a reason for not starting is worded from its phrase: in English as `en`, in
 * Ukrainian with nothing English left but what the system said (`kept`).
 */
function assertStartReason(
  reason: Phrase | undefined,
  en: string | undefined,
  kept: string[] = [],
) {
  ok(reason !== undefined, `no phrase for: ${en}`);
  equal(english(reason), en);
  const uk = UK.say(reason);
  match(uk, CYRILLIC);
  assertNoEnglish(uk, en ?? "", kept);
}

Deno.test("every reason runProgram() gives for not starting is a phrase: worded in English and in uk-UA", async () => {
  const program = fixture("exit_7.sh");
  const cases: [RunResult, string][] = [
    [await run("basis-no-such-program-7c1e"), "start.not_on_path"],
    [await run(fixture("missing.sh")), "start.missing"],
    [await run(FIXTURES.slice(0, -1)), "start.directory"],
    [await run(fixture("not_executable.sh")), "start.not_executable"],
    [await run("  "), "start.blank"],
    [await run(program, [], { cwd: "/nonexistent/basis" }), "start.cwd_missing"],
    [await run(program, [], { cwd: fixture("print_nothing.sh") }), "start.cwd_not_dir"],
    [
      await runInChild(["--allow-read", "--allow-run=/bin/true"], { program, cwd: FIXTURES }),
      "start.sandbox",
    ],
    // Reading refused: the bare name is never handed on (whatever searched next would search
    // PATH's relative entries too), so the lookup itself is refused.
    [
      await runInChild(["--allow-env", "--allow-run=/bin/true"], { program: "sh", cwd: "/" }),
      "start.lookup_refused",
    ],
    [
      await runInChild(["--allow-read", `--allow-run=${program}`], {
        program,
        cwd: FIXTURES,
        env: [{ LD_BASIS_TEST: "1" }],
      }),
      "start.loader_env",
    ],
  ];
  for (const [got, key] of cases) {
    equal(got.startReason?.key, key, startError(got));
    assertStartReason(got.startReason, startError(got));
    equal(
      describeFailure(got, 'Інструмент "x"', UK),
      `Інструмент "x": не вдалося запустити: ${UK.say(got.startReason as Phrase)}`,
    );
  }
  match(
    (cases[8] === undefined ? undefined : startError(cases[8][0])) ?? "",
    /^Deno's sandbox refused to look for program "sh" on PATH \(".+"\); allow reading them with --allow-read, or name the program by its absolute path$/,
  );
});

Deno.test("what Deno or setsid(1) says when a program cannot start becomes a phrase too", () => {
  const reason = (error: Error, cwd = "/") => classifySpawnError(error, "/x/run", cwd, []).reason;
  assertStartReason(
    reason(new Deno.errors.PermissionDenied("Permission denied (os error 13)")),
    'program "/x/run" could not be executed: permission denied',
  );
  assertStartReason(
    reason(new Deno.errors.NotFound("Failed to spawn: No such cwd"), "/gone"),
    'working directory "/gone" does not exist',
  );
  assertStartReason(
    reason(new Deno.errors.NotCapable("Requires run access: environment variables are refused")),
    'Deno\'s sandbox refused to start program "/x/run" because the environment holds LD_*/DYLD_* ' +
      "variables: under a scoped --allow-run Deno starts no program with LD_* or DYLD_* variables; " +
      "unset LD_*/DYLD_* variables or grant unscoped --allow-run",
  );
  const busy = "Resource busy (os error 16)";
  assertStartReason(
    reason(new Error("Resource busy\n  (os error 16)")),
    `program "/x/run" could not be started: ${busy}`,
    [busy],
  );
  const format = "Exec format error";
  assertStartReason(
    launchFailure(
      { viaSetsid: true, bwrap: false } as Parameters<typeof launchFailure>[0],
      { success: false, code: 126, signal: null },
      0,
      `setsid: failed to execute /x/run: ${format}\n`,
    )?.reason,
    `program "/x/run" could not be started: ${format}`,
    [format],
  );
});

// --- messages -----------------------------------------------------------------------------------

Deno.test("describeFailure() checks timed out, cancelled, signal, exit code, start in that order", () => {
  const label = 'Tool "x"';
  const all = {
    timedOut: true,
    cancelled: true,
    signal: "SIGTERM",
    exitCode: 3,
    startFailure: "other" as const,
    startReason: phrase("start.blank"),
  };
  equal(describeFailure(result(all), label), 'Tool "x" timed out after 150 ms');
  equal(describeFailure(result({ ...all, timedOut: false }), label), 'Tool "x" was cancelled');
  equal(
    describeFailure(result({ ...all, timedOut: false, cancelled: false }), label),
    'Tool "x" was killed by signal SIGTERM',
  );
  equal(
    describeFailure(
      result({ exitCode: 3, startFailure: "other", startReason: phrase("start.blank") }),
      label,
    ),
    'Tool "x" exited with code 3',
  );
  equal(
    describeFailure(
      result({ exitCode: undefined, startFailure: "other", startReason: phrase("start.blank") }),
      label,
    ),
    'Tool "x" could not start: the program name is blank',
  );
  equal(describeFailure(result(), label), undefined);
});

Deno.test("describeFailure() quotes stderr, else stdout, trimmed and cut to 4 KiB", () => {
  const label = 'Tool "x"';
  equal(
    describeFailure(result({ exitCode: 1, stderr: "  \n", stdout: "from stdout\n\n" }), label),
    'Tool "x" exited with code 1: from stdout',
  );
  equal(
    describeFailure(result({ timedOut: true, timeoutMs: 1500, stderr: "stuck\n" }), label),
    'Tool "x" timed out after 1500 ms: stuck',
  );
  const big = "e".repeat(65_536);
  const message = describeFailure(
    result({ exitCode: 2, stderr: big, stderrBytes: 120 * 1024, stderrTruncated: true }),
    label,
  );
  equal(message, `Tool "x" exited with code 2: ${"e".repeat(4096)}… (cut; 120 KiB in all)`);
  const euros = describeFailure(
    result({ exitCode: 2, stderr: "€".repeat(2000), stderrBytes: 6000 }),
    label,
  );
  equal(euros, `Tool "x" exited with code 2: ${"€".repeat(1365)}… (cut; 5.9 KiB in all)`);
});

Deno.test("modelResult() trims trailing newlines and names an empty output", () => {
  const label = 'Tool "x"';
  equal(modelResult(result({ stdout: "answer\n\n" }), label), "answer");
  equal(modelResult(result({ stdout: "  indented\r\n" }), label), "  indented");
  equal(modelResult(result({ stdout: "" }), label), 'Tool "x" finished and printed nothing');
  equal(modelResult(result({ stdout: "\n\n" }), label), 'Tool "x" finished and printed nothing');
});

Deno.test("modelResult() notes a cut output, its size and the spill file", () => {
  const label = 'Tool "x"';
  const cut = { stdout: "first part\n", stdoutBytes: 12_345_678, stdoutTruncated: true };
  equal(
    modelResult(result({ ...cut, spillPath: "/state/spill/1-a.out" }), label),
    "first part\n[output cut at 50 KiB / 2000 lines; 12345678 bytes in all; full output: /state/spill/1-a.out]",
  );
  equal(
    modelResult(result(cut), label),
    "first part\n[output cut at 50 KiB / 2000 lines; 12345678 bytes in all]",
  );
  // A spill file that reached its own cap says how much of the output it holds.
  equal(
    modelResult(result({ ...cut, spillPath: "/s/1-a.out", spillTruncated: true }), label),
    "first part\n[output cut at 50 KiB / 2000 lines; 12345678 bytes in all; its first 16 MiB: /s/1-a.out]",
  );
});

Deno.test("the runner classifies each run once: ok, exit code, killed, timed out, cancelled, not started", async () => {
  const run = (
    program: string,
    args: string[],
    options: { timeoutMs?: number; signal?: AbortSignal } = {},
  ) =>
    runProgram(
      { program, args, cwd: "/", stdin: new Uint8Array(), timeoutMs: options.timeoutMs ?? 5000 },
      options.signal === undefined ? {} : { signal: options.signal },
    );
  equal((await run("true", [])).outcome, "ok");
  equal((await run("false", [])).outcome, "exit_code");
  equal((await run("sh", ["-c", "kill -9 $$"])).outcome, "killed");
  equal((await run("sleep", ["5"], { timeoutMs: 100 })).outcome, "timed_out");
  equal((await run("sleep", ["5"], { signal: AbortSignal.abort() })).outcome, "cancelled");
  equal((await run("/no/such/program", [])).outcome, "not_started");
  const later = new AbortController();
  const running = run("sleep", ["5"], { signal: later.signal });
  later.abort();
  equal((await running).outcome, "cancelled");
});

// --- Wording in en-US and uk-UA ---

const EN = messages("en-US");

Deno.test("describeFailure() words a failed run exactly in English and in Ukrainian in uk-UA", () => {
  const cut = `${"é".repeat(2048)}… (cut; 5.9 KiB in all)`;
  const english = [
    undefined,
    undefined,
    'Tool "x" exited with code 4: bad thing',
    'Tool "x" exited with code 4: only stdout',
    'Tool "x" exited with code 7',
    `Tool "x" exited with code 1: ${cut}`,
    'Tool "x" exited with code 1: cut… (cut; 68 KiB in all)',
    'Tool "x" was killed by signal SIGKILL: x',
    'Tool "x" timed out after 150 ms',
    'Tool "x" was cancelled: partial',
    'Tool "x" could not start: program "nope" was not found on PATH',
    'Tool "x" could not start: no reason was given',
    undefined,
    undefined,
    undefined,
  ];
  deepStrictEqual(RUNS.map((result) => describeFailure(result, 'Tool "x"')), english);
  deepStrictEqual(RUNS.map((result) => describeFailure(result, 'Tool "x"', EN)), english);
  const label = UK.t("label.tool", { tool: '"x"' });
  for (const [index, result] of RUNS.entries()) {
    const [en, uk] = [english[index], describeFailure(result, label, UK)];
    if (en === undefined || uk === undefined) {
      equal(uk, en);
      continue;
    }
    ok(uk.startsWith('Інструмент "x": '), uk);
    assertNoEnglish(uk, en, ["bad thing", "only stdout", "cut", "partial"]);
  }
  equal(
    describeFailure(RUNS[6] as RunResult, label, UK),
    'Інструмент "x": завершено з кодом 1: cut… (обрізано; усього 68 КіБ)',
  );
  equal(
    describeFailure(RUNS[10] as RunResult, label, UK),
    'Інструмент "x": не вдалося запустити: програму "nope" не знайдено в PATH',
  );
});

Deno.test("modelResult() in uk-UA is Ukrainian but for the program's own output", () => {
  const label = 'Інструмент "x"';
  for (const result of RUNS) {
    const uk = modelResult(result, label, UK);
    const own = result.stdout.replace(/[\r\n]+$/, "");
    ok(uk.startsWith(own), uk);
    const added = uk.slice(own.length);
    if (added.trim() !== "") match(added, CYRILLIC);
  }
  const cut = { ...RUNS[0]!, stdout: "x", stdoutTruncated: true, stdoutBytes: 99_000 };
  match(modelResult(cut, label, UK), /^x\n\[/);
  match(modelResult(cut, label, UK), CYRILLIC);
});
