/**
 * `deno task bench`: measures the CLI as it ships (the bundle, run with `deno run` under the
 * released binary's permission flags) side by side with the floor each goal names, in one run, as
 * ratios of medians of alternating runs. Prints a Markdown table; a full run writes it to
 * `bench/results.md`.
 *
 * The floors are the Deno programs in `bench/floors/`, each doing the work its row requires and no
 * more; they run under the same flags. Rows about start-up, throughput and MCP run with the OS
 * sandbox off (`sandbox.json` `{"mode": "off"}`); the sandbox rows compare it on and off.
 *
 * Usage: deno task bench [--quick] [--only sandbox|approval|mcp]
 *   --quick          fewer runs, 20 MiB instead of 100, no 10,000-tool row, nothing written (≈1 minute)
 *   --only sandbox   only the rows about the OS sandbox, nothing written
 *   --only approval  only the rows about approval (rules, content pinning), nothing written
 *   --only mcp       only the rows of the MCP server (stdio and HTTP), nothing written
 *
 * @module
 */

import { DEFAULT_PERMISSIONS as PERMISSIONS } from "../scripts/_permissions.ts";

const ROOT = new URL("..", import.meta.url).pathname;
const BUNDLE = `${ROOT}dist/basis-tools.js`;
const FLOORS = `${ROOT}bench/floors`;
const QUICK = Deno.args.includes("--quick");
/**
 * `--only sandbox`: the sandbox rows alone (the `call` row, and the MCP server's); `--only
 * approval`: the approval rows alone; `--only mcp`: the MCP server's rows alone.
 */
const ONLY = Deno.args.includes("--only") ? Deno.args[Deno.args.indexOf("--only") + 1] : undefined;
if (ONLY !== undefined && !["sandbox", "approval", "mcp"].includes(ONLY)) {
  throw new Error(`--only takes "sandbox", "approval" or "mcp", not ${ONLY}`);
}
const ALL = ONLY === undefined;
/** Alternating runs of each command for the start-up rows, and for the 100 MiB rows. */
const RUNS = QUICK ? 7 : 25;
const BIG_RUNS = QUICK ? 3 : 9;
const MIB = QUICK ? 20 : 100;
const DENO = Deno.execPath();
const work = await Deno.makeTempDir({ prefix: "basis-bench-" });
/** The user directories of every call; `config` has the sandbox off, `config-sandbox` has it on. */
const dirs = {
  BASIS_CONFIG_DIR: `${work}/config`,
  BASIS_CACHE_DIR: `${work}/cache`,
  BASIS_STATE_DIR: `${work}/state`,
};
const SANDBOXED = `${work}/config-sandbox`;
const rows: string[] = [];
const loadAtStart = loadAverage();
const startedAt = performance.now();

interface ShOptions {
  cwd?: string;
}

async function sh(cmd: string[], options: ShOptions = {}) {
  const output = await new Deno.Command(cmd[0] as string, {
    args: cmd.slice(1),
    cwd: options.cwd ?? work,
    env: dirs,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (output.code !== 0) {
    throw new Error(
      `${cmd.join(" ")} exited ${output.code}: ${new TextDecoder().decode(output.stderr)}`,
    );
  }
  return output;
}

/** One timed run: wall-clock milliseconds, and the CPU milliseconds of the process tree if asked. */
interface Sample {
  wall: number;
  cpu?: number;
}

/** A command to time: run it, return what it took. */
type Timer = () => Promise<Sample>;

/** `perf`, when it can count the task clock here (a CPU time that load does not inflate). */
const PERF = await (async () => {
  try {
    const probe = await new Deno.Command("perf", {
      args: ["stat", "-x,", "-e", "task-clock", "--", "true"],
      stdout: "null",
      stderr: "piped",
    }).output();
    return probe.success && /task-clock/.test(new TextDecoder().decode(probe.stderr));
  } catch {
    return false;
  }
})();

/**
 * Times a command; `after` runs once it is timed (to clean up what it left). With `cpu`, and where
 * perf works, a second run under perf counts the CPU time of the command and its children: the
 * wall time is always of a run without perf (perf's own cost grows with the processes it follows,
 * so it would weigh more on the side that starts more of them).
 */
function timer(cmd: string[], after?: () => Promise<void>, cpu = false): Timer {
  const counted = cpu && PERF;
  return async () => {
    const started = performance.now();
    await sh(cmd);
    const wall = performance.now() - started;
    await after?.();
    if (!counted) return { wall };
    const output = await sh(["perf", "stat", "-x,", "-e", "task-clock", "--", ...cmd]);
    await after?.();
    const line = /^([\d.]+),msec,task-clock/m.exec(new TextDecoder().decode(output.stderr));
    return { wall, cpu: Number(line?.[1] ?? NaN) };
  };
}

/** A start-up command: its wall time and its CPU time. */
function startup(cmd: string[]): Timer {
  return timer(cmd, undefined, true);
}

/** A shell command line to time (for redirections of stdin and stdout). */
function shell(line: string, after?: () => Promise<void>): Timer {
  return timer(["sh", "-c", line], after);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? sorted[mid] as number
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/**
 * Runs the commands alternately, `runs` times each after one warm-up each, the order rotated every
 * round (so none always follows another), and returns the medians of their wall and CPU times in
 * the order given (a CPU time not counted is NaN).
 */
async function measure<T extends Timer[]>(
  runs: number,
  ...timers: T
): Promise<{ wall: { [K in keyof T]: number }; cpu: { [K in keyof T]: number } }> {
  for (const t of timers) await t();
  const samples: Sample[][] = timers.map(() => []);
  for (let round = 0; round < runs; round++) {
    for (let k = 0; k < timers.length; k++) {
      const at = (round + k) % timers.length;
      (samples[at] as Sample[]).push(await (timers[at] as Timer)());
    }
  }
  type Medians = { [K in keyof T]: number };
  return {
    wall: samples.map((s) => median(s.map((x) => x.wall))) as Medians,
    cpu: samples.map((s) => median(s.map((x) => x.cpu ?? NaN))) as Medians,
  };
}

/** The medians of the wall times of {@linkcode measure}. */
async function interleaved<T extends Timer[]>(
  runs: number,
  ...timers: T
): Promise<{ [K in keyof T]: number }> {
  return (await measure(runs, ...timers)).wall;
}

async function workspace(name: string, tools: Record<string, unknown>): Promise<string> {
  const root = `${work}/${name}`;
  await Deno.mkdir(`${root}/.basis`, { recursive: true });
  await Deno.writeTextFile(`${root}/.basis/tools.json`, JSON.stringify({ schema: 1, tools }));
  return root;
}

/** A workspace of `count` typical tools, and `cat`. */
function manyTools(name: string, count: number): Promise<string> {
  const entries: Record<string, unknown> = {};
  for (let i = 0; i < count; i++) {
    entries[`tool_${String(i).padStart(5, "0")}`] = {
      description: `Tool number ${i}, which does something useful with its input`,
      input_schema: {
        type: "object",
        properties: { text: { type: "string" }, count: { type: "integer", minimum: 0 } },
        required: ["text"],
      },
      command: ["cat"],
      env: { TOKEN: "${BENCH_TOKEN:-t0k3n}" },
    };
  }
  entries["cat"] = {
    description: "Echo the input",
    input_schema: { type: "object" },
    command: ["cat"],
  };
  return workspace(name, entries);
}

const fmt = (ms: number) => `${ms.toFixed(1)} ms`;
/** How many times the floor's time basis-tools takes (start-up rows: lower is better). */
const times = (basis: number, floor: number) => `${(basis / floor).toFixed(2)}×`;
/** The share of the floor's throughput basis-tools reaches (higher is better). */
const share = (basis: number, floor: number) => `${(floor / basis).toFixed(2)}×`;
const rate = (ms: number) => `${(MIB / (ms / 1000)).toFixed(0)} MiB/s`;
const row = (...cells: string[]) => rows.push(`| ${cells.join(" | ")} |`);

/** The CLI from the bundle in a workspace, with the sandbox off unless given another config. */
const cli = (root: string, ...args: string[]) => [
  DENO,
  "run",
  "--no-config",
  ...PERMISSIONS,
  BUNDLE,
  "-C",
  root,
  ...args,
];
/** The same from a bundle built with `--lazy`: V8 compiles each function on its first call. */
const lazy = (root: string, ...args: string[]) => [
  DENO,
  "run",
  "--no-config",
  ...PERMISSIONS,
  LAZY_BUNDLE,
  "-C",
  root,
  ...args,
];
const floor = (file: string, ...args: string[]) => [
  DENO,
  "run",
  "--no-config",
  ...PERMISSIONS,
  `${FLOORS}/${file}`,
  ...args,
];
const q = (cmd: string[]) => cmd.map((arg) => `'${arg.replaceAll("'", `'\\''`)}'`).join(" ");

console.error("bundling…");
await sh([DENO, "task", "--quiet", "bundle"], { cwd: ROOT });
await sh([DENO, "task", "--quiet", "bundle", "--lazy", "--outdir", `${work}/lazy`], { cwd: ROOT });
// A 50 MiB program of the user's own (row 5), made first: its digest is cached only once its last
// change is 2 s old.
const BIG_PROGRAM = `${work}/bin/big`;
await Deno.mkdir(`${work}/bin`, { recursive: true });
await Deno.writeTextFile(BIG_PROGRAM, `#!/bin/sh\nexec cat\n#${"x".repeat(50 * 1024 * 1024)}\n`, {
  mode: 0o755,
});
await Deno.mkdir(dirs.BASIS_CONFIG_DIR, { recursive: true });
await Deno.writeTextFile(`${dirs.BASIS_CONFIG_DIR}/sandbox.json`, '{"mode": "off"}\n');
await Deno.mkdir(SANDBOXED, { recursive: true });

rows.push(
  "| measurement | basis-tools | floor | ratio | goal |",
  "| --- | --- | --- | --- | --- |",
);

// 0. The size of the code: lines of code in src/ by the team's counter, where it is at hand.
if (ALL) {
  const counter = `${ROOT}../shared/tools/code_lines.py`;
  const lines = await sh(["python3", counter, "--total", `${ROOT}src`]).then(
    (output) => new TextDecoder().decode(output.stdout).trim(),
    () => "(no counter here)",
  );
  row("lines of code in `src/` (`code_lines.py src`)", lines, "—", "—", "≤ 12,000");
}

const w100 = await manyTools("w100", 100);
const INPUT = '{"text":"hello","count":3}';
const LAZY_BUNDLE = `${work}/lazy/basis-tools.js`;
const eagerGain = { call: NaN, list: NaN };

// 1. call of a cat tool vs a Deno script that spawns cat; the same from the lazy bundle.
if (ALL) {
  console.error("call cat vs spawn cat…");
  const { wall: [call, spawn, lazyCall], cpu: [callCpu, spawnCpu] } = await measure(
    RUNS,
    startup(cli(w100, "call", "cat", INPUT, "--approve", "always")),
    startup(floor("spawn_cat.js", INPUT)),
    timer(lazy(w100, "call", "cat", INPUT, "--approve", "always")),
  );
  row(
    "`call` of a `cat` tool vs a Deno script spawning `cat`",
    fmt(call),
    fmt(spawn),
    `${times(call, spawn)}${cpuNote(callCpu, spawnCpu)}`,
    "≤ 1.3×",
  );
  eagerGain.call = call / lazyCall;
}

// 2. list of 100 tools vs hello-world; the same from the lazy bundle.
if (ALL) {
  console.error("list on 100 tools vs hello-world…");
  const { wall: [list, hello, lazyList], cpu: [listCpu, helloCpu] } = await measure(
    RUNS,
    startup(cli(w100, "list")),
    startup(floor("hello.js")),
    timer(lazy(w100, "list")),
  );
  row(
    "`list`, 100 tools vs Deno hello-world",
    fmt(list),
    fmt(hello),
    `${times(list, hello)}${cpuNote(listCpu, helloCpu)}`,
    "≤ 1.3×",
  );
  eagerGain.list = list / lazyList;
  row(
    "functions compiled with their chunk (`build/_eager.ts`): `call` / `list` vs a `--lazy` bundle",
    "—",
    "—",
    `${eagerGain.call.toFixed(2)}× / ${eagerGain.list.toFixed(2)}×`,
    "report",
  );
}

// 3. The OS sandbox: the same call confined (bubblewrap, the default where it works) vs off.
if (ALL || ONLY === "sandbox") {
  console.error("call cat, sandboxed vs unsandboxed…");
  const sandboxed = cli(
    w100,
    "--config-dir",
    SANDBOXED,
    "call",
    "cat",
    INPUT,
    "--approve",
    "always",
  );
  const confined = await sandboxWorks();
  const [on, off] = await interleaved(
    RUNS,
    timer(sandboxed),
    timer(cli(w100, "call", "cat", INPUT, "--approve", "always")),
  );
  row(
    "`call` of a `cat` tool in the OS sandbox (bubblewrap) vs the sandbox off",
    confined ? fmt(on) : "(no sandbox here)",
    fmt(off),
    `${signed(on - off)} ms`,
    "under +4 ms",
  );
  const argvFile = confined ? await bwrapCommandLine(sandboxed) : undefined;
  if (argvFile !== undefined) {
    const { wall: [call, spawn], cpu: [callCpu, spawnCpu] } = await measure(
      RUNS,
      startup(sandboxed),
      startup(floor("spawn_cat_bwrap.js", argvFile, INPUT)),
    );
    row(
      "the same confined `call` vs a Deno script spawning `cat` through the same bwrap arguments",
      fmt(call),
      fmt(spawn),
      `${times(call, spawn)}${cpuNote(callCpu, spawnCpu)}`,
      "≤ 1.3×",
    );
  } else if (confined) {
    row("the same vs a Deno script spawning bwrap's `cat`", "(needs strace)", "—", "—", "≤ 1.3×");
  }
}

// 4. What approval adds to a call: 1,000 remembered rules and the audit trail, vs --approve
// always with the audit trail off.
if (ALL || ONLY === "approval") {
  console.error("approval path: 1,000 rules + audit vs --approve always, audit off…");
  const config = `${work}/approval-config`;
  await Deno.mkdir(config, { recursive: true });
  await Deno.writeTextFile(`${config}/sandbox.json`, '{"mode": "off"}\n');
  // The program as the preview names it: found on PATH, its directory's links resolved.
  const found = new TextDecoder().decode((await sh(["sh", "-c", "command -v cat"])).stdout).trim();
  const cat = `${Deno.realPathSync(found.slice(0, found.lastIndexOf("/")))}/cat`;
  // The rule that answers, added as a user would: it pins what the call runs (and, where root runs
  // the bench, the program's content, whose digest is then cached).
  await sh(cli(w100, "--config-dir", config, "rules", "add", "--tool", "cat"));
  const added = JSON.parse(await Deno.readTextFile(`${config}/rules.json`)).rules;
  const rules = [];
  for (let i = 0; i < 1000; i++) {
    const tool = i < 300 ? "cat" : `tool_${String(i).padStart(5, "0")}`;
    const when = i < 300
      ? { program: cat, input: { "/never": { equals: i } } }
      : { program: `/usr/bin/${tool}`, argv: [tool, { rest: true }] };
    rules.push({ id: `r-${i}`, tool, decision: "allow", scope: "global", when });
  }
  rules.push(...added);
  await Deno.writeTextFile(`${config}/rules.json`, JSON.stringify({ version: 2, rules }), {
    mode: 0o600,
  });
  const audit = `${work}/audit.jsonl`;
  const [ruled, always] = await interleaved(
    RUNS,
    timer(cli(w100, "--config-dir", config, "--audit-log", audit, "call", "cat", INPUT)),
    timer(cli(
      w100,
      "--config-dir",
      config,
      "--audit-log",
      "off",
      "call",
      "cat",
      INPUT,
      "--approve",
      "always",
    )),
  );
  row(
    "approval added to a `call`: 1,000 rules + audit vs `--approve always`, audit off",
    fmt(ruled),
    fmt(always),
    `${signed(ruled - always)} ms`,
    "under 2 ms added",
  );
}

// 4b. What content pinning adds for a 50 MiB program of the user's own: the first call (its digest
// not cached: the program is read) and the next ones (a stat and the cache entry), vs the same
// call allowed by the same rule with `"content": "any"` (nothing pinned, nothing read).
if (ALL || ONLY === "approval") {
  console.error("content pinning of a 50 MiB program, first call and cached…");
  const root = await workspace("pinned", {
    big: { description: "big", input_schema: { type: "object" }, command: [BIG_PROGRAM] },
  });
  const config = `${work}/pin-config`;
  await Deno.mkdir(config, { recursive: true });
  await Deno.writeTextFile(`${config}/sandbox.json`, '{"mode": "off"}\n');
  await sh(cli(root, "--config-dir", config, "rules", "add", "--tool", "big"));
  const unpinned = `${work}/pin-any-config`;
  await Deno.mkdir(unpinned, { recursive: true });
  await Deno.writeTextFile(`${unpinned}/sandbox.json`, '{"mode": "off"}\n');
  const rulesFile = JSON.parse(await Deno.readTextFile(`${config}/rules.json`));
  rulesFile.rules[0].when.content = "any";
  await Deno.writeTextFile(`${unpinned}/rules.json`, JSON.stringify(rulesFile), { mode: 0o600 });
  // Settled: changed more than 2 s ago, so a digest read now is cached.
  const changed = Deno.statSync(BIG_PROGRAM).ctime?.getTime() ?? 0;
  const wait = changed + 2100 - Date.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  const withCache = (dir: string, args: string[]) =>
    `BASIS_CACHE_DIR=${q([dir])} ${q(cli(root, ...args))} > /dev/null`;
  const cold = `${work}/cache-cold`;
  const warm = `${work}/cache-warm`;
  const call = ["--config-dir", config, "--audit-log", "off", "call", "big", INPUT];
  const [first, cached, any] = await interleaved(
    RUNS,
    shell(withCache(cold, call), () => Deno.remove(cold, { recursive: true }).catch(() => {})),
    shell(withCache(warm, call)),
    shell(withCache(warm, ["--config-dir", unpinned, ...call.slice(2)])),
  );
  row(
    'content pinning of a 50 MiB program of the user\'s own: first call / cached, vs the same rule with `"content": "any"`',
    `${fmt(first)} / ${fmt(cached)}`,
    fmt(any),
    `${signed(first - any)} ms / ${signed(cached - any)} ms`,
    "cached: under 2 ms added",
  );
}

// 5. list scaling.
if (ALL) {
  const sizes = QUICK ? [10, 100, 1000] : [10, 100, 1000, 10000];
  const medians: number[] = [];
  for (const size of sizes) {
    console.error(`list on ${size} tools…`);
    const root = await manyTools(`scale${size}`, size);
    const [t] = await interleaved(size >= 1000 ? BIG_RUNS : RUNS, timer(cli(root, "list")));
    medians.push(t);
  }
  const base = medians[0] as number;
  row(
    `\`list\` growth: ${sizes.map((s, i) => `${s} → ${fmt(medians[i] as number)}`).join(", ")}`,
    fmt(medians.at(-1) as number),
    `${fmt(base)} (10 tools)`,
    times(medians.at(-1) as number, base),
    "10,000 under 200 ms",
  );
}

// 6. The input direction: MIB MiB of input through a `cat` tool (which echoes it back) vs the
// floor that reads, parses, writes to `cat` and relays; `cat | cat` as the physical limit.
if (ALL) {
  console.error(`${MIB} MiB of input through a cat tool…`);
  const payload = `${work}/payload.json`;
  await Deno.writeTextFile(payload, JSON.stringify({ text: "x".repeat(MIB * 1024 * 1024 - 11) }));
  const echo = { description: "cat", input_schema: { type: "object" }, command: ["cat"] };
  const through = await workspace("through", { cat: echo });
  const secretive = await workspace("secretive", {
    cat: { ...echo, env: { TOKEN: "s3cr3t-bench-token-0123456789abcdef" } },
  });
  const audit = `${work}/through-audit.jsonl`;
  const call = (root: string, ...flags: string[]) =>
    `${q(cli(root, ...flags, "call", "cat", "-", "--approve", "always"))} < ${payload} > /dev/null`;
  const [audited, unaudited, redacted, relay, catCat] = await interleaved(
    BIG_RUNS,
    shell(call(through, "--audit-log", audit), () => Deno.remove(audit)),
    shell(call(through, "--audit-log", "off")),
    shell(call(secretive, "--audit-log", "off")),
    shell(`${q(floor("input_relay.js"))} < ${payload} > /dev/null`),
    shell(`cat < ${payload} | cat > /dev/null`),
  );
  row(
    `input direction: ${MIB} MiB of input through a \`cat\` tool vs a Deno script that reads, parses, writes to \`cat\` and relays`,
    rate(audited),
    rate(relay),
    share(audited, relay),
    "≥ 0.9×",
  );
  row(
    "the same with `--audit-log off`",
    rate(unaudited),
    rate(relay),
    share(unaudited, relay),
    "—",
  );
  row(
    "the same, audit off, with a secret in the tool's env (output redacted) vs none",
    rate(redacted),
    rate(unaudited),
    share(redacted, unaudited),
    "—",
  );
  row(
    `\`cat < input \\| cat\`, ${MIB} MiB (the physical limit; basis-tools as a share of it)`,
    rate(audited),
    rate(catCat),
    share(audited, catCat),
    "reference",
  );
  await Deno.remove(payload);
}

// 7. The output direction: a small input, a tool printing MIB MiB, vs a reader-loop relay; the same
// with `--json` (the output spills to a file) vs that relay writing a file; peak memory of the latter.
if (ALL) {
  console.error(`a tool printing ${MIB} MiB, streamed and with --json…`);
  const program = ["head", "-c", `${MIB * 1024 * 1024}`, "/dev/zero"];
  const gen = await workspace("gen", {
    big: { description: "big", input_schema: { type: "object" }, command: program },
  });
  const spill = `${work}/floor-spill`;
  await Deno.mkdir(spill, { recursive: true, mode: 0o700 });
  let n = 0;
  const [streamed, relay, json, relayToFile] = await interleaved(
    BIG_RUNS,
    shell(`${q(cli(gen, "call", "big", "{}", "--approve", "always"))} > /dev/null`),
    shell(`${q(floor("output_relay.js", ...program))} > /dev/null`),
    shell(`${q(cli(gen, "--json", "call", "big", "{}", "--approve", "always"))} > /dev/null`),
    () => shell(`${q(floor("spill_relay.js", `${spill}/${n++}.out`, ...program))} > /dev/null`)(),
  );
  row(
    `output direction: a tool printing ${MIB} MiB vs a Deno reader-loop relay`,
    rate(streamed),
    rate(relay),
    share(streamed, relay),
    "≥ 0.9×",
  );
  row(
    `\`--json\`, ${MIB} MiB of output (spilled: the first 16 MiB to a file) vs the same relay writing a file`,
    rate(json),
    rate(relayToFile),
    share(json, relayToFile),
    "≥ 0.9×",
  );
  const peak = async (cmd: string[]) => {
    const out = await sh(["/usr/bin/time", "-f", "%M", ...cmd]);
    const lines = new TextDecoder().decode(out.stderr).trim().split("\n");
    return Number(lines.at(-1)) / 1024;
  };
  const capped = await peak(cli(gen, "--json", "call", "big", "{}", "--approve", "always"));
  const floorPeak = await peak(floor("hello.js"));
  row(
    `peak memory, ${MIB} MiB of output over the cap (\`--json\`)`,
    `${capped.toFixed(0)} MiB`,
    `${floorPeak.toFixed(0)} MiB (hello-world)`,
    times(capped, floorPeak),
    "under 200 MiB",
  );
}

// 7b. Redaction with many secrets: a tool printing random letters and digits (every byte may begin
// one of them) with 3,000 secrets in its env vs the same tool with none; and the same secrets over
// twice the output, to show the cost grows with the output only.
if (ALL) {
  const size = QUICK ? 9 : 27;
  console.error(`a tool printing ${size} MiB with 3,000 secrets…`);
  const text = `${work}/random.txt`;
  const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789";
  const block = new Uint8Array(1024 * 1024);
  const file = await Deno.open(text, { write: true, create: true, truncate: true });
  for (let i = 0; i < 2 * size; i++) {
    for (let at = 0; at < block.length; at += 65536) {
      crypto.getRandomValues(block.subarray(at, at + 65536));
    }
    for (let k = 0; k < block.length; k++) block[k] = alphabet.charCodeAt(block[k]! % 36);
    await file.write(block);
  }
  file.close();
  const env: Record<string, string> = {};
  for (let i = 0; i < 3000; i++) {
    const bytes = crypto.getRandomValues(new Uint8Array(24));
    env[`SECRET_${i}`] = Array.from(bytes, (byte) => alphabet[byte % 36]).join("");
  }
  const printing = (mib: number) => ["head", "-c", `${mib * 1024 * 1024}`, text];
  const tools = {
    plain: { description: "plain", input_schema: { type: "object" }, command: printing(size) },
    secret: {
      description: "secret",
      input_schema: { type: "object" },
      command: printing(size),
      env,
    },
    twice: {
      description: "twice",
      input_schema: { type: "object" },
      command: printing(2 * size),
      env,
    },
  };
  const root = await workspace("redaction", tools);
  const call = (name: string) =>
    shell(
      `${
        q(cli(root, "--audit-log", "off", "call", name, "{}", "--approve", "always"))
      } > /dev/null`,
    );
  const [plain, secret, twice] = await interleaved(
    BIG_RUNS,
    call("plain"),
    call("secret"),
    call("twice"),
  );
  const mibPerS = (mib: number, ms: number) => `${(mib / (ms / 1000)).toFixed(0)} MiB/s`;
  row(
    `redaction: a tool printing ${size} MiB of random letters and digits with 3,000 secrets (24 characters) in its env vs none`,
    mibPerS(size, secret),
    mibPerS(size, plain),
    share(secret, plain),
    "linear in the output",
  );
  row(
    `the same 3,000 secrets over ${2 * size} MiB vs ${size} MiB (time)`,
    fmt(twice),
    fmt(secret),
    times(twice, secret),
    "about 2×",
  );
  await Deno.remove(text);
}

// 8. In-process figures from deno bench: validation, rule lookup, audit append.
if (ALL) {
  console.error("deno bench…");
  const output = await sh([
    DENO,
    "bench",
    "-A",
    "--json",
    `${ROOT}bench/validate_bench.ts`,
    `${ROOT}bench/rules_bench.ts`,
    `${ROOT}bench/audit_bench.ts`,
  ], { cwd: ROOT });
  const report = JSON.parse(new TextDecoder().decode(output.stdout)) as {
    benches: { name: string; results: { ok?: { avg: number } }[] }[];
  };
  const avg = (name: string) => {
    const ns = report.benches.find((b) => b.name.startsWith(name))?.results[0]?.ok?.avg;
    if (ns === undefined) throw new Error(`No bench named "${name}"`);
    return ns < 10_000 ? `${ns.toFixed(0)} ns` : `${(ns / 1000).toFixed(1)} µs`;
  };
  row(
    "validation of a typical input, compiled schema (`deno bench`)",
    avg("validateInput() accepts"),
    `${avg("compiled validator alone")} (ajv's function alone)`,
    "—",
    "report ns/op",
  );
  row(
    "rule lookup, 1,000 remembered rules (`deno bench`)",
    avg("decideByRules() with 1,000 rules, one preview"),
    "—",
    "—",
    "part of the 2 ms",
  );
  row(
    "audit append, decision + run lines (`deno bench`)",
    avg("audit: decision + run on an open log"),
    "—",
    "—",
    "part of the 2 ms",
  );
}

// 9. The MCP server (bench/mcp_bench.ts): sequential tools/call of a `cat` tool vs Deno loops
// spawning `setsid cat` and `cat`, the sandbox on vs off, latency, memory.
if (ONLY !== "approval") {
  console.error("MCP server: sequential tools/call…");
  const mcp = await sh([
    DENO,
    "run",
    "-A",
    `${ROOT}bench/mcp_bench.ts`,
    "--bundled",
    "--rows",
    ...(QUICK ? ["--quick"] : []),
  ], { cwd: ROOT });
  const lines = new TextDecoder().decode(mcp.stdout).trim().split("\n");
  rows.push(...lines.filter((line) => ONLY !== "sandbox" || line.includes("sandbox")));
}
await Deno.remove(work, { recursive: true });

const table = rows.join("\n");
const minutes = (performance.now() - startedAt) / 60_000;
const load =
  `load average ${loadAtStart} at the start and ${loadAverage()} at the end, on ${navigator.hardwareConcurrency} cores`;
console.log(table);
console.error(`${minutes.toFixed(1)} min; ${load}`);
if (!QUICK && ALL) {
  const results = `${ROOT}bench/results.md`;
  await Deno.writeTextFile(
    results,
    `# Benchmark results

Measured by \`deno task bench\` on ${
      new Date().toISOString().slice(0, 10)
    } (${Deno.build.target}, Deno ${Deno.version.deno}; ${load}; ${
      minutes.toFixed(1)
    } min): the bundle run with \`deno run --no-config ${
      PERMISSIONS.join(" ")
    }\` (the released binary's permissions), the floors (\`bench/floors/\`) under the same flags, the OS sandbox off but in the sandbox rows. Medians of ${RUNS} alternating runs (${BIG_RUNS} for the ${MIB} MiB and 1,000+ tool rows); ratios of time are basis-tools ÷ floor (and, in brackets, of CPU time counted by \`perf stat\` where it works: the machine's load inflates it less), ratios of throughput the share of the floor's rate.

${table}
`,
  );
  await sh([DENO, "fmt", "--quiet", results], { cwd: ROOT });
}

/** Whether calls run confined here: a call's --dry-run preview names its grants, not "unconfined". */
async function sandboxWorks(): Promise<boolean> {
  const out = await sh(cli(
    w100,
    "--config-dir",
    SANDBOXED,
    "--json",
    "call",
    "cat",
    "{}",
    "--dry-run",
    "--approve",
    "always",
  ));
  const report = JSON.parse(new TextDecoder().decode(out.stdout)) as {
    preview: { sandbox: unknown };
  };
  return report.preview.sandbox !== "unconfined";
}

/**
 * The bwrap command line a confined call starts, read from its `execve` under strace, written as a
 * JSON array to a file for the floor; undefined where strace is missing.
 */
async function bwrapCommandLine(call: string[]): Promise<string | undefined> {
  const trace = `${work}/bwrap.strace`;
  try {
    await sh(["strace", "-f", "-qq", "-e", "trace=execve", "-s", "65535", "-o", trace, ...call]);
  } catch {
    return undefined;
  }
  const exec = /execve\("[^"]*bwrap", (\[.*?\]), 0x/.exec(await Deno.readTextFile(trace));
  if (exec === null) return undefined;
  const file = `${work}/bwrap-argv.json`;
  await Deno.writeTextFile(file, JSON.stringify(JSON.parse(exec[1] as string)));
  return file;
}

/** `(CPU 1.20×)`: the ratio of CPU times beside a ratio of wall times, where perf counted them. */
function cpuNote(basis: number, floor: number): string {
  return Number.isNaN(basis) || Number.isNaN(floor) ? "" : ` (CPU ${times(basis, floor)})`;
}

/** A difference with its sign: `+0.3`, `−1.2` (a negative one is noise of the machine). */
function signed(delta: number): string {
  return `${delta < 0 ? "−" : "+"}${Math.abs(delta).toFixed(1)}`;
}

/** The 1-minute load average, from /proc/loadavg (`?` where there is none). */
function loadAverage(): string {
  try {
    return Deno.readTextFileSync("/proc/loadavg").split(" ")[0] ?? "?";
  } catch {
    return "?";
  }
}
