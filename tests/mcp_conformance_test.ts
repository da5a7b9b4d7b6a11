/**
 * The official MCP conformance suite (`@modelcontextprotocol/conformance` 0.1.16, from npm, run
 * with Deno: it needs a newer Node.js than 20) run directly against `mcp --http`, in a workspace
 * whose tools the scenarios call. Every scenario for a feature the server has must pass; the others
 * are listed with why (docs/mcp.md).
 *
 * @module
 */

import assert from "node:assert/strict";
import { cliCommand, scratch, unconfined } from "./_cli.ts";
import { DENO_ENV } from "./_mcp.ts";

const SUITE = "npm:@modelcontextprotocol/conformance@0.1.16";

/** The scenarios of features the server has: each must pass. */
const PASSING = [
  "server-initialize",
  "logging-set-level",
  "ping",
  "tools-list",
  "tools-call-simple-text",
  "tools-call-error",
  "tools-call-with-progress",
  "server-sse-multiple-streams",
  "dns-rebinding-protection",
];

/**
 * The scenarios of features the server does not have, and why: what a tool returns is its
 * program's text (images, audio and resources need content blocks), and the server has no prompts,
 * resources or completions, and a tool cannot log, sample or elicit on its own.
 */
const NOT_FEATURES = [
  "completion-complete",
  "tools-call-image",
  "tools-call-audio",
  "tools-call-embedded-resource",
  "tools-call-mixed-content",
  "tools-call-with-logging",
  "tools-call-sampling",
  "tools-call-elicitation",
  "elicitation-sep1034-defaults",
  "elicitation-sep1330-enums",
  "resources-list",
  "resources-read-text",
  "resources-read-binary",
  "resources-templates-read",
  "resources-subscribe",
  "resources-unsubscribe",
  "prompts-list",
  "prompts-get-simple",
  "prompts-get-with-args",
  "prompts-get-embedded-resource",
  "prompts-get-with-image",
];

/** Whether Deno can load the suite (it comes from npm). */
const SUITE_LOADS = await new Deno.Command(Deno.execPath(), {
  args: ["run", "--no-config", "--no-lock", "-A", SUITE, "--help"],
  stdout: "null",
  stderr: "null",
}).output().then((output) => output.success, () => false);

Deno.test(
  `mcp --http passes the official conformance suite's scenarios of every feature it has${
    SUITE_LOADS ? "" : ` (skipped: ${SUITE} cannot be loaded)`
  }`,
  { ignore: !SUITE_LOADS },
  async () => {
    const sh = (script: string) => ["/bin/sh", "-c", `cat >/dev/null; ${script}`];
    await using dirs = await scratch({
      schema: 1,
      tools: {
        test_simple_text: {
          description: "Returns simple text",
          input_schema: { type: "object" },
          command: sh("echo 'This is a simple text response for testing.'"),
        },
        test_error_handling: {
          description: "Always fails",
          input_schema: { type: "object" },
          command: sh("echo 'This tool intentionally returns an error for testing' >&2; exit 1"),
        },
        test_tool_with_progress: {
          description: "Reports progress",
          input_schema: { type: "object" },
          command: sh("for i in 1 2 3 4 5; do echo step $i; sleep 0.2; done"),
        },
      },
    });
    await unconfined(dirs);
    const command = cliCommand(dirs, ["mcp", "--http", "127.0.0.1:0", "--approve", "always"]);
    for (const name of DENO_ENV) {
      const value = Deno.env.get(name);
      if (value !== undefined) command.env[name] = value;
    }
    const server = new Deno.Command(command.command, {
      args: command.args,
      cwd: command.cwd,
      env: command.env,
      stdin: "null",
      stdout: "null",
      stderr: "piped",
    }).spawn();
    try {
      const reader = server.stderr.pipeThrough(new TextDecoderStream()).getReader();
      let stderr = "";
      while (!/Streamable HTTP at (\S+)\)/.test(stderr)) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`the server ended: ${stderr}`);
        stderr += value;
      }
      reader.releaseLock();
      server.stderr.cancel().catch(() => {});
      const url = /Streamable HTTP at (\S+)\)/.exec(stderr)![1]!;
      const output = await new Deno.Command(Deno.execPath(), {
        args: ["run", "--no-config", "--no-lock", "-A", SUITE, "server", "--url", url],
        stdout: "piped",
        stderr: "piped",
      }).output();
      const text = new TextDecoder().decode(output.stdout) +
        new TextDecoder().decode(output.stderr);
      const summary = new Map(
        [...text.matchAll(/^[✓✗] ([\w-]+): (\d+) passed, (\d+) failed$/gm)].map((
          [, name, passed, failed],
        ) => [name!, { passed: Number(passed), failed: Number(failed) }]),
      );
      const total = /^Total: (\d+) passed, (\d+) failed$/m.exec(text);
      console.error(`conformance: ${total?.[0] ?? "no total"}`);
      for (const name of PASSING) {
        assert.equal(summary.get(name)?.failed, 0, `${name} failed:\n${text.slice(-4000)}`);
        assert.ok((summary.get(name)?.passed ?? 0) > 0, name);
      }
      // A scenario the suite adds is looked at, not silently counted.
      const known = new Set([...PASSING, ...NOT_FEATURES]);
      assert.deepEqual([...summary.keys()].filter((name) => !known.has(name)), []);
    } finally {
      server.kill("SIGTERM");
      await server.status;
    }
  },
);
