/**
 * Gemini CLI compatibility, tested the way Gemini CLI itself discovers and calls tools
 * (packages/core/src/tools/tool-registry.ts): `tools.discoveryCommand` is split like a shell line
 * and run; its stdout, trimmed, must parse as a JSON array whose items are function declarations
 * (`name`, `description`, `parametersJsonSchema`) or wrappers holding `functionDeclarations` /
 * `function_declarations`; only `parametersJsonSchema` is read for the parameters. A call runs
 * `tools.callCommand` with the tool's name as its one argument, writes the arguments as JSON on
 * stdin and closes it, and takes stdout as the result unless the exit code is not 0, a signal
 * ended it, or anything was written to stderr.
 */

import assert from "node:assert/strict";
import { oneTool, ROOT, type Scratch, scratch } from "./_cli.ts";

const ENTRY = Deno.env.get("BASIS_TEST_BUNDLE") ?? `${ROOT}src/main.ts`;

/** A `basis-tools` on PATH (and the single-program call wrapper), as a user would install them. */
async function install(dirs: Scratch): Promise<Record<string, string>> {
  const bin = `${dirs.root}/../bin`;
  await Deno.mkdir(bin, { recursive: true });
  const program = `${bin}/basis-tools`;
  await Deno.writeTextFile(
    program,
    `#!/bin/sh\nexec '${Deno.execPath()}' run -A --quiet '${ENTRY}' "$@"\n`,
  );
  await Deno.chmod(program, 0o755);
  // For Gemini CLI releases that run callCommand as one program, without splitting it.
  const wrapper = `${bin}/basis-tools-call`;
  await Deno.writeTextFile(wrapper, '#!/bin/sh\nexec basis-tools call "$@"\n');
  await Deno.chmod(wrapper, 0o755);
  return {
    PATH: `${bin}:${Deno.env.get("PATH") ?? "/usr/bin:/bin"}`,
    BASIS_CONFIG_DIR: dirs.configDir,
    BASIS_CACHE_DIR: dirs.cacheDir,
    BASIS_STATE_DIR: dirs.stateDir,
    BASIS_LOCALE: "en-US",
    // Gemini CLI runs the call command without a terminal: approve through the policy (or rules).
    BASIS_APPROVE: "always",
  };
}

/** Splits a command line as shell-quote's `parse` does for plain words and quotes. */
function splitCommand(line: string): string[] {
  const words: string[] = [];
  const pattern = /'([^']*)'|"((?:\\.|[^"])*)"|(\S+)/g;
  for (const match of line.matchAll(pattern)) {
    words.push(match[1] ?? match[2]?.replace(/\\(.)/g, "$1") ?? match[3] ?? "");
  }
  return words;
}

interface Discovered {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/** Gemini CLI's `discoverAndRegisterToolsFromCommand`, minus the registry. */
async function discover(
  discoveryCommand: string,
  env: Record<string, string>,
  cwd: string,
): Promise<Discovered[]> {
  const [program, ...args] = splitCommand(discoveryCommand);
  const output = await new Deno.Command(program as string, {
    args,
    env,
    cwd,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(output.code, 0, new TextDecoder().decode(output.stderr));
  const items = JSON.parse(new TextDecoder().decode(output.stdout).trim());
  assert.ok(Array.isArray(items), "Tool discovery command did not return a JSON array of tools.");
  const functions: Record<string, unknown>[] = [];
  for (const tool of items) {
    if (tool && typeof tool === "object") {
      if (Array.isArray(tool.function_declarations)) functions.push(...tool.function_declarations);
      else if (Array.isArray(tool.functionDeclarations)) {
        functions.push(...tool.functionDeclarations);
      } else if (tool.name) functions.push(tool);
    }
  }
  return functions.filter((func) => func.name).map((func) => {
    const schema = func.parametersJsonSchema;
    return {
      name: String(func.name),
      description: String(func.description ?? ""),
      parameters: schema && typeof schema === "object" && !Array.isArray(schema)
        ? schema as Record<string, unknown>
        : {},
    };
  });
}

interface Called {
  llmContent: string;
  isError: boolean;
  stdout: string;
  stderr: string;
  code: number;
}

/**
 * Gemini CLI's `DiscoveredToolInvocation.execute`. `split` is false for the releases that pass
 * callCommand to spawn() as one program name, true for those that split it into an argv first.
 */
async function callTool(
  callCommand: string,
  name: string,
  params: Record<string, unknown>,
  env: Record<string, string>,
  cwd: string,
  split: boolean,
): Promise<Called> {
  const [program, ...rest] = split ? splitCommand(callCommand) : [callCommand];
  const child = new Deno.Command(program as string, {
    args: [...rest, name],
    env,
    cwd,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(JSON.stringify(params)));
  await writer.close();
  const output = await child.output();
  const stdout = new TextDecoder().decode(output.stdout);
  const stderr = new TextDecoder().decode(output.stderr);
  const isError = output.code !== 0 || output.signal !== null || stderr !== "";
  const llmContent = isError
    ? [
      `Stdout: ${stdout || "(empty)"}`,
      `Stderr: ${stderr || "(empty)"}`,
      `Exit Code: ${output.code}`,
    ].join("\n")
    : stdout;
  return { llmContent, isError, stdout, stderr, code: output.code };
}

const WORDS_SCHEMA = {
  type: "object",
  properties: { text: { type: "string", description: "The text" } },
  required: ["text"],
};

Deno.test("Gemini CLI discovers the roster with `basis-tools schema --format gemini`", async () => {
  const dirs = await scratch({
    schema: 1,
    tools: {
      words: { description: "Echo the input", input_schema: WORDS_SCHEMA, command: ["cat"] },
      fail: { description: "Fail", input_schema: { type: "object" }, command: ["false"] },
    },
  });
  const env = await install(dirs);
  const tools = await discover("basis-tools schema --format gemini", env, dirs.root);
  assert.deepEqual(tools.map((tool) => tool.name), ["fail", "words", "spawn"]);
  const words = tools.find((tool) => tool.name === "words");
  assert.equal(words?.description, "Echo the input");
  // The schema arrives whole: Gemini CLI reads parametersJsonSchema and nothing else.
  assert.deepEqual(words?.parameters, WORDS_SCHEMA);
  assert.deepEqual(tools.find((tool) => tool.name === "spawn")?.parameters.required, ["input"]);
  // The wrapped shape Gemini CLI also accepts is not needed: every item is a declaration.
  await dirs.cleanup();
});

Deno.test("Gemini CLI calls a discovered tool with `basis-tools call`: name first, JSON on stdin", async () => {
  const dirs = await scratch({
    schema: 1,
    tools: {
      words: { description: "Echo the input", input_schema: WORDS_SCHEMA, command: ["cat"] },
      fail: {
        description: "Fail",
        input_schema: { type: "object" },
        command: ["/bin/sh", "-c", "echo broken >&2; exit 3"],
      },
    },
  });
  const env = await install(dirs);
  const tools = await discover("basis-tools schema --format gemini", env, dirs.root);
  assert.ok(tools.some((tool) => tool.name === "words"));
  // Gemini CLI releases that split callCommand into an argv, and those that run it as one program
  // (pointed at a two-line wrapper that runs `basis-tools call "$@"`).
  for (
    const [callCommand, split] of [["basis-tools call", true], ["basis-tools-call", false]] as const
  ) {
    const ok = await callTool(callCommand, "words", { text: "héllo" }, env, dirs.root, split);
    assert.equal(ok.isError, false, ok.llmContent);
    assert.equal(ok.llmContent, '{"text":"héllo"}');
    const spawn = await callTool(
      callCommand,
      "spawn",
      { input: "!echo via gemini" },
      env,
      dirs.root,
      split,
    );
    assert.equal(spawn.isError, false, spawn.llmContent);
    assert.equal(spawn.llmContent, "via gemini\n");
    // A failure is an error Gemini CLI shows the model, with our one line on stderr.
    const failed = await callTool(callCommand, "fail", {}, env, dirs.root, split);
    assert.equal(failed.isError, true);
    assert.equal(failed.code, 1);
    assert.match(failed.stderr, /broken\nbasis-tools: Tool "fail" exited with code 3\n$/);
    // Bad arguments are refused before anything runs (exit 4), naming the field.
    const refused = await callTool(callCommand, "words", { txt: 1 }, env, dirs.root, split);
    assert.equal(refused.code, 4);
    assert.match(refused.stderr, /\/text: required property is missing/);
  }
  await dirs.cleanup();
});

Deno.test("without a terminal or a rule, a Gemini CLI call is denied with how to allow it", async () => {
  const dirs = await scratch(oneTool("echo", { command: ["cat"] }));
  const env = { ...await install(dirs), BASIS_APPROVE: "prompt" };
  const denied = await callTool("basis-tools call", "echo", {}, env, dirs.root, true);
  assert.equal(denied.code, 5);
  assert.match(denied.stderr, /rules add --tool echo/);
  await dirs.cleanup();
});
