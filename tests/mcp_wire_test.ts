/**
 * The MCP server as clients speak it today: MCP 2026-07-28 (stateless, `server/discover`, cache
 * hints, approval through `input_required` with a `requestState` bound to the exact call) beside
 * the 2025 protocol, over stdio and Streamable HTTP (`mcp --http`), driven by the Python SDK's
 * client (both revisions), the TypeScript SDK's client (2025 sessions) and raw JSON-RPC; the
 * `requestState` attacked; the HTTP server's token, Host and Origin checks; bad bodies.
 *
 * @module
 */

import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client";
// @ts-types="@modelcontextprotocol/sdk/client/streamableHttp"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { cliCommand, manifest, ROOT, type Scratch, scratch, unconfined } from "./_cli.ts";
import { DENO_ENV } from "./_mcp.ts";
import { PYTHON, PYTHON_BIN, pythonSkip } from "./_python_sdk.ts";
import { driveJson } from "./_deno_run.ts";
import { approvalBinding, RequestStates } from "../src/mcp/_request_state.ts";

const V = "2026-07-28";
const ENVELOPE = {
  "io.modelcontextprotocol/protocolVersion": V,
  "io.modelcontextprotocol/clientCapabilities": { elicitation: { form: {} } },
};

/** A workspace whose `write` tool writes its input to `ran.txt`: a call that ran leaves it. */
async function workspace(): Promise<Scratch> {
  const dirs = await scratch({
    schema: 1,
    tools: {
      echo: {
        description: "Echo the input",
        input_schema: { type: "object", properties: { text: { type: "string" } } },
        command: ["/bin/cat"],
      },
      write: {
        description: "Write the input to ran.txt",
        input_schema: { type: "object", properties: { text: { type: "string" } } },
        command: ["/bin/sh", "-c", "/bin/cat >> ran.txt; echo wrote"],
      },
    },
  });
  await unconfined(dirs);
  return dirs;
}

async function ran(dirs: Scratch): Promise<string | undefined> {
  return await Deno.readTextFile(`${dirs.root}/ran.txt`).catch(() => undefined);
}

function serverEnv(dirs: Scratch, args: string[], env: Record<string, string> = {}) {
  const command = cliCommand(dirs, args, { env });
  for (const name of DENO_ENV) {
    const value = Deno.env.get(name);
    if (value !== undefined) command.env[name] = value;
  }
  return command;
}

/** A server speaking raw JSON lines on stdio. */
function rawStdio(dirs: Scratch, args: string[] = ["mcp"]) {
  const command = serverEnv(dirs, args);
  const child = new Deno.Command(command.command, {
    args: command.args,
    cwd: command.cwd,
    env: command.env,
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = "";
  const replies = new Map<unknown, PromiseWithResolvers<Record<string, unknown>>>();
  const notifications: Record<string, unknown>[] = [];
  const waitFor = (id: unknown) => {
    if (!replies.has(id)) replies.set(id, Promise.withResolvers());
    return replies.get(id)!.promise;
  };
  (async () => {
    for (;;) {
      const { value, done } = await lines.read();
      if (done) return;
      buffered += value;
      let at;
      while ((at = buffered.indexOf("\n")) !== -1) {
        const message = JSON.parse(buffered.slice(0, at));
        buffered = buffered.slice(at + 1);
        if (!("id" in message)) notifications.push(message);
        if ("id" in message && !("method" in message)) {
          if (!replies.has(message.id)) replies.set(message.id, Promise.withResolvers());
          replies.get(message.id)!.resolve(message);
        }
      }
    }
  })();
  let next = 1;
  return {
    notifications,
    /** Sends a request and does not wait for its answer; returns its id. */
    async send(method: string, params: Record<string, unknown> = {}) {
      const id = next++;
      await writer.write(
        new TextEncoder().encode(JSON.stringify({ jsonrpc: "2.0", id, method, params }) + "\n"),
      );
      return id;
    },
    async request(method: string, params: Record<string, unknown> = {}) {
      const id = next++;
      await writer.write(
        new TextEncoder().encode(JSON.stringify({ jsonrpc: "2.0", id, method, params }) + "\n"),
      );
      return await waitFor(id);
    },
    async close() {
      await writer.close();
      await child.status;
      await child.stderr.cancel();
    },
  };
}

Deno.test("mcp 2026-07-28 over stdio: discover, cache hints and resultType, the envelope checked, initialize refused once modern", async () => {
  await using dirs = await workspace();
  const server = rawStdio(dirs);
  try {
    const discover = await server.request("server/discover", { _meta: ENVELOPE });
    const found = discover.result as Record<string, unknown>;
    assert.deepEqual(found.supportedVersions, [V]);
    assert.equal(found.resultType, "complete");
    assert.deepEqual(found.capabilities, { tools: { listChanged: true }, logging: {} });
    assert.equal(typeof found.instructions, "string");
    const meta = found._meta as Record<string, { name: string }>;
    assert.equal(meta["io.modelcontextprotocol/serverInfo"]!.name, "basis-tools");
    const list = (await server.request("tools/list", { _meta: ENVELOPE })).result as Record<
      string,
      unknown
    >;
    assert.equal(list.resultType, "complete");
    assert.equal(list.ttlMs, 5000);
    assert.equal(list.cacheScope, "private");
    assert.deepEqual((list.tools as { name: string }[]).map((t) => t.name), [
      "echo",
      "write",
      "spawn",
    ]);
    // The envelope is on every request: without the capabilities, -32602 naming what is missing.
    const bare = await server.request("tools/list", {
      _meta: { "io.modelcontextprotocol/protocolVersion": V },
    });
    assert.equal((bare.error as { code: number }).code, -32602);
    assert.match((bare.error as { message: string }).message, /clientCapabilities/);
    const later = await server.request("tools/list", {
      _meta: { ...ENVELOPE, "io.modelcontextprotocol/protocolVersion": "2027-01-01" },
    });
    assert.deepEqual(later.error, {
      code: -32022,
      message: "Unsupported protocol version",
      data: { supported: [V], requested: "2027-01-01" },
    });
    const init = await server.request("initialize", {
      protocolVersion: "2025-11-25",
      capabilities: {},
      clientInfo: { name: "t", version: "1" },
    });
    assert.equal((init.error as { code: number }).code, -32022);
    const gone = await server.request("ping", { _meta: ENVELOPE });
    assert.equal((gone.error as { code: number }).code, -32601);
  } finally {
    await server.close();
  }
});

Deno.test("mcp 2026-07-28: an approval's requestState approves only the call it was asked about, once", async () => {
  await using dirs = await workspace();
  const server = rawStdio(dirs);
  const call = (args: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    server.request("tools/call", { _meta: ENVELOPE, name: "write", arguments: args, ...extra });
  const yes = { approval: { action: "accept", content: { decision: "allow_once" } } };
  try {
    const first = (await call({ text: "a" })).result as Record<string, unknown>;
    assert.equal(first.resultType, "input_required");
    const asked =
      (first.inputRequests as Record<string, { method: string; params: { message: string } }>)
        .approval!;
    assert.equal(asked.method, "elicitation/create");
    assert.match(asked.params.message, /\/bin\/sh -c/);
    const state = first.requestState as string;
    // Nothing of the call is in the state, and nothing ran yet.
    assert.doesNotMatch(
      atob(state.split(".")[1]!.replaceAll("-", "+").replaceAll("_", "/")),
      /write|"a"/,
    );
    assert.equal(await ran(dirs), undefined);
    // The answer replayed on another call (other input), tampered with, or not a state at all.
    const tampered = state.slice(0, -2) + (state.endsWith("A") ? "BA" : "AA");
    for (
      const [args, requestState] of [
        [{ text: "b" }, state],
        [{ text: "a" }, tampered],
        [{ text: "a" }, "b1.e30.AAAA"],
        [{ text: "a" }, 42],
      ] as const
    ) {
      const refused = await call(args, { requestState, inputResponses: yes });
      assert.equal((refused.error as { code: number }).code, -32602, JSON.stringify(refused));
      assert.match((refused.error as { message: string }).message, /approves nothing/);
    }
    // On another tool either.
    const other = await server.request("tools/call", {
      _meta: ENVELOPE,
      name: "echo",
      arguments: { text: "a" },
      requestState: state,
      inputResponses: yes,
    });
    assert.equal((other.error as { code: number }).code, -32602);
    assert.equal(await ran(dirs), undefined);
    // The answer with its own call runs it, once; the same state again approves nothing.
    const done = (await call({ text: "a" }, { requestState: state, inputResponses: yes }))
      .result as { content: { text: string }[]; resultType: string };
    assert.equal(done.resultType, "complete");
    assert.equal(done.content[0]!.text, "wrote");
    assert.equal(await ran(dirs), '{"text":"a"}');
    const again = await call({ text: "a" }, { requestState: state, inputResponses: yes });
    assert.equal((again.error as { code: number }).code, -32602);
    // A refusal with a valid state is a denial; an answer the form did not offer is one too.
    const second = (await call({ text: "c" })).result as { requestState: string };
    const declined = (await call({ text: "c" }, {
      requestState: second.requestState,
      inputResponses: { approval: { action: "accept", content: { decision: "always_allow!" } } },
    })).result as { isError: boolean };
    assert.equal(declined.isError, true);
    assert.equal(await ran(dirs), '{"text":"a"}');
  } finally {
    await server.close();
  }
});

Deno.test("mcp 2026-07-28: subscriptions/listen hears of each roster change; tools/list then has the new tool", async () => {
  await using dirs = await workspace();
  const server = rawStdio(dirs);
  try {
    const id = await server.send("subscriptions/listen", {
      _meta: ENVELOPE,
      notifications: { toolsListChanged: true },
    });
    const tagged = { "io.modelcontextprotocol/subscriptionId": id };
    const seen = async (method: string) => {
      for (let i = 0; i < 200; i++) {
        if (server.notifications.some((n) => n.method === method)) return;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error(`no ${method}: ${JSON.stringify(server.notifications)}`);
    };
    await seen("notifications/subscriptions/acknowledged");
    assert.deepEqual(server.notifications[0]!.params, {
      notifications: { toolsListChanged: true },
      _meta: tagged,
    });
    const manifest = JSON.parse(await Deno.readTextFile(`${dirs.root}/.basis/tools.json`));
    manifest.tools.later = { ...manifest.tools.echo, description: "Added later" };
    await Deno.writeTextFile(`${dirs.root}/.basis/tools.json`, JSON.stringify(manifest));
    await seen("notifications/tools/list_changed");
    const changed = server.notifications.find((n) =>
      n.method === "notifications/tools/list_changed"
    );
    assert.deepEqual(changed!.params, { _meta: tagged });
    const list = (await server.request("tools/list", { _meta: ENVELOPE })).result as {
      tools: { name: string }[];
    };
    assert.ok(list.tools.some((tool) => tool.name === "later"));
  } finally {
    await server.close();
  }
});

Deno.test("mcp 2026-07-28: a client without elicitation is denied with how to allow the call", async () => {
  await using dirs = await workspace();
  const server = rawStdio(dirs);
  try {
    const meta = { ...ENVELOPE, "io.modelcontextprotocol/clientCapabilities": {} };
    const reply = await server.request("tools/call", {
      _meta: meta,
      name: "write",
      arguments: { text: "x" },
    });
    const result = reply.result as { isError: boolean; content: { text: string }[] };
    assert.equal(result.isError, true);
    assert.match(result.content[0]!.text, /rules add --tool write/);
    assert.equal(await ran(dirs), undefined);
  } finally {
    await server.close();
  }
});

Deno.test("RequestStates: tampered, expired, used, made by another server or for another call: refused", async () => {
  let now = 1_000_000;
  const states = new RequestStates({ now: () => now, ttlMs: 1000 });
  const other = new RequestStates({ now: () => now });
  const preview = {
    tool: "write",
    program: "/bin/sh",
    command: ["/bin/sh", "-c", "x"],
    cwd: "/w",
    env: ["TOKEN"],
    sandbox: "unconfined" as const,
    input: { text: "a" },
  };
  const prompt = { tool: "write", sideEffect: "process" as const, kind: "tool" as const, preview };
  const binding = approvalBinding(prompt, ["s3cret"]);
  const state = await states.mint(binding);
  assert.doesNotMatch(state, /s3cret|write/);
  assert.equal(await other.verify(state, binding), "forged");
  assert.equal(await states.verify(state, approvalBinding(prompt, ["other"])), "forged");
  const moved = { ...prompt, preview: { ...preview, cwd: "/elsewhere" } };
  assert.equal(await states.verify(state, approvalBinding(moved, ["s3cret"])), "forged");
  const granted = {
    ...prompt,
    preview: { ...preview, sandbox: { network: true, write: [], read: [] } },
  };
  assert.equal(await states.verify(state, approvalBinding(granted, ["s3cret"])), "forged");
  assert.notEqual(await states.verify(`${state}x`, binding), "valid");
  assert.equal(await states.verify(state.replace("b1.", "b2."), binding), "malformed");
  // Key order never matters; values do.
  const { input, ...rest } = preview;
  const reordered = { ...prompt, preview: { input, ...rest } };
  now += 999;
  assert.equal(await states.verify(state, approvalBinding(reordered, ["s3cret"])), "valid");
  assert.equal(await states.verify(state, binding), "used");
  const late = await states.mint(binding);
  now += 1000;
  assert.equal(await states.verify(late, binding), "expired");
});

/** Starts `mcp --http` and resolves to its URL and what it printed. */
async function httpServer(
  dirs: Scratch,
  address = "127.0.0.1:0",
  env: Record<string, string> = {},
  extra: string[] = [],
) {
  const command = serverEnv(dirs, ["mcp", "--http", address, ...extra], env);
  const child = new Deno.Command(command.command, {
    args: command.args,
    cwd: command.cwd,
    env: command.env,
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const reader = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  let stderr = "";
  while (!/Streamable HTTP at (\S+)\)/.test(stderr)) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`the server ended: ${stderr}`);
    stderr += value;
  }
  (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      stderr += value;
    }
  })();
  const url = /Streamable HTTP at (\S+)\)/.exec(stderr)![1]!;
  return {
    url,
    stderr: () => stderr,
    async [Symbol.asyncDispose]() {
      child.kill("SIGTERM");
      await child.status;
      await child.stdout.cancel();
    },
  };
}

async function python(config: Record<string, unknown>) {
  const output = await new Deno.Command(PYTHON_BIN, {
    args: [`${ROOT}tests/fixtures/mcp/python_wire.py`, JSON.stringify(config)],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(output.code, 0, new TextDecoder().decode(output.stderr));
  return JSON.parse(new TextDecoder().decode(output.stdout));
}

for (const mode of [V, "legacy", "auto"]) {
  Deno.test(
    `mcp: the Python SDK's client (${mode}) lists, calls and is asked for approval over stdio and HTTP${pythonSkip}`,
    {
      ignore: !PYTHON.ok,
    },
    async () => {
      await using dirs = await workspace();
      await using http = await httpServer(dirs);
      const calls = [{ name: "write", arguments: { text: "hi" } }];
      for (const target of [{ server: serverEnv(dirs, ["mcp"]) }, { url: http.url }]) {
        const driven = await python({ ...target, mode, calls });
        assert.equal(driven.version, mode === "legacy" ? "2025-11-25" : V);
        assert.deepEqual(driven.tools, ["echo", "write", "spawn"]);
        if (mode !== "legacy") {
          assert.deepEqual([driven.ttl_ms, driven.cache_scope], [5000, "private"]);
        }
        assert.deepEqual(driven.results, [{ is_error: false, text: "wrote" }]);
        assert.equal(driven.asked.length, 1);
        assert.match(driven.asked[0], /^ {2}command {6}\/bin\/sh -c/);
        // A 2026-07-28 request that does not ask for the log gets none.
        if (mode !== "legacy") assert.deepEqual(driven.logged, []);
      }
      assert.equal(await ran(dirs), '{"text":"hi"}{"text":"hi"}');
    },
  );
}

Deno.test("mcp --http: the TypeScript SDK's client (2025) has a session, is asked by elicitation, ends it", async () => {
  await using dirs = await workspace();
  await using http = await httpServer(dirs);
  const client = new Client({ name: "t", version: "1" }, {
    capabilities: { elicitation: { form: {} } },
  });
  const asked: string[] = [];
  client.setRequestHandler(ElicitRequestSchema, (request) => {
    asked.push((request.params as { message: string }).message);
    return { action: "accept", content: { decision: "allow_once" } };
  });
  const transport = new StreamableHTTPClientTransport(new URL(http.url));
  await client.connect(transport);
  try {
    assert.match(transport.sessionId ?? "", /^[\da-f-]{36}$/);
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((tool) => tool.name), ["echo", "write", "spawn"]);
    const result = await client.callTool({ name: "write", arguments: { text: "ts" } });
    assert.deepEqual(result.content, [{ type: "text", text: "wrote" }]);
    assert.equal(asked.length, 1);
    assert.equal(await ran(dirs), '{"text":"ts"}');
    await transport.terminateSession();
    const after = await fetch(http.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-session-id": transport.sessionId ?? "gone",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    assert.equal(after.status, 404);
    await after.body?.cancel();
  } finally {
    await client.close();
  }
});

/**
 * A 2026-07-28 POST with headers fetch() would not send as given (`Host`, a header twice); its
 * status.
 */
async function rawPost(
  url: string,
  body: unknown,
  headers: Record<string, string>,
  extra: [string, string][] = [],
) {
  const { hostname, port } = new URL(url);
  const connection = await Deno.connect({ hostname, port: Number(port) });
  const text = JSON.stringify(body);
  const all: Record<string, string> = {
    host: `${hostname}:${port}`,
    "content-type": "application/json",
    accept: "application/json",
    "mcp-protocol-version": V,
    "content-length": String(new TextEncoder().encode(text).length),
    connection: "close",
    ...mirrored(body),
    ...headers,
  };
  const head = [...Object.entries(all), ...extra].map(([name, value]) => `${name}: ${value}\r\n`)
    .join("");
  await connection.write(new TextEncoder().encode(`POST /mcp HTTP/1.1\r\n${head}\r\n${text}`));
  let reply = "";
  for await (const chunk of connection.readable.pipeThrough(new TextDecoderStream())) {
    reply += chunk;
    if (reply.includes("\r\n")) break;
  }
  try {
    connection.close();
  } catch {
    // Closed by the server already.
  }
  return Number(/^HTTP\/1\.1 (\d+)/.exec(reply)?.[1]);
}

/** The headers a 2026-07-28 request mirrors from its body (`Mcp-Method`, `Mcp-Name`). */
function mirrored(body: unknown): Record<string, string> {
  const { method, params } = (typeof body === "object" && body !== null ? body : {}) as {
    method?: unknown;
    params?: { name?: unknown };
  };
  return {
    ...(typeof method === "string" && { "mcp-method": method }),
    ...(method === "tools/call" && typeof params?.name === "string" && { "mcp-name": params.name }),
  };
}

/** A 2026-07-28 POST of one request, with the headers that mirror its body. */
function post(url: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": V,
      ...mirrored(body),
      ...headers,
    },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

const CALL = {
  jsonrpc: "2.0",
  id: 7,
  method: "tools/call",
  params: { _meta: ENVELOPE, name: "write", arguments: { text: "no" } },
};

Deno.test("mcp --http: a non-loopback address needs the token, printed once; every request without it is 401 and runs nothing", async () => {
  await using dirs = await workspace();
  await using http = await httpServer(dirs, "0.0.0.0:0", {}, ["--approve", "always"]);
  const token = /Bearer token of this server[^:]*: (\S+)/.exec(http.stderr())?.[1];
  assert.ok(token !== undefined && token.length >= 32, http.stderr());
  const url = http.url.replace("0.0.0.0", "127.0.0.1");
  for (const authorization of [undefined, "Bearer wrong", `Basic ${token}`, `Bearer ${token}x`]) {
    const response = await post(url, CALL, authorization === undefined ? {} : { authorization });
    assert.equal(response.status, 401);
    assert.equal(response.headers.get("www-authenticate"), 'Bearer realm="basis-tools"');
    await response.body?.cancel();
  }
  assert.equal(await ran(dirs), undefined);
  const allowed = await post(url, CALL, { authorization: `Bearer ${token}` });
  assert.equal(allowed.status, 200);
  assert.equal((await allowed.json()).result.content[0].text, "wrote");
  assert.equal(http.stderr().split(token).length, 2, "the token is printed once");
});

Deno.test("mcp --http: BASIS_MCP_TOKEN is required on loopback too; one shorter than 32 characters is refused at start", async () => {
  await using dirs = await workspace();
  const token = "t".repeat(40);
  await using http = await httpServer(dirs, "127.0.0.1:0", { BASIS_MCP_TOKEN: token });
  assert.doesNotMatch(http.stderr(), new RegExp(token));
  const without = await post(http.url, CALL);
  assert.equal(without.status, 401);
  await without.body?.cancel();
  const command = serverEnv(dirs, ["mcp", "--http", "127.0.0.1:0"], { BASIS_MCP_TOKEN: "short" });
  const output = await new Deno.Command(command.command, {
    args: command.args,
    cwd: command.cwd,
    env: command.env,
    stdin: "null",
  }).output();
  assert.equal(output.code, 2);
  const stderr = new TextDecoder().decode(output.stderr);
  assert.match(stderr, /BASIS_MCP_TOKEN/);
  assert.doesNotMatch(stderr, /short/);
  for (const bad of ["nohost", "127.0.0.1:70000", "[::1:80", "127.0.0.1:"]) {
    const refused = await new Deno.Command(command.command, {
      args: [...command.args.slice(0, -1), bad],
      cwd: command.cwd,
      env: { ...command.env, BASIS_MCP_TOKEN: "" },
      stdin: "null",
    }).output();
    assert.equal(refused.code, 2, bad);
  }
});

Deno.test("mcp --http: a Host or a browser Origin that is not this server's is refused (DNS rebinding); nothing runs", async () => {
  await using dirs = await workspace();
  await using http = await httpServer(dirs, "127.0.0.1:0", {}, ["--approve", "always"]);
  const port = new URL(http.url).port;
  const refusals: [Record<string, string>, number][] = [
    [{ host: `evil.example:${port}` }, 421],
    [{ host: `127.0.0.1:1` }, 421],
    [{ origin: "https://evil.example" }, 403],
    [{ origin: "null" }, 403],
  ];
  for (const [headers, status] of refusals) {
    assert.equal(await rawPost(http.url, CALL, headers), status, JSON.stringify(headers));
  }
  assert.equal(await ran(dirs), undefined);
  for (const origin of [`http://localhost:${port}`, "http://127.0.0.1:3000"]) {
    const response = await post(http.url, { ...CALL, id: origin }, {
      origin,
      host: `localhost:${port}`,
    });
    assert.equal(response.status, 200);
    await response.body?.cancel();
  }
});

Deno.test("mcp --http: bad JSON, an oversized body, a batch, a bad envelope are refused; the server goes on", async () => {
  await using dirs = await workspace();
  await using http = await httpServer(dirs, "127.0.0.1:0", {}, ["--approve", "always"]);
  const cases: [unknown, Record<string, string>, number, number | undefined][] = [
    ["{not json", {}, 400, -32700],
    [new Uint8Array([0xff, 0xfe]) as Uint8Array<ArrayBuffer>, {}, 400, -32700],
    ["x".repeat(11 * 1024 * 1024), {}, 413, -32600],
    [[CALL], {}, 400, -32600],
    [{ ...CALL, params: { ...CALL.params, arguments: [] } }, {}, 400, -32602],
    [CALL, { "mcp-method": "tools/list" }, 400, -32020],
    [CALL, { "mcp-name": "echo" }, 400, -32020],
    [{ ...CALL, method: "nope" }, {}, 404, -32601],
    [CALL, { "content-type": "text/plain" }, 415, undefined],
  ];
  for (const [body, headers, status, code] of cases) {
    const response = await fetch(http.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json",
        "mcp-protocol-version": V,
        ...mirrored(body),
        ...headers,
      },
      body: body instanceof Uint8Array || typeof body === "string"
        ? body as BodyInit
        : JSON.stringify(body),
    });
    assert.equal(response.status, status, JSON.stringify(headers) + String(body).slice(0, 40));
    if (code === undefined) await response.body?.cancel();
    else assert.equal((await response.json()).error.code, code);
  }
  // The same for a 2025 client's first POST; then the server still serves.
  const legacy = await fetch(http.url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: "{oops",
  });
  assert.equal(legacy.status, 400);
  assert.equal((await legacy.json()).error.code, -32700);
  const notFound = await fetch(http.url.replace("/mcp", "/other"));
  assert.equal(notFound.status, 404);
  await notFound.body?.cancel();
  const fine = await post(http.url, CALL);
  assert.equal((await fine.json()).result.content[0].text, "wrote");
});

/** The TypeScript SDK's v2 client: not a dependency of the project, loaded from npm by its driver. */
const TS_V2 = "npm:@modelcontextprotocol/client@2.4.0";
const TS_V2_DRIVER = `${ROOT}tests/fixtures/mcp/ts_v2_client.ts`;
const TS_V2_LOADS = await new Deno.Command(Deno.execPath(), {
  args: ["eval", "--no-config", "--no-lock", `await import("${TS_V2}")`],
  stdout: "null",
  stderr: "null",
}).output().then((output) => output.success, () => false);
const tsV2Skip = TS_V2_LOADS ? "" : ` (skipped: ${TS_V2} cannot be loaded)`;

/** What a client driver reports. */
interface Driven {
  version: string;
  tools: string[];
  ttl_ms: number | null;
  cache_scope: string | null;
  asked: string[];
  logged: { level: string; data: string }[];
  progress: string[];
  results: ({ is_error: boolean; text: string } | { raised: string })[];
}

function tsV2(config: Record<string, unknown>): Promise<Driven> {
  const args = ["run", "--no-config", "--no-lock", "-A", TS_V2_DRIVER];
  return driveJson<Driven>(Deno.execPath(), { args }, config);
}

for (const mode of [V, "legacy", "auto"]) {
  Deno.test(
    `mcp: the TypeScript SDK's v2 client (${mode}) lists, calls and is asked for approval over stdio and HTTP${tsV2Skip}`,
    { ignore: !TS_V2_LOADS },
    async () => {
      await using dirs = await workspace();
      await using http = await httpServer(dirs);
      const calls = [{ name: "write", arguments: { text: "v2" } }];
      for (const target of [{ server: serverEnv(dirs, ["mcp"]) }, { url: http.url }]) {
        const driven = await tsV2({ ...target, mode, calls });
        // "auto" finds 2026-07-28 through server/discover.
        assert.equal(driven.version, mode === "legacy" ? "2025-11-25" : V);
        assert.deepEqual(driven.tools, ["echo", "write", "spawn"]);
        if (mode !== "legacy") {
          assert.deepEqual([driven.ttl_ms, driven.cache_scope], [5000, "private"]);
          assert.deepEqual(driven.logged, []);
        }
        assert.deepEqual(driven.results, [{ is_error: false, text: "wrote" }]);
        assert.equal(driven.asked.length, 1);
        assert.match(driven.asked[0]!, /^ {2}command {6}\/bin\/sh -c/);
      }
      assert.equal(await ran(dirs), '{"text":"v2"}{"text":"v2"}');
      // The answer is honoured: declined, nothing runs.
      const declined = await tsV2({ url: http.url, mode, calls, answer: "deny" });
      assert.equal((declined.results[0] as { is_error: boolean }).is_error, true);
      assert.equal(declined.asked.length, 1);
      assert.equal(await ran(dirs), '{"text":"v2"}{"text":"v2"}');
    },
  );
}

Deno.test(
  `mcp 2026-07-28: the log goes only to a request that asks for it, at its level and above, on that request's stream (Python SDK, TypeScript SDK v2)${pythonSkip}${tsV2Skip}`,
  { ignore: !PYTHON.ok || !TS_V2_LOADS },
  async () => {
    await using dirs = await workspace();
    await using http = await httpServer(dirs);
    // "Always allow" logs the rule it remembered (a warning): each call below is asked once.
    const call = (name: string) => [{ name, arguments: { text: name } }];
    const remembered = [{ level: "warning", data: /^Remembered as rule/ }];
    const check = (driven: Driven, expected: typeof remembered) => {
      assert.equal(driven.asked.length, 1);
      assert.equal(driven.logged.length, expected.length, JSON.stringify(driven.logged));
      driven.logged.forEach((entry, i) => {
        assert.equal(entry.level, expected[i]!.level);
        assert.match(entry.data, expected[i]!.data);
      });
    };
    const stdio = { server: serverEnv(dirs, ["mcp"]) };
    const always = { mode: V, answer: "always_allow" };
    check(
      await python({ ...stdio, ...always, log_level: "warning", calls: call("write") }),
      remembered,
    );
    check(
      await tsV2({ url: http.url, ...always, logLevel: "info", calls: call("echo") }),
      remembered,
    );
    await manifest(dirs, {
      third: {
        description: "A third tool",
        input_schema: { type: "object" },
        command: ["/bin/cat"],
      },
    });
    check(await tsV2({ ...stdio, ...always, logLevel: "error", calls: call("third") }), []);
    // A level MCP does not have is refused, and nothing is asked.
    const server = rawStdio(dirs);
    try {
      const meta = { ...ENVELOPE, "io.modelcontextprotocol/logLevel": "loud" };
      const refused = await server.request("tools/list", { _meta: meta });
      assert.equal((refused.error as { code: number }).code, -32602);
      assert.match((refused.error as { message: string }).message, /logLevel/);
    } finally {
      await server.close();
    }
  },
);

Deno.test(
  `mcp 2026-07-28: progress (a progressToken in _meta) reaches the Python SDK's client over stdio and HTTP${pythonSkip}`,
  { ignore: !PYTHON.ok },
  async () => {
    await using dirs = await scratch({
      schema: 1,
      tools: {
        tick: {
          description: "Prints lines over time",
          input_schema: { type: "object" },
          command: ["/bin/sh", `${ROOT}tests/fixtures/mcp/tick.sh`, "4", "0.2"],
        },
      },
    });
    await unconfined(dirs);
    // The fixture's sleep is found on PATH.
    const path = { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" };
    await using http = await httpServer(dirs, "127.0.0.1:0", path, ["--approve", "always"]);
    const targets = [
      { server: serverEnv(dirs, ["mcp", "--approve", "always"], path) },
      { url: http.url },
    ];
    for (const target of targets) {
      const driven = await python({
        ...target,
        mode: V,
        progress: true,
        calls: [{ name: "tick" }],
      });
      assert.equal(driven.version, V);
      assert.deepEqual(driven.results, [{
        is_error: false,
        text: "line 1\nline 2\nline 3\nline 4",
      }]);
      assert.ok(driven.progress.length >= 2, JSON.stringify(driven.progress));
      assert.match(driven.progress.at(-1), /^\d+ lines? of output so far$/);
    }
  },
);

/** A workspace whose `region` tool mirrors two of its arguments into `Mcp-Param-*` headers. */
async function mirroring(): Promise<Scratch> {
  const dirs = await scratch({
    schema: 1,
    tools: {
      region: {
        description: "Runs in a region",
        input_schema: {
          type: "object",
          properties: {
            region: { type: "string", "x-mcp-header": "Region" },
            count: { type: "integer", "x-mcp-header": "Count" },
            query: { type: "string" },
          },
        },
        command: ["/bin/sh", "-c", "/bin/cat >> ran.txt; echo ran"],
      },
    },
  });
  await unconfined(dirs);
  return dirs;
}

Deno.test("mcp --http 2026-07-28: a header that does not say what the body says (Mcp-Method, Mcp-Name, Mcp-Param-*) or is missing is refused with -32020, and nothing runs", async () => {
  await using dirs = await mirroring();
  await using http = await httpServer(dirs, "127.0.0.1:0", {}, ["--approve", "always"]);
  const body = (args: Record<string, unknown>, name = "region") => ({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { _meta: ENVELOPE, name, arguments: args },
  });
  const utf8 = (text: string) =>
    `=?base64?${btoa(String.fromCharCode(...new TextEncoder().encode(text)))}?=`;
  const refusals: [Record<string, unknown>, Record<string, string>][] = [
    // The method or the tool an intermediary routes on, missing or lying.
    [body({}), { "mcp-method": "" }],
    [body({}), { "mcp-method": "tools/list" }],
    [body({}), { "mcp-name": "" }],
    [body({}), { "mcp-name": "echo" }],
    [body({}), { "mcp-name": "=?base64?not base64?=" }],
    [body({}), { "mcp-protocol-version": "2026-07-28", "mcp-name": utf8("regio") }],
    // An argument the schema mirrors: in the body without its header, or the other way round.
    [body({ region: "eu" }), {}],
    [body({ region: "eu" }), { "mcp-param-region": "us" }],
    [body({}), { "mcp-param-region": "eu" }],
    [body({ region: "eu", count: 3 }), { "mcp-param-region": "eu", "mcp-param-count": "4" }],
    [body({ region: "eu", count: 3 }), { "mcp-param-region": "eu", "mcp-param-count": "3.5" }],
    [body({ region: "é" }), { "mcp-param-region": "=?base64?6Q==?=" }],
  ];
  for (const [sent, headers] of refusals) {
    const response = await post(http.url, sent, headers);
    assert.equal(response.status, 400, JSON.stringify(headers));
    const { error } = await response.json();
    assert.equal(error.code, -32020, JSON.stringify(headers));
    assert.match(error.message, /^Header mismatch: the (Mcp-\w+|Mcp-Param-\w+) header/);
  }
  // Sent twice (two readers would disagree on which): refused too.
  const twice = await rawPost(http.url, body({}), {}, [["mcp-method", "tools/call"]]);
  assert.equal(twice, 400);
  // The version the header routes on must be the body's.
  const older = body({});
  older.params._meta = { ...ENVELOPE, "io.modelcontextprotocol/protocolVersion": "2025-11-25" };
  const version = await post(http.url, older);
  assert.equal((await version.json()).error.code, -32020);
  assert.equal(await ran(dirs), undefined);
  // Headers that agree (an integer as 3.0, values outside plain ASCII in the base64 sentinel) run.
  const agreeing: [Record<string, unknown>, Record<string, string>][] = [
    [body({ query: "q" }), {}],
    [body({ region: "eu", count: 3 }), { "mcp-param-region": "eu", "mcp-param-count": "3.0" }],
    [body({ region: " Zürich " }), { "mcp-param-region": utf8(" Zürich ") }],
    [body({}), { "mcp-name": utf8("region") }],
  ];
  for (const [sent, headers] of agreeing) {
    const response = await post(http.url, sent, headers);
    assert.equal(response.status, 200, JSON.stringify(headers));
    assert.equal((await response.json()).result.content[0].text, "ran");
  }
  assert.equal((await ran(dirs))?.match(/\{/g)?.length, 4);
});

Deno.test(
  `mcp --http 2026-07-28: the Python SDK's and the TypeScript SDK v2's clients mirror x-mcp-header arguments the server checks${pythonSkip}${tsV2Skip}`,
  { ignore: !PYTHON.ok || !TS_V2_LOADS },
  async () => {
    await using dirs = await mirroring();
    await using http = await httpServer(dirs, "127.0.0.1:0", {}, ["--approve", "always"]);
    const calls = [{ name: "region", arguments: { region: "eu-west", count: 2, query: "q" } }];
    for (
      const driven of [
        await python({ url: http.url, mode: V, calls }),
        await tsV2({ url: http.url, mode: V, calls }),
      ]
    ) {
      assert.deepEqual(driven.results, [{ is_error: false, text: "ran" }]);
    }
    assert.equal((await ran(dirs))?.match(/eu-west/g)?.length, 2);
  },
);

Deno.test("mcp --http 2026-07-28: a requestState replayed (on another call, another tool, twice) approves nothing; nothing runs", async () => {
  await using dirs = await workspace();
  await using http = await httpServer(dirs);
  const call = (id: number, name: string, args: Record<string, unknown>, extra = {}) =>
    post(http.url, {
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: { _meta: ENVELOPE, name, arguments: args, ...extra },
    }).then((response) => response.json());
  const asked = (await call(1, "write", { text: "a" })).result;
  assert.equal(asked.resultType, "input_required");
  const yes = {
    requestState: asked.requestState,
    inputResponses: { approval: { action: "accept", content: { decision: "allow_once" } } },
  };
  for (const [name, args] of [["write", { text: "b" }], ["echo", { text: "a" }]] as const) {
    const replayed = await call(2, name, args, yes);
    assert.equal(replayed.error.code, -32602, JSON.stringify(replayed));
  }
  assert.equal(await ran(dirs), undefined);
  assert.equal((await call(3, "write", { text: "a" }, yes)).result.content[0].text, "wrote");
  assert.equal((await call(4, "write", { text: "a" }, yes)).error.code, -32602);
  assert.equal(await ran(dirs), '{"text":"a"}');
});
