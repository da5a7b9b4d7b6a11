import assert from "node:assert/strict";
import { english, phrase } from "../src/locale/messages.ts";
import { loadRoster } from "../src/manifest/load.ts";
import type { Roster } from "../src/manifest/types.ts";
import { type DeriveOptions, derivePermissions } from "../src/permissions/derive.ts";
import { formatPermissions, permissionFlags } from "../src/permissions/format.ts";
import { ALL_RUNTIME_ENV } from "../src/permissions/derive.ts";
import type { DerivedPermissions } from "../src/permissions/derive.ts";
import { resolveProgram } from "../src/run/mod.ts";
import { KEPT_ENV } from "../src/spawn/limits.ts";
import { SPAWN_DEPTH_VAR } from "../src/spawn/lineage.ts";
import {
  cli,
  cliEnv,
  type CliResult,
  oneTool,
  ROOT,
  type Scratch,
  scratch,
  unconfined,
} from "./_cli.ts";
import { tempDir } from "./_scratch.ts";
import { executable } from "./_fixtures.ts";
import { denoRun } from "./_deno_run.ts";
import { assertNoEnglish, CYRILLIC } from "./_no_english.ts";
import { closing, errorLine, opening, say, wording } from "./_wording.ts";
import type { MessageKey } from "../src/locale/en_us.ts";

const IS_WINDOWS = Deno.build.os === "windows";

/** How a warning names a tool (`tool "fmt"`). */
const tool = (name: string) => phrase("manifest.tool", { tool: JSON.stringify(name) });

/** A scratch tree: a workspace, user directories and two bin directories for PATH. */
async function tree(tools: Record<string, unknown>) {
  const temp = await tempDir({ prefix: "basis-perm-", realPath: true });
  const base = temp.path;
  const dirs = {
    base,
    root: `${base}/work`,
    config: `${base}/config`,
    cache: `${base}/cache`,
    state: `${base}/state`,
    binA: `${base}/bin-a`,
    binB: `${base}/bin-b`,
  };
  for (const dir of [dirs.root, dirs.config, dirs.binA, dirs.binB]) {
    await Deno.mkdir(dir, { recursive: true });
  }
  await Deno.mkdir(`${dirs.root}/.basis`);
  const manifest = { schema: 1, tools: {} as Record<string, unknown> };
  for (const [name, tool] of Object.entries(tools)) {
    manifest.tools[name] = {
      description: name,
      input_schema: { type: "object" },
      ...tool as object,
    };
  }
  await Deno.writeTextFile(`${dirs.root}/.basis/tools.json`, JSON.stringify(manifest));
  const vars: Record<string, string> = {
    PATH: `${dirs.binA}:relative/bin::${dirs.binB}`,
    BASIS_CACHE_DIR: dirs.cache,
    BASIS_STATE_DIR: dirs.state,
    GREETING: "hello",
  };
  const env = (name: string) => Object.hasOwn(vars, name) ? vars[name] : undefined;
  return { ...dirs, vars, env, [Symbol.asyncDispose]: temp[Symbol.asyncDispose] };
}

type Tree = Awaited<ReturnType<typeof tree>>;

async function derive(t: Tree, options: DeriveOptions = {}): Promise<DerivedPermissions> {
  const vars = new Set<string>();
  const roster: Roster = await loadRoster({
    workspace: t.root,
    configDir: t.config,
    env: (name) => {
      vars.add(name);
      return t.env(name);
    },
  });
  return derivePermissions(roster, { env: t.env, manifestVars: vars, loaderVars: [], ...options });
}

Deno.test({
  name: "derivePermissions() grants a bare name where PATH finds it, and lets the lookup look",
  ignore: IS_WINDOWS,
  async fn() {
    await using t = await tree({ fmt: { command: ["mytool", "--check"] } });
    const found = await executable(`${t.binB}/mytool`);
    const derived = await derive(t);
    assert.ok(derived.run.includes(found));
    assert.deepEqual(derived.programs[0], { user: 'tool "fmt"', program: "mytool", path: found });
    // The runner stats bin-a/mytool first (missing), then bin-b/mytool; relative and empty PATH
    // entries are never searched.
    assert.ok(derived.read.includes(`${t.binA}/mytool`));
    assert.ok(derived.read.includes(found));
    assert.ok(!derived.read.some((path) => path.includes("relative")));
    // What the runner itself resolves.
    const runner = resolveProgram("mytool", { cwd: "/", path: t.vars.PATH, pathExt: undefined });
    assert.ok(runner.ok && runner.path === found);
    assert.deepEqual(derived.warnings, []);
  },
});

Deno.test({
  name: "derivePermissions() resolves a relative program against the root and a tool's own PATH",
  ignore: IS_WINDOWS,
  async fn() {
    await using t = await tree({
      local: { command: ["./tools/run.sh"], cwd: "sub" },
      own: { command: ["special"], env: { PATH: "${XDG_BIN_HOME}" } },
    });
    await Deno.mkdir(`${t.root}/tools`);
    const local = await executable(`${t.root}/tools/run.sh`);
    const special = await executable(`${t.binA}/special`);
    t.vars.XDG_BIN_HOME = t.binA;
    const derived = await derive(t);
    assert.ok(derived.run.includes(local));
    assert.ok(derived.run.includes(special));
    // Inside the workspace: covered by the workspace's own grant.
    assert.ok(!derived.read.includes(local));
    assert.ok(derived.read.includes(t.root));
    assert.ok(derived.env.includes("XDG_BIN_HOME"));
  },
});

Deno.test({
  name: "derivePermissions() grants the directories, the runner's names and the ${VAR}s used",
  ignore: IS_WINDOWS,
  async fn() {
    await using t = await tree({
      hi: {
        command: ["/bin/echo", "${USER}", "${LOGNAME:-x}"],
        cwd: "${TMPDIR:-.}",
        env: { TOKEN: "${TOKEN_SOURCE:-none}" },
      },
    });
    const derived = await derive(t);
    // The spill directory is read to prune it; the audit log is looked at before it is opened.
    assert.deepEqual(derived.read.filter((path) => path.startsWith(t.base)), [
      t.cache,
      t.config,
      `${t.state}/audit.jsonl`,
      `${t.state}/spill`,
      t.root,
    ]);
    // The controlling terminal: the prompt asks there when the input is piped in.
    assert.deepEqual(derived.write, ["/dev/tty", t.cache, t.config, t.state]);
    assert.ok(derived.read.includes("/dev/tty"), derived.read.join());
    for (const name of ["USER", "LOGNAME", "TMPDIR", "TOKEN_SOURCE", "HOME", "PATH"]) {
      assert.ok(derived.env.includes(name), name);
    }
    assert.ok(!derived.env.includes("TOKEN"), "a tool's own env names are not read");
    assert.deepEqual(derived.env, [...derived.env].sort());
    // The kill program that stops a process group under a scoped --allow-run.
    assert.ok(derived.run.some((path) => /\/kill$/.test(path)), derived.run.join());
  },
});

Deno.test({
  name: "derivePermissions() grants an audit log outside the state directory, none when off",
  ignore: IS_WINDOWS,
  async fn() {
    await using t = await tree({});
    const elsewhere = `${t.base}/logs/audit.jsonl`;
    assert.ok((await derive(t, { auditLog: elsewhere })).write.includes(elsewhere));
    assert.deepEqual((await derive(t, { auditLog: "off" })).write, [
      "/dev/tty",
      t.cache,
      t.config,
      t.state,
    ]);
  },
});

Deno.test({
  name: "derivePermissions() leaves out, with a warning, a program that cannot run",
  ignore: IS_WINDOWS,
  async fn() {
    await using t = await tree({
      gone: { command: ["no-such-program-anywhere"] },
      plain: { command: ["./plain.txt"] },
    });
    await executable(`${t.root}/plain.txt`, 0o644);
    const derived = await derive(t);
    assert.deepEqual(derived.programs.map((grant) => grant.path), [undefined, undefined]);
    const messages = derived.warnings.map((warning) =>
      `${warning.kind}: ${english(warning.phrase)}`
    );
    assert.equal(messages.length, 2, messages.join("\n"));
    assert.equal(
      messages[0],
      `unresolved: ${
        say("permissions.unresolved", {
          user: tool("gone"),
          reason: phrase("start.not_on_path", { program: '"no-such-program-anywhere"' }),
        })
      }`,
    );
    assert.match(
      messages[1] ?? "",
      wording("permissions.unresolved", {
        user: tool("plain"),
        reason: phrase("start.not_executable"),
      }),
    );
  },
});

Deno.test({
  name: "derivePermissions() warns about shells, launchers and interpreters, by name or link",
  ignore: IS_WINDOWS,
  async fn() {
    await using t = await tree({
      py: { command: ["python3.12", "-c", "print(1)"] },
      // An optional flag is what the program may be given.
      py2: {
        command: ["node", { input: "inline", flag: "-e" }, "x"],
        input_schema: { type: "object", properties: { inline: { type: "boolean" } } },
      },
      // Inline code joined to its option: written so, or taken from the input after a prefix.
      rb: { command: ["ruby", "--eval=puts 1"] },
      pl: {
        command: ["perl", { input: "code", prefix: "--eval=" }],
        input_schema: { type: "object", properties: { code: { type: "string" } } },
      },
      shell: { command: ["bash", "script.sh"] },
      launch: { command: ["env", "FOO=1", "true"] },
      hidden: { command: ["innocent"] },
      fine: { command: ["jq", "."] },
    });
    for (const name of ["python3.12", "bash", "env", "jq", "node", "ruby", "perl"]) {
      await executable(`${t.binB}/${name}`);
    }
    await Deno.symlink(`${t.binB}/bash`, `${t.binA}/innocent`);
    const derived = await derive(t);
    const confinement = derived.warnings.filter((warning) => warning.kind === "confinement");
    const byPath = (name: string) =>
      confinement.map((warning) => english(warning.phrase)).find((text) =>
        text.includes(`/${name}"`)
      ) ??
        "";
    const granting = (name: string, why: MessageKey) => ({ users: tool(name), why: phrase(why) });
    assert.match(
      byPath("python3.12"),
      closing("permissions.more", {
        text: phrase("permissions.confinement", granting("py", "permissions.why_interpreter")),
        more: phrase("permissions.inline_code", { user: tool("py"), flag: "-c" }),
      }),
    );
    assert.ok(
      byPath("node").includes(
        english(phrase("permissions.inline_code", { user: tool("py2"), flag: "-e" })),
      ),
      byPath("node"),
    );
    for (const [program, name] of [["ruby", "rb"], ["perl", "pl"]]) {
      const inline = phrase("permissions.inline_code", { user: tool(name!), flag: "--eval" });
      assert.ok(byPath(program!).includes(english(inline)), byPath(program!));
    }
    assert.match(
      byPath("bash"),
      wording("permissions.confinement", granting("shell", "permissions.why_shell")),
    );
    assert.match(
      byPath("env"),
      wording("permissions.confinement", granting("launch", "permissions.why_launcher")),
    );
    assert.match(
      byPath("innocent"),
      wording("permissions.confinement", granting("hidden", "permissions.why_shell")),
    );
    assert.equal(byPath("jq"), "");
    assert.equal(confinement.length, 7);
  },
});

Deno.test({
  name: "derivePermissions() warns about LD_* variables and paths no flag can hold",
  ignore: IS_WINDOWS,
  async fn() {
    await using t = await tree({});
    const derived = await derive(t, {
      loaderVars: ["LD_PRELOAD"],
      auditLog: `${t.base}/a,b/audit.jsonl`,
    });
    const kinds = derived.warnings.map((warning) => warning.kind);
    assert.deepEqual(kinds.sort(), ["environment", "unexpressible"]);
    assert.match(
      english(derived.warnings.find((warning) => warning.kind === "environment")!.phrase),
      opening("permissions.environment", { variables: "LD_PRELOAD" }),
    );
    assert.ok(derived.write.some((path) => path.includes(",")));
    assert.ok(!permissionFlags(derived).some((flag) => flag.includes("a,b")));
  },
});

Deno.test({
  name:
    "derivePermissions() warnings name no program path that comes from an --env value; a tool's own PATH is public",
  ignore: IS_WINDOWS,
  async fn() {
    await using t = await tree({
      own: { command: ["sh", "-c", "true"], env: { PATH: "${XDG_BIN_HOME}" } },
      flagged: { command: ["bash"] },
    });
    // The tool's own PATH is public (it chooses the program); a PATH given with --env is secret.
    const own = `${t.base}/own-bin-4f3e`;
    const flagged = `${t.base}/SECRET-flag-bin-9a8b`;
    await Deno.mkdir(own);
    await Deno.mkdir(flagged);
    await Deno.symlink("/bin/sh", `${own}/sh`);
    await executable(`${flagged}/bash`);
    t.vars.XDG_BIN_HOME = own;
    const derived = await derive(t, { callEnv: { PATH: flagged } });
    const confinement = derived.warnings.filter((warning) => warning.kind === "confinement");
    assert.equal(confinement.length, 2, JSON.stringify(derived.warnings));
    const said = JSON.stringify(derived.warnings.map((warning) => english(warning.phrase)));
    assert.ok(!said.includes("SECRET-"), said);
    assert.ok(said.includes(`Granting \\"${own}/sh\\" (tool \\"own\\")`), said);
    // The flags grant the real files: they must name them to grant them.
    assert.ok(derived.run.includes(`${own}/sh`) && derived.run.includes(`${flagged}/bash`));
  },
});

// --- formats ------------------------------------------------------------------------------------

const SAMPLE: DerivedPermissions = {
  read: ["/home/u/.cache/basis", "/w"],
  write: ["/home/u/.config/basis", "/home/u/my state"],
  env: ["HOME", "PATH"],
  run: ["/bin/kill", "/usr/bin/jq"],
  sys: [],
  programs: [{ user: 'tool "q"', program: "jq", path: "/usr/bin/jq" }],
  warnings: [{ kind: "unresolved", phrase: phrase("permissions.list", { list: "a", item: "b" }) }],
};

Deno.test("formatPermissions() flags: one line, no-prompt first, quoted for a shell", () => {
  assert.equal(
    formatPermissions(SAMPLE, "flags"),
    "--no-prompt --allow-read=/home/u/.cache/basis,/w " +
      "'--allow-write=/home/u/.config/basis,/home/u/my state' --allow-env=HOME,PATH " +
      "--allow-run=/bin/kill,/usr/bin/jq\n",
  );
  const empty = { ...SAMPLE, run: [], write: [] };
  assert.deepEqual(permissionFlags(empty), [
    "--no-prompt",
    "--allow-read=/home/u/.cache/basis,/w",
    "--allow-env=HOME,PATH",
  ]);
});

Deno.test("formatPermissions() json: the flags, the lists, the programs and the warnings", () => {
  const json = JSON.parse(formatPermissions(SAMPLE, "json"));
  assert.deepEqual(Object.keys(json), [
    "flags",
    "read",
    "write",
    "env",
    "run",
    "sys",
    "programs",
    "warnings",
  ]);
  assert.deepEqual(json.flags, permissionFlags(SAMPLE));
  assert.deepEqual(json.programs, [{ user: 'tool "q"', program: "jq", path: "/usr/bin/jq" }]);
  assert.deepEqual(json.warnings, [{
    kind: "unresolved",
    message: english(SAMPLE.warnings[0]!.phrase),
  }]);
});

Deno.test("formatPermissions() deno-json: a default permission set that deno run -P loads", async () => {
  const text = formatPermissions(SAMPLE, "deno-json");
  assert.deepEqual(JSON.parse(text), {
    permissions: {
      default: {
        read: SAMPLE.read,
        write: SAMPLE.write,
        env: SAMPLE.env,
        run: SAMPLE.run,
      },
    },
  });
  // Deno itself reads the set (it warns that config permissions are experimental).
  await using dir = await tempDir();
  await Deno.writeTextFile(`${dir.path}/deno.json`, text);
  await Deno.writeTextFile(
    `${dir.path}/probe.ts`,
    'console.log(Deno.permissions.querySync({ name: "run", command: "/usr/bin/jq" }).state, ' +
      'Deno.permissions.querySync({ name: "env", variable: "USER" }).state);',
  );
  const probe = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-P", "--no-prompt", "probe.ts"],
    cwd: dir.path,
  }).output();
  assert.equal(new TextDecoder().decode(probe.stdout), "granted prompt\n");
});

Deno.test("formatPermissions() compile: deno compile with the flags, the output and baked args", () => {
  const line = formatPermissions(SAMPLE, "compile", {
    entry: "/opt/basis/basis-tools.js",
    output: "basis-tools-w",
    args: ["-C", "/w", "--no-shell"],
  });
  assert.equal(
    line,
    "deno compile --no-config --no-prompt --allow-read=/home/u/.cache/basis,/w " +
      "'--allow-write=/home/u/.config/basis,/home/u/my state' --allow-env=HOME,PATH " +
      "--allow-run=/bin/kill,/usr/bin/jq --output basis-tools-w /opt/basis/basis-tools.js " +
      "-C /w --no-shell\n",
  );
});

// --- the command --------------------------------------------------------------------------------

Deno.test({
  name: "permissions prints flags, grants /bin/sh only with spawn commands on, warns on stderr",
  ignore: IS_WINDOWS,
  async fn() {
    await using dirs = await scratch(
      oneTool("greet", { command: ["echo", "hi"], env: { WORD: "${GREETING_WORD:-hi}" } }),
    );
    const flags = await cli(dirs, ["permissions"]);
    assert.equal(flags.code, 0, flags.stderr);
    assert.equal(flags.stdout.split("\n").length, 2, "one line");
    assert.match(flags.stdout, /^--no-prompt --allow-read=\S+ --allow-write=\S+ --allow-env=\S+/);
    assert.match(flags.stdout, /--allow-run=\S*\/bin\/sh/);
    assert.match(flags.stdout, /--allow-env=\S*GREETING_WORD/);
    assert.match(flags.stderr, /^basis-tools: warning: Granting "\/bin\/sh" \(spawn commands\)/);
    const off = await cli(dirs, ["permissions", "--no-shell", "--format", "json"]);
    const json = JSON.parse(off.stdout);
    assert.ok(!json.run.includes("/bin/sh"), json.run.join());
    assert.ok(json.run.some((path: string) => /\/echo$/.test(path)));
    assert.equal(off.stderr, "");
    const compile = await cli(dirs, ["permissions", "--format", "compile", "--no-shell"]);
    // From source it compiles src/main.ts with the repository's deno.json; from the bundle, the
    // bundle without any config; from the compiled binary, basis-tools.js (named, not found).
    assert.match(
      compile.stdout,
      /^deno compile (--config \S+\/deno\.json|--no-config) --no-prompt /,
    );
    assert.match(
      compile.stdout,
      / --output basis-tools-work (\S+\/)?(src\/main\.ts|basis-tools\.js) -C \S+ --config-dir \S+ --no-shell\n$/,
    );
    const bad = await cli(dirs, ["permissions", "--format", "yaml"]);
    assert.equal(bad.code, 2);
    assert.match(
      bad.stderr,
      errorLine("cli.bad_permissions_format", {
        value: '"yaml"',
        formats: "flags, json, deno-json, compile",
      }),
    );
  },
});

Deno.test({
  name: "permissions grants spawn's targets and subagent from spawn.json",
  ignore: IS_WINDOWS,
  async fn() {
    await using dirs = await scratch(oneTool("t", { command: ["true"] }));
    // Unconfined: the sandbox's own grant is in tests/sandbox_test.ts.
    await unconfined(dirs);
    await Deno.writeTextFile(
      `${dirs.configDir}/spawn.json`,
      JSON.stringify({ agent: ["cat"], targets: { box: ["ssh", "box", "--"] } }),
    );
    const json = JSON.parse((await cli(dirs, ["permissions", "--format", "json"])).stdout);
    const users = json.programs.map((grant: { user: string }) => grant.user);
    assert.deepEqual(users, [
      'tool "t"',
      "spawn commands",
      'spawn target "box"',
      "spawn subagent",
    ]);
    const noShell = JSON.parse(
      (await cli(dirs, ["permissions", "--format", "json", "--no-shell"])).stdout,
    );
    assert.deepEqual(
      noShell.programs.map((grant: { user: string }) => grant.user),
      ['tool "t"', "spawn subagent"],
    );
  },
});

Deno.test("every variable the source reads is granted", async () => {
  const granted = new Set([...ALL_RUNTIME_ENV, ...KEPT_ENV, SPAWN_DEPTH_VAR]);
  // env("X"), readEnv("X"), Deno.env.get("X"), effectiveVar(env, "X"), homeBased(env, "X", …),
  // process.env.X / process.env["X"], and NAME_VAR = "X" constants.
  const lookup =
    /(?:\b(?:env|readEnv|envLookup|lookup|get|effectiveVar|homeBased)\((?:[\w.]+,\s*)?["']|process\d*\.env(?:\.|\[["'])|_VAR\s*=\s*["'])([A-Z][A-Za-z0-9_]*)\b/g;
  const missing: string[] = [];
  for await (const file of walk(`${ROOT}src`)) {
    const text = await Deno.readTextFile(file);
    for (const match of text.matchAll(lookup)) {
      const name = match[1] as string;
      if (!granted.has(name)) missing.push(`${file.slice(ROOT.length)}: ${name}`);
    }
  }
  assert.deepEqual(missing, []);
});

async function* walk(dir: string): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(dir)) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory) yield* walk(path);
    else if (entry.name.endsWith(".ts")) yield path;
  }
}

// --- Wording in en-US and uk-UA ---
// `basis-tools permissions` in uk-UA: every warning on stderr in Ukrainian, the English ones and the
// JSON exactly as they were.

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
