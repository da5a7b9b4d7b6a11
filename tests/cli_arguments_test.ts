import assert from "node:assert/strict";
import { cli, exists, FIXTURES, oneTool, scratch } from "./_cli.ts";
import { DeclaredToolBuilder } from "../src/contract/declared_tool.ts";
import { ToolError } from "../src/contract/tool_error.ts";
import { explicitWorkspace, loadRoster } from "../src/manifest/load.ts";
import { CYRILLIC } from "./_no_english.ts";
import { messages } from "../src/mod.ts";
import { parseArgs } from "../src/cli/args.ts";
import { BasisError, errorLines } from "../src/errors.ts";
import { milliseconds, resolveSettings } from "../src/cli/settings.ts";
import { caught } from "./_caught.ts";
import { say, wording } from "./_wording.ts";
import { phrase, type PhraseParams } from "../src/locale/messages.ts";
import type { MessageKey } from "../src/locale/en_us.ts";

/** How tool "args" refuses a value that begins with "-" at `pointer`. */
function dashRefused(pointer: string): RegExp {
  return wording("input.refused", {
    tool: '"args"',
    pointer,
    reason: phrase("input.argument_dash"),
  });
}

const ALWAYS = ["--approve", "always"];
const ARGV = `${FIXTURES}/argv.sh`;

/** A tool whose argv takes `path` (after `--`), `count`, `ratio` and `verbose` from its input. */
function argumentsTool(command: unknown[]): unknown {
  return {
    schema: 1,
    tools: {
      args: {
        description: "Prints its arguments",
        input_schema: {
          type: "object",
          properties: {
            path: { type: "string", description: "A file" },
            count: { type: "integer" },
            ratio: { type: "number" },
            verbose: { type: "boolean" },
            note: { type: "string" },
          },
          required: ["path", "count", "ratio", "verbose"],
        },
        command,
      },
    },
  };
}

const COMMAND = [
  ARGV,
  "-n",
  { input: "count" },
  { input: "ratio" },
  { input: "verbose" },
  "--",
  { input: "path" },
];

Deno.test("call fills {input} arguments: one whole argv element each, numbers as written, no shell, stdin unchanged", async () => {
  await using dirs = await scratch(argumentsTool(COMMAND));
  const input =
    '{"path": "a b; $(touch X)\\n-x", "count": 12345678901234567890, "ratio": 1.50, "verbose": false, "note": "n"}';
  const result = await cli(dirs, ["call", "args", input, ...ALWAYS]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(
    result.stdout,
    "[-n]\n[12345678901234567890]\n[1.50]\n[false]\n[--]\n[a b; $(touch X)\n-x]\n" +
      'stdin:{"path":"a b; $(touch X)\\n-x","count":12345678901234567890,"ratio":1.50,"verbose":false,"note":"n"}',
  );
  await assert.rejects(Deno.stat(`${dirs.root}/X`), Deno.errors.NotFound);
  // The same digits from piped stdin, with the value written in exponent form.
  const piped = await cli(dirs, ["call", "args", ...ALWAYS], {
    stdin: '{"path": "p", "count": 1E2, "ratio": -0, "verbose": true}',
  });
  assert.equal(piped.code, 4, "-0 begins with a dash and ratio comes before --");
  const exponent = await cli(dirs, ["call", "args", ...ALWAYS], {
    stdin: '{"path": "p", "count": 1E2, "ratio": 0.10, "verbose": true}',
  });
  assert.equal(exponent.code, 0, exponent.stderr);
  assert.match(exponent.stdout, /^\[-n\]\n\[1E2\]\n\[0\.10\]\n\[true\]\n\[--\]\n\[p\]\n/);
});

Deno.test("a value beginning with '-' is refused before approval (exit 4) unless a literal -- comes first", async () => {
  await using dirs = await scratch(argumentsTool(COMMAND));
  // Before "--": a string or a negative number is refused, naming the field; never asked.
  for (
    const [input, field] of [
      ['{"path": "p", "count": -3, "ratio": 1, "verbose": true}', "/count"],
      ['{"path": "p", "count": 3, "ratio": -1e3, "verbose": true}', "/ratio"],
    ] as const
  ) {
    const result = await cli(dirs, ["call", "args", input, "--approve", "never"]);
    assert.equal(result.code, 4, result.stderr);
    assert.match(result.stderr, dashRefused(field));
    const json = await cli(dirs, ["call", "args", input, "--json", ...ALWAYS]);
    assert.equal(JSON.parse(json.stdout).error.kind, "invalid_input");
  }
  // After "--" a value may begin with "-": it can only be an operand there.
  const after = await cli(dirs, [
    "call",
    "args",
    '{"path": "-rf", "count": 1, "ratio": 2, "verbose": true}',
    ...ALWAYS,
  ]);
  assert.equal(after.code, 0, after.stderr);
  assert.ok(after.stdout.includes("[--]\n[-rf]\n"), after.stdout);
  // A string argument before "--" that begins with "-" is refused too.
  await Deno.writeTextFile(
    `${dirs.root}/.basis/tools.json`,
    JSON.stringify(argumentsTool([ARGV, { input: "path" }, "--", { input: "count" }])),
  );
  const option = await cli(dirs, [
    "call",
    "args",
    '{"path": "--exec=touch Y", "count": -1, "ratio": 2, "verbose": true}',
    ...ALWAYS,
  ]);
  assert.equal(option.code, 4);
  assert.match(option.stderr, dashRefused("/path"));
});

Deno.test("an argument naming an unknown, non-scalar or optional property, or the program, is a manifest error at its line:column (exit 6)", async () => {
  const manifest = `{
  "schema": 1,
  "tools": {
    "bad": {
      "description": "Bad arguments",
      "input_schema": {
        "type": "object",
        "properties": { "o": { "type": "object" }, "s": { "type": "string" }, "t": {} },
        "required": ["o", "t"]
      },
      "command": ["echo", {"input": "o"}, {"input": "s"}, {"input": "x"}, {"input": "t"}]
    },
    "program": {
      "description": "Program from input",
      "input_schema": { "type": "object", "properties": { "p": { "type": "string" } }, "required": ["p"] },
      "command": [{"input": "p"}, {"inptu": "p"}]
    },
    "good": { "description": "Fine", "input_schema": { "type": "object" }, "command": ["true"] }
  }
}`;
  await using dirs = await scratch(manifest);
  const check = await cli(dirs, ["check"]);
  assert.equal(check.code, 6);
  const file = `${dirs.root}/.basis/tools.json`;
  const at = (where: string, tool: string, field: string, key: MessageKey, params?: PhraseParams) =>
    `${file}:${where}: ${say("manifest.tool", { tool: `"${tool}"` })}: ${field}: ${
      say(key, params)
    }`;
  assert.deepEqual(check.stdout.trimEnd().split("\n"), [
    at("11:37", "bad", "command[1].input", "manifest.argument_type", {
      name: '"o"',
      found: '"object"',
    }),
    at("11:53", "bad", "command[2].input", "manifest.argument_optional", { name: '"s"' }),
    at("11:69", "bad", "command[3].input", "manifest.argument_unknown", { name: '"x"' }),
    at("11:85", "bad", "command[4].input", "manifest.argument_type", {
      name: '"t"',
      found: phrase("found.nothing"),
    }),
    at("16:19", "program", "command[0]", "manifest.argument_program"),
    at("16:35", "program", "command[1]", "manifest.argument_shape"),
    at("16:36", "program", "command[1].inptu", "manifest.unknown_key_near", { key: '"input"' }),
  ]);
  const call = await cli(dirs, ["call", "bad", '{"o": {}, "t": 1}', ...ALWAYS]);
  assert.equal(call.code, 6, call.stderr);
  // The other tool still works.
  assert.equal((await cli(dirs, ["call", "good", "{}", ...ALWAYS])).code, 0);
});

Deno.test("the preview, dry run and show give the argv after substitution; show marks arguments <name>", async () => {
  await using dirs = await scratch(argumentsTool(COMMAND));
  const dry = await cli(dirs, [
    "call",
    "args",
    '{"path": "my file", "count": 3, "ratio": 0.5, "verbose": true}',
    "--dry-run",
    "--json",
  ]);
  assert.equal(dry.code, 5, dry.stderr);
  assert.deepEqual(JSON.parse(dry.stdout).preview.command, [
    ARGV,
    "-n",
    "3",
    "0.5",
    "true",
    "--",
    "my file",
  ]);
  const show = await cli(dirs, ["show", "args"]);
  assert.ok(
    show.stdout.includes(`${ARGV} -n <count> <ratio> <verbose> -- <path>\n`),
    show.stdout,
  );
  const json = JSON.parse((await cli(dirs, ["show", "args", "--json"])).stdout);
  assert.deepEqual(json.command.slice(2), [
    { input: "count" },
    { input: "ratio" },
    {
      input: "verbose",
    },
    "--",
    { input: "path" },
  ]);
});

Deno.test("always allow for a tool with arguments pins the literal elements and any value where an argument goes", async () => {
  await using dirs = await scratch(argumentsTool(COMMAND));
  const roster = await loadRoster({ workspace: dirs.root, configDir: dirs.configDir });
  const asked: string[] = [];
  const build = () =>
    new DeclaredToolBuilder(roster.tools.get("args")!, {
      root: roster.root,
      cacheDir: dirs.cacheDir,
      spillDir: false,
      approval: {
        policy: "prompt",
        configDir: dirs.configDir,
        ask: (request) => {
          asked.push(
            request.kind === "tool" ? request.preview.command.join(" ") : request.preview.body,
          );
          return Promise.resolve("always_allow");
        },
      },
    }).build();
  const input = { path: "a", count: 1, ratio: 2, verbose: true };
  await (await build().execution(input)).execute();
  const rules = JSON.parse(await Deno.readTextFile(`${dirs.configDir}/rules.json`)).rules;
  assert.equal(rules.length, 1);
  // Each as its input field: a value of the manifest's own there is asked about.
  assert.deepEqual(rules[0].when.argv, [
    ARGV,
    "-n",
    { input: "count" },
    { input: "ratio" },
    { input: "verbose" },
    "--",
    { input: "path" },
  ]);
  // Other values need no question; the rule still refuses what the argument rules refuse.
  const other = await (await build().execution({ ...input, path: "-b", count: 99 })).execute();
  assert.ok(other.result.includes("[99]"), other.result);
  assert.equal(asked.length, 1);
  await assert.rejects(
    build().execution({ ...input, count: -1 }),
    (error) => error instanceof ToolError && error.code === "invalid_input",
  );
  // A literal element changed in the manifest is asked about again.
  await Deno.writeTextFile(
    `${dirs.root}/.basis/tools.json`,
    JSON.stringify(argumentsTool([ARGV, "-m", ...COMMAND.slice(2)])),
  );
  const changed = await loadRoster({ workspace: dirs.root, configDir: dirs.configDir });
  const tool = new DeclaredToolBuilder(changed.tools.get("args")!, {
    root: changed.root,
    cacheDir: dirs.cacheDir,
    spillDir: false,
    approval: {
      policy: "prompt",
      configDir: dirs.configDir,
      ask: () => Promise.resolve("deny"),
    },
  }).build();
  await assert.rejects(
    (await tool.execution(input)).execute(),
    (error) => error instanceof ToolError && error.code === "denied",
  );
});

Deno.test("rules add --tool pins any value where an argument goes, and such a rule allows every value", async () => {
  await using dirs = await scratch(argumentsTool(COMMAND));
  const added = await cli(dirs, ["rules", "add", "--tool", "args", "--json"]);
  assert.equal(added.code, 0, added.stderr);
  assert.deepEqual(JSON.parse(added.stdout).when.argv.slice(1), [
    "-n",
    { input: "count" },
    { input: "ratio" },
    { input: "verbose" },
    "--",
    { input: "path" },
  ]);
  const call = await cli(dirs, [
    "call",
    "args",
    '{"path": "x", "count": 5, "ratio": 1, "verbose": false}',
  ]);
  assert.equal(call.code, 0, call.stderr);
  assert.ok(call.stdout.startsWith("[-n]\n[5]\n"), call.stdout);
});

// --- Wording in en-US and uk-UA ---

const EN = messages("en-US");
const UK = messages("uk-UA");

Deno.test("the CLI's own errors carry English equal to the English catalogue's, for rewording", () => {
  const errors: BasisError[] = [];
  const capture = (action: () => unknown) => {
    try {
      action();
    } catch (error) {
      assert.ok(error instanceof BasisError, String(error));
      errors.push(error);
      return;
    }
    assert.fail("expected a BasisError");
  };
  const global = [
    { name: "json", kind: "boolean" },
    { name: "approve", kind: "string" },
    { name: "env", kind: "list" },
    { name: "spawn-timeout", kind: "string" },
  ] as const;
  capture(() => parseArgs(["--nope"], global, {}));
  capture(() => parseArgs(["--json=1"], global, {}));
  capture(() => parseArgs(["--approve"], global, {}));
  const env = (name: string) => name === "HOME" ? "/home/test" : undefined;
  capture(() => resolveSettings(parseArgs(["list", "--approve", "maybe"], global, {}), env));
  capture(() => resolveSettings(parseArgs(["list", "--env", "=x"], global, {}), env));
  capture(() => resolveSettings(parseArgs(["list", "--spawn-timeout", "-1"], global, {}), env));
  capture(() => milliseconds("timeout", "soon"));
  capture(() => explicitWorkspace("/no/such", "/no/such"));
  // The English is what the hand-written messages said before they came from the catalogue.
  assert.deepEqual(errors.map((error) => error.message), [
    'Unknown option "--nope": see --help',
    'Cannot parse option "--json": it takes no value',
    'Cannot parse option "--approve": a value is missing',
    'Cannot use approval policy "maybe": expected one of prompt, always, never',
    "Cannot parse --env pair 1: expected KEY=VALUE with KEY made of letters, digits and _",
    'Cannot use --spawn-timeout "-1": expected a whole number of milliseconds above 0',
    'Cannot use --timeout "soon": expected a whole number of milliseconds above 0',
    'Cannot use workspace "/no/such": it does not exist',
  ]);
  for (const error of errors) {
    assert.ok(error.phrase !== undefined, error.message);
    assert.equal(EN.say(error.phrase), error.message);
    assert.match(UK.say(error.phrase), CYRILLIC);
  }
});

Deno.test("a -C that is no directory, as the loader finds it (permissions), is worded in uk-UA", async () => {
  await using dirs = await scratch(oneTool("echo", { command: ["cat"] }));
  const file = `${dirs.root}/.basis/tools.json`;
  const en = await cli(dirs, ["-C", file, "permissions"]);
  const uk = await cli(dirs, ["-C", file, "permissions", "--locale", "uk-UA"]);
  assert.equal(en.code, 2);
  assert.equal(uk.code, 2);
  const path = JSON.stringify(file);
  assert.equal(en.stderr, `basis-tools: Cannot use workspace ${path}: not a directory\n`);
  assert.equal(
    uk.stderr,
    `basis-tools: Не вдалося використати робочий простір ${path}: це не каталог\n`,
  );
  // The library's loader carries the same phrase.
  const error = await caught(() => loadRoster({ workspace: file, configDir: dirs.configDir }));
  assert.equal(error.code, "usage");
  assert.equal(error.message, `Cannot use workspace ${path}: not a directory`);
  assert.deepEqual(errorLines(error, UK), [
    `Не вдалося використати робочий простір ${path}: це не каталог`,
  ]);
});

Deno.test("a -C outside Deno's read permission is named as that refusal, in every command that takes one", async () => {
  await using dirs = await scratch(oneTool("echo", { command: ["cat"] }));
  // Everything the CLI reads but the workspace: its config directory (the current one, too).
  const options = {
    permissions: ["--allow-env", "--allow-sys", `--allow-read=${dirs.configDir}`],
    cwd: dirs.configDir,
  };
  const path = JSON.stringify(dirs.root);
  for (const args of [["list"], ["call", "echo", "{}"], ["init"], ["spawn", "!ls"]]) {
    const en = await cli(dirs, ["-C", dirs.root, ...args], options);
    assert.equal(en.code, 2, en.stderr);
    assert.equal(
      en.stderr,
      `basis-tools: ${say("cli.bad_workspace", { path, reason: phrase("workspace.refused") })}\n`,
    );
    const uk = await cli(dirs, ["-C", dirs.root, "--locale", "uk-UA", ...args], options);
    assert.equal(uk.code, 2, uk.stderr);
    assert.equal(
      uk.stderr,
      `basis-tools: ${
        UK.say(phrase("cli.bad_workspace", { path, reason: phrase("workspace.refused") }))
      }\n`,
    );
  }
});

Deno.test("a -C that does not exist says so (init too), in en-US and uk-UA", async () => {
  await using dirs = await scratch();
  const missing = `${dirs.root}/no/such`;
  const path = JSON.stringify(missing);
  for (const args of [["init"], ["list"], ["spawn", "!ls"]]) {
    const en = await cli(dirs, ["-C", missing, ...args]);
    assert.equal(en.code, 2, en.stderr);
    assert.equal(
      en.stderr,
      `basis-tools: ${say("cli.bad_workspace", { path, reason: phrase("workspace.missing") })}\n`,
    );
    const uk = await cli(dirs, ["-C", missing, "--locale", "uk-UA", ...args]);
    assert.equal(
      uk.stderr,
      `basis-tools: ${
        UK.say(phrase("cli.bad_workspace", { path, reason: phrase("workspace.missing") }))
      }\n`,
    );
  }
  assert.equal(await exists(`${dirs.root}/no`), false);
});
