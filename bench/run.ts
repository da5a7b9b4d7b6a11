/**
 * `deno task bench`: measures the CLI as it ships (the bundle, run with `deno run`) side by side
 * with the floor each goal names, in one run, as ratios of medians. Prints a Markdown table and
 * writes it to `bench/results.md`.
 *
 * Usage: deno task bench [--quick]
 *
 * @module
 */

const ROOT = new URL("..", import.meta.url).pathname;
const BUNDLE = `${ROOT}dist/basis-tools.js`;
const QUICK = Deno.args.includes("--quick");
const RUNS = QUICK ? 7 : 25;
const DENO = Deno.execPath();
const work = await Deno.makeTempDir({ prefix: "basis-bench-" });
const dirs = {
  BASIS_CONFIG_DIR: `${work}/config`,
  BASIS_CACHE_DIR: `${work}/cache`,
  BASIS_STATE_DIR: `${work}/state`,
};
const rows: string[] = [];

async function sh(cmd: string[], options: { stdin?: Uint8Array; cwd?: string } = {}) {
  const child = new Deno.Command(cmd[0] as string, {
    args: cmd.slice(1),
    cwd: options.cwd ?? work,
    env: dirs,
    stdin: options.stdin ? "piped" : "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (options.stdin) {
    const writer = child.stdin.getWriter();
    await writer.write(options.stdin);
    await writer.close();
  }
  const output = await child.output();
  if (output.code !== 0) {
    throw new Error(
      `${cmd.join(" ")} exited ${output.code}: ${new TextDecoder().decode(output.stderr)}`,
    );
  }
  return output;
}

async function timed(cmd: string[], options: { stdin?: Uint8Array; cwd?: string } = {}) {
  const started = performance.now();
  await sh(cmd, options);
  return performance.now() - started;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? sorted[mid] as number
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** Runs two commands alternately, `RUNS` times each after one warm-up, and returns both medians. */
async function sideBySide(
  a: () => Promise<number>,
  b: () => Promise<number>,
): Promise<[number, number]> {
  await a();
  await b();
  const as: number[] = [];
  const bs: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    as.push(await a());
    bs.push(await b());
  }
  return [median(as), median(bs)];
}

async function workspace(name: string, tools: number): Promise<string> {
  const root = `${work}/${name}`;
  await Deno.mkdir(`${root}/.basis`, { recursive: true });
  const entries: Record<string, unknown> = {};
  for (let i = 0; i < tools; i++) {
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
  await Deno.writeTextFile(
    `${root}/.basis/tools.json`,
    JSON.stringify({ schema: 1, tools: entries }),
  );
  return root;
}

const fmt = (ms: number) => `${ms.toFixed(1)} ms`;
const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;

console.error("bundling…");
await sh([DENO, "task", "--quiet", "bundle"], { cwd: ROOT });
await Deno.writeTextFile(`${work}/hello.js`, 'console.log("hello");\n');
await Deno.writeTextFile(
  `${work}/spawn_cat.js`,
  `const child = new Deno.Command("cat", { stdin: "piped", stdout: "piped" }).spawn();
const writer = child.stdin.getWriter();
await writer.write(new TextEncoder().encode(Deno.args[0]));
await writer.close();
const { stdout } = await child.output();
await Deno.stdout.write(stdout);
`,
);
const cli = (
  root: string,
  ...args: string[]
) => [DENO, "run", "-A", "--no-config", BUNDLE, "-C", root, ...args];
const plain = (
  file: string,
  ...args: string[]
) => [DENO, "run", "-A", "--no-config", `${work}/${file}`, ...args];

rows.push(
  "| measurement | basis-tools | floor | ratio | goal |",
  "| --- | --- | --- | --- | --- |",
);

// 1. list on 100 tools vs hello-world.
const w100 = await workspace("w100", 100);
{
  console.error("list on 100 tools vs hello-world…");
  const [list, hello] = await sideBySide(
    () => timed(cli(w100, "list")),
    () => timed(plain("hello.js")),
  );
  rows.push(
    `| \`list\`, 100 tools vs Deno hello-world | ${fmt(list)} | ${fmt(hello)} | ${
      ratio(list, hello)
    } | ≤ 1.3× |`,
  );
}

// 2. call of a cat tool vs a minimal Deno script that spawns cat.
{
  console.error("call cat vs spawn cat…");
  const input = '{"text":"hello","count":3}';
  await sh(cli(w100, "call", "cat", input, "--approve", "always"));
  const [call, floor] = await sideBySide(
    () => timed(cli(w100, "call", "cat", input, "--approve", "always")),
    () => timed(plain("spawn_cat.js", input)),
  );
  rows.push(
    `| \`call\` of a \`cat\` tool vs Deno spawning \`cat\` | ${fmt(call)} | ${fmt(floor)} | ${
      ratio(call, floor)
    } | ≤ 1.3× |`,
  );
}

// 2b. The OS sandbox: the same call confined (bubblewrap, the default where it works) vs with the
// sandbox off (sandbox.json {"mode": "off"}).
{
  console.error("call cat, sandboxed vs unsandboxed…");
  const off = `${work}/config-sandbox-off`;
  await Deno.mkdir(off, { recursive: true });
  await Deno.writeTextFile(`${off}/sandbox.json`, '{"mode": "off"}\n');
  const input = '{"text":"hello","count":3}';
  const call = (...config: string[]) => () =>
    timed(cli(w100, ...config, "call", "cat", input, "--approve", "always"));
  // The first confined call asks whether bwrap works here and keeps the answer.
  await sh(cli(w100, "call", "cat", input, "--approve", "always"));
  const confined = await sandboxWorks();
  const [sandboxed, unsandboxed] = await sideBySide(call(), call("--config-dir", off));
  rows.push(
    `| \`call\` of a \`cat\` tool in the OS sandbox (bubblewrap) vs the sandbox off | ${
      confined ? fmt(sandboxed) : "(no sandbox here)"
    } | ${fmt(unsandboxed)} | ${signed(sandboxed - unsandboxed)} ms | under +4 ms |`,
  );
}

// 3. list scaling.
{
  const sizes = QUICK ? [10, 100, 1000] : [10, 100, 1000, 10000];
  const times: number[] = [];
  for (const size of sizes) {
    console.error(`list on ${size} tools…`);
    const root = await workspace(`scale${size}`, size);
    const [t] = await sideBySide(() => timed(cli(root, "list")), () => Promise.resolve(0));
    times.push(t);
  }
  const base = times[0] as number;
  rows.push(
    `| \`list\` growth: ${sizes.map((s, i) => `${s} → ${fmt(times[i] as number)}`).join(", ")} | ${
      fmt(times.at(-1) as number)
    } | ${fmt(base)} (10 tools) | ${
      ratio(times.at(-1) as number, base)
    } | linear; 10,000 under 1 s |`,
  );
}

// 4. 100 MiB through a tool vs cat piping the same bytes; peak memory over the cap.
{
  const mib = QUICK ? 20 : 100;
  console.error(`${mib} MiB through a tool…`);
  const payload = JSON.stringify({ text: "x".repeat(mib * 1024 * 1024 - 11) });
  const bytes = new TextEncoder().encode(payload);
  await Deno.writeFile(`${work}/payload.json`, bytes);
  const through = `${work}/through`;
  await Deno.mkdir(`${through}/.basis`, { recursive: true });
  await Deno.writeTextFile(
    `${through}/.basis/tools.json`,
    JSON.stringify({
      schema: 1,
      tools: { cat: { description: "cat", input_schema: { type: "object" }, command: ["cat"] } },
    }),
  );
  const callCat = (...flags: string[]) => () =>
    timed([
      "sh",
      "-c",
      `${
        cli(through, "call", "cat", "-", "--approve", "always", ...flags).join(" ")
      } < payload.json > /dev/null`,
    ]);
  const catCat = () => timed(["sh", "-c", "cat < payload.json | cat > /dev/null"]);
  const [tool, floor] = await sideBySide(callCat(), catCat);
  // The audit trail records each input in full: the same without it shows what that costs.
  const [unaudited, floorAgain] = await sideBySide(callCat("--audit-log", "off"), catCat);
  // Streamed output is redacted: the same tool with a secret in its env, against none.
  const secretive = `${work}/secretive`;
  await Deno.mkdir(`${secretive}/.basis`, { recursive: true });
  await Deno.writeTextFile(
    `${secretive}/.basis/tools.json`,
    JSON.stringify({
      schema: 1,
      tools: {
        cat: {
          description: "cat",
          input_schema: { type: "object" },
          command: ["cat"],
          env: { TOKEN: "s3cr3t-bench-token-0123456789abcdef" },
        },
      },
    }),
  );
  const callIn = (root: string) => () =>
    timed([
      "sh",
      "-c",
      `${
        cli(root, "call", "cat", "-", "--approve", "always", "--audit-log", "off").join(" ")
      } < payload.json > /dev/null`,
    ]);
  const [redacted, unredacted] = await sideBySide(callIn(secretive), callIn(through));
  const rate = (ms: number) => `${(mib / (ms / 1000)).toFixed(0)} MiB/s`;
  rows.push(
    `| ${mib} MiB through a \`cat\` tool vs \`cat \\| cat\` | ${rate(tool)} | ${rate(floor)} | ${
      ratio(floor, tool)
    } of the floor's throughput | ≥ 0.5× |`,
    `| the same with \`--audit-log off\` (for comparison) | ${rate(unaudited)} | ${
      rate(floorAgain)
    } | ${ratio(floorAgain, unaudited)} of the floor's throughput | — |`,
    `| the same, audit off, with a secret in the tool's env (output redacted) vs none | ${
      rate(redacted)
    } | ${rate(unredacted)} | ${ratio(unredacted, redacted)} | — |`,
  );

  const gen = `${work}/gen`;
  await Deno.mkdir(`${gen}/.basis`, { recursive: true });
  await Deno.writeTextFile(
    `${gen}/.basis/tools.json`,
    JSON.stringify({
      schema: 1,
      tools: {
        big: {
          description: "big",
          input_schema: { type: "object" },
          command: ["head", "-c", `${mib * 1024 * 1024}`, "/dev/zero"],
        },
      },
    }),
  );
  const peak = async (cmd: string[]) => {
    const out = await sh(["/usr/bin/time", "-f", "%M", ...cmd]);
    const lines = new TextDecoder().decode(out.stderr).trim().split("\n");
    return Number(lines.at(-1)) / 1024;
  };
  const capped = await peak(cli(gen, "--json", "call", "big", "{}", "--approve", "always"));
  const floorPeak = await peak(plain("hello.js"));
  rows.push(
    `| peak memory, ${mib} MiB of output over the cap (\`--json\`) | ${capped.toFixed(0)} MiB | ${
      floorPeak.toFixed(0)
    } MiB (hello-world) | ${ratio(capped, floorPeak)} | under 200 MiB |`,
  );
}

// 5. What approval adds to a call: 1,000 remembered rules and the audit trail, vs --approve
// always with the audit trail off.
{
  console.error("approval path: 1,000 rules + audit vs --approve always, audit off…");
  const config = `${work}/approval-config`;
  await Deno.mkdir(config, { recursive: true });
  // The program as the preview names it: found on PATH, its directory's links resolved.
  const found = new TextDecoder().decode((await sh(["sh", "-c", "command -v cat"])).stdout).trim();
  const cat = `${Deno.realPathSync(found.slice(0, found.lastIndexOf("/")))}/cat`;
  const rules = [];
  for (let i = 0; i < 1000; i++) {
    const tool = i < 300 ? "cat" : `tool_${String(i).padStart(5, "0")}`;
    const when = i < 300
      ? { program: cat, input: { "/never": { equals: i } } }
      : { program: `/usr/bin/${tool}`, argv: [tool, { rest: true }] };
    rules.push({ id: `r-${i}`, tool, decision: "allow", scope: "global", when });
  }
  rules.push({
    id: "r-cat",
    tool: "cat",
    decision: "allow",
    scope: { workspace: Deno.realPathSync(w100) },
    when: { program: cat, argv: ["cat"], cwd: Deno.realPathSync(w100) },
  });
  await Deno.writeTextFile(`${config}/rules.json`, JSON.stringify({ version: 2, rules }), {
    mode: 0o600,
  });
  const input = '{"text":"hello","count":3}';
  const audit = `${work}/audit.jsonl`;
  const [ruled, always] = await sideBySide(
    () => timed(cli(w100, "--config-dir", config, "--audit-log", audit, "call", "cat", input)),
    () =>
      timed(
        cli(
          w100,
          "--config-dir",
          config,
          "--audit-log",
          "off",
          "call",
          "cat",
          input,
          "--approve",
          "always",
        ),
      ),
  );
  rows.push(
    `| approval added to a \`call\`: 1,000 rules + audit vs \`--approve always\`, audit off | ${
      fmt(ruled)
    } | ${fmt(always)} | ${signed(ruled - always)} ms | under 2 ms added |`,
  );
}

// 6. In-process figures from deno bench: validation, rule lookup, audit append.
{
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
  rows.push(
    `| validation of a typical input, compiled schema (\`deno bench\`) | ${
      avg("validateInput() accepts")
    } | ${avg("compiled validator alone")} (ajv's function alone) | — | report ns/op |`,
    `| rule lookup, 1,000 remembered rules (\`deno bench\`) | ${
      avg("decideByRules() with 1,000 rules, one preview")
    } | — | — | part of the 2 ms |`,
    `| audit append, decision + run lines (\`deno bench\`) | ${
      avg("audit: decision + run on an open log")
    } | — | — | part of the 2 ms |`,
  );
}

const table = rows.join("\n");
console.log(table);
if (!QUICK) {
  const results = `${ROOT}bench/results.md`;
  await Deno.writeTextFile(
    results,
    `# Benchmark results\n\nMeasured by \`deno task bench\` on ${
      new Date().toISOString().slice(0, 10)
    } (${Deno.build.target}, Deno ${Deno.version.deno}); medians of ${RUNS} alternating runs.\n\n${table}\n`,
  );
  await sh([DENO, "fmt", "--quiet", results], { cwd: ROOT });
}
await Deno.remove(work, { recursive: true });

// ---------------------------------------------------------------------------------------------
// 7. The MCP server (bench/mcp_bench.ts): sequential tools/call throughput of a `cat` tool vs
// Deno spawning `cat`, the latency of a call, and the server's memory after 1,000 and 10,000
// calls. Its rows are printed and added to bench/results.md.
{
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
  const mcpRows = new TextDecoder().decode(mcp.stdout).trim();
  console.log(mcpRows);
  if (!QUICK) {
    const results = `${ROOT}bench/results.md`;
    await Deno.writeTextFile(results, `${mcpRows}\n`, { append: true });
    await sh([DENO, "fmt", "--quiet", results], { cwd: ROOT });
  }
}

/** Whether calls run confined here: a call's --dry-run preview names its grants, not "unconfined". */
async function sandboxWorks(): Promise<boolean> {
  const out = await sh(
    cli(w100, "--json", "call", "cat", "{}", "--dry-run", "--approve", "always"),
  );
  const report = JSON.parse(new TextDecoder().decode(out.stdout)) as {
    preview: { sandbox: unknown };
  };
  return report.preview.sandbox !== "unconfined";
}

/** A difference with its sign: `+0.3`, `−1.2` (a negative one is noise of the machine). */
function signed(delta: number): string {
  return `${delta < 0 ? "−" : "+"}${Math.abs(delta).toFixed(1)}`;
}
