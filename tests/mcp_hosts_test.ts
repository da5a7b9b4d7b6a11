/**
 * What agent hosts need from `basis-tools mcp`, driven with the MCP SDK's own client: structured
 * output (`outputSchema`, `structuredContent`, checked by the client too), a tool's `title`, one
 * broken tool left out (and served again once fixed), MCP logging, denials that say what denied
 * them, and an idle server stopped by a signal exiting 0.
 */

import assert from "node:assert/strict";
// @ts-types="@modelcontextprotocol/sdk/types"
import {
  LoggingMessageNotificationSchema,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { cliCommand, oneTool, scratch } from "./_cli.ts";
import { callTool, connectMcp, rawMcp, resultText, within } from "./_mcp.ts";
import { phrase } from "../src/locale/messages.ts";
import { opening, say, wording } from "./_wording.ts";

const ROWS_SCHEMA = {
  type: "object",
  properties: { rows: { type: "array", items: { type: "integer" } } },
  required: ["rows"],
};

/** A tool printing `json` (after reading its input), declaring ROWS_SCHEMA as its output. */
function printing(json: string, extra: Record<string, unknown> = {}) {
  return {
    description: "Query",
    input_schema: { type: "object" },
    output_schema: ROWS_SCHEMA,
    command: ["/bin/sh", "-c", `cat >/dev/null; printf '%s\\n' '${json}'`],
    ...extra,
  };
}

Deno.test("mcp: a tool with output_schema lists outputSchema and returns structuredContent with the same JSON as text", async () => {
  await using dirs = await scratch({
    schema: 1,
    tools: {
      q: printing('{"rows": [1, 2]}', { title: "Run a query" }),
      plain: { description: "Plain", input_schema: {}, command: ["cat"] },
    },
  });
  const session = await connectMcp(dirs, ["mcp", "--approve", "always"]);
  try {
    const { tools } = await session.client.listTools();
    const q = tools.find((tool) => tool.name === "q");
    // Named as the draft the gate reads it as (MCP's clients would read 2020-12).
    assert.deepEqual(q?.outputSchema, {
      $schema: "http://json-schema.org/draft-07/schema#",
      ...ROWS_SCHEMA,
    });
    assert.equal(q?.title, "Run a query");
    const plain = tools.find((tool) => tool.name === "plain");
    assert.equal(plain?.outputSchema, undefined);
    // Without a title, the name made readable, as before.
    assert.equal(plain?.title, "Plain");
    // The SDK's client checks structuredContent against outputSchema itself.
    const result = await callTool(session, "q", {});
    assert.equal(result.isError, undefined);
    assert.deepEqual(result.structuredContent, { rows: [1, 2] });
    assert.deepEqual(JSON.parse(resultText(result)), { rows: [1, 2] });
    const text = await callTool(session, "plain", { a: 1 });
    assert.equal(text.structuredContent, undefined);
    assert.equal(resultText(text), '{"a":1}');
  } finally {
    await session.close();
  }
  assert.deepEqual(session.errors, []);
});

Deno.test("mcp: output that is not JSON, or does not match, is a tool error naming what is wrong", async () => {
  await using dirs = await scratch({
    schema: 1,
    tools: {
      wrong: printing('{"rows": [1, "x"]}'),
      text: printing("rows: 1, 2"),
      list: printing("[1, 2]"),
      silent: { ...printing(""), command: ["/bin/sh", "-c", "cat >/dev/null"] },
    },
  });
  const session = await connectMcp(dirs, ["mcp", "--approve", "always"]);
  try {
    const wrong = await callTool(session, "wrong", {});
    assert.equal(wrong.isError, true);
    assert.equal(
      resultText(wrong),
      // "must be integer" is ajv's own.
      say("schema.output_refused", {
        tool: '"wrong"',
        pointer: "/rows/1",
        reason: "must be integer",
      }),
    );
    const text = await callTool(session, "text", {});
    assert.equal(text.isError, true);
    assert.match(resultText(text), opening("output.not_json", { tool: '"text"' }));
    assert.match(resultText(text), / at 1:1$/);
    const list = await callTool(session, "list", {});
    assert.equal(
      resultText(list),
      say("schema.output_refused", {
        tool: '"list"',
        pointer: phrase("schema.root"),
        reason: phrase("output.must_be_object", { found: phrase("found.array") }),
      }),
    );
    const silent = await callTool(session, "silent", {});
    assert.equal(silent.isError, true);
    assert.match(resultText(silent), opening("output.not_json", { tool: '"silent"' }));
  } finally {
    await session.close();
  }
});

Deno.test("mcp: a tool with an unset variable is left out and logged once; fixing it serves it again with list_changed", async () => {
  const broken = {
    schema: 1,
    tools: {
      jenkins_job: {
        description: "Start a job",
        input_schema: {},
        command: ["sh", "-c", 'echo "$TOKEN"'],
        env: { TOKEN: "${BASIS_TEST_JENKINS_TOKEN}" },
      },
      echo: { description: "Echo", input_schema: {}, command: ["cat"] },
    },
  };
  await using dirs = await scratch(broken);
  const session = await connectMcp(dirs, ["mcp", "--approve", "always"]);
  try {
    const listed = await session.client.listTools();
    assert.deepEqual(listed.tools.map((tool) => tool.name), ["echo", "spawn"]);
    assert.equal(resultText(await callTool(session, "echo", { a: 1 })), '{"a":1}');
    await session.stderrContains(say("mcp.tool_left_out", { tool: '"jenkins_job"' }));
    assert.match(
      session.stderr(),
      /tool "jenkins_job": env\.TOKEN: variable "BASIS_TEST_JENKINS_TOKEN"/,
    );
    // A call of it says why, as a protocol error (it is not in the list).
    await assert.rejects(
      callTool(session, "jenkins_job", {}),
      new RegExp(
        `-32602.*${wording("mcp.tool_unavailable", { tool: '"jenkins_job"' }).source}`,
      ),
    );
    await assert.rejects(
      callTool(session, "jenkins_job", {}),
      /BASIS_TEST_JENKINS_TOKEN/,
    );

    const changed = Promise.withResolvers<void>();
    session.client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      changed.resolve();
    });
    const fixed = structuredClone(broken);
    fixed.tools.jenkins_job.env = { TOKEN: "${BASIS_TEST_JENKINS_TOKEN:-none}" };
    await Deno.writeTextFile(`${dirs.root}/.basis/tools.json`, JSON.stringify(fixed));
    await within(changed.promise, 10_000, "list_changed once the tool is fixed");
    const after = await session.client.listTools();
    assert.deepEqual(after.tools.map((tool) => tool.name), ["echo", "jenkins_job", "spawn"]);
    assert.equal(resultText(await callTool(session, "jenkins_job", {})), "[redacted]");
    await session.stderrContains(say("mcp.tool_back", { tool: '"jenkins_job"' }));
    // Logged once: the reload that fixed it said nothing more about it.
    assert.equal(
      session.stderr().split(say("mcp.tool_left_out", { tool: '"jenkins_job"' })).length,
      2,
    );
  } finally {
    await session.close();
  }
});

Deno.test("mcp: a broken spawn.json leaves only spawn out", async () => {
  await using dirs = await scratch(oneTool("echo", { command: ["cat"] }));
  await Deno.writeTextFile(`${dirs.configDir}/spawn.json`, '{"agent": "claude -p"}');
  const session = await connectMcp(dirs, ["mcp", "--approve", "always"]);
  try {
    const { tools } = await session.client.listTools();
    assert.deepEqual(tools.map((tool) => tool.name), ["echo"]);
    await session.stderrContains('Tool "spawn" cannot be used');
  } finally {
    await session.close();
  }
});

Deno.test("mcp: the server declares logging and sends its log lines as notifications/message", async () => {
  await using dirs = await scratch(oneTool("echo", { command: ["cat"] }));
  const session = await connectMcp(dirs, ["mcp", "--approve", "always"]);
  try {
    assert.deepEqual(session.client.getServerCapabilities()?.logging, {});
    // Those that came before the handler below was set are in the recorded messages.
    const lines: { level: string; data: unknown }[] = session.messages.flatMap(({ message }) =>
      "method" in message && message.method === "notifications/message"
        ? [message.params as { level: string; data: unknown }]
        : []
    );
    let wanted: { match: RegExp; resolve: () => void } | undefined;
    session.client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
      lines.push(notification.params);
      if (wanted?.match.test(String(notification.params.data))) wanted.resolve();
    });
    const next = (match: RegExp) => {
      const done = Promise.withResolvers<void>();
      if (lines.some((line) => match.test(String(line.data)))) done.resolve();
      else wanted = { match, resolve: done.resolve };
      return within(done.promise, 10_000, `a log message matching ${match}`);
    };
    // What was said before the client was ready arrives once it is.
    await next(/^Serving 2 tools over MCP/);
    assert.equal(lines.find((line) => /^Serving/.test(String(line.data)))?.level, "info");

    // At "error", a warning is filtered out and an error goes through.
    await session.client.setLoggingLevel("error");
    await Deno.writeTextFile(
      `${dirs.root}/.basis/tools.json`,
      JSON.stringify({
        schema: 1,
        tools: {
          echo: { description: "e", input_schema: {}, command: ["echo", "${BASIS_NOPE_X}"] },
        },
      }),
    );
    await session.stderrContains(say("mcp.tool_left_out", { tool: '"echo"' }));
    await Deno.writeTextFile(`${dirs.root}/.basis/tools.json`, '{"schema": 1, "tools": {');
    const reloadFailed = opening("mcp.reload_failed");
    await next(reloadFailed);
    assert.equal(lines.find((line) => reloadFailed.test(String(line.data)))?.level, "error");
    const leftOut = wording("mcp.tool_left_out");
    assert.ok(
      !lines.some((line) => leftOut.test(String(line.data))),
      JSON.stringify(lines),
    );
  } finally {
    await session.close();
  }
});

Deno.test("mcp: a denial says what denied the call: a rule, the policy, the person, the client", async () => {
  await using dirs = await scratch(oneTool("echo", { command: ["cat"] }));
  const denial = async (args: string[], elicit?: "decline" | "cancel" | "deny") => {
    const session = await connectMcp(dirs, ["mcp", ...args], {
      ...(elicit === undefined ? {} : {
        elicit: () =>
          elicit === "deny"
            ? { action: "accept", content: { decision: "deny" } }
            : { action: elicit },
      }),
    });
    try {
      const result = await callTool(session, "echo", {});
      assert.equal(result.isError, true);
      return resultText(result);
    } finally {
      await session.close();
    }
  };
  const echo = '"echo"';
  assert.match(await denial([]), opening("elicit.no_client", { tool: echo }));
  assert.equal(await denial(["--approve", "never"]), say("denied.never", { tool: echo }));
  assert.equal(await denial([], "decline"), say("elicit.declined", { tool: echo }));
  assert.equal(await denial([], "cancel"), say("elicit.cancelled", { tool: echo }));
  assert.equal(await denial([], "deny"), say("elicit.denied", { tool: echo }));
  for (const text of await Promise.all([denial([], "decline"), denial([], "deny")])) {
    assert.doesNotMatch(text, wording("denied.prompt"));
  }
  const added = await cliRules(dirs, [
    "rules",
    "add",
    "--tool",
    "echo",
    "--deny",
    "--when",
    "{}",
  ]);
  assert.equal(added, 0);
  const byRule = await denial(["--approve", "always"]);
  assert.match(byRule, opening("denied.rule", { tool: echo }));
  assert.match(byRule, / r-\w+$/);
});

async function cliRules(dirs: Awaited<ReturnType<typeof scratch>>, args: string[]) {
  const { command, ...options } = cliCommand(dirs, args);
  const output = await new Deno.Command(command, { ...options, stdout: "null", stderr: "null" })
    .output();
  return output.code;
}

Deno.test({
  name:
    "mcp: an idle server stopped by SIGTERM, SIGINT or stdin closing exits 0; one interrupted in a call, 130",
  ignore: Deno.build.os === "windows",
}, async () => {
  await using dirs = await scratch({
    schema: 1,
    tools: {
      slow: {
        description: "Slow",
        input_schema: {},
        command: ["/bin/sh", "-c", "echo started; exec sleep 30"],
      },
    },
  });
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    const raw = await rawMcp(dirs, ["mcp", "--approve", "always"]);
    Deno.kill(raw.pid, signal);
    assert.equal((await raw.status).code, 0, raw.stderr());
  }
  const busy = await rawMcp(dirs, ["mcp", "--approve", "always"]);
  await busy.send({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name: "slow", arguments: {}, _meta: { progressToken: "p" } },
  });
  // Running: its first line of output comes back as progress.
  await busy.next((message) => message.method === "notifications/progress");
  Deno.kill(busy.pid, "SIGTERM");
  assert.equal((await busy.status).code, 130, busy.stderr());
  // The client going away (stdin closed) is the same: idle, 0; in a call, 130.
  const idle = await rawMcp(dirs, ["mcp", "--approve", "always"]);
  assert.equal((await idle.close()).code, 0, idle.stderr());
  const calling = await rawMcp(dirs, ["mcp", "--approve", "always"]);
  await calling.send({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name: "slow", arguments: {}, _meta: { progressToken: "p" } },
  });
  await calling.next((message) => message.method === "notifications/progress");
  assert.equal((await calling.close()).code, 130, calling.stderr());
});

Deno.test("mcp: a tool whose program is not found is left out, and served again once it appears", async () => {
  await using dirs = await scratch(oneTool("late", { command: ["basis-test-late-program"] }));
  const bin = `${dirs.root}/../bin`;
  await Deno.mkdir(bin, { recursive: true });
  const session = await connectMcp(dirs, ["mcp", "--approve", "always"], {
    env: { PATH: `${bin}:${Deno.env.get("PATH") ?? "/usr/bin:/bin"}` },
  });
  try {
    const before = await session.client.listTools();
    assert.deepEqual(before.tools.map((tool) => tool.name), ["spawn"]);
    await session.stderrContains('program "basis-test-late-program" was not found on PATH');
    const changed = Promise.withResolvers<void>();
    session.client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      changed.resolve();
    });
    // No watched file changes: the server looks again by itself (every 5 s) while it waits.
    await Deno.writeTextFile(`${bin}/basis-test-late-program`, "#!/bin/sh\necho here\n");
    await Deno.chmod(`${bin}/basis-test-late-program`, 0o755);
    await within(changed.promise, 20_000, "list_changed once the program exists");
    const after = await session.client.listTools();
    assert.deepEqual(after.tools.map((tool) => tool.name), ["late", "spawn"]);
    assert.equal(resultText(await callTool(session, "late", {})), "here");
  } finally {
    await session.close();
  }
});
