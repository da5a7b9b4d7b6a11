/**
 * Attacks on issue 16's authoring features (arguments from the input, `call NAME --help`, `show`):
 * a rule pinned for a tool with arguments from its input never approves an option the repository
 * puts in an argument's place, and no help text prints a secret or a raw control character.
 */

import assert from "node:assert/strict";
import { cli, FIXTURES, scratch } from "./_cli.ts";

const ARGV = `${FIXTURES}/argv.sh`;

/** One tool `f` whose input has `dir` and `path`, both required strings, run as `command`. */
function dirPathTool(command: unknown[]): unknown {
  return {
    schema: 1,
    tools: {
      f: {
        description: "Prints its arguments",
        input_schema: {
          type: "object",
          properties: { dir: { type: "string" }, path: { type: "string" } },
          required: ["dir", "path"],
        },
        command,
      },
    },
  };
}

Deno.test("a rule pinned for an argument from the input never allows an option the manifest later puts in its place", async () => {
  await using dirs = await scratch(dirPathTool([ARGV, { input: "dir" }, "--", { input: "path" }]));
  const added = await cli(dirs, ["rules", "add", "--tool", "f"]);
  assert.equal(added.code, 0, added.stderr);
  const input = '{"dir": "a", "path": "-p"}';
  const allowed = await cli(dirs, ["call", "f", input, "--approve", "never"]);
  assert.equal(allowed.code, 0, allowed.stderr);
  assert.equal(allowed.stdout, `[a]\n[--]\n[-p]\nstdin:{"dir":"a","path":"-p"}`);
  // The repository replaces the argument with an option (find's -delete, say): asked again.
  const path = `${dirs.root}/.basis/tools.json`;
  await Deno.writeTextFile(path, JSON.stringify(dirPathTool([ARGV, "-delete", "--", "p"])));
  const option = await cli(dirs, ["call", "f", input, "--approve", "never"]);
  assert.equal(option.code, 5, `${option.stdout}\n${option.stderr}`);
  assert.equal(option.stdout, "");
  const tested = await cli(dirs, ["rules", "test", "f", input, "--json"]);
  assert.notEqual(JSON.parse(tested.stdout).by, "rule", tested.stdout);
  // So is a literal an input value could be (an operand, or anything after "--"): the rule
  // allows any value of the input there, not a value of the manifest's own.
  await Deno.writeTextFile(path, JSON.stringify(dirPathTool([ARGV, "src", "--", "-x"])));
  const operand = await cli(dirs, ["call", "f", input, "--approve", "never"]);
  assert.equal(operand.code, 5, operand.stdout);
});

Deno.test("call NAME --help shows no secret: not in the description, the command, a field, its default or the example", async () => {
  const secret = "hunter2-help-secret";
  const passed = "passed-env-secret-77";
  const manifest = {
    schema: 1,
    tools: {
      leak: {
        description: `Calls the API with ${secret} and ${passed}`,
        input_schema: {
          type: "object",
          properties: {
            [secret]: { type: "string", description: `a ${secret}`, default: secret },
            k: { enum: [passed], description: passed },
          },
          required: [secret, "k"],
        },
        // (A secret in the command itself is refused: tests/manifest_test.ts.)
        command: ["cat", { input: secret }],
        env: { TOKEN: secret },
      },
    },
  };
  await using dirs = await scratch(manifest);
  for (const json of [[], ["--json"]]) {
    const help = await cli(dirs, ["call", "leak", "--help", "--env", `P=${passed}`, ...json]);
    assert.equal(help.code, 0, help.stderr);
    const printed = help.stdout + help.stderr;
    assert.ok(printed.includes("[redacted]"), printed);
    assert.ok(!printed.includes(secret) && !printed.includes(passed), printed);
  }
});

Deno.test("show, call NAME --help and list write no raw control or bidi character a manifest holds", async () => {
  const evil = "\u001b[2J\r\u0007\u202e\u0085";
  const manifest = {
    schema: 1,
    tools: {
      e: {
        title: "T\u001b[31m\u0007\u202e",
        description: `d${evil}`,
        input_schema: {
          type: "object",
          properties: { [`f${evil}`]: { type: "string", description: `x${evil}` } },
          required: [`f${evil}`],
        },
        command: ["cat", `lit${evil}`, { input: `f${evil}` }],
        cwd: `sub${evil}`,
      },
    },
  };
  await using dirs = await scratch(manifest);
  const outputs = [
    await cli(dirs, ["show", "e"]),
    await cli(dirs, ["call", "e", "--help"]),
    await cli(dirs, ["list"]),
  ];
  for (const output of outputs) {
    assert.equal(output.code, 0, output.stderr);
    // deno-lint-ignore no-control-regex -- the characters that must never be written raw
    const raw = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/u;
    assert.ok(!raw.test(output.stdout + output.stderr), JSON.stringify(output.stdout));
  }
});

Deno.test("call --dry-run and rules test write an input's C1 controls and bidi overrides as escapes, never raw", async () => {
  await using dirs = await scratch(dirPathTool([ARGV, { input: "dir" }, "--", { input: "path" }]));
  const input = JSON.stringify({ dir: "a\u009b2J\u202eb", path: "p\u0085" });
  for (const args of [["call", "f", input, "--dry-run"], ["rules", "test", "f", input]]) {
    const result = await cli(dirs, args);
    assert.notEqual(result.stdout, "", result.stderr);
    assert.ok(!/[\u0080-\u009f\u202a-\u202e\u2066-\u2069]/u.test(result.stdout), result.stdout);
    // The escapes are JSON's own: the preview still reads back as the same input.
    const preview = JSON.parse(result.stdout.split("\n")[0]!.replace(/^\S+\s+/, ""));
    assert.deepEqual(preview.input, JSON.parse(input));
  }
});
