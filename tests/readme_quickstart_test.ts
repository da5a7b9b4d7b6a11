/**
 * The README's install and quick start, run as a new user runs them: its own command lines, read
 * from the README (not copied here), in a fresh home directory, from `deno task install` to Claude
 * Code connected to the workspace. The prompt is answered in a real terminal (tmux); the agent
 * host's side is Claude Code's own `mcp add` and `mcp list` (which starts the server and checks
 * that it answers), then a call over MCP that the remembered rule lets run without asking.
 *
 * @module
 */

import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { claudeCode } from "./_claude_code.ts";
import { shellLines, shellWords } from "./_docs.ts";
import { ROOT } from "./_fixtures.ts";
import { tempDir } from "./_scratch.ts";
import { hasTmux, inPseudoTerminal } from "./_tmux.ts";

const decoder = new TextDecoder();

/** The README's steps: the words of each command of its shell blocks, and its JSON block. */
async function quickStart(): Promise<{ commands: string[][]; comments: string[]; json: string }> {
  const text = await Deno.readTextFile(`${ROOT}README.md`);
  const start = text.indexOf("## Install");
  const end = text.indexOf("## Reference");
  assert.ok(start !== -1 && end > start, "the README has Install … Reference");
  const part = text.slice(start, end);
  const commands: string[][] = [];
  const comments: string[] = [];
  for (const { line } of shellLines("README.md", part)) {
    for (const words of shellWords(line)) {
      commands.push(words);
      comments.push(/#\s*(.*)$/.exec(line)?.[1] ?? "");
    }
  }
  const json = /```json\n([\s\S]*?)```/.exec(part)?.[1];
  assert.ok(json !== undefined, "the quick start shows a manifest");
  return { commands, comments, json };
}

/** A process's output. */
async function run(
  argv: readonly string[],
  cwd: string,
  env: Record<string, string>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const output = await new Deno.Command(argv[0]!, {
    args: argv.slice(1),
    cwd,
    env,
    clearEnv: true,
    stdin: "null",
  }).output();
  return {
    code: output.code,
    stdout: decoder.decode(output.stdout),
    stderr: decoder.decode(output.stderr),
  };
}

const TMUX = hasTmux();

Deno.test({
  name: "the README's install and quick start work as written, up to Claude Code connected",
  ignore: !TMUX,
  sanitizeResources: false,
  fn: async () => {
    const claude = await claudeCode();
    await using dir = await tempDir({ prefix: "basis-quickstart-" });
    const home = `${dir.path}/home`;
    await Deno.mkdir(home);
    // A new user: a home of their own, the machine's PATH, Deno's cache where it is (else every
    // package is fetched again), and nothing of basis-tools' own set.
    const denoDir = Deno.env.get("DENO_DIR") ?? `${Deno.env.get("HOME")}/.cache/deno`;
    const env: Record<string, string> = {
      HOME: home,
      PATH: `${home}/.local/bin:${Deno.env.get("PATH")}`,
      DENO_DIR: denoDir,
      TERM: "xterm-256color",
      GIT_AUTHOR_NAME: "me",
      GIT_AUTHOR_EMAIL: "me@example.com",
      GIT_COMMITTER_NAME: "me",
      GIT_COMMITTER_EMAIL: "me@example.com",
    };
    const tilde = (word: string) => word.replace(/^~(?=\/|$)/, home);
    const { commands, comments, json } = await quickStart();
    let cwd = ROOT;
    let at = 0;
    const next = (first: string) => {
      const found = commands.findIndex((words, i) => i >= at && words[0] === first);
      assert.ok(found !== -1, `the README goes on with ${first} (after command ${at})`);
      at = found + 1;
      return { words: commands[found]!.map(tilde), comment: comments[found]! };
    };

    // Install: `cd` into the clone, then the install task with Deno from npm. The Deno running
    // this test is the one the README names.
    assert.deepEqual(next("cd").words, ["cd", "basis-tools"]);
    const install = next("npx").words;
    assert.deepEqual(install.slice(0, 3), ["npx", "-y", `deno@${Deno.version.deno}`]);
    const installed = await run([Deno.execPath(), ...install.slice(3)], cwd, env);
    assert.equal(installed.code, 0, installed.stderr);
    for (const name of ["basis-tools", "basis-tools-call"]) {
      const stat = await Deno.stat(`${home}/.local/bin/${name}`);
      assert.ok(stat.isFile, name);
    }

    // 1. A project of the user's own, with a few commits, and `init` in it.
    const project = next("cd").words[1]!;
    await Deno.mkdir(project, { recursive: true });
    for (const args of [["init", "-q"], ["commit", "-q", "--allow-empty", "-m", "first"]]) {
      assert.equal((await run(["git", ...args], project, env)).code, 0);
    }
    for (const subject of ["second", "third", "fourth"]) {
      await run(["git", "commit", "-q", "--allow-empty", "-m", subject], project, env);
    }
    cwd = project;
    const init = await run(next("basis-tools").words, cwd, env);
    assert.equal(init.code, 0, init.stderr);

    // 2. The manifest of the README.
    await Deno.writeTextFile(`${project}/.basis/tools.json`, json);

    // 3. check (its output as the comment says), the tool's help, and a call that asks first.
    const check = next("basis-tools");
    const checked = await run(check.words, cwd, env);
    assert.equal(checked.code, 0, checked.stderr);
    const expected = check.comment.replaceAll(/[.*+?^$()[\]{}|\\]/g, "\\$&").replace("…", ".*");
    assert.match(checked.stdout.trim(), new RegExp(`^${expected}$`));
    const help = await run(next("basis-tools").words, cwd, env);
    assert.equal(help.code, 0, help.stderr);
    assert.match(help.stdout, /git log --oneline -n <count>/);
    const call = next("basis-tools").words;
    const asked = await inPseudoTerminal([
      "sh",
      "-c",
      `cd "$1" && shift && exec "$@"`,
      "sh",
      cwd,
      ...call,
    ], {
      keys: ["Enter"],
      env,
    });
    assert.equal(asked.code, 0, asked.screen);
    assert.match(asked.screen, /git log --oneline -n 3/);
    assert.match(asked.screen, /fourth\n.*third\n.*second/);

    // 4. The rule, then the same call runs without asking (no terminal here: it would be refused).
    const rule = await run(next("basis-tools").words, cwd, env);
    assert.equal(rule.code, 0, rule.stderr);
    const again = await run(call, cwd, env);
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /fourth\n.*third\n.*second\n$/);

    // 5. Claude Code: `claude mcp add … -- basis-tools -C ~/src/app mcp`, then its health check.
    const host = next("claude").words;
    const server = host.slice(host.indexOf("--") + 1);
    assert.deepEqual(server.slice(0, 3), ["basis-tools", "-C", project]);
    if (claude.ok) {
      const added = await run([claude.claude, ...host.slice(1)], cwd, env);
      assert.equal(added.code, 0, added.stdout + added.stderr);
      const listed = await run([claude.claude, "mcp", "list"], cwd, env);
      assert.match(
        listed.stdout,
        /basis-tools: .*mcp - .*Connected/,
        listed.stdout + listed.stderr,
      );
    } else {
      console.warn(`Claude Code itself not checked: ${claude.reason}`);
    }
    // What the host then does: list the tools and call one, which the rule allows.
    const transport = new StdioClientTransport({
      command: server[0]!,
      args: server.slice(1),
      env,
      cwd: home,
      stderr: "pipe",
    });
    const client = new Client({ name: "quickstart", version: "1.0.0" });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      assert.ok(tools.some((tool) => tool.name === "git_log"));
      const result = await client.callTool({ name: "git_log", arguments: { count: 2 } });
      assert.equal(result.isError ?? false, false, JSON.stringify(result));
      const [first] = result.content as { type: string; text: string }[];
      assert.match(first?.text ?? "", /fourth\n.*third\n?$/);
    } finally {
      await client.close();
    }
  },
});
