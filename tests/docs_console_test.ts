/**
 * The ```console blocks of the README and docs/ (a `$ command` line, then what it prints) run as
 * shown: each command in the workspace its page describes, as a user whose home is `/home/me`,
 * with the output compared line by line (`…` stands for any text). A block that cannot be run as
 * is — it needs the person at the terminal, a rule id made at random, or a machine's own paths — is
 * named in {@linkcode NOT_RUN} with the test that covers it instead; a new block must be one or the
 * other.
 *
 * @module
 */

import assert from "node:assert/strict";
import { documents } from "./_docs.ts";
import { cliCommand, ROOT, scratch } from "./_cli.ts";

/** Blocks not run here (by their first command), and where what they show is tested instead. */
const NOT_RUN: Readonly<Record<string, string>> = {
  "deno task install":
    "run in the clone, into a home of its own: install_test.ts, readme_quickstart_test.ts",
  "basis-tools rules test git '{}'": "a rule id made at random: cli_approval_test.ts",
  "basis-tools -C examples permissions --no-shell": "the machine's own paths: permissions_test.ts",
  [`basis-tools call git_log '{"count": 3, "path": "src"}'`]:
    "the prompt, answered at a terminal: readme_quickstart_test.ts, cli_tty_test.ts",
};

/**
 * Where a block runs: a copy of `examples/` for its tools, a copy of the repository's src/ for
 * `spawn '!ls src'`,
 * else `~/src/app`, the workspace the pages make with `init`.
 */
function placeOf(commands: readonly string[]): "examples" | "repository" | "app" {
  if (commands.some((command) => /\b(word_count|slow|plot)\b/.test(command))) return "examples";
  if (commands.some((command) => /\bspawn\b/.test(command))) return "repository";
  return "app";
}

interface Block {
  file: string;
  where: string;
  /** Each `$ ` command with the lines it prints. */
  steps: { command: string; expected: string[] }[];
}

async function consoleBlocks(): Promise<Block[]> {
  const blocks: Block[] = [];
  for (const file of await documents()) {
    const text = await Deno.readTextFile(`${ROOT}${file}`);
    for (const match of text.matchAll(/```console\n([\s\S]*?)```/g)) {
      const where = `${file}:${text.slice(0, match.index).split("\n").length}`;
      const steps: Block["steps"] = [];
      for (const line of match[1]!.replace(/\n$/, "").split("\n")) {
        if (line.startsWith("$ ")) steps.push({ command: line.slice(2), expected: [] });
        else steps.at(-1)?.expected.push(line);
      }
      blocks.push({ file, where, steps });
    }
  }
  return blocks;
}

/** Whether a printed line is the shown one, `…` standing for any text. */
function shown(line: string, expected: string): boolean {
  const pattern = expected.split("…").map((part) => part.replaceAll(/[.*+?^${}()|[\]\\]/g, "\\$&"))
    .join(".*");
  return new RegExp(`^${pattern}$`).test(line);
}

/** The printed lines against the shown ones: a lone `…` line stands for any number of lines. */
function assertShown(printed: string[], expected: string[], where: string): void {
  let at = 0;
  for (let i = 0; i < expected.length; i++) {
    if (expected[i]!.trim() === "…") {
      if (i === expected.length - 1) return;
      while (at < printed.length && !shown(printed[at]!, expected[i + 1]!)) at++;
      continue;
    }
    assert.ok(
      at < printed.length && shown(printed[at]!, expected[i]!),
      `${where}: line ${i + 1} shown as\n  ${expected[i]}\nprinted as\n  ${printed[at]}\n` +
        `(all it printed:\n${printed.join("\n")})`,
    );
    at++;
  }
  assert.equal(printed.slice(at).join("\n").trim(), "", `${where}: printed more than shown`);
}

Deno.test("every console block of the README and docs/ prints what it shows, or says why not", async () => {
  let ran = 0;
  const blocks = await consoleBlocks();
  for (const file of new Set(blocks.map((block) => block.file))) {
    // One user a page: its blocks follow each other (init, then check).
    await using dirs = await scratch();
    const home = `${dirs.root}/home/me`;
    const app = `${home}/src/app`;
    await Deno.mkdir(app, { recursive: true });
    const examples = `${dirs.root}/examples`;
    const copied = await new Deno.Command("cp", { args: ["-r", `${ROOT}examples`, examples] })
      .output();
    assert.ok(copied.success);
    // The page's own manifest, written once `init` has made the workspace.
    const page = await Deno.readTextFile(`${ROOT}${file}`);
    const manifest = /```json\n(\{\n\s+"\$schema"[\s\S]*?)```/.exec(page)?.[1];
    // basis-tools on PATH, as the CLI under test runs (source, bundle or binary).
    const run = cliCommand(dirs, []);
    const bin = `${dirs.root}/bin`;
    await Deno.mkdir(bin);
    const quote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;
    await Deno.writeTextFile(
      `${bin}/basis-tools`,
      `#!/bin/sh\nexec ${[run.command, ...run.args].map(quote).join(" ")} "$@"\n`,
      { mode: 0o755 },
    );
    const env = {
      ...run.env,
      HOME: home,
      PATH: `${bin}:${Deno.env.get("PATH")}`,
      DENO_DIR: Deno.env.get("DENO_DIR") ?? `${Deno.env.get("HOME")}/.cache/deno`,
    };
    for (const block of blocks.filter((block) => block.file === file)) {
      if ((block.steps[0]?.command ?? "") in NOT_RUN) continue;
      const place = placeOf(block.steps.map((step) => step.command));
      let cwd = place === "examples" ? examples : app;
      if (place === "repository") {
        // A workspace holding the repository's src/, wherever the clone is (a cwd under the
        // host's /tmp outside any workspace is refused by the sandbox).
        cwd = `${dirs.root}/repository`;
        await Deno.mkdir(`${cwd}/.basis`, { recursive: true });
        await Deno.writeTextFile(`${cwd}/.basis/tools.json`, '{"schema": 1, "tools": {}}\n');
        const src = await new Deno.Command("cp", { args: ["-r", `${ROOT}src`, `${cwd}/src`] })
          .output();
        assert.ok(src.success);
      }
      let last = 0;
      for (const { command, expected } of block.steps) {
        const where = `${block.where} ($ ${command})`;
        const lines = expected.map((line) => line.replaceAll("/home/me", home));
        if (command === "echo $?") {
          assert.deepEqual(lines, [String(last)], where);
          continue;
        }
        const output = await new Deno.Command("sh", {
          args: ["-c", `${command} 2>&1`],
          cwd,
          env,
          stdin: "null",
        }).output();
        last = output.code;
        const printed = new TextDecoder().decode(output.stdout).replace(/\n$/, "").split("\n");
        assertShown(printed, lines, where);
        if (/^cd ~\/src\/app && basis-tools init$/.test(command) && manifest !== undefined) {
          await Deno.writeTextFile(`${app}/.basis/tools.json`, manifest);
        }
      }
      ran++;
    }
  }
  assert.ok(ran >= 4, `only ${ran} blocks ran`);
});
