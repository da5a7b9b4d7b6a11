/**
 * The MCP server's throughput: sequential `tools/call`s of a `cat` tool over stdio (the SDK's own
 * client driving `basis-tools mcp`, as it ships: the bundle, under the released binary's
 * permissions, the OS sandbox off) against the floors for any Deno runner: a minimal Deno loop that
 * spawns `setsid cat` (a process group per call, the guarantee basis-tools gives) with the same
 * stdin the same number of times, and one spawning plain `cat`. The same calls over Streamable HTTP
 * (`mcp --http` on loopback), in the same run against the same floor: 2026-07-28 requests (one POST
 * each, no session, by `fetch`) and a 2025 session (the SDK's client). Also the same server with the
 * sandbox on, the latency of a call (p50, p99), and the server's resident memory after 1,000 calls
 * and after many more.
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
// @ts-types="@modelcontextprotocol/sdk/client/streamableHttp"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { DEFAULT_PERMISSIONS as PERMISSIONS } from "../scripts/_permissions.ts";

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
/** Calls in each block of the sandboxed server, beside each block of 100 of the others. */
const SANDBOXED_BLOCK = 25;
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

/** The bundle run in the workspace with these arguments and the given config directory. */
function bundleRun(configDir: string, args: string[]) {
  return {
    args: ["run", "--no-config", ...PERMISSIONS, entry, "-C", root, ...args, "--approve", "always"],
    cwd: root,
    env: {
      BASIS_CONFIG_DIR: configDir,
      BASIS_CACHE_DIR: `${work}/cache`,
      BASIS_STATE_DIR: `${work}/state`,
    },
  };
}

/** A server of the bundle in the workspace, with the given config directory. */
async function server(configDir: string): Promise<{ client: Client; pid: number }> {
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    ...bundleRun(configDir, ["mcp"]),
    stderr: "inherit",
  });
  const client = new Client({ name: "basis-tools-bench", version: "1.0.0" });
  await client.connect(transport);
  return { client, pid: transport.pid as number };
}

/**
 * The same server over Streamable HTTP on a free loopback port: its URL, and what stops it.
 */
async function httpServer(configDir: string): Promise<{ url: string; stop: () => Promise<void> }> {
  const child = new Deno.Command(Deno.execPath(), {
    ...bundleRun(configDir, ["mcp", "--http", "127.0.0.1:0"]),
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const reader = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  let said = "";
  let url: string | undefined;
  while ((url = /Streamable HTTP at (\S+)\)/.exec(said)?.[1]) === undefined) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`The HTTP server ended: ${said}`);
    said += value;
  }
  const drained = (async () => {
    while (!(await reader.read()).done);
  })();
  return {
    url,
    stop: async () => {
      child.kill("SIGTERM");
      await child.status;
      await drained;
    },
  };
}

/** One 2026-07-28 `tools/call` as one POST, with the headers that mirror its body. */
const MODERN_CALL = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "tools/call",
  params: {
    name: "cat",
    arguments: INPUT,
    _meta: {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientCapabilities": {},
    },
  },
});
async function modernCalls(url: string, n: number): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < n; i++) {
    const response = await fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": "tools/call",
        "mcp-name": "cat",
      },
      body: MODERN_CALL,
    });
    const reply = await response.json();
    if (reply.result?.isError === true || reply.error !== undefined) {
      throw new Error(`The call failed: ${JSON.stringify(reply)}`);
    }
  }
  return performance.now() - started;
}

// The measured server runs with the OS sandbox off (sandbox.json {"mode": "off"}); the other with
// the default (bubblewrap where it works), for the sandbox's cost.
await Deno.mkdir(`${work}/config-off`, { recursive: true });
await Deno.writeTextFile(`${work}/config-off/sandbox.json`, '{"mode": "off"}\n');
const off = await server(`${work}/config-off`);
const on = await server(`${work}/config`);
const http = await httpServer(`${work}/config-off`);
const session = new Client({ name: "basis-tools-bench", version: "1.0.0" });
await session.connect(new StreamableHTTPClientTransport(new URL(http.url)));

/** Whether the default server confines its calls here (the preview names grants). */
async function confinedHere(): Promise<boolean> {
  const out = await new Deno.Command(Deno.execPath(), {
    ...bundleRun(`${work}/config`, ["--json", "call", "cat", JSON.stringify(INPUT), "--dry-run"]),
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
/** One call on a server; returns its latency. */
async function call(client: Client): Promise<number> {
  const started = performance.now();
  const result = await client.callTool({ name: "cat", arguments: INPUT });
  const elapsed = performance.now() - started;
  if (result.isError) throw new Error(`The call failed: ${JSON.stringify(result.content)}`);
  return elapsed;
}

/** `n` sequential calls on a server; returns the time they took. */
async function calls(client: Client, n: number, latencies?: number[]): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < n; i++) {
    const latency = await call(client);
    latencies?.push(latency);
  }
  return performance.now() - started;
}

log(`warming up (${WARM_UP} calls each)…`);
await calls(off.client, WARM_UP);
await calls(on.client, WARM_UP);
await calls(session, WARM_UP);
await modernCalls(http.url, WARM_UP);
await floor(WARM_UP);
if (SETSID !== undefined) await groupFloor(WARM_UP);

// Blocks of 100 of each (the sandboxed server: of SANDBOXED_BLOCK), the order rotated every block,
// so that all see the same machine.
log(`${TIMED} sequential calls over MCP vs ${TIMED} spawns of setsid cat and of cat…`);
const latencies: number[] = [];
let mcpMs = 0;
let floorMs = 0;
let groupMs = 0;
let onMs = 0;
let modernMs = 0;
let sessionMs = 0;
let rssAt1k: number | undefined;
const steps: (() => Promise<void>)[] = [
  async () => {
    mcpMs += await calls(off.client, 100, latencies);
    done += 100;
  },
  async () => {
    floorMs += await floor(100);
  },
  async () => {
    if (SETSID !== undefined) groupMs += await groupFloor(100);
  },
  async () => {
    onMs += await calls(on.client, SANDBOXED_BLOCK);
  },
  async () => {
    modernMs += await modernCalls(http.url, 100);
  },
  async () => {
    sessionMs += await calls(session, 100);
  },
];
for (let block = 0; block < TIMED / 100; block++) {
  for (let k = 0; k < steps.length; k++) {
    await (steps[(block + k) % steps.length] as () => Promise<void>)();
  }
  if (rssAt1k === undefined && done >= 1000) rssAt1k = rssMiB(off.pid);
}
log(`more calls, up to ${TOTAL}, for the memory figure…`);
let rssAtHalf: number | undefined;
while (done < TOTAL) {
  await call(off.client);
  done++;
  if (rssAt1k === undefined && done >= 1000) rssAt1k = rssMiB(off.pid);
  if (rssAtHalf === undefined && done >= TOTAL / 2) rssAtHalf = rssMiB(off.pid);
}
const rssAtEnd = rssMiB(off.pid);
await off.client.close();
await on.client.close();
await session.close();
await http.stop();
await Deno.remove(work, { recursive: true });

const sorted = [...latencies].sort((a, b) => a - b);
const perSecond = (n: number, ms: number) => n / (ms / 1000);
const mcpRate = perSecond(TIMED, mcpMs);
const floorRate = perSecond(TIMED, floorMs);
const groupRate = perSecond(TIMED, groupMs);
const onCalls = (TIMED / 100) * SANDBOXED_BLOCK;
const onRate = perSecond(onCalls, onMs);
const modernRate = perSecond(TIMED, modernMs);
const sessionRate = perSecond(TIMED, sessionMs);
/** The floor the HTTP rows are measured against: the stdio row's. */
const [floorName, floorOfHttp] = SETSID === undefined
  ? ["`cat`", floorRate]
  : ["`setsid cat`", groupRate];
const ms = (value: number) => `${value.toFixed(2)} ms`;
const rows = [
  ...(SETSID === undefined ? [] : [
    `| MCP \`tools/call\` of a \`cat\` tool, ${TIMED} in a row, vs a Deno loop spawning \`setsid cat\` (the same process-group guarantee) | ${
      mcpRate.toFixed(0)
    } calls/s | ${groupRate.toFixed(0)} spawns/s | ${(mcpRate / groupRate).toFixed(2)}× | ≥ 0.9× |`,
  ]),
  `| the same vs a Deno loop spawning \`cat\` | ${mcpRate.toFixed(0)} calls/s | ${
    floorRate.toFixed(0)
  } spawns/s | ${(mcpRate / floorRate).toFixed(2)}× | ${
    SETSID === undefined ? "≥ 0.9×" : "reference"
  } |`,
  `| MCP over Streamable HTTP (\`mcp --http\`, loopback), 2026-07-28: ${TIMED} calls in a row, one POST each, vs the loop spawning ${floorName} | ${
    modernRate.toFixed(0)
  } calls/s | ${floorOfHttp.toFixed(0)} spawns/s | ${
    (modernRate / floorOfHttp).toFixed(2)
  }× | report |`,
  `| the same in a 2025 session (the SDK's client) | ${sessionRate.toFixed(0)} calls/s | ${
    floorOfHttp.toFixed(0)
  } spawns/s | ${(sessionRate / floorOfHttp).toFixed(2)}× | report |`,
  `| MCP \`tools/call\` rate in the OS sandbox (bubblewrap) vs the sandbox off | ${
    confined ? `${onRate.toFixed(0)} calls/s` : "(no sandbox here)"
  } | ${mcpRate.toFixed(0)} calls/s | ${(onRate / mcpRate).toFixed(2)}× (${
    (onMs / onCalls - mcpMs / TIMED).toFixed(2)
  } ms more a call) | report |`,
  `| MCP \`tools/call\` latency, p50 / p99 | ${ms(percentile(sorted, 0.5))} / ${
    ms(percentile(sorted, 0.99))
  } | — | — | report |`,
  `| MCP server RSS after 1,000, ${(TOTAL / 2).toLocaleString("en-US")} and ${
    TOTAL.toLocaleString("en-US")
  } calls | ${(rssAt1k ?? NaN).toFixed(0)} → ${(rssAtHalf ?? NaN).toFixed(0)} → ${
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
