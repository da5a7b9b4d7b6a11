/**
 * `basis-tools-call` (Gemini CLI's `callCommand`) is recognised whatever way it is started: the
 * program reads the name it was started as, argv[0], which a link to the compiled binary or a copy
 * of it gets from the system and the installed command passes on with `exec -a`. All under the
 * released binary's permissions, which refuse `/proc/self/cmdline` (it needs --allow-all), and
 * where `Deno.execPath()` names a link's target, not the link.
 */

import assert from "node:assert/strict";
import { type Scratch, scratch } from "./_cli.ts";
import { BINARY, commandsEnv, RUN_ARGS, writeCommands } from "./_commands.ts";
import { finish, type ProcessResult } from "./_deno_run.ts";
import { DEFAULT_PERMISSIONS } from "../scripts/_permissions.ts";

/** A tool that prints its input, as Gemini CLI's `callCommand` gets it. */
const ECHO = {
  schema: 1,
  tools: { echo_it: { description: "echo", input_schema: { type: "object" }, command: ["cat"] } },
};
const INPUT = '{"text":"a b","wait_for_previous":true}';

/** Runs a program (by path) with the given arguments and input, in the workspace. */
async function start(
  dirs: Scratch,
  program: string,
  args: string[],
  env: Record<string, string> = commandsEnv(dirs, undefined),
): Promise<ProcessResult> {
  const child = new Deno.Command(program, {
    args,
    cwd: dirs.root,
    env,
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  return await finish(child, INPUT);
}

/** Runs the CLI with argv[0] set to `name` (as the system sets it for a link or a copy). */
function startedAs(dirs: Scratch, name: string, args: string[]): Promise<ProcessResult> {
  const script = `exec -a "$0" "$@"`;
  return start(dirs, "bash", ["-c", script, name, Deno.execPath(), ...RUN_ARGS, ...args]);
}

/** What `call echo_it --quiet --result` prints: the input, Gemini CLI's own flag dropped. */
function assertCalled(result: ProcessResult, how: string): void {
  assert.equal(result.code, 0, `${how}: ${result.stderr}`);
  assert.equal(result.stdout, '{"text":"a b"}\n', how);
  assert.equal(result.stderr, "", how);
}

Deno.test("named basis-tools-call (argv[0], a path or not, any case, .exe) the CLI is call NAME --quiet --result under the released permissions", async () => {
  await using dirs = await scratch(ECHO);
  for (const name of ["basis-tools-call", "/opt/x/bin/basis-tools-call", "Basis-Tools-Call.exe"]) {
    assertCalled(await startedAs(dirs, name, ["echo_it"]), name);
  }
  for (const name of ["basis-tools", "/opt/x/basis-tools-caller", "deno", ""]) {
    const plain = await startedAs(dirs, name, ["echo_it"]);
    assert.equal(plain.code, 2, `${name}: ${plain.stderr}`);
    assert.match(plain.stderr, /^basis-tools: Unknown command "echo_it"/, name);
  }
});

Deno.test("the installed command and a link to it, or a copy of it, named basis-tools-call, are call NAME --quiet --result", async () => {
  await using dirs = await scratch(ECHO);
  const bin = await writeCommands(`${dirs.root}/../bin`);
  const elsewhere = `${dirs.root}/../elsewhere`;
  await Deno.mkdir(elsewhere);
  await Deno.symlink(`${bin}/basis-tools`, `${elsewhere}/basis-tools-call`);
  await Deno.mkdir(`${elsewhere}/copy`);
  await Deno.copyFile(`${bin}/basis-tools`, `${elsewhere}/copy/basis-tools-call`);
  for (const program of [`${bin}/basis-tools-call`, `${elsewhere}/basis-tools-call`]) {
    assertCalled(await start(dirs, program, ["echo_it"]), program);
  }
  assertCalled(await start(dirs, `${elsewhere}/copy/basis-tools-call`, ["echo_it"]), "a copy");
  // Found on PATH by its bare name, as Gemini CLI starts it.
  const env = commandsEnv(dirs, bin);
  assertCalled(await start(dirs, "basis-tools-call", ["echo_it"], env), "on PATH");
  const version = await start(dirs, `${bin}/basis-tools`, ["--version"]);
  assert.match(version.stdout, /^basis-tools \d+\.\d+\.\d+\n$/);
});

Deno.test("Deno keeps argv[0] where the program reads it without loading its Node layer (no permission asked)", async () => {
  // src/main.ts reads it there first; `process.argv0` (the fallback) costs about 20 ms a run.
  const probe = "const d = Deno as any; console.log(d[d.internal].__nodeBootstrapArgs.argv0);";
  const module = `data:application/typescript,${encodeURIComponent(probe)}`;
  const child = new Deno.Command("bash", {
    args: [
      "-c",
      `exec -a probe-name "$@"`,
      "bash",
      Deno.execPath(),
      "run",
      ...DEFAULT_PERMISSIONS,
      module,
    ],
    stdout: "piped",
    stderr: "piped",
  });
  const { stdout, stderr } = await child.output();
  assert.equal(new TextDecoder().decode(stdout), "probe-name\n", new TextDecoder().decode(stderr));
});

Deno.test({
  name:
    "the compiled binary behind a link named basis-tools-call, and a copy so named, is call NAME --quiet --result (where BASIS_TEST_BINARY names it: CI's binary job)",
  ignore: BINARY === undefined,
  fn: async () => {
    await using dirs = await scratch(ECHO);
    const bin = `${dirs.root}/../bin`;
    await Deno.mkdir(`${bin}/copy`, { recursive: true });
    await Deno.symlink(BINARY!, `${bin}/basis-tools-call`);
    await Deno.copyFile(BINARY!, `${bin}/copy/basis-tools-call`);
    await Deno.chmod(`${bin}/copy/basis-tools-call`, 0o755);
    assertCalled(await start(dirs, `${bin}/basis-tools-call`, ["echo_it"]), "a link");
    assertCalled(await start(dirs, `${bin}/copy/basis-tools-call`, ["echo_it"]), "a copy");
    const plain = await start(dirs, BINARY!, ["echo_it"]);
    assert.equal(plain.code, 2, plain.stderr);
  },
});
