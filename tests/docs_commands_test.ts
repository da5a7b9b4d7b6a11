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
import { ROOT } from "./_fixtures.ts";

/** One command line shown in a document, with where it is. */
interface Shown {
  where: string;
  line: string;
}

/** The README and every file of docs/, as paths from the repository's root. */
export async function documents(): Promise<string[]> {
  const docs: string[] = [];
  for await (const entry of Deno.readDir(`${ROOT}docs`)) {
    if (entry.isFile && entry.name.endsWith(".md")) docs.push(`docs/${entry.name}`);
  }
  return ["README.md", ...docs.sort()];
}

/** The shell lines of a document's ```sh and ```console blocks, continuations joined. */
export function shellLines(file: string, text: string): Shown[] {
  const shown: Shown[] = [];
  for (const block of text.matchAll(/```(sh|console)\n([\s\S]*?)```/g)) {
    const first = text.slice(0, block.index).split("\n").length + 1;
    const lines = block[2]!.split("\n");
    for (let i = 0; i < lines.length; i++) {
      let line = lines[i]!;
      if (block[1] === "console") {
        if (!line.startsWith("$ ")) continue;
        line = line.slice(2);
      }
      const at = i;
      while (line.endsWith("\\") && i + 1 < lines.length) line = line.slice(0, -1) + lines[++i];
      shown.push({ where: `${file}:${first + at}`, line });
    }
  }
  return shown;
}

/**
 * The words of a simple shell command line, as sh would split them (quotes, backslashes, a `#`
 * comment), up to the first operator (`|`, `&&`, `;`, a redirection) — or `undefined` for a line
 * this reader cannot take apart.
 */
export function shellWords(line: string): string[][] {
  const commands: string[][] = [[]];
  let word: string | undefined;
  const end = () => {
    if (word !== undefined) commands.at(-1)!.push(word);
    word = undefined;
  };
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === "'") {
      const close = line.indexOf("'", i + 1);
      if (close === -1) throw new Error(`an unclosed ' in ${line}`);
      word = (word ?? "") + line.slice(i + 1, close);
      i = close;
    } else if (c === '"') {
      let text = "";
      for (i++; i < line.length && line[i] !== '"'; i++) {
        text += line[i] === "\\" && /["\\$`]/.test(line[i + 1] ?? "") ? line[++i] : line[i];
      }
      if (i === line.length) throw new Error(`an unclosed " in ${line}`);
      word = (word ?? "") + text;
    } else if (c === "\\") {
      word = (word ?? "") + (line[++i] ?? "");
    } else if (c === " " || c === "\t") {
      end();
    } else if (c === "#" && word === undefined) {
      break;
    } else if (c === "|" || c === ";" || c === "&" || c === ">" || c === "<") {
      end();
      // What follows an operator is another command (or a file), not this one's arguments.
      while (/[|;&<>0-9]/.test(line[i + 1] ?? "")) i++;
      commands.push([]);
      if (c === ">" || c === "<") {
        // The file of a redirection is not a word of any command.
        while (line[i + 1] === " ") i++;
        while (i + 1 < line.length && line[i + 1] !== " ") i++;
      }
    } else if (/[0-9]/.test(c) && line[i + 1] === ">" && word === undefined) {
      continue;
    } else {
      word = (word ?? "") + c;
    }
  }
  end();
  return commands.filter((words) => words.length > 0);
}

/** How many positionals each command takes (as the CLI counts them; `rules`: its sub-command and the rest). */
const ARITY: Readonly<Record<string, readonly [number, number]>> = {
  show: [1, 1],
  call: [1, 2],
  spawn: [1, 1],
  help: [0, 1],
  rules: [1, 3],
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
