/**
 * Gemini CLI with no wrapper, tested with Gemini CLI's own code: `@google/gemini-cli-core`'s tool
 * registry discovers the roster with `tools.discoveryCommand` (split like a shell line) and calls
 * each tool with `tools.callCommand` run as one program with the tool's name as its only argument,
 * the arguments as JSON on stdin; any stderr output, a non-zero exit or a signal makes the call a
 * failure. The settings are the README's:
 *
 *   "discoveryCommand": "basis-tools schema --format gemini", "callCommand": "basis-tools-call"
 *
 * where `basis-tools-call` is the binary under another name (a link). Here the binary is the one the
 * suite runs against, or a script like the one `deno task install` writes, which runs the CLI
 * under the released binary's permissions and keeps the name it was started as (argv[0]), as the
 * compiled binary does (tests/_commands.ts). Its MCP client (`connectToMcpServer`,
 * `discoverTools`) is driven against `basis-tools mcp` too. Skipped, saying why, when the package
 * cannot be installed.
 */

import assert from "node:assert/strict";
import { cliCommand, ROOT, type Scratch, scratch } from "./_cli.ts";
import { driveJson } from "./_deno_run.ts";
import { DENO_ENV } from "./_mcp.ts";
import { GEMINI_CORE_VERSION, geminiCore } from "./_gemini_core.ts";
import { phrase } from "../src/locale/messages.ts";
import { escape, say } from "./_wording.ts";
import { commandsEnv, writeCommands } from "./_commands.ts";

const DRIVER = `${ROOT}tests/fixtures/gemini/drive.mjs`;
const MCP_DRIVER = `${ROOT}tests/fixtures/gemini/drive_mcp.mjs`;
const DISCOVERY = "basis-tools schema --format gemini";
const CALL = "basis-tools-call";
const PREFIX = "discovered_tool_";

const core = await geminiCore();
const skip = core.ok ? "" : ` (skipped: ${core.reason})`;
if (!core.ok) console.warn(`gemini_test.ts: Gemini CLI's core is not available: ${core.reason}`);

/** `basis-tools` on PATH, and `basis-tools-call` linked to it, as a user installs the binary. */
async function install(dirs: Scratch): Promise<{ bin: string; env: Record<string, string> }> {
  const bin = await writeCommands(`${dirs.root}/../bin`);
  // Gemini CLI runs the call command without a terminal: approved through the policy.
  return { bin, env: commandsEnv(dirs, bin) };
}

interface Driven {
  declarations: { name: string; description: string; parametersJsonSchema: unknown }[];
  results: { name: string; llmContent: string; error: string | null; missing?: boolean }[];
}

/** Gemini CLI's registry, run by Node in `cwd` (Gemini CLI's working directory). */
async function drive(
  env: Record<string, string>,
  cwd: string,
  calls: { name: string; args: Record<string, unknown> }[],
): Promise<Driven> {
  if (!core.ok) throw new Error(core.reason);
  return await driveJson<Driven>(core.node, {
    args: [DRIVER, core.modules, DISCOVERY, CALL],
    cwd,
    env,
    clearEnv: true,
  }, calls);
}

const WORDS_SCHEMA = {
  type: "object",
  properties: { text: { type: "string", description: "The text" } },
  required: ["text"],
  additionalProperties: false,
};

Deno.test({
  name:
    `Gemini CLI ${GEMINI_CORE_VERSION} discovers and calls the roster with the binary alone${skip}`,
  ignore: !core.ok,
}, async () => {
  const secret = "gemini-S3CRET-41f0";
  await using dirs = await scratch({
    schema: 1,
    tools: {
      words: { description: "Echo the input", input_schema: WORDS_SCHEMA, command: ["cat"] },
      quiet: { description: "Print nothing", input_schema: {}, command: ["true"] },
      chatty: {
        description: "Succeed, saying things on stderr",
        input_schema: {},
        command: ["/bin/sh", "-c", "echo progress >&2; echo done"],
      },
      fail: {
        description: "Fail",
        input_schema: {},
        command: ["/bin/sh", "-c", "echo broken >&2; exit 3"],
      },
      leak: {
        description: "Print its token",
        input_schema: {},
        command: ["/bin/sh", "-c", 'echo "token=$TOKEN"'],
        env: { TOKEN: secret },
      },
      where: { description: "Print the working directory", input_schema: {}, command: ["pwd"] },
    },
  });
  const { env } = await install(dirs);
  // Gemini CLI runs in a directory of the project: the workspace is found from there.
  await Deno.mkdir(`${dirs.root}/src/deep`, { recursive: true });
  const driven = await drive(env, `${dirs.root}/src/deep`, [
    { name: `${PREFIX}words`, args: { text: "héllo" } },
    // Gemini CLI adds wait_for_previous to every tool and passes it on: it is not the tool's.
    { name: `${PREFIX}words`, args: { text: "in order", wait_for_previous: true } },
    { name: `${PREFIX}quiet`, args: {} },
    { name: `${PREFIX}chatty`, args: {} },
    { name: `${PREFIX}fail`, args: {} },
    { name: `${PREFIX}leak`, args: {} },
    { name: `${PREFIX}where`, args: {} },
    { name: `${PREFIX}spawn`, args: { input: "!echo via gemini" } },
  ]);
  assert.deepEqual(
    driven.declarations.map((declaration) => declaration.name).sort(),
    ["chatty", "fail", "leak", "quiet", "spawn", "where", "words"].map((name) => PREFIX + name),
  );
  const [words, ordered, quiet, chatty, fail, leak, where, spawn] = driven.results;
  assert.deepEqual([words?.llmContent, words?.error], ['{"text":"héllo"}\n', null]);
  assert.deepEqual([ordered?.llmContent, ordered?.error], ['{"text":"in order"}\n', null]);
  // Success with nothing printed is a success; the model reads a sentence saying so.
  assert.deepEqual([quiet?.llmContent, quiet?.error], [
    `${say("run.printed_nothing", { label: phrase("label.tool", { tool: '"quiet"' }) })}\n`,
    null,
  ]);
  // A successful tool's stderr never turns its call into a failure.
  assert.deepEqual([chatty?.llmContent, chatty?.error], ["done\n", null]);
  // A failure is one, with the tool's stderr and our line in what the model reads.
  assert.equal(fail?.error, "discovered_tool_execution_error");
  assert.match(
    fail?.llmContent ?? "",
    new RegExp(
      `Stderr: basis-tools: ${
        escape(say("run.exit", { label: phrase("label.tool", { tool: '"fail"' }), code: 3 }))
      }: broken`,
    ),
  );
  assert.match(fail?.llmContent ?? "", /Exit Code: 1/);
  // Secrets are redacted from the result.
  assert.deepEqual([leak?.llmContent, leak?.error], ["token=[redacted]\n", null]);
  // The workspace's tool runs in the workspace, whatever Gemini CLI's directory.
  assert.equal(where?.llmContent, `${await Deno.realPath(dirs.root)}\n`);
  assert.deepEqual([spawn?.llmContent, spawn?.error], ["via gemini\n", null]);
});

Deno.test({
  name:
    `Gemini CLI ${GEMINI_CORE_VERSION}: unusable tools are not discovered; a call no one approves is denied${skip}`,
  ignore: !core.ok,
}, async () => {
  await using dirs = await scratch({
    schema: 1,
    tools: {
      words: { description: "Echo the input", input_schema: WORDS_SCHEMA, command: ["cat"] },
      gone: { description: "Missing program", input_schema: {}, command: ["no-such-program-gem"] },
      broken: {
        description: "Unset token",
        input_schema: {},
        command: ["echo", "${NO_TOKEN_GEM}"],
      },
    },
  });
  const { env } = await install(dirs);
  const driven = await drive(env, dirs.root, [
    { name: `${PREFIX}words`, args: { text: "x" } },
  ]);
  // Tools that cannot be used are left out of discovery: the model never sees them.
  assert.deepEqual(driven.declarations.map((d) => d.name), [`${PREFIX}words`, `${PREFIX}spawn`]);
  // Without a terminal or a rule, a call is denied, saying how to allow it.
  const denied = await drive({ ...env, BASIS_APPROVE: "prompt" }, dirs.root, [
    { name: `${PREFIX}words`, args: { text: "x" } },
  ]);
  assert.equal(denied.results[0]?.error, "discovered_tool_execution_error");
  assert.match(denied.results[0]?.llmContent ?? "", /rules add --tool words/);
  assert.match(denied.results[0]?.llmContent ?? "", /Exit Code: 5/);
});

Deno.test("basis-tools-call NAME is `call NAME --quiet --result`: nothing on stderr after a success", async () => {
  await using dirs = await scratch({
    schema: 1,
    tools: {
      quiet: { description: "Print nothing", input_schema: {}, command: ["true"] },
    },
  });
  const { bin, env } = await install(dirs);
  for (const [name, stdout] of [["quiet", 'Tool "quiet" finished and printed nothing\n']]) {
    const child = new Deno.Command(`${bin}/${CALL}`, {
      args: [name!],
      cwd: dirs.root,
      env,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode("{}"));
    await writer.close();
    const output = await child.output();
    assert.equal(output.code, 0);
    assert.equal(new TextDecoder().decode(output.stdout), stdout);
    assert.equal(new TextDecoder().decode(output.stderr), "");
  }
});

/** Gemini CLI's MCP client, run by Node, connected to `basis-tools mcp` in the workspace. */
async function driveMcp(
  dirs: Scratch,
  calls: { name: string; args: Record<string, unknown> }[],
): Promise<Driven> {
  if (!core.ok) throw new Error(core.reason);
  const { command, args, cwd, env } = cliCommand(dirs, ["mcp", "--approve", "always"]);
  // Deno's own variables go along (Gemini CLI passes a server only part of its environment).
  const deno = DENO_ENV.flatMap((name) => {
    const value = Deno.env.get(name);
    return value === undefined ? [] : [[name, value]];
  });
  const server = JSON.stringify({
    command,
    args,
    cwd,
    env: { ...Object.fromEntries(deno), ...env },
  });
  return await driveJson<Driven>(core.node, {
    args: [MCP_DRIVER, core.modules, server],
    cwd: dirs.root,
  }, calls);
}

Deno.test({
  name:
    `Gemini CLI ${GEMINI_CORE_VERSION} over MCP: the wait_for_previous it adds to every call is accepted by a closed schema${skip}`,
  ignore: !core.ok,
}, async () => {
  await using dirs = await scratch({
    schema: 1,
    tools: {
      words: { description: "Echo the input", input_schema: WORDS_SCHEMA, command: ["cat"] },
      own: {
        description: "Declares wait_for_previous itself",
        input_schema: {
          type: "object",
          properties: { wait_for_previous: { type: "boolean" } },
          additionalProperties: false,
        },
        command: ["cat"],
      },
    },
  });
  const driven = await driveMcp(dirs, [
    { name: "words", args: { text: "in order", wait_for_previous: true } },
    { name: "words", args: { text: "at once", wait_for_previous: false } },
    { name: "words", args: { text: "plain" } },
    // A tool whose schema has the property gets it, as the schema says it.
    { name: "own", args: { wait_for_previous: true } },
    { name: "spawn", args: { input: "!echo via mcp", wait_for_previous: true } },
  ]);
  // The model is given the tool's schema with Gemini CLI's parameter added to it.
  const words = driven.declarations.find((declaration) => declaration.name === "mcp_basis_words");
  assert.ok(
    JSON.stringify(words?.parametersJsonSchema).includes('"wait_for_previous"'),
    JSON.stringify(driven.declarations),
  );
  // Each call reaches the tool without the flag (Gemini CLI wraps what the model reads).
  const untrusted = (
    text: string,
  ) => [{ text: `<untrusted_context>\n${text}\n</untrusted_context>` }];
  assert.deepEqual(driven.results.map((result) => [result.llmContent, result.error]), [
    [untrusted('{"text":"in order"}'), null],
    [untrusted('{"text":"at once"}'), null],
    [untrusted('{"text":"plain"}'), null],
    // A tool whose schema has the property gets it (Gemini CLI makes it a boolean).
    [untrusted('{"wait_for_previous":true}'), null],
    [untrusted("via mcp"), null],
  ]);
});
