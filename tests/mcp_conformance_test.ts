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
  "tools-call-image",
  "tools-call-audio",
  "tools-call-embedded-resource",
  "tools-call-mixed-content",
  "server-sse-multiple-streams",
  "dns-rebinding-protection",
];

/**
 * The scenarios of features the server does not have, and why: the server has no prompts,
 * resources or completions, and a tool cannot log, sample or elicit on its own.
 */
const NOT_FEATURES = [
  "completion-complete",
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

/** A 1×1 red PNG. */
const RED_DOT =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";

/** A WAV file of 8 samples of silence (8 kHz, 8-bit mono), as base64. */
function silence(): string {
  const samples = 8;
  const bytes = new Uint8Array(44 + samples);
  const view = new DataView(bytes.buffer);
  const text = (at: number, value: string) =>
    [...value].forEach((c, i) => view.setUint8(at + i, c.charCodeAt(0)));
  text(0, "RIFF");
  view.setUint32(4, 36 + samples, true);
  text(8, "WAVEfmt ");
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true); // PCM
  view.setUint16(22, 1, true); // mono
  view.setUint32(24, 8000, true);
  view.setUint32(28, 8000, true);
  view.setUint16(32, 1, true);
  view.setUint16(34, 8, true);
  text(36, "data");
  view.setUint32(40, samples, true);
  bytes.fill(128, 44);
  return btoa(String.fromCharCode(...bytes));
}

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
    // A tool printing content blocks (`"output": "content"`): the array, from a file.
    const blocks = (name: string, content: unknown[]) => {
      printed[name] = content;
      return {
        description: `Returns ${name}`,
        input_schema: { type: "object" },
        output: "content",
        command: sh(`cat ${name}.json`),
      };
    };
    const printed: Record<string, unknown[]> = {};
    const image = { type: "image", data: RED_DOT, mimeType: "image/png" };
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
        test_image_content: blocks("test_image_content", [image]),
        test_audio_content: blocks("test_audio_content", [
          { type: "audio", data: silence(), mimeType: "audio/wav" },
        ]),
        test_embedded_resource: blocks("test_embedded_resource", [{
          type: "resource",
          resource: {
            uri: "test://embedded-resource",
            mimeType: "text/plain",
            text: "This is an embedded resource content.",
          },
        }]),
        test_multiple_content_types: blocks("test_multiple_content_types", [
          { type: "text", text: "Multiple content types test:" },
          image,
          {
            type: "resource",
            resource: {
              uri: "test://mixed-content-resource",
              mimeType: "application/json",
              text: '{"test":"data","value":123}',
            },
          },
        ]),
      },
    });
    await unconfined(dirs);
    for (const [name, content] of Object.entries(printed)) {
      await Deno.writeTextFile(`${dirs.root}/${name}.json`, JSON.stringify(content));
    }
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
