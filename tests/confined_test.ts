/**
 * The bundle as it ships, run under exactly the Deno permissions `permissions` derives for a
 * workspace: every declared tool works, a timed-out tool's whole process group is stopped, a
 * program outside the allow list is refused with the flag that would allow it, and the read-only
 * commands need nothing but read and env grants.
 *
 * @module
 */

import assert from "node:assert/strict";
import {
  FIXTURES,
  oneTool,
  processesLeftInGroup,
  ROOT,
  type Scratch,
  scratch,
  unconfined,
} from "./_cli.ts";
import { hasTmux, inPseudoTerminal } from "./_tmux.ts";
import { tempDir } from "./_scratch.ts";
import { phrase } from "../src/locale/messages.ts";
import { say, wording } from "./_wording.ts";

const IS_LINUX = Deno.build.os === "linux";

/** Builds the bundle as `deno task bundle` does, into a temporary directory. */
async function bundle(): Promise<{ entry: string; dir: string | undefined } & AsyncDisposable> {
  const given = Deno.env.get("BASIS_TEST_BUNDLE");
  if (given !== undefined) {
    return {
      entry: given,
      dir: undefined,
      [Symbol.asyncDispose]: () => Promise.resolve(),
    };
  }
  const temp = await tempDir({ prefix: "basis-bundle-" });
  const dir = temp.path;
  const built = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", `${ROOT}build/bundle.ts`, "--outdir", dir],
    cwd: ROOT,
    stderr: "piped",
  }).output();
  assert.ok(built.success, new TextDecoder().decode(built.stderr));
  return { entry: `${dir}/basis-tools.js`, dir, [Symbol.asyncDispose]: temp[Symbol.asyncDispose] };
}

/** The environment of every run: nothing inherited but PATH and HOME (no stray LD_* either). */
function environment(dirs: Scratch, extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    HOME: Deno.env.get("HOME") ?? "/",
    BASIS_CONFIG_DIR: dirs.configDir,
    BASIS_CACHE_DIR: dirs.cacheDir,
    BASIS_STATE_DIR: dirs.stateDir,
    NO_COLOR: "1",
    LOGNAME: "hello",
    ...extra,
  };
}

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

async function run(
  dirs: Scratch,
  denoArgs: string[],
  args: string[],
  options: { env?: Record<string, string>; stdin?: string } = {},
): Promise<Run> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--no-config", "--quiet", ...denoArgs, ...args],
    cwd: dirs.root,
    clearEnv: true,
    env: environment(dirs, options.env),
    stdin: options.stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (options.stdin !== undefined) {
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(options.stdin));
    await writer.close();
  }
  const output = await child.output();
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code: output.code, stdout: decode(output.stdout), stderr: decode(output.stderr) };
}

// WHO is an env value, a secret redacted from the output: the tool shows it upper-cased.
const HELLO = `#!/bin/sh
printf '%s %s' "$1" "$(printf '%s' "$WHO" | tr a-z A-Z)"
`;

function manifest(root: string, extra: Record<string, unknown> = {}) {
  const tool = (fields: Record<string, unknown>) => ({
    description: "A confined tool",
    input_schema: { type: "object" },
    ...fields,
  });
  return {
    schema: 1,
    tools: {
      echo: tool({ command: ["cat"] }),
      hello: tool({
        command: ["./tools/hello.sh", "${LOGNAME}"],
        env: { WHO: "${WHO_SOURCE:-world}" },
      }),
      lines: tool({ command: [`${FIXTURES}/lines.sh`, "3000"] }),
      slow: tool({ command: [`${FIXTURES}/grandchild.sh`, `${root}/pgid`], timeout_ms: 500 }),
      ...extra,
    },
  };
}

Deno.test({
  name: "the bundle runs under exactly the permissions it derives for a workspace",
  ignore: Deno.build.os === "windows",
  async fn(t) {
    await using built = await bundle();
    await using dirs = await scratch();
    // Deno's flags around an unconfined call: process groups, the kill program (the OS sandbox
    // under derived flags is in tests/sandbox_test.ts).
    await unconfined(dirs);
    const write = (extra?: Record<string, unknown>) =>
      Deno.writeTextFile(
        `${dirs.root}/.basis/tools.json`,
        JSON.stringify(manifest(dirs.root, extra), null, 2),
      );
    await write();
    await Deno.mkdir(`${dirs.root}/tools`);
    await Deno.writeTextFile(`${dirs.root}/tools/hello.sh`, HELLO, { mode: 0o755 });
    await Deno.chmod(`${dirs.root}/tools/hello.sh`, 0o755);
    const ALWAYS = ["--approve", "always"];
    let flags: string[] = [];
    const confined = (args: string[], options?: { env?: Record<string, string>; stdin?: string }) =>
      run(dirs, [...flags, built.entry], args, options);

    await t.step("permissions derives the grants", async () => {
      const derived = await run(dirs, ["-A", built.entry], ["permissions", "--format", "json"]);
      assert.equal(derived.code, 0, derived.stderr);
      const json = JSON.parse(derived.stdout);
      flags = json.flags;
      assert.equal(flags[0], "--no-prompt");
      // The one system grant is the process's own uid (the validator cache's owner check).
      const broad = (flag: string) =>
        flag === "-A" || /^--allow-(all|net|ffi)/.test(flag) ||
        (flag.startsWith("--allow-sys") && flag !== "--allow-sys=uid");
      assert.ok(!flags.some(broad), flags.join(" "));
      assert.ok(flags.includes("--allow-sys=uid"));
      // The bundle imports its chunks by specifiers Deno does not walk at start-up: reading
      // them is granted — its directory when it holds the bundle alone, else each chunk.
      const codeDir = built.entry.slice(0, built.entry.lastIndexOf("/"));
      const entries = [...Deno.readDirSync(codeDir)];
      const alone = entries.every((file) => file.isFile && file.name.endsWith(".js"));
      for (const file of entries) {
        if (!file.name.endsWith(".js")) continue;
        const path = `${codeDir}/${file.name}`;
        assert.ok(json.read.includes(alone ? codeDir : path), `${path} in ${json.read}`);
        const code = Deno.readTextFileSync(path);
        assert.doesNotMatch(code, /\bimport\("\.\//, `${file.name} has a literal import()`);
      }
      assert.equal(json.read.includes(codeDir), alone, json.read.join(", "));
      for (
        const program of [
          `${dirs.root}/tools/hello.sh`,
          `${FIXTURES}/lines.sh`,
          `${FIXTURES}/grandchild.sh`,
          "/bin/sh",
        ]
      ) {
        assert.ok(json.run.includes(program), `${program} in ${json.run}`);
      }
      assert.ok(json.run.some((path: string) => /\/cat$/.test(path)));
      assert.ok(json.run.some((path: string) => /\/kill$/.test(path)));
      assert.ok(json.env.includes("LOGNAME") && json.env.includes("WHO_SOURCE"));
      assert.deepEqual(
        json.warnings.map((warning: { kind: string }) => warning.kind),
        ["confinement"],
      );
    });

    await t.step("every declared tool works under exactly those flags", async () => {
      const echo = await confined(["call", "echo", ...ALWAYS], { stdin: '{"a": [1, "x"]}' });
      assert.equal(echo.code, 0, echo.stderr);
      assert.equal(echo.stdout, '{"a":[1,"x"]}');
      const hello = await confined(["call", "hello", "{}", ...ALWAYS]);
      assert.equal(hello.code, 0, hello.stderr);
      assert.equal(hello.stdout, "hello WORLD");
      // Cut for a model: the whole output goes to a spill file in the state directory.
      const lines = await confined(["call", "lines", "{}", "--json", ...ALWAYS]);
      assert.equal(lines.code, 0, lines.stderr);
      const result = JSON.parse(lines.stdout);
      assert.equal(result.truncated, true);
      const spill = /full output: (\S+)\]/.exec(result.result)?.[1] ?? "";
      assert.ok(spill.startsWith(dirs.stateDir), result.result);
      assert.equal((await Deno.readTextFile(spill)).split("\n").length, 3001);
      // Remembered rules: written under a lock in the config directory, then read back.
      const added = await confined(["rules", "add", "--tool", "echo"]);
      assert.equal(added.code, 0, added.stderr);
      const ruled = await confined(["call", "echo", "{}", "--approve", "never"]);
      assert.equal(ruled.code, 0, ruled.stderr);
      // The audit log in the state directory holds every decision and run.
      const audit = await Deno.readTextFile(`${dirs.stateDir}/audit.jsonl`);
      assert.equal(audit.trim().split("\n").length, 8);
      const spawned = await confined(["spawn", "!echo confined", ...ALWAYS]);
      assert.equal(spawned.code, 0, spawned.stderr);
      assert.equal(spawned.stdout, "confined\n");
    });

    await t.step({
      name: "a timed-out tool's whole process group is stopped",
      ignore: !IS_LINUX,
      fn: async () => {
        const slow = await confined(["call", "slow", "{}", ...ALWAYS]);
        assert.equal(slow.code, 3, slow.stderr);
        assert.match(
          slow.stderr,
          wording("run.timed_out", { label: phrase("label.tool", { tool: '"slow"' }), ms: 500 }),
        );
        const pgid = Number((await Deno.readTextFile(`${dirs.root}/pgid`)).trim());
        // The grandchild (`sleep 30 &`) is gone too: the kill program stopped the group.
        assert.deepEqual(await processesLeftInGroup(pgid), []);
      },
    });

    await t.step({
      name: "without the kill program only the direct child is stopped (the grant matters)",
      ignore: !IS_LINUX,
      fn: async () => {
        const noKill = flags.map((flag) =>
          flag.startsWith("--allow-run=")
            ? `--allow-run=${
              flag.slice("--allow-run=".length).split(",").filter((p) => !/\/kill$/.test(p))
            }`
            : flag
        );
        const slow = await run(dirs, [...noKill, built.entry], ["call", "slow", "{}", ...ALWAYS]);
        assert.equal(slow.code, 3, slow.stderr);
        const pgid = Number((await Deno.readTextFile(`${dirs.root}/pgid`)).trim());
        const left = await processesLeftInGroup(pgid);
        try {
          assert.ok(left.length > 0, "the grandchild outlives its parent without the group kill");
        } finally {
          for (const pid of left) Deno.kill(pid, "SIGKILL");
        }
      },
    });

    await t.step("a program outside the allow list is refused with the flag", async () => {
      const intruder = `${FIXTURES}/exit7.sh`;
      await write({
        intruder: { description: "x", input_schema: { type: "object" }, command: [intruder] },
      });
      try {
        const refused = await confined(["call", "intruder", "{}", ...ALWAYS]);
        assert.equal(refused.code, 1);
        assert.equal(
          refused.stderr,
          `basis-tools: ${
            say("run.not_started", {
              label: phrase("label.tool", { tool: '"intruder"' }),
              reason: phrase("start.sandbox", {
                program: `"${intruder}"`,
                flag: `--allow-run=${intruder}`,
              }),
            })
          }\n`,
        );
        const json = await confined(["call", "intruder", "{}", "--json", ...ALWAYS]);
        assert.equal(JSON.parse(json.stdout).error.kind, "spawn_failed");
      } finally {
        await write();
      }
    });

    await t.step("LD_* variables in the environment are named, with what to do", async () => {
      const blocked = await confined(["call", "echo", "{}", ...ALWAYS], {
        env: { LD_BASIS_TEST: "1" },
      });
      assert.equal(blocked.code, 1);
      assert.match(
        blocked.stderr,
        wording("start.loader_env", { variables: "LD_BASIS_TEST" }),
      );
    });

    await t.step("check, list and show need only read and env grants", async () => {
      const readOnly = flags.filter((flag) => !/^--allow-(write|run|sys)=/.test(flag));
      assert.equal(readOnly.length, 3, readOnly.join(" "));
      for (const args of [["check"], ["list"], ["show", "hello"], ["list", "--json"]]) {
        const result = await run(dirs, [...readOnly, built.entry], args);
        assert.equal(result.code, 0, `${args.join(" ")}: ${result.stderr}`);
        assert.equal(result.stderr, "", args.join(" "));
      }
    });

    await t.step({
      name: "the terminal prompt works under those flags",
      ignore: !hasTmux(),
      fn: async () => {
        const argv = [Deno.execPath(), "run", "--no-config", "--quiet", ...flags, built.entry];
        const asked = await inPseudoTerminal([...argv, "-C", dirs.root, "call", "hello", "{}"], {
          keys: ["Enter"],
          env: environment(dirs),
        });
        assert.equal(asked.code, 0, asked.screen);
        assert.match(asked.screen, /hello WORLD/);
      },
    });

    await t.step({
      name: "every variable the bundled packages read is granted",
      ignore: built.dir === undefined,
      fn: async () => {
        const granted = new Set(
          flags.find((flag) => flag.startsWith("--allow-env="))
            ?.slice("--allow-env=".length).split(","),
        );
        // The editor prompt is bundled with the prompt library but never shown.
        const unused = new Set(["EDITOR", "VISUAL"]);
        const read = /process\d*\.env(?:\.([A-Za-z_]\w*)|\[["']([A-Za-z_]\w*)["']\])/g;
        const missing = new Set<string>();
        for await (const entry of Deno.readDir(built.dir as string)) {
          const code = await Deno.readTextFile(`${built.dir}/${entry.name}`);
          for (const match of code.matchAll(read)) {
            const name = (match[1] ?? match[2]) as string;
            if (!granted.has(name) && !unused.has(name)) missing.add(name);
          }
        }
        // Read on Windows only (the prompt's Unicode detection), and granted there.
        for (
          const name of ["WT_SESSION", "TERMINUS_SUBLIME", "ConEmuTask", "TERMINAL_EMULATOR"]
        ) {
          missing.delete(name);
        }
        assert.deepEqual([...missing], []);
      },
    });
  },
});

Deno.test({
  name: "unpacked among other files, the bundle is granted its own files only, never the directory",
  ignore: Deno.build.os === "windows",
  async fn() {
    await using built = await bundle();
    await using home = await tempDir({ prefix: "basis-home-" });
    const dir = built.entry.slice(0, built.entry.lastIndexOf("/"));
    const chunks = [...Deno.readDirSync(dir)].filter((file) => file.name.endsWith(".js"));
    for (const file of chunks) {
      await Deno.copyFile(`${dir}/${file.name}`, `${home.path}/${file.name}`);
    }
    await Deno.writeTextFile(`${home.path}/notes.txt`, "private\n");
    await using dirs = await scratch(oneTool("echo", { command: ["cat"] }));
    const entry = `${home.path}/basis-tools.js`;
    const derived = await run(dirs, ["-A", entry], ["permissions", "--format", "json"]);
    assert.equal(derived.code, 0, derived.stderr);
    const read: string[] = JSON.parse(derived.stdout).read;
    assert.ok(!read.includes(home.path), read.join(", "));
    for (const file of chunks) assert.ok(read.includes(`${home.path}/${file.name}`), file.name);
    assert.ok(!read.some((path) => path.endsWith("notes.txt")));
    // Under exactly those flags the bundle still loads the chunks a command needs.
    const flags: string[] = JSON.parse(derived.stdout).flags;
    const listed = await run(dirs, [...flags, entry], ["list", "--json"]);
    assert.equal(listed.code, 0, listed.stderr);
  },
});
