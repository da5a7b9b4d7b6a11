/**
 * `deno task install`, run as a user runs it: in a clone (a copy of this one, so that a test can
 * change or remove it afterwards), into a scratch prefix. The commands it installs, run under the
 * released binary's permissions; a re-install, a failed one, what it refuses to replace, and Deno
 * run from npx's cache.
 */

import assert from "node:assert/strict";
import { DEFAULT_PERMISSIONS } from "../scripts/_permissions.ts";
import { VERSION } from "../src/version.ts";
import { ROOT } from "./_cli.ts";
import { finish, type ProcessResult } from "./_deno_run.ts";
import { tempDir } from "./_scratch.ts";
import { DENO_DIR } from "./_commands.ts";

/** What `deno task bundle` needs of a clone. */
const CLONE = ["deno.json", "deno.lock", "src", "schemas", "build", "scripts"];
const DENO_BIN = Deno.execPath().slice(0, Deno.execPath().lastIndexOf("/"));
/** A PATH with this Deno first, and without any prefix a test installs into. */
const PATH = `${DENO_BIN}:/usr/bin:/bin`;

/** A copy of this clone in `base/clone`. */
async function clone(base: string): Promise<string> {
  const to = `${base}/clone`;
  await Deno.mkdir(to);
  const copied = await new Deno.Command("cp", {
    args: ["-R", ...CLONE.map((part) => `${ROOT}${part}`), to],
  }).output();
  assert.ok(copied.success, new TextDecoder().decode(copied.stderr));
  return to;
}

/** How one install is run. */
interface Run {
  /** The arguments after `deno task install`. @default [] */
  args?: string[];
  /** The Deno that runs it. @default this one */
  deno?: string;
  /** PATH. @default {@linkcode PATH} */
  path?: string;
  /** Where `deno task` is run. @default the clone */
  cwd?: string;
}

/** Runs `deno task install` in a clone, with `base/home` as HOME. */
async function install(base: string, clone: string, run: Run = {}): Promise<ProcessResult> {
  const child = new Deno.Command(run.deno ?? Deno.execPath(), {
    args: ["task", "--config", `${clone}/deno.json`, "install", ...(run.args ?? [])],
    cwd: run.cwd ?? clone,
    env: { HOME: `${base}/home`, PATH: run.path ?? PATH, DENO_DIR, NO_COLOR: "1" },
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  return await finish(child);
}

/** Runs an installed command. */
async function run(
  program: string,
  args: string[],
  options: { cwd?: string; stdin?: string } = {},
) {
  const child = new Deno.Command(program, {
    args,
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    env: {
      PATH,
      DENO_DIR,
      HOME: "/nonexistent",
      BASIS_CONFIG_DIR: `${program}.d/config`,
      BASIS_CACHE_DIR: `${program}.d/cache`,
      BASIS_STATE_DIR: `${program}.d/state`,
      BASIS_APPROVE: "always",
      BASIS_LOCALE: "en-US",
    },
    clearEnv: true,
    stdin: options.stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  return await finish(child, options.stdin);
}

async function entries(dir: string): Promise<string[]> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(dir)) names.push(entry.name);
  return names.sort();
}

/** What the install prints, Deno and PATH aside. */
function report(root: string, deno: string, path: string): string {
  return [
    `Installed basis-tools ${VERSION} in ${root}:`,
    "  bin/basis-tools        the command",
    "  bin/basis-tools-call   Gemini CLI's callCommand (basis-tools call NAME --quiet --result)",
    `  lib/basis-tools/       the bundle, run by ${deno} with the released binary's permissions`,
    path,
    "",
  ].join("\n");
}

Deno.test("deno task install --root DIR: basis-tools and basis-tools-call run a copy of the bundle under the released binary's permissions", async () => {
  await using dir = await tempDir({ prefix: "basis-install-", realPath: true });
  const source = await clone(dir.path);
  const root = `${dir.path}/prefix`;
  const result = await install(dir.path, source, { args: ["--root", root] });
  assert.equal(result.code, 0, result.stderr);
  const bin = `${root}/bin`;
  const path = `${bin} is not on PATH: add it (in ~/.profile, for instance: ` +
    `export PATH="${bin}:$PATH"), or run ${bin}/basis-tools`;
  assert.equal(result.stdout, report(root, Deno.execPath(), path));
  assert.deepEqual(await entries(bin), ["basis-tools", "basis-tools-call"]);
  assert.deepEqual(await entries(`${root}/lib`), ["basis-tools"]);
  assert.equal(await Deno.readLink(`${bin}/basis-tools-call`), "basis-tools");
  const shim = await Deno.readTextFile(`${bin}/basis-tools`);
  const flags = ["run", "--no-config", "--quiet", ...DEFAULT_PERMISSIONS].join(" ");
  const bundle = `${root}/lib/basis-tools/basis-tools.js`;
  assert.ok(
    shim.endsWith(`\nexec -a "$0" ${Deno.execPath()} ${flags} ${bundle} "$@"\n`),
    shim,
  );
  assert.ok((await Deno.stat(`${bin}/basis-tools`)).mode! & 0o111);

  // Later edits of the clone change nothing installed; neither does removing it.
  await Deno.writeTextFile(`${source}/src/version.ts`, 'export const VERSION = "9.9.9";\n');
  await Deno.remove(source, { recursive: true });
  const version = await run(`${bin}/basis-tools`, ["--version"]);
  assert.equal(version.stdout, `basis-tools ${VERSION}\n`, version.stderr);

  // A workspace's tool, through both commands.
  const work = `${dir.path}/work`;
  await Deno.mkdir(`${work}/.basis`, { recursive: true });
  const tool = { description: "echo", input_schema: { type: "object" }, command: ["cat"] };
  const manifest = { schema: 1, tools: { echo_it: tool } };
  await Deno.writeTextFile(`${work}/.basis/tools.json`, JSON.stringify(manifest));
  const list = await run(`${bin}/basis-tools`, ["-C", work, "list"]);
  assert.match(list.stdout, /^echo_it\s+process\s+workspace\s+echo$/m, list.stderr);
  const called = await run(`${bin}/basis-tools-call`, ["echo_it"], {
    cwd: work,
    stdin: '{"a":1,"wait_for_previous":true}',
  });
  assert.deepEqual([called.code, called.stdout, called.stderr], [0, '{"a":1}\n', ""]);
});

Deno.test("a re-install replaces the installed bundle cleanly; a failed one leaves it as it was; the report says whether DIR/bin is on PATH", async () => {
  await using dir = await tempDir({ prefix: "basis-install-", realPath: true });
  const source = await clone(dir.path);
  // --root relative to where deno task was run (not the clone, where deno task runs the script).
  await Deno.mkdir(`${dir.path}/here`);
  const root = `${dir.path}/here/prefix`;
  const bin = `${root}/bin`;
  const first = await install(dir.path, source, {
    args: ["--root=prefix"],
    cwd: `${dir.path}/here`,
  });
  assert.equal(first.code, 0, first.stderr);
  assert.ok(
    first.stdout.startsWith(`Installed basis-tools ${VERSION} in ${root}:\n`),
    first.stdout,
  );
  await Deno.writeTextFile(`${root}/lib/basis-tools/stale.js`, "");
  const installed = await entries(`${root}/lib/basis-tools`);

  const again = await install(dir.path, source, {
    args: ["--root", root],
    path: `${bin}:${PATH}`,
  });
  assert.equal(again.code, 0, again.stderr);
  assert.ok(again.stdout.endsWith(`\n${bin} is on PATH: try basis-tools --help\n`), again.stdout);
  assert.deepEqual(await entries(`${root}/lib`), ["basis-tools"]);
  assert.deepEqual(
    await entries(`${root}/lib/basis-tools`),
    installed.filter((n) => n !== "stale.js"),
  );
  assert.deepEqual(await entries(bin), ["basis-tools", "basis-tools-call"]);

  // Another basis-tools before it on PATH.
  const other = `${dir.path}/other`;
  await Deno.mkdir(other);
  await Deno.writeTextFile(`${other}/basis-tools`, "#!/bin/sh\n", { mode: 0o755 });
  const shadowed = await install(dir.path, source, {
    args: ["--root", root],
    path: `${other}:${bin}:${PATH}`,
  });
  assert.ok(
    shadowed.stdout.endsWith(`\n${bin} is on PATH, but ${other}/basis-tools comes first there\n`),
    shadowed.stdout,
  );

  // A clone whose bundle cannot be built: the installed one stays, whole.
  const shim = await Deno.readTextFile(`${bin}/basis-tools`);
  await Deno.writeTextFile(`${source}/src/main.ts`, "this is not TypeScript {\n");
  const failed = await install(dir.path, source, { args: ["--root", root] });
  assert.equal(failed.code, 1);
  assert.match(
    failed.stderr,
    /^install: Cannot install basis-tools: the bundle step failed \(deno task bundle\): /m,
  );
  assert.equal(failed.stdout, "");
  assert.equal(await Deno.readTextFile(`${bin}/basis-tools`), shim);
  assert.deepEqual(await entries(`${root}/lib`), ["basis-tools"]);
  const version = await run(`${bin}/basis-tools`, ["--version"]);
  assert.equal(version.stdout, `basis-tools ${VERSION}\n`, version.stderr);
});

Deno.test("deno task install refuses what it did not write and arguments it does not know, changing nothing", async () => {
  await using dir = await tempDir({ prefix: "basis-install-", realPath: true });
  const source = await clone(dir.path);
  const root = `${dir.path}/prefix`;
  const cases: [string, (path: string) => Promise<void>][] = [
    ["bin/basis-tools", (path) => Deno.writeTextFile(path, "#!/bin/sh\necho mine\n")],
    ["bin/basis-tools-call", (path) => Deno.symlink("/usr/bin/true", path)],
    ["lib/basis-tools", (path) => Deno.mkdir(path)],
  ];
  for (const [name, make] of cases) {
    const path = `${root}/${name}`;
    await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
    await make(path);
    const result = await install(dir.path, source, { args: ["--root", root] });
    assert.equal(result.code, 1, name);
    assert.equal(
      result.stderr.split("\n").filter((line) => line.startsWith("install:")).join("\n"),
      `install: Cannot install basis-tools: "${path}" is there and was not installed by deno ` +
        "task install: move it away, or give --root another DIR",
    );
    assert.deepEqual(await entries(root), name.startsWith("bin") ? ["bin"] : ["lib"], name);
    await Deno.remove(root, { recursive: true });
  }
  for (const args of [["--prefix", root], ["--root"], ["--root", "/tmp/a\nb"]]) {
    const result = await install(dir.path, source, { args });
    assert.equal(result.code, 1, args.join(" "));
    assert.match(result.stderr, /^install: Cannot install basis-tools: /m);
    assert.equal(result.stderr.match(/^install:/gm)?.length, 1);
  }
});

Deno.test("Deno run from npx's cache is kept inside the install (the commands outlive the cache); ~/.local by default", async () => {
  await using dir = await tempDir({ prefix: "basis-install-", realPath: true });
  const source = await clone(dir.path);
  // As npx lays it out: ~/.npm/_npx/<hash>/node_modules/deno/deno.
  const cache = `${dir.path}/npm/_npx/0123abcd/node_modules/deno`;
  await Deno.mkdir(cache, { recursive: true });
  const npxDeno = `${cache}/deno`;
  try {
    await Deno.link(Deno.execPath(), npxDeno);
  } catch {
    await Deno.copyFile(Deno.execPath(), npxDeno);
  }
  const root = `${dir.path}/home/.local`;
  const kept = `${root}/lib/basis-tools/deno`;
  const result = await install(dir.path, source, { deno: npxDeno, path: `${cache}:${PATH}` });
  assert.equal(result.code, 0, result.stderr);
  const lines = result.stdout.split("\n");
  assert.equal(lines[0], `Installed basis-tools ${VERSION} in ${root}:`);
  assert.ok(lines.includes(`Deno ran from npx's cache, which npm may clear: kept as ${kept}`));
  assert.ok(result.stdout.includes(`the bundle, run by ${kept} with`), result.stdout);
  await Deno.remove(`${dir.path}/npm`, { recursive: true });
  const version = await run(`${root}/bin/basis-tools`, ["--version"]);
  assert.equal(version.stdout, `basis-tools ${VERSION}\n`, version.stderr);

  // Installed again by the Deno kept there, it keeps itself.
  const again = await install(dir.path, source, { deno: kept });
  assert.equal(again.code, 0, again.stderr);
  assert.ok(again.stdout.includes(`the bundle, run by ${kept} with`), again.stdout);
  assert.ok(!again.stdout.includes("npx"), again.stdout);
  assert.equal((await run(`${root}/bin/basis-tools`, ["--version"])).code, 0);
});
