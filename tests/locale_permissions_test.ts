/**
 * `basis-tools permissions` in uk-UA: every warning on stderr in Ukrainian, the English ones and the
 * JSON exactly as they were.
 *
 * @module
 */

import assert from "node:assert/strict";
import { cli, cliEnv, type CliResult, oneTool, type Scratch, scratch, unconfined } from "./_cli.ts";
import { denoRun } from "./_deno_run.ts";
import { assertNoEnglish, CYRILLIC } from "./_no_english.ts";
import { executable } from "./_fixtures.ts";

const IS_LINUX = Deno.build.os === "linux";
const EN_PREFIX = "basis-tools: warning: ";
const UK_PREFIX = "basis-tools: попередження: ";
/** What the warnings keep as they are besides options, quoted values and paths. */
const KEPT = [/\b(?:permissions|spawn|Deno|basis-tools|deno|json|elicitation)\b/g];

/** The directory that holds the scratch workspace and its user directories. */
function base(dirs: Scratch): string {
  return dirs.root.slice(0, dirs.root.lastIndexOf("/"));
}

/** The warning lines of a run, without their prefix. */
function warnings(result: CliResult, prefix: string): string[] {
  const lines = result.stderr.split("\n").filter((line) => line !== "");
  for (const line of lines) assert.ok(line.startsWith(prefix), line);
  return lines.map((line) => line.slice(prefix.length));
}

/**
 * A workspace whose permissions warn about everything they can: programs that cannot run (not on
 * PATH, missing, a directory, not executable), programs that defeat confinement (an interpreter
 * given code, used by two tools; a launcher; spawn's shell, a target and the subagent), a path
 * with a comma and a loader variable in the environment.
 */
async function warningWorkspace(): Promise<Scratch & { bin: string; args: string[] }> {
  const dirs = await scratch({
    schema: 1,
    tools: {
      gone: { description: "d", input_schema: {}, command: ["no-such-program-anywhere-xyz"] },
      plain: { description: "d", input_schema: {}, command: ["./plain.txt"] },
      folder: { description: "d", input_schema: {}, command: ["./folder"] },
      missing: { description: "d", input_schema: {}, command: ["/no/such/dir/prog"] },
      py: { description: "d", input_schema: {}, command: ["./bin/python3", "-c", "pass"] },
      py2: { description: "d", input_schema: {}, command: ["./bin/python3"] },
      launch: { description: "d", input_schema: {}, command: ["./bin/env", "jq"] },
    },
  });
  const bin = `${dirs.root}/bin`;
  await Deno.mkdir(bin);
  // Unconfined: the sandbox's own grant and wording are in tests/sandbox_test.ts.
  await unconfined(dirs);
  await Deno.mkdir(`${dirs.root}/folder`);
  await executable(`${dirs.root}/plain.txt`, 0o644);
  for (const name of ["python3", "env", "ssh", "node"]) await executable(`${bin}/${name}`);
  await Deno.writeTextFile(
    `${dirs.configDir}/spawn.json`,
    JSON.stringify({
      targets: { box: [`${bin}/ssh`, "host"], lost: ["no-such-target-program-xyz"] },
      agent: [`${bin}/node`, "-e", "1"],
    }),
  );
  // Outside the state directory (granted as a whole), in a directory whose name has a comma.
  const audit = `${base(dirs)}/a,b/audit.jsonl`;
  return Object.assign(dirs, { bin, args: ["permissions", "--audit-log", audit] });
}

Deno.test({
  name: "permissions warnings speak uk-UA on stderr; English text and the JSON stay as they were",
  ignore: !IS_LINUX,
  async fn() {
    await using dirs = await warningWorkspace();
    const { bin, args } = dirs;
    const env = { LD_BASIS_TEST: "1" };
    const en = await cli(dirs, args, { env });
    const uk = await cli(dirs, [...args, "--locale", "uk-UA"], { env });
    assert.equal(en.code, 0, en.stderr);
    assert.equal(uk.code, 0, uk.stderr);
    // The flags are the same whatever the locale.
    assert.equal(uk.stdout, en.stdout);

    const root = (await Deno.realPath(dirs.root)).replace(/\/$/, "");
    const english = warnings(en, EN_PREFIX);
    const refused = "it will be refused until the program can run and permissions is run again";
    const limits = "and --allow-run cannot limit its arguments";
    const expected = [
      `Leaving tool "folder" out of --allow-run: program "${root}/folder" is a directory; ${refused}`,
      `Leaving tool "gone" out of --allow-run: program "no-such-program-anywhere-xyz" was not found on PATH; ${refused}`,
      `Leaving tool "missing" out of --allow-run: program "/no/such/dir/prog" does not exist; ${refused}`,
      `Leaving tool "plain" out of --allow-run: program "${root}/plain.txt" is not executable (no execute permission); ${refused}`,
      `Leaving spawn target "lost" out of --allow-run: program "no-such-target-program-xyz" was not found on PATH; ${refused}`,
      `Granting "${root}/bin/env" (tool "launch") defeats confinement: it starts any program named in its arguments, ${limits}`,
      `Granting "${root}/bin/python3" (tool "py", tool "py2") defeats confinement: it runs any code given in its arguments, ${limits}; tool "py" passes it code with -c`,
      `Granting "/bin/sh" (spawn commands) defeats confinement: a shell runs any command it is given, ${limits}; --no-shell turns spawn commands off and leaves it out`,
      `Granting "${bin}/ssh" (spawn target "box") defeats confinement: it starts any program named in its arguments, ${limits}`,
      `Granting "${bin}/node" (spawn subagent) defeats confinement: it runs any code given in its arguments, ${limits}; spawn subagent passes it code with -e`,
      `Leaving "${
        base(dirs)
      }/a,b/audit.jsonl" out of the flags: Deno splits flag values at commas and has no escape for them; use --format deno-json, or move it to a path without a comma`,
      "The environment holds LD_BASIS_TEST: under a scoped --allow-run Deno starts no program while LD_* or DYLD_* variables are set; unset them before running basis-tools",
    ];
    // Paths as the loader resolved them (the scratch root may be reached through a symlink).
    const normal = (line: string) => line.replaceAll(dirs.root, root);
    assert.deepEqual(english.map(normal), expected.map(normal));

    const ukrainian = warnings(uk, UK_PREFIX);
    assert.equal(ukrainian.length, english.length, uk.stderr);
    for (const line of ukrainian) assert.match(line, CYRILLIC);
    assertNoEnglish(uk.stderr, en.stderr, KEPT);
    // Names, paths, programs, flags and variables are kept as they are.
    for (
      const kept of [
        '(інструмент "py", інструмент "py2")',
        "(команди spawn)",
        '(ціль spawn "box")',
        "(субагент spawn)",
        '(ціль spawn "lost")',
        'програму "no-such-program-anywhere-xyz" не знайдено в PATH',
        '"/no/such/dir/prog"',
        "передає їй код через -c",
        "--format deno-json",
        "LD_BASIS_TEST",
      ]
    ) {
      assert.ok(uk.stderr.includes(kept), `${kept} in:\n${uk.stderr}`);
    }
    assert.match(
      ukrainian[0] ?? "",
      /^Не включено до --allow-run \(інструмент "folder"\): програма ".*\/folder" є каталогом; /,
    );
  },
});

Deno.test({
  name: "permissions --format json keeps its warnings in English whatever the locale",
  ignore: !IS_LINUX,
  async fn() {
    await using dirs = await warningWorkspace();
    const { args } = dirs;
    const json = [...args, "--format", "json"];
    const en = await cli(dirs, json);
    const uk = await cli(dirs, [...json, "--locale", "uk-UA"]);
    assert.equal(uk.stdout, en.stdout);
    const parsed = JSON.parse(uk.stdout) as {
      programs: { user: string }[];
      warnings: Record<string, unknown>[];
    };
    for (const warning of parsed.warnings) {
      assert.deepEqual(Object.keys(warning), ["kind", "message"]);
      assert.doesNotMatch(String(warning.message), CYRILLIC);
    }
    assert.deepEqual(
      parsed.programs.map((grant) => grant.user).filter((user) => user.startsWith("spawn")),
      ["spawn commands", 'spawn target "box"', 'spawn target "lost"', "spawn subagent"],
    );
    // The text on stderr follows the locale all the same.
    assert.match(uk.stderr, /^basis-tools: попередження: /);
  },
});

Deno.test({
  name: "permissions says in uk-UA that it could not look a program up when reading is refused",
  ignore: !IS_LINUX,
  async fn() {
    await using dirs = await scratch(oneTool("cat", { command: ["cat"] }));
    // Reading is confined to the scratch directories: PATH cannot be searched.
    const permissions = [
      "--allow-env",
      `--allow-read=${base(dirs)}`,
      `--allow-write=${base(dirs)}`,
      "--allow-sys",
    ];
    const run = async (locale: string) => {
      const output = await cli(dirs, ["permissions", "--no-shell", "--locale", locale], {
        permissions,
      });
      assert.equal(output.code, 0);
      return output.stderr;
    };
    const en = await run("en-US");
    const uk = await run("uk-UA");
    assert.match(
      en,
      /^basis-tools: warning: Leaving tool "cat" out of --allow-run: Deno's sandbox refused to look for program "cat" on PATH \(".+"\); allow reading them with --allow-read, or name the program by its absolute path; it will be refused until the program can run and permissions is run again\n$/,
    );
    assert.match(
      uk,
      /^basis-tools: попередження: Не включено до --allow-run \(інструмент "cat"\): пісочниця Deno не дозволила шукати програму "cat" у PATH \(".+"\); дозвольте читання через --allow-read або вкажіть абсолютний шлях до програми; виклики відхилятимуться, доки програма не зможе запуститися і permissions не буде виконано знову\n$/,
    );
  },
});

Deno.test("permissions --format compile warns in uk-UA when it cannot compile from its own source", async () => {
  await using dirs = await scratch(oneTool("cat", { command: ["cat"] }));
  // A main module that is no file, as in a compiled binary: the command names the bundle.
  const main =
    `import { runCli } from ${
      JSON.stringify(new URL("../src/cli/run_cli.ts", import.meta.url).href)
    };\n` +
    "Deno.exit(await runCli(Deno.args));\n";
  const url = `data:application/typescript;base64,${btoa(main)}`;
  const run = async (locale: string) => {
    const output = await denoRun(url, ["-A"], {
      args: ["permissions", "--format", "compile", "--no-shell", "--locale", locale],
      cwd: dirs.root,
      env: cliEnv(dirs),
    });
    assert.equal(output.code, 0, output.stderr);
    return output.stderr.split("\n")[0];
  };
  assert.equal(
    await run("en-US"),
    "basis-tools: warning: A compiled binary cannot compile itself: the command builds from " +
      "basis-tools.js (deno task bundle, or the bundle of a release); adjust its path",
  );
  const uk = await run("uk-UA");
  assert.equal(
    uk,
    "basis-tools: попередження: Скомпільований двійковий файл не може скомпілювати сам себе: " +
      "команда збирає з basis-tools.js (результат deno task bundle або файл із релізу); " +
      "виправте цей шлях",
  );
});
