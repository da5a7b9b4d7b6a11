/**
 * `basis-tools completion`: the candidates for a command line, through the real CLI; and each
 * shell's script, run by that shell with the installed command on PATH (tests/_commands.ts): bash
 * through `complete -p` and COMP_WORDS as bash splits them, and at a real prompt; zsh at a real
 * prompt; fish through `complete -C`. A shell that is not installed is skipped, saying so (.ci/run
 * installs zsh and fish).
 */

import assert from "node:assert/strict";
import { assertNoStackTrace, cli, type Scratch, scratch } from "./_cli.ts";
import { commandsEnv, writeCommands } from "./_commands.ts";
import { hasTmux, inPseudoTerminal } from "./_tmux.ts";

const tool = (command: string[]) => ({
  description: "d",
  input_schema: { type: "object" },
  command,
});
/** Two workspace tools and a global one; running any of them leaves a file behind. */
const WORKSPACE = {
  schema: 1,
  tools: { word_count: tool(["touch", "ran"]), notes_add: tool(["touch", "ran"]) },
};
const GLOBAL = { schema: 1, tools: { weather: tool(["touch", "ran"]) } };
const COMMANDS = "init list show check call spawn schema rules permissions mcp completion help";
const NAMES = "notes_add word_count weather spawn";

/** The candidates the CLI gives for the words (the last one being completed). */
async function candidates(dirs: Scratch, words: string[]): Promise<string> {
  const result = await cli(dirs, ["completion", "candidates", "--", ...words]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stderr, "");
  return result.stdout.split("\n").filter(Boolean).join(" ");
}

function has(program: string): boolean {
  try {
    return new Deno.Command(program, { args: ["--version"], stdout: "null", stderr: "null" })
      .outputSync().success;
  } catch {
    return false;
  }
}

/** The environment of a shell that has the installed commands on PATH. */
async function shellEnv(dirs: Scratch): Promise<Record<string, string>> {
  const bin = await writeCommands(`${dirs.root}/../bin`);
  return commandsEnv(dirs, bin, { HOME: `${dirs.root}/..`, TERM: "xterm" });
}

async function shell(dirs: Scratch, argv: string[]): Promise<string> {
  const output = await new Deno.Command(argv[0]!, {
    args: argv.slice(1),
    cwd: dirs.root,
    env: await shellEnv(dirs),
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  assert.ok(output.success, text(output.stderr));
  return text(output.stdout);
}

Deno.test("completion candidates: commands, each command's options, option values and the workspace's tool names", async () => {
  await using dirs = await scratch(WORKSPACE, GLOBAL);
  await using other = await scratch(oneOther());
  const cases: [string[], string][] = [
    [[""], COMMANDS],
    [["c"], "check call completion"],
    [["call", ""], NAMES],
    [["--json", "show", "w"], "word_count weather"],
    [["rules", ""], "list add remove check test"],
    [["rules", "test", ""], NAMES],
    [["rules", "add", "--tool", "n"], "notes_add"],
    [["help", ""], COMMANDS],
    [["completion", ""], "bash zsh fish"],
    [["--js"], "--json"],
    [["call", "--d"], "--dry-run"],
    [["init", "--"], "--workspace --json --locale --help"],
    [["schema", "--format", ""], "openai anthropic mcp gemini openai-responses"],
    [["schema", "--format=a"], "--format=anthropic"],
    [["permissions", "--format", "d"], "deno-json"],
    [["--approve", ""], "prompt always never"],
    [["call", "--locale", "u"], "uk-UA"],
    [["-C", ""], ":dir"],
    [["rules", "add", "--program", "x"], ":file"],
    // The workspace the words name.
    [["-C", other.root, "call", ""], "only_here weather spawn"],
    [["--workspace", other.root, "--config-dir", other.configDir, "show", ""], "only_here spawn"],
    // Nothing to offer.
    [["call", "word_count", ""], ""],
    [["spawn", ""], ""],
    [["mcp", "--timeout", ""], ""],
    [["nonsense", ""], ""],
  ];
  for (const [words, expected] of cases) {
    assert.equal(await candidates(dirs, words), expected, words.join(" "));
  }
  // Reading the manifests is all it does: no tool ran.
  await assert.rejects(Deno.stat(`${dirs.root}/ran`), Deno.errors.NotFound);
});

/** A workspace in a directory whose name has a space, inside the scratch one. */
async function myDir(dirs: Scratch): Promise<void> {
  await Deno.mkdir(`${dirs.root}/my dir/.basis`, { recursive: true });
  await Deno.writeTextFile(`${dirs.root}/my dir/.basis/tools.json`, JSON.stringify(oneOther()));
}

function oneOther() {
  return { schema: 1, tools: { only_here: tool(["touch", "ran"]) } };
}

Deno.test("completion with a broken manifest offers no tool names and says nothing; an unknown shell is one line, exit 2", async () => {
  await using dirs = await scratch('{"schema": 1, "tools": {"$(touch pwned)": {}}');
  assert.equal(await candidates(dirs, ["call", ""]), "");
  assert.equal(await candidates(dirs, ["sh"]), "show");
  for (const args of [["completion", "powershell"], ["completion"]]) {
    const result = await cli(dirs, args);
    assert.equal(result.code, 2, args.join(" "));
    assert.equal(result.stderr.trimEnd().split("\n").length, 1, result.stderr);
    assertNoStackTrace(result.stderr);
  }
  const unknown = await cli(dirs, ["completion", "powershell"]);
  assert.equal(
    unknown.stderr,
    'basis-tools: Cannot print a completion script for "powershell": expected one of bash, zsh, fish\n',
  );
  const uk = await cli(dirs, ["completion", "powershell", "--locale", "uk-UA"]);
  assert.match(uk.stderr, /Не вдалося вивести сценарій доповнення для "powershell"/);
  await assert.rejects(Deno.stat(`${dirs.root}/pwned`), Deno.errors.NotFound);
});

Deno.test("bash: the script registers basis-tools and completes the words as bash splits them (COMP_WORDS)", async () => {
  await using dirs = await scratch(WORKSPACE, GLOBAL);
  await Deno.mkdir(`${dirs.root}/subdir`);
  await myDir(dirs);
  await Deno.writeTextFile(`${dirs.root}/basis-tools`, "#!/bin/sh\ntouch pwned\n", { mode: 0o755 });
  // Each case: COMP_WORDS as bash makes them (it splits at "="), the cursor in the last one.
  const cases: [string[], string][] = [
    [["basis-tools", ""], COMMANDS],
    [["basis-tools", "ca"], "call"],
    [["basis-tools", "call", ""], NAMES],
    [["basis-tools", "--env", "A", "=", "b", "call", "w"], "word_count weather"],
    [["basis-tools", "schema", "--format", "=", "o"], "openai openai-responses"],
    [
      ["basis-tools", "schema", "--format", "="],
      "=openai =anthropic =mcp =gemini =openai-responses",
    ],
    [["basis-tools", "-C", "s"], "subdir"],
    [["basis-tools", "-C", "m"], "my dir"],
    [["basis-tools", "-C", "'my dir'", "call", "o"], "only_here"],
    // The repository's own ./basis-tools is not what a Tab runs.
    [["./basis-tools", "ca"], "call"],
  ];
  const script = [
    "source <(basis-tools completion bash)",
    "complete -p basis-tools",
    'for line in "${CASES[@]}"; do',
    '  eval "COMP_WORDS=($line)"',
    "  COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMPREPLY=()",
    "  _basis_tools",
    '  echo "${COMPREPLY[*]}"',
    "done",
  ].join("\n");
  const quoted = (words: string[]) => words.map((w) => `'${w.replaceAll("'", `'\\''`)}'`).join(" ");
  const setup = `CASES=(${cases.map(([words]) => `${quoted([quoted(words)])}`).join(" ")})`;
  const lines = (await shell(dirs, ["bash", "--norc", "--noprofile", "-c", `${setup}\n${script}`]))
    .split("\n");
  assert.equal(lines[0], "complete -F _basis_tools basis-tools");
  for (const [i, [words, expected]] of cases.entries()) {
    assert.equal(lines[i + 1], expected, words.join(" "));
  }
  await assert.rejects(Deno.stat(`${dirs.root}/pwned`), Deno.errors.NotFound);
});

/** Parts typed at a prompt, each completed with Tab, and the line they make. */
const TYPED = [["basis-tools -C . ca", "call"], ["no", "notes_add"], ["--dry", "--dry-run"], [
  "--approve=al",
  "--approve=always",
]];
const COMPLETED = "basis-tools -C . call notes_add --dry-run --approve=always";

/** Types a line at an interactive shell's prompt, completes it with Tab, and has it echoed. */
async function atPrompt(
  dirs: Scratch,
  argv: string[],
  rc: { file: string; text: string },
  typed: string[][],
): Promise<string> {
  // In the workspace (tmux starts the shell where the tests run).
  await Deno.writeTextFile(rc.file, `cd '${dirs.root}'\n${rc.text}`);
  const env = await shellEnv(dirs);
  const { screen } = await inPseudoTerminal(argv, {
    waitFor: "READY>",
    env: { ...env, ZDOTDIR: `${dirs.root}/..`, SHELL_SESSIONS_DISABLE: "1" },
    steps: typed.map(([keys, completed]) => ({ keys: [keys!, "Tab"], waitFor: completed! })),
    // Ctrl-A, "echo DONE ": the completed line is printed.
    keys: ["C-a", "echo DONE ", "Enter", "exit", "Enter"],
  });
  const done = screen.split("\n").find((line) => line.startsWith("DONE "));
  assert.ok(done !== undefined, screen);
  return done.slice("DONE ".length).trimEnd();
}

Deno.test({
  name: `bash at a real prompt completes with Tab${
    hasTmux() ? "" : " (skipped: tmux is not installed)"
  }`,
  ignore: !hasTmux(),
  fn: async () => {
    await using dirs = await scratch(WORKSPACE, GLOBAL);
    const rc = `${dirs.root}/../bashrc`;
    const line = await atPrompt(dirs, ["bash", "--noprofile", "--rcfile", rc, "-i"], {
      file: rc,
      text: "source <(basis-tools completion bash)\nPS1='READY> '\nset -o emacs\n",
    }, TYPED);
    assert.equal(line, COMPLETED);
  },
});

const ZSH = has("zsh") && hasTmux();
Deno.test({
  name: `zsh at a real prompt completes with Tab${
    ZSH ? "" : " (skipped: zsh or tmux is not installed)"
  }`,
  ignore: !ZSH,
  fn: async () => {
    await using dirs = await scratch(WORKSPACE, GLOBAL);
    const line = await atPrompt(dirs, ["zsh", "-i"], {
      file: `${dirs.root}/../.zshrc`,
      text: "autoload -Uz compinit && compinit -u\nsource <(basis-tools completion zsh)\n" +
        "PROMPT='READY> '\nbindkey -e\n",
    }, TYPED);
    assert.equal(line, COMPLETED);
  },
});

const FISH = has("fish");
Deno.test({
  name: `fish completes commands, options and tool names (complete -C)${
    FISH ? "" : " (skipped: fish is not installed)"
  }`,
  ignore: !FISH,
  fn: async () => {
    await using dirs = await scratch(WORKSPACE, GLOBAL);
    await myDir(dirs);
    const complete = (line: string) => `complete -C ${JSON.stringify(line)}; echo END`;
    const script = [
      "basis-tools completion fish | source",
      complete("basis-tools sch"),
      complete("basis-tools call "),
      complete("basis-tools schema --format=a"),
      complete("basis-tools -C 'my dir' call o"),
    ].join("\n");
    const out = await shell(dirs, ["fish", "--no-config", "-c", script]);
    const [schema, call, format, quoted] = out.split("END\n").map((part) =>
      part.split("\n").filter(Boolean).map((line) => line.split("\t")[0]).join(" ")
    );
    assert.equal(schema, "schema");
    assert.equal(call, NAMES.split(" ").sort().join(" "));
    assert.equal(format, "--format=anthropic");
    assert.equal(quoted, "only_here");
  },
});
