/**
 * Every `basis-tools` command line the README and docs/ show (in ```sh blocks, and after `$ ` in
 * ```console blocks) is one the CLI takes: a command it has, options that command accepts, each
 * with its value, and as many positional arguments as the command takes. A line that names no real
 * input (`NAME`, `…`) is still held to that. The README's quick start is run for real in
 * `readme_quickstart_test.ts`.
 *
 * @module
 */

import assert from "node:assert/strict";
import { scanArgs } from "../src/cli/args.ts";
import { isCommand } from "../src/cli/help.ts";
import { COMMAND_OPTIONS, GLOBAL_OPTIONS } from "../src/cli/settings.ts";
import { documents, shellLines, shellWords } from "./_docs.ts";
import { ROOT } from "./_fixtures.ts";

/** How many positionals each command takes (as the CLI counts them; `rules`: its sub-command and the rest). */
const ARITY: Readonly<Record<string, readonly [number, number]>> = {
  show: [1, 1],
  call: [1, 2],
  spawn: [1, 1],
  help: [0, 1],
  rules: [1, 3],
  completion: [1, Infinity],
};

/** What is wrong with a `basis-tools` command line (its words after the program), or undefined. */
function problemOf(words: readonly string[]): string | undefined {
  const parsed = scanArgs(words, GLOBAL_OPTIONS, COMMAND_OPTIONS);
  if (parsed.command !== undefined && !isCommand(parsed.command)) {
    return `no command "${parsed.command}"`;
  }
  if (parsed.error !== undefined) return parsed.error.message;
  if (parsed.positionals.some((word) => /^\[.*\]$/.test(word))) return "a synopsis, not a command";
  if (parsed.options.get("help") === true || parsed.options.get("version") === true) return;
  if (parsed.command === undefined) return "no command";
  const [min, max] = ARITY[parsed.command] ?? [0, 0];
  const count = parsed.positionals.length;
  if (count < min || count > max) return `${count} positional arguments (${min}–${max} taken)`;
}

Deno.test("every basis-tools command line of the README and docs/ is one the CLI takes", async () => {
  let checked = 0;
  for (const file of await documents()) {
    const text = await Deno.readTextFile(`${ROOT}${file}`);
    for (const { where, line } of shellLines(file, text)) {
      for (const words of shellWords(line)) {
        // `claude mcp add basis-tools -- basis-tools …`: the basis-tools line is after the `--`.
        const at = words.indexOf("basis-tools", words[0] === "basis-tools" ? 0 : 1);
        const from = words[0] === "basis-tools" ? 0 : words[at - 1] === "--" ? at : -1;
        if (from === -1) continue;
        const problem = problemOf(words.slice(from + 1));
        assert.equal(problem, undefined, `${where}: ${line}`);
        checked++;
      }
    }
  }
  assert.ok(checked >= 25, `only ${checked} command lines were found`);
});

Deno.test("the document reader splits command lines as sh does", () => {
  assert.deepEqual(shellWords(`basis-tools call t '{"a": "b c"}' --json  # why`), [
    ["basis-tools", "call", "t", '{"a": "b c"}', "--json"],
  ]);
  assert.deepEqual(shellWords(`cd ~/app && basis-tools init`), [["cd", "~/app"], [
    "basis-tools",
    "init",
  ]]);
  assert.deepEqual(shellWords(`basis-tools call x 2>log | head -c 100`), [
    ["basis-tools", "call", "x"],
    ["head", "-c", "100"],
  ]);
  assert.deepEqual(shellWords(`basis-tools rules add --reason "say \\"no\\""`), [
    ["basis-tools", "rules", "add", "--reason", 'say "no"'],
  ]);
  assert.equal(problemOf(["call"]), "0 positional arguments (1–2 taken)");
  assert.match(problemOf(["call", "x", "--aprove", "always"]) ?? "", /--aprove/);
  assert.match(problemOf(["lsit"]) ?? "", /lsit/);
});
