import assert from "node:assert/strict";
import { assertNoStackTrace, cli, oneTool, ROOT, scratch } from "./_cli.ts";
import { hasTmux, inPseudoTerminal } from "./_tmux.ts";
import { COMMAND_OPTIONS, GLOBAL_OPTIONS } from "../src/cli/settings.ts";
import { HELP_OPTIONS } from "../src/cli/help.ts";
import { cutToWidth, displayWidth, formatTable } from "../src/cli/_table.ts";
import { VERSION } from "../src/version.ts";
import { say, wording } from "./_wording.ts";
import { messages } from "../src/mod.ts";

const ENTRY = Deno.env.get("BASIS_TEST_BUNDLE") ?? `${ROOT}src/main.ts`;
const ALWAYS = ["--approve", "always"];

const WORDS = {
  schema: 1,
  tools: {
    word_count: {
      description: "Count the words of a text",
      input_schema: {
        type: "object",
        properties: {
          text: { type: "string", description: "The text to count" },
          unit: { enum: ["words", "lines"], default: "words", description: "What to count" },
          limit: { type: "integer", minimum: 1 },
          when: { type: "string", format: "date" },
          tags: { type: "array", items: { type: "string" } },
        },
        required: ["text", "limit"],
        additionalProperties: false,
      },
      command: ["wc", "-w"],
    },
    list_files: { description: "List files", input_schema: { type: "object" }, command: ["ls"] },
  },
};

// ---------------------------------------------------------------------------------------------
// init

Deno.test("init writes a manifest naming its JSON Schema and an example tool that runs, then says what is next", async () => {
  await using dirs = await scratch();
  await Deno.remove(`${dirs.root}/.basis`, { recursive: true });
  const result = await cli(dirs, ["init"]);
  assert.equal(result.code, 0, result.stderr);
  const manifest = JSON.parse(await Deno.readTextFile(`${dirs.root}/.basis/tools.json`));
  assert.equal(
    manifest.$schema,
    `https://jsr.io/@basis/tools/${VERSION}/schemas/tools.schema.json`,
  );
  const script = await Deno.stat(`${dirs.root}/.basis/tools/hello.sh`);
  assert.equal(script.mode! & 0o111, 0o111, "the script is executable");
  for (
    const next of ['call hello \'{"name":"world"}\'', "rules add --tool hello", "mcp", "check"]
  ) {
    assert.match(result.stdout, new RegExp(`^ {2}basis-tools .*${RegExp.escape(next)}$`, "m"));
  }
  // The example reads its input as JSON on stdin and takes the name as its argument.
  const called = await cli(dirs, ["call", "hello", '{"name": "world"}', ...ALWAYS]);
  assert.equal(called.code, 0, called.stderr);
  assert.equal(called.stdout, 'Hello, world! (the whole input was {"name":"world"})\n');
  assert.equal((await cli(dirs, ["check", "--strict"])).code, 0);
});

Deno.test("init never overwrites: a manifest already there, or a workspace around, exits 2 and writes nothing", async () => {
  await using dirs = await scratch(oneTool("mine", { command: ["cat"] }));
  const file = `${dirs.root}/.basis/tools.json`;
  const before = await Deno.readTextFile(file);
  const again = await cli(dirs, ["init"]);
  assert.equal(again.code, 2);
  assert.equal(
    again.stderr,
    `basis-tools: ${say("init.exists", { path: JSON.stringify(file) })}\n`,
  );
  assert.equal(await Deno.readTextFile(file), before);
  await assert.rejects(Deno.stat(`${dirs.root}/.basis/tools/hello.sh`), Deno.errors.NotFound);
  // In a directory of that workspace: refused too; -C makes another workspace there.
  await Deno.mkdir(`${dirs.root}/sub`);
  const inside = await cli(dirs, ["init"], { cwd: `${dirs.root}/sub` });
  assert.equal(inside.code, 2);
  assert.match(inside.stderr, wording("init.inside", { root: JSON.stringify(dirs.root) }));
  await assert.rejects(Deno.stat(`${dirs.root}/sub/.basis`), Deno.errors.NotFound);
  const here = await cli(dirs, ["-C", ".", "init", "--json"], { cwd: `${dirs.root}/sub` });
  assert.equal(here.code, 0, here.stderr);
  assert.deepEqual(JSON.parse(here.stdout).created, [
    `${dirs.root}/sub/.basis/tools.json`,
    `${dirs.root}/sub/.basis/tools/hello.sh`,
  ]);
  // A script already where the example would go: nothing is written, the manifest neither.
  await Deno.mkdir(`${dirs.root}/other/.basis/tools`, { recursive: true });
  await Deno.writeTextFile(`${dirs.root}/other/.basis/tools/hello.sh`, "mine");
  const taken = await cli(dirs, ["-C", `${dirs.root}/other`, "init"]);
  assert.equal(taken.code, 2);
  assert.match(
    taken.stderr,
    wording("init.exists", { path: JSON.stringify(`${dirs.root}/other/.basis/tools/hello.sh`) }),
  );
  await assert.rejects(Deno.stat(`${dirs.root}/other/.basis/tools.json`), Deno.errors.NotFound);
  assert.equal(await Deno.readTextFile(`${dirs.root}/other/.basis/tools/hello.sh`), "mine");
});

// ---------------------------------------------------------------------------------------------
// Help

Deno.test("did you mean: unknown commands, options and tool names (lsit, --aprove, call wc)", async () => {
  await using dirs = await scratch(WORDS);
  const cases: [string[], string][] = [
    [["lsit"], 'Unknown command "lsit": did you mean "list"? See basis-tools --help'],
    [["chekc"], 'Unknown command "chekc": did you mean "check"?'],
    [["help", "lsit"], 'Unknown command "lsit": did you mean "list"?'],
    [["list", "--aprove", "always"], 'Unknown option "--aprove": did you mean "--approve"?'],
    [["call", "x", "--dry-rn"], 'Unknown option "--dry-rn": did you mean "--dry-run"?'],
    [
      ["list", "--dry-run"],
      'Cannot use option "--dry-run" with "list": it is an option of "call" or "spawn"; see basis-tools help list',
    ],
    [["call", "wc", "{}"], 'Cannot find tool "wc"; did you mean "word_count"?'],
    [["call", "word_cuont", "{}"], 'Cannot find tool "word_cuont"; did you mean "word_count"?'],
    [["call", "files", "{}"], 'Cannot find tool "files"; did you mean "list_files"?'],
    [["call", "word_count", "--help", "extra"], 'unexpected argument "extra"'],
  ];
  for (const [args, message] of cases) {
    const result = await cli(dirs, args);
    assert.equal(result.code, 2, `${args.join(" ")}: ${result.stderr}`);
    assert.ok(result.stderr.includes(message), `${args.join(" ")}: ${result.stderr}`);
    assert.equal(result.stderr.trimEnd().split("\n").length, 1);
    assertNoStackTrace(result.stderr);
  }
  const uk = await cli(dirs, ["lsit", "--locale", "uk-UA"]);
  assert.match(uk.stderr, /Невідома команда "lsit": можливо, ви мали на увазі "list"\?/);
});

Deno.test("help COMMAND is COMMAND --help, and each command's help lists exactly the options it takes", async () => {
  await using dirs = await scratch();
  const top = await cli(dirs, ["help"]);
  assert.equal(top.code, 0);
  assert.equal(top.stdout, (await cli(dirs, ["--help"])).stdout);
  for (const command of Object.keys(HELP_OPTIONS)) {
    const help = await cli(dirs, ["help", command]);
    assert.equal(help.code, 0, command);
    if (command !== "help") {
      assert.equal(help.stdout, (await cli(dirs, [command, "--help"])).stdout, command);
    }
    const options = help.stdout.slice(help.stdout.indexOf("\nOptions:\n"));
    const listed = [...options.matchAll(/^ {2}(?:-\w, | {4})--([a-z-]+)/gm)].map((m) => m[1]);
    assert.deepEqual(listed, HELP_OPTIONS[command], command);
    // Every option listed is one the command takes.
    const takes = [...GLOBAL_OPTIONS, ...(COMMAND_OPTIONS[command] ?? [])].map((o) => o.name);
    for (const name of listed) assert.ok(takes.includes(name!), `${command} --${name}`);
    // And every option of its own is listed.
    for (const own of COMMAND_OPTIONS[command] ?? []) {
      assert.ok(listed.includes(own.name), `${command} --${own.name}`);
    }
  }
  const list = await cli(dirs, ["list", "--help"]);
  assert.doesNotMatch(list.stdout, /--approve|--dry-run|--spawn-timeout|--audit-log/);
  const init = await cli(dirs, ["init", "--help"]);
  assert.doesNotMatch(init.stdout, /--env|--approve|--config-dir/);
  const initLine = say("help.top").split("\n").find((line) => line.startsWith("  init "));
  assert.ok(initLine !== undefined && top.stdout.includes(`${initLine}\n`), top.stdout);
  assert.match(top.stdout, /^ {2}help \[COMMAND\]/m);
});

Deno.test("call NAME --help shows the tool's description and input fields from its schema", async () => {
  await using dirs = await scratch(WORDS);
  const help = await cli(dirs, ["call", "word_count", "--help"]);
  assert.equal(help.code, 0, help.stderr);
  const lines = help.stdout.split("\n");
  assert.equal(lines[0], "word_count — Count the words of a text");
  assert.ok(
    help.stdout.includes(`Example: basis-tools call word_count '{"text":"…","limit":1}'`),
    help.stdout,
  );
  assert.ok(help.stdout.includes("Runs: wc -w\n"));
  assert.ok(help.stdout.includes("Side effect: process; time limit: 120000 ms\n"));
  assert.ok(help.stdout.includes(`Sandbox: ${say("show.sandbox_default")}\n`), help.stdout);
  const table = lines.slice(lines.findIndex((line) => line.includes("FIELD")));
  assert.deepEqual(table.slice(0, 6), [
    "  FIELD  TYPE               REQUIRED  DEFAULT  DESCRIPTION",
    "  text   string             yes       -        The text to count",
    '  unit   "words" | "lines"  no        "words"  What to count',
    `  limit  integer            yes       -        ${
      say("schema.compare", { comparison: ">=", limit: 1 })
    }`,
    "  when   string (date)      no        -",
    "  tags   array of string    no        -",
  ]);
  assert.ok(!help.stdout.includes(say("help.tool_other_fields")), help.stdout);
  const json = JSON.parse((await cli(dirs, ["call", "word_count", "--help", "--json"])).stdout);
  assert.deepEqual(json.fields[1], {
    name: "unit",
    type: '"words" | "lines"',
    required: false,
    default: "words",
    description: "What to count",
  });
  const open = await cli(dirs, ["call", "list_files", "--help"]);
  assert.ok(open.stdout.includes(say("help.tool_any")), open.stdout);
  const spawn = await cli(dirs, ["call", "spawn", "--help"]);
  assert.equal(spawn.code, 0, spawn.stderr);
  assert.match(spawn.stdout, /^spawn — Run a shell command or delegate a task/);
  assert.match(spawn.stdout, /^ {2}input +string +yes +- +"!<command>" runs a shell command/m);
  const unknown = await cli(dirs, ["call", "wc", "--help"]);
  assert.equal(unknown.code, 2);
  assert.match(
    unknown.stderr,
    wording("cli.unknown_tool_near", { tool: '"wc"', names: '"word_count"' }),
  );
  // Without a name, the command's help, as before.
  const callHelp = (await cli(dirs, ["call", "--help"])).stdout;
  assert.ok(callHelp.startsWith(`${say("help.call")}\n`), callHelp);
  const uk = await cli(dirs, ["call", "word_count", "--help", "--locale", "uk-UA"]);
  assert.match(uk.stdout, /^ {2}ПОЛЕ +ТИП +ОБОВ’ЯЗКОВЕ +ТИПОВО +ОПИС$/m);
  assert.match(uk.stdout, /^ {2}text +string +так /m);
});

/** A tool with grants and constraints, and a description long enough to wrap. */
const GREP = {
  schema: 1,
  tools: {
    grep_code: {
      description:
        "Search every file of the repository for a text, printing each line that holds " +
        "it with the name of its file and its line number",
      input_schema: {
        type: "object",
        properties: {
          pattern: {
            type: "string",
            pattern: "^[a-z]+$",
            minLength: 2,
            maxLength: 64,
            description: "The lowercase word to look for in every file of the repository",
          },
          mode: { enum: ["fixed", "regex"] },
          since: { type: "string", format: "date" },
          max: { type: "integer", minimum: 1, exclusiveMaximum: 1000 },
        },
        required: ["pattern"],
      },
      command: ["grep", "-rn", { input: "pattern" }, "."],
      sandbox: { network: true, write: ["/tmp/grep-out"] },
    },
  },
};

Deno.test("call NAME --help shows the tool's sandbox grants and its fields' constraints, as show does", async () => {
  await using dirs = await scratch(GREP);
  for (const locale of ["en-US", "uk-UA"] as const) {
    const { t } = messages(locale);
    const help = await cli(dirs, ["call", "grep_code", "--help", "--locale", locale]);
    assert.equal(help.code, 0, help.stderr);
    // The grants as show words them.
    const show = await cli(dirs, ["show", "grep_code", "--locale", locale]);
    const grants = t("show.sandbox_grants", {
      grants: [t("prompt.sandbox_network"), t("prompt.sandbox_write", { paths: "/tmp/grep-out" })]
        .join("; "),
    });
    assert.ok(show.stdout.includes(grants), show.stdout);
    assert.ok(
      help.stdout.includes(`${t("help.tool_sandbox", { sandbox: grants })}\n`),
      help.stdout,
    );
    // Each constraint of a field in its description cell; the allowed values and the format in its
    // type.
    for (
      const text of [
        t("schema.pattern", { pattern: "^[a-z]+$" }),
        t("schema.min_length", { limit: 2 }),
        t("schema.max_length", { limit: 64 }),
        t("schema.compare", { comparison: ">=", limit: 1 }),
        t("schema.compare", { comparison: "<", limit: 1000 }),
        '"fixed" | "regex"',
        "string (date)",
      ]
    ) assert.ok(help.stdout.includes(text), `${text} in:\n${help.stdout}`);
  }
  // In a pipe nothing is wrapped: each row on one line.
  const piped = await cli(dirs, ["call", "grep_code", "--help"]);
  assert.match(piped.stdout, /^ {2}pattern +string +yes +- +The lowercase word .*characters$/m);
});

Deno.test({
  name: "call NAME --help at a narrow terminal wraps at word boundaries to its width",
  ignore: !hasTmux(),
}, async () => {
  await using dirs = await scratch(GREP);
  const env = { BASIS_CONFIG_DIR: dirs.configDir, BASIS_STATE_DIR: dirs.stateDir, NO_COLOR: "1" };
  const argv = [Deno.execPath(), "run", "-A", "--quiet", ENTRY, "-C", dirs.root];
  // Every word the help says, as a pipe gets it.
  const piped = await cli(dirs, ["call", "grep_code", "--help"]);
  const words = piped.stdout.split(/\s+/).filter((word) => word !== "");
  for (const width of [30, 44, 60, 100]) {
    const run = await inPseudoTerminal([...argv, "call", "grep_code", "--help"], {
      keys: [],
      waitFor: "",
      env: { ...env, BASIS_LOCALE: "en-US" },
      width,
    });
    assert.equal(run.code, 0, run.screen);
    const lines = run.screen.split("\n").filter((line) =>
      line.trim() !== "" && !/^Pane is dead/.test(line)
    );
    for (const line of lines) {
      assert.ok(displayWidth(line) <= width, `${displayWidth(line)} > ${width}: ${line}`);
    }
    // No word is broken across lines: each is whole on the screen.
    const shown = new Set(lines.join("\n").split(/\s+/));
    for (const word of words) assert.ok(shown.has(word), `"${word}" at ${width}:\n${run.screen}`);
  }
});

Deno.test("--version --json prints the name and version as JSON", async () => {
  await using dirs = await scratch();
  const result = await cli(dirs, ["--version", "--json"]);
  assert.equal(result.code, 0);
  const json = JSON.parse(result.stdout);
  assert.equal(json.name, "basis-tools");
  assert.equal(json.version, VERSION);
  assert.equal(json.deno, Deno.version.deno);
  assert.equal((await cli(dirs, ["-V"])).stdout, `basis-tools ${VERSION}\n`);
});

// ---------------------------------------------------------------------------------------------
// check

Deno.test("check warns about what fails only at call time, and --strict makes it a problem (exit 6)", async () => {
  await using dirs = await scratch({
    schema: 1,
    tools: {
      gone: { description: "Gone", input_schema: {}, command: ["no-such-program-basis-7"] },
      relative: { description: "Relative", input_schema: {}, command: ["./bin/missing"] },
      nowhere: { description: "Nowhere", input_schema: {}, command: ["cat"], cwd: "no/such/dir" },
      fine: { description: "Fine", input_schema: {}, command: ["cat"] },
    },
  });
  const file = `${dirs.root}/.basis/tools.json`;
  const warned = await cli(dirs, ["check"]);
  assert.equal(warned.code, 0, warned.stdout);
  assert.deepEqual(warned.stdout.trimEnd().split("\n"), [
    `warning: ${file}: tool "gone": command[0]: ${
      say("start.not_on_path", { program: '"no-such-program-basis-7"' })
    }`,
    `warning: ${file}: tool "relative": command[0]: ${
      say("start.missing", { program: `"${dirs.root}/bin/missing"` })
    }`,
    `warning: ${file}: tool "nowhere": cwd: ${
      say("start.cwd_missing", { cwd: `"${dirs.root}/no/such/dir"` })
    }`,
    `ok: 4 tools (${file}), 3 warnings: fine as declared, but failing here until fixed (--strict: exit 6)`,
  ]);
  const strict = await cli(dirs, ["check", "--strict"]);
  assert.equal(strict.code, 6);
  assert.equal(strict.stdout.trimEnd().split("\n").length, 3);
  assert.doesNotMatch(strict.stdout, /^warning:|^ok:/m);
  const json = JSON.parse((await cli(dirs, ["check", "--json"])).stdout);
  assert.equal(json.ok, true);
  assert.deepEqual(json.problems, []);
  assert.deepEqual(json.warnings.map((w: { tool: string; field: string }) => [w.tool, w.field]), [
    ["gone", "command[0]"],
    ["relative", "command[0]"],
    ["nowhere", "cwd"],
  ]);
  const strictJson = JSON.parse((await cli(dirs, ["check", "--json", "--strict"])).stdout);
  assert.equal(strictJson.ok, false);
  assert.equal(strictJson.problems.length, 3);
  // A tool whose program is not found is still unavailable: the call exits 6.
  assert.equal((await cli(dirs, ["call", "gone", "{}", ...ALWAYS])).code, 6);
  // A problem of the declaration stays a problem without --strict.
  await Deno.writeTextFile(file, JSON.stringify(oneTool("t", { command: ["cat"], timout: 1 })));
  assert.equal((await cli(dirs, ["check"])).code, 6);
});

// ---------------------------------------------------------------------------------------------
// Output that fits the terminal

Deno.test("displayWidth(), cutToWidth() and formatTable() measure what a terminal draws", () => {
  assert.equal(displayWidth("plain"), 5);
  assert.equal(displayWidth("日本語"), 6);
  assert.equal(displayWidth("🙂"), 2);
  assert.equal(displayWidth("👩‍💻"), 2, "a ZWJ sequence is one emoji");
  assert.equal(displayWidth("é"), 1);
  assert.equal(displayWidth("e\u0301"), 1, "a combining mark takes no cell");
  assert.equal(displayWidth("Привіт"), 6);
  assert.equal(cutToWidth("日本語のテキスト", 7), "日本語…");
  assert.equal(cutToWidth("abcdef", 4), "abc…");
  assert.equal(cutToWidth("abc", 4), "abc");
  assert.equal(cutToWidth("👩‍💻👩‍💻", 3), "👩‍💻…");
  assert.deepEqual(
    formatTable([["A", "B", "C"], ["日本", "x", "long text"], ["z", "yy", "c"]], 12),
    [
      "A     B   C",
      "日本  x   l…",
      "z     yy  c",
    ],
  );
});

Deno.test("list and rules list in a pipe: aligned by display width, every line whole", async () => {
  const long = "A description long enough to be cut at any terminal width ".repeat(4).trim();
  await using dirs = await scratch();
  // A workspace whose path is drawn in wide characters: the scope column of rules list.
  const root = `${dirs.root}/日本語`;
  await Deno.mkdir(`${root}/.basis`, { recursive: true });
  await Deno.writeTextFile(
    `${root}/.basis/tools.json`,
    JSON.stringify({
      schema: 1,
      tools: {
        wide: { description: `Wide 🙂 ${"語".repeat(30)}`, input_schema: {}, command: ["cat"] },
        plain: { description: long, input_schema: {}, command: ["cat"] },
      },
    }),
  );
  const list = await cli(dirs, ["-C", root, "list"]);
  const lines = list.stdout.trimEnd().split("\n");
  assert.ok(lines.some((line) => line.endsWith(long)), "nothing is cut in a pipe");
  assert.ok(lines.some((line) => line.endsWith("語".repeat(30))), list.stdout);
  await cli(dirs, ["-C", root, "rules", "add", "--tool", "plain", "--reason", long]);
  await cli(dirs, ["-C", root, "rules", "add", "--tool", "wide", "--global"]);
  const rules = await cli(dirs, ["-C", root, "rules", "list"]);
  const rows = rules.stdout.trimEnd().split("\n");
  assert.match(rows[0]!, /^ID +DECISION +TOOL +SCOPE +CONDITIONS$/);
  // The conditions start in the same cell on every line, though the scopes differ in width.
  const at = (line: string) => displayWidth(line.slice(0, line.search(/\{"program"|CONDITIONS/)));
  assert.equal(new Set(rows.map(at)).size, 1, rules.stdout);
  assert.ok(rows.some((row) => row.endsWith(long)), rules.stdout);
});

Deno.test({
  name: "list and rules list at a terminal: cut to its width with …",
  ignore: !hasTmux(),
}, async () => {
  const long = "A description long enough to be cut at any terminal width ".repeat(4).trim();
  await using dirs = await scratch({
    schema: 1,
    tools: {
      wide: { description: `${"語".repeat(40)} wide`, input_schema: {}, command: ["cat"] },
      plain: { description: long, input_schema: {}, command: ["cat"] },
    },
  });
  await cli(dirs, ["rules", "add", "--tool", "plain", "--reason", long]);
  const env = { BASIS_CONFIG_DIR: dirs.configDir, BASIS_STATE_DIR: dirs.stateDir, NO_COLOR: "1" };
  const argv = [Deno.execPath(), "run", "-A", "--quiet", ENTRY, "-C", dirs.root];
  for (const command of [["list"], ["rules", "list"]]) {
    const run = await inPseudoTerminal([...argv, ...command], {
      keys: [],
      waitFor: "",
      env,
      width: 60,
    });
    assert.equal(run.code, 0, run.screen);
    const lines = run.screen.split("\n").filter((line) =>
      line.trim() !== "" && !/^Pane is dead/.test(line)
    );
    assert.ok(lines.length >= 2, run.screen);
    for (const line of lines) {
      assert.ok(displayWidth(line) <= 60, `${displayWidth(line)}: ${line}`);
    }
    assert.ok(lines.some((line) => line.endsWith("…")), run.screen);
  }
});
