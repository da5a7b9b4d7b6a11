/**
 * The MCP server's throughput: sequential `tools/call`s of a `cat` tool over stdio (the SDK's own
 * client driving `basis-tools mcp`, as it ships: the bundle) against the floor for any Deno runner,
 * a minimal Deno loop that spawns `cat` with the same stdin the same number of times. Also the
 * latency of a call (p50, p99) and the server's resident memory after 1,000 and after 10,000 calls.
 *
 * Usage: deno run -A bench/mcp_bench.ts [--quick] [--source] [--bundled] [--rows]
 *   --quick    1,000 timed calls and 2,000 in all (instead of 2,000 and 10,000)
 *   --source   run src/main.ts instead of the bundle
 *   --bundled  the bundle in dist/ is fresh: do not build it again
 *   --rows     print only the Markdown table rows (for bench/run.ts)
 *   --calls N  calls in all for the memory figure (RSS sampled at 1,000, N/2 and N)
 *
 * @module
 */

import { Client } from "@modelcontextprotocol/sdk/client";
// The SDK's "./*" export names no types for "….js" paths: point at them.
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const ROOT = new URL("..", import.meta.url).pathname;
const QUICK = Deno.args.includes("--quick");
const SOURCE = Deno.args.includes("--source");
const ROWS = Deno.args.includes("--rows");
const BUNDLED = Deno.args.includes("--bundled");
/** Calls timed side by side with the floor (after a warm-up). */
const TIMED = QUICK ? 1000 : 2000;
/** Calls in all, for the memory figure (`--calls N`). */
const CALLS_AT = Deno.args.indexOf("--calls");
const TOTAL = CALLS_AT !== -1 ? Number(Deno.args[CALLS_AT + 1]) : QUICK ? 2000 : 10_000;
const WARM_UP = 200;
const INPUT = { text: "hello", count: 3 };
const STDIN = new TextEncoder().encode(JSON.stringify(INPUT));

const log = (text: string) => {
  if (!ROWS) console.error(text);
};

const work = await Deno.makeTempDir({ prefix: "basis-mcp-bench-" });
const root = `${work}/w`;
await Deno.mkdir(`${root}/.basis`, { recursive: true });
await Deno.writeTextFile(
  `${root}/.basis/tools.json`,
  JSON.stringify({
    schema: 1,
    tools: {
      cat: {
        description: "Echo the input",
        input_schema: {
          type: "object",
          properties: { text: { type: "string" }, count: { type: "integer", minimum: 0 } },
          required: ["text"],
        },
        command: ["cat"],
      },
    },
  }),
);

let entry = `${ROOT}src/main.ts`;
if (!SOURCE) {
  entry = `${ROOT}dist/basis-tools.js`;
}
if (!SOURCE && !BUNDLED) {
  log("bundling…");
  const bundled = await new Deno.Command(Deno.execPath(), {
    args: ["task", "--quiet", "bundle"],
    cwd: ROOT,
    stdout: "null",
  }).output();
  if (!bundled.success) throw new Error("deno task bundle failed");
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] as number;
}

function rssMiB(pid: number): number {
  const status = Deno.readTextFileSync(`/proc/${pid}/status`);
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
  return kb / 1024;
}

/** The floor: spawn `cat`, write the same stdin, read all of its output, `n` times. */
async function floor(n: number): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < n; i++) {
    const child = new Deno.Command("cat", { stdin: "piped", stdout: "piped", stderr: "piped" })
      .spawn();
    const writer = child.stdin.getWriter();
    await writer.write(STDIN);
    await writer.close();
    await child.output();
  }
  return performance.now() - started;
}

/** Where setsid(1) is, for the floor of a runner that gives each child its own process group. */
const SETSID = ["/usr/bin/setsid", "/bin/setsid"].find((path) => {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
});

/** The same loop, each `cat` started through setsid(1) in a process group of its own. */
async function groupFloor(n: number): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < n; i++) {
    const child = new Deno.Command(SETSID as string, {
      args: ["--", "cat"],
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const writer = child.stdin.getWriter();
    await writer.write(STDIN);
    await writer.close();
    await child.output();
  }
  return performance.now() - started;
}

const transport = new StdioClientTransport({
  command: Deno.execPath(),
  args: ["run", "-A", "--no-config", entry, "-C", root, "mcp", "--approve", "always"],
  cwd: root,
  env: {
    BASIS_CONFIG_DIR: `${work}/config`,
    BASIS_CACHE_DIR: `${work}/cache`,
    BASIS_STATE_DIR: `${work}/state`,
  },
  stderr: "inherit",
});
const client = new Client({ name: "basis-tools-bench", version: "1.0.0" });
await client.connect(transport);
const pid = transport.pid as number;

// The same server with the OS sandbox off (sandbox.json {"mode": "off"}), for the sandbox's cost.
await Deno.mkdir(`${work}/config-off`, { recursive: true });
await Deno.writeTextFile(`${work}/config-off/sandbox.json`, '{"mode": "off"}\n');
const offTransport = new StdioClientTransport({
  command: Deno.execPath(),
  args: ["run", "-A", "--no-config", entry, "-C", root, "mcp", "--approve", "always"],
  cwd: root,
  env: {
    BASIS_CONFIG_DIR: `${work}/config-off`,
    BASIS_CACHE_DIR: `${work}/cache`,
    BASIS_STATE_DIR: `${work}/state`,
  },
  stderr: "inherit",
});
const offClient = new Client({ name: "basis-tools-bench", version: "1.0.0" });
await offClient.connect(offTransport);

/** `n` sequential calls on the server with the sandbox off. */
async function unsandboxed(n: number): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < n; i++) {
    const result = await offClient.callTool({ name: "cat", arguments: INPUT });
    if (result.isError) throw new Error(`The call failed: ${JSON.stringify(result.content)}`);
  }
  return performance.now() - started;
}

/** Whether the default server confines its calls here (a write outside the workspace fails). */
async function confinedHere(): Promise<boolean> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      "--no-config",
      entry,
      "-C",
      root,
      "--json",
      "call",
      "cat",
      JSON.stringify(INPUT),
      "--dry-run",
      "--approve",
      "always",
    ],
    env: {
      BASIS_CONFIG_DIR: `${work}/config`,
      BASIS_CACHE_DIR: `${work}/cache`,
      BASIS_STATE_DIR: `${work}/state`,
    },
    stdout: "piped",
    stderr: "null",
  }).output();
  const report = JSON.parse(new TextDecoder().decode(out.stdout)) as {
    preview: { sandbox: unknown };
  };
  return report.preview.sandbox !== "unconfined";
}
const confined = await confinedHere();

let done = 0;
async function mcpCall(): Promise<number> {
  const started = performance.now();
  const result = await client.callTool({ name: "cat", arguments: INPUT });
  const elapsed = performance.now() - started;
  if (result.isError) throw new Error(`The call failed: ${JSON.stringify(result.content)}`);
  done++;
  return elapsed;
}

log(`warming up (${WARM_UP} calls each)…`);
for (let i = 0; i < WARM_UP; i++) await mcpCall();
await floor(WARM_UP);
await unsandboxed(WARM_UP);

// Alternate blocks of 100, so that both see the same machine.
log(`${TIMED} sequential calls over MCP vs ${TIMED} spawns of cat…`);
const latencies: number[] = [];
let mcpMs = 0;
let floorMs = 0;
let groupMs = 0;
let offMs = 0;
let rssAt1k: number | undefined;
let rssAt5k: number | undefined;
for (let block = 0; block < TIMED / 100; block++) {
  const started = performance.now();
  for (let i = 0; i < 100; i++) latencies.push(await mcpCall());
  mcpMs += performance.now() - started;
  floorMs += await floor(100);
  if (SETSID !== undefined) groupMs += await groupFloor(100);
  offMs += await unsandboxed(100);
  if (rssAt1k === undefined && done >= 1000) rssAt1k = rssMiB(pid);
}
log(`more calls, up to ${TOTAL}, for the memory figure…`);
while (done < TOTAL) {
  await mcpCall();
  if (rssAt1k === undefined && done >= 1000) rssAt1k = rssMiB(pid);
  if (rssAt5k === undefined && done >= TOTAL / 2) rssAt5k = rssMiB(pid);
}
const rssAtEnd = rssMiB(pid);
await client.close();
await offClient.close();
await Deno.remove(work, { recursive: true });

const sorted = [...latencies].sort((a, b) => a - b);
const mcpRate = TIMED / (mcpMs / 1000);
const floorRate = TIMED / (floorMs / 1000);
const ms = (value: number) => `${value.toFixed(2)} ms`;
const rows = [
  `| MCP \`tools/call\` of a \`cat\` tool, ${TIMED} in a row, vs Deno spawning \`cat\` | ${
    mcpRate.toFixed(0)
  } calls/s | ${floorRate.toFixed(0)} spawns/s | ${
    (mcpRate / floorRate).toFixed(2)
  }× of the floor's rate | ≥ 0.6× |`,
  ...(SETSID === undefined ? [] : [
    `| the same vs Deno spawning \`setsid cat\` (the floor with a process group per call) | ${
      mcpRate.toFixed(0)
    } calls/s | ${(TIMED / (groupMs / 1000)).toFixed(0)} spawns/s | ${
      (mcpRate / (TIMED / (groupMs / 1000))).toFixed(2)
    }× | — |`,
  ]),
  `| MCP \`tools/call\` rate in the OS sandbox (bubblewrap) vs the sandbox off | ${
    confined ? `${mcpRate.toFixed(0)} calls/s` : "(no sandbox here)"
  } | ${(TIMED / (offMs / 1000)).toFixed(0)} calls/s | ${
    (mcpRate / (TIMED / (offMs / 1000))).toFixed(2)
  }× (${(mcpMs / TIMED - offMs / TIMED).toFixed(2)} ms more a call) | report |`,
  `| MCP \`tools/call\` latency, p50 / p99 | ${ms(percentile(sorted, 0.5))} / ${
    ms(percentile(sorted, 0.99))
  } | — | — | report |`,
  `| MCP server RSS after 1,000, ${(TOTAL / 2).toLocaleString("en-US")} and ${
    TOTAL.toLocaleString("en-US")
  } calls | ${(rssAt1k ?? NaN).toFixed(0)} → ${(rssAt5k ?? NaN).toFixed(0)} → ${
    rssAtEnd.toFixed(0)
  } MiB | — | ${(rssAtEnd / (rssAt1k ?? NaN)).toFixed(2)}× | no growth |`,
];
if (ROWS) {
  console.log(rows.join("\n"));
} else {
  console.log(
    ["| measurement | basis-tools | floor | ratio | goal |", "| --- | --- | --- | --- | --- |"]
      .concat(rows)
      .join("\n"),
  );
}
