/**
 * Faults basis-tools must survive, injected for real and driven through the real CLI and the MCP
 * server: a full disk (a tiny tmpfs, filled) and a read-only file system (a read-only bind mount)
 * under the config, state and cache directories; a FIFO, a directory and a huge file in place of
 * each file it reads (rules.json, tools.json, sandbox.json, spawn.json, audit.jsonl, a cached
 * validator, the probe's note, the input on stdin); a cached validator changed to the same length;
 * an untrusted rules file; a SIGKILL of the MCP server while an unconfined tool runs.
 *
 * Every case asserts one line (or none), the documented exit code, no stack trace, the files
 * intact, every audit line parseable and no temporary file left. A run that hangs fails (it is
 * killed), never the test run. Mounting needs root on Linux: those cases are skipped elsewhere,
 * saying so in their names.
 *
 * @module
 */

import assert from "node:assert/strict";
import {
  assertNoStackTrace,
  type CliOptions,
  FIXTURES,
  oneTool,
  processesLeftInGroup,
  readPid,
  type Scratch,
  scratch,
  spawnCli,
  unconfined,
} from "./_cli.ts";
import { finish, type ProcessResult } from "./_deno_run.ts";
import { callTool, connectMcp, type McpSession, resultText, within } from "./_mcp.ts";
import { DEFAULT_PERMISSIONS } from "../scripts/_permissions.ts";
import { settle, until } from "./_poll.ts";
import { tempDir } from "./_scratch.ts";
import { hasTmux, inPseudoTerminal } from "./_tmux.ts";
import { say } from "./_wording.ts";
import { phrase } from "../src/locale/messages.ts";
import { cacheKey, validatorPath } from "../src/schema/_validator.ts";

const LINUX = Deno.build.os === "linux";
/** Mounting a tmpfs or a bind mount needs root (and Linux). */
const ROOT = LINUX && Deno.uid() === 0;
/** How long one run may take before it counts as hung (the slowest, 100 MB of input, takes ~5 s). */
const HUNG_MS = 60_000;

const TOO_LARGE = say("file.too_large", { limit: phrase("size.mib", { count: 4 }) });
const NOT_REGULAR = say("rules_file.not_regular");

/** A tool that prints its input, with a schema that wants `x` to be a string. */
const ECHO = oneTool("echo", {
  input_schema: { type: "object", properties: { x: { type: "string" } } },
  command: ["cat"],
});

// --- Helpers ---

async function run(argv: string[]): Promise<void> {
  const [program, ...args] = argv as [string, ...string[]];
  const done = await new Deno.Command(program, { args, stdout: "null", stderr: "piped" }).output();
  assert.ok(done.success, `${argv.join(" ")}: ${new TextDecoder().decode(done.stderr)}`);
}

/** A tmpfs of `kib` KiB over `path` (made when missing, mode 0700), unmounted when disposed. */
async function tmpfs(path: string, kib = 64): Promise<AsyncDisposable> {
  await Deno.mkdir(path, { recursive: true });
  await run(["mount", "-t", "tmpfs", "-o", `size=${kib}k,mode=700`, "tmpfs", path]);
  return { [Symbol.asyncDispose]: () => run(["umount", "-l", path]) };
}

/** `path` bound read-only over itself, unmounted when disposed. */
async function readOnly(path: string): Promise<AsyncDisposable> {
  await run(["mount", "--bind", path, path]);
  try {
    await run(["mount", "-o", "remount,bind,ro", path]);
  } catch (error) {
    await run(["umount", "-l", path]);
    throw error;
  }
  return { [Symbol.asyncDispose]: () => run(["umount", "-l", path]) };
}

/** Fills the file system holding `dir` to the last block; returns the filler's path. */
async function fill(dir: string): Promise<string> {
  const path = `${dir}/filler`;
  const file = await Deno.open(path, { write: true, createNew: true });
  try {
    const chunk = new Uint8Array(4096);
    for (;;) await file.write(chunk);
  } catch (error) {
    if ((error as { code?: string }).code !== "ENOSPC") throw error;
  } finally {
    file.close();
  }
  return path;
}

async function mkfifo(path: string): Promise<void> {
  await run(["mkfifo", "-m", "600", path]);
}

/** A sparse file of `mib` MiB (it takes no room) that starts as `start`. */
async function huge(path: string, mib = 100, start = "{"): Promise<void> {
  await Deno.writeTextFile(path, start, { mode: 0o600 });
  await Deno.truncate(path, mib * 1024 * 1024);
}

/** Runs the CLI, failing (after killing it) when it hangs. */
async function cliRun(dirs: Scratch, args: string[], options: CliOptions = {}) {
  const child = spawnCli(dirs, args, options);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hung = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      try {
        child.kill("SIGKILL");
      } catch {
        // Gone already.
      }
      reject(new Error(`basis-tools ${args.join(" ")} hung for ${HUNG_MS} ms`));
    }, HUNG_MS);
  });
  try {
    return await Promise.race([finish(child, options.stdin), hung]);
  } finally {
    clearTimeout(timer);
  }
}

/** Asserts the exit code, at most `lines` lines on stderr, and no stack trace. */
function assertOutcome(result: ProcessResult, code: number, lines = 1): void {
  assert.equal(result.code, code, result.stderr);
  assertNoStackTrace(result.stderr);
  const said = result.stderr.trimEnd();
  const count = said === "" ? 0 : said.split("\n").length;
  assert.ok(count <= lines, `more than ${lines} line(s):\n${result.stderr}`);
}

/** Every line of the audit trail, each of which must be JSON. */
async function auditLines(dirs: Scratch): Promise<Record<string, unknown>[]> {
  const text = await Deno.readTextFile(`${dirs.stateDir}/audit.jsonl`).catch(() => "");
  assert.ok(text === "" || text.endsWith("\n"), "the trail ends a line");
  return text.split("\n").slice(0, -1).map((line, i) => {
    try {
      return JSON.parse(line);
    } catch {
      throw new Error(`audit line ${i + 1} is not JSON: ${JSON.stringify(line.slice(0, 200))}`);
    }
  });
}

/** Temporary files left under a directory (any name ending in `.tmp`). */
function tempsUnder(dir: string): string[] {
  const found: string[] = [];
  const walk = (at: string) => {
    let entries: Deno.DirEntry[];
    try {
      entries = [...Deno.readDirSync(at)];
    } catch {
      return;
    }
    for (const entry of entries) {
      if (entry.name.endsWith(".tmp")) found.push(`${at}/${entry.name}`);
      if (entry.isDirectory) walk(`${at}/${entry.name}`);
    }
  };
  walk(dir);
  return found;
}

function assertNoTemps(dirs: Scratch): void {
  for (const dir of [dirs.configDir, dirs.cacheDir, dirs.stateDir]) {
    assert.deepEqual(tempsUnder(dir), [], `temporary files left in ${dir}`);
  }
}

/** A server in the scratch workspace; closed when disposed. */
async function mcp(
  dirs: Scratch,
  args: string[] = ["--approve", "always"],
  elicit?: "always_allow",
): Promise<McpSession & AsyncDisposable> {
  const session = await connectMcp(dirs, ["mcp", ...args], {
    ...(elicit === undefined ? {} : {
      elicit: () => ({ action: "accept" as const, content: { decision: elicit } }),
    }),
  });
  return Object.assign(session, { [Symbol.asyncDispose]: () => session.close() });
}

/** Calls a tool through the server, failing when it hangs. */
function mcpCall(session: McpSession, name: string, args: Record<string, unknown> = {}) {
  return within(callTool(session, name, args), HUNG_MS, `a result of ${name}`);
}

/** Asserts the server wrote no stack trace and the client saw no protocol error. */
function assertServerClean(session: McpSession): void {
  assertNoStackTrace(session.stderr());
  assert.deepEqual(session.errors, []);
  const errors = session.messages.filter(({ message }) => "error" in message);
  assert.deepEqual(errors, [], "no JSON-RPC error");
}

/** A rules file with one rule, as `rules add` writes it. */
async function oneRule(dirs: Scratch): Promise<string> {
  assertOutcome(await cliRun(dirs, ["rules", "add", "--tool", "echo"]), 0, 2);
  return await Deno.readTextFile(`${dirs.configDir}/rules.json`);
}

// --- 1. A config directory that cannot be written ---

for (const fault of ["full", "read-only"] as const) {
  Deno.test({
    name: `rules add and remove with a ${fault} config directory: one line, exit 5, rules intact ` +
      "(root: mounts)",
    ignore: !ROOT,
  }, async () => {
    await using dirs = await scratch(ECHO);
    await using _mount = fault === "full" ? await tmpfs(dirs.configDir) : undefined;
    await unconfined(dirs);
    const before = await oneRule(dirs);
    const id = JSON.parse(before).rules[0].id as string;
    if (fault === "full") await fill(dirs.configDir);
    await using _ro = fault === "read-only" ? await readOnly(dirs.configDir) : undefined;
    const reason = phrase(fault === "full" ? "fs.no_space" : "fs.read_only");
    const file = JSON.stringify(`${dirs.configDir}/rules.json`);
    // Another rule than the one there (the same one again writes nothing: exit 0).
    for (const args of [["rules", "add", "--tool", "echo", "--deny"], ["rules", "remove", id]]) {
      const result = await cliRun(dirs, args);
      assertOutcome(result, 5);
      assert.equal(result.stderr, `basis-tools: ${say("rules.cannot_save", { file, reason })}\n`);
    }
    assert.equal(await Deno.readTextFile(`${dirs.configDir}/rules.json`), before);
    assertNoTemps(dirs);
  });
}

Deno.test({
  name: "Always allow at the prompt with a full config directory runs the call once, saying the " +
    "rule was not saved (root: mounts; tmux)",
  ignore: !ROOT || !hasTmux(),
}, async () => {
  await using dirs = await scratch(ECHO);
  await using _mount = await tmpfs(dirs.configDir);
  await unconfined(dirs);
  await fill(dirs.configDir);
  const env = {
    BASIS_CONFIG_DIR: dirs.configDir,
    BASIS_CACHE_DIR: dirs.cacheDir,
    BASIS_STATE_DIR: dirs.stateDir,
    NO_COLOR: "1",
  };
  const main = new URL("../src/main.ts", import.meta.url).pathname;
  const argv = [Deno.execPath(), "run", "-A", "--quiet", main, "-C", dirs.root];
  const asked = await inPseudoTerminal([...argv, "call", "echo", '{"x":"hi"}'], {
    keys: ["Down", "Enter"],
    env,
  });
  assert.equal(asked.code, 0, asked.screen);
  assert.match(asked.screen, /\{"x":"hi"\}/);
  const file = JSON.stringify(`${dirs.configDir}/rules.json`);
  const reason = phrase("rules.cannot_save", { file, reason: phrase("fs.no_space") });
  const unsaved = say("prompt.not_remembered", { reason });
  // The terminal wraps the line, and a space it wraps at is trimmed from the screen's line.
  const words = (text: string) => text.replace(/\s+/g, "");
  assert.ok(words(asked.screen).includes(words(unsaved)), asked.screen);
  assert.doesNotMatch(asked.screen, /remembered\)/);
  assertNoStackTrace(asked.screen);
  await assert.rejects(Deno.stat(`${dirs.configDir}/rules.json`), Deno.errors.NotFound);
  const [decision] = await auditLines(dirs);
  assert.equal(decision?.allowed, true);
  assert.equal(decision?.reason, say("prompt.not_remembered", { reason }));
  assertNoTemps(dirs);
});

Deno.test({
  name: "mcp: always allow through elicitation with a read-only config directory runs the call " +
    "once, a result and a log line, not -32603 (root: mounts)",
  ignore: !ROOT,
}, async () => {
  await using dirs = await scratch(ECHO);
  await unconfined(dirs);
  await using _ro = await readOnly(dirs.configDir);
  await using session = await mcp(dirs, [], "always_allow");
  const result = await mcpCall(session, "echo", { x: "hi" });
  assert.equal(result.isError, undefined, resultText(result));
  assert.equal(resultText(result), '{"x":"hi"}');
  const file = JSON.stringify(`${dirs.configDir}/rules.json`);
  const reason = phrase("rules.cannot_save", { file, reason: phrase("fs.read_only") });
  await session.stderrContains(say("prompt.not_remembered", { reason }));
  assertServerClean(session);
  const [decision] = await auditLines(dirs);
  assert.equal(decision?.allowed, true);
});

// --- 2. A full state directory ---

Deno.test({
  name: "a full state directory never tears the audit trail; the call goes on, warned once " +
    "(CLI and MCP; root: mounts)",
  ignore: !ROOT,
}, async () => {
  const tools = (ECHO as { tools: Record<string, unknown> }).tools;
  await using dirs = await scratch({
    schema: 1,
    tools: { ...tools, big: { ...tools.echo!, command: ["head", "-c", "200000", "/dev/zero"] } },
  });
  await using _mount = await tmpfs(dirs.stateDir);
  await unconfined(dirs);
  // A line that leaves less room in its block than the next line needs: that one is cut short.
  const first = `${JSON.stringify({ type: "note", pad: "x".repeat(3950) })}\n`;
  await Deno.writeTextFile(`${dirs.stateDir}/audit.jsonl`, first, { mode: 0o600 });
  const filler = await fill(dirs.stateDir);
  const result = await cliRun(dirs, ["call", "echo", '{"x":"cli"}', "--approve", "always"]);
  assert.equal(await Deno.readTextFile(`${dirs.stateDir}/audit.jsonl`), first, "nothing half");
  assertOutcome(result, 0);
  assert.equal(result.stdout, '{"x":"cli"}');
  assert.match(result.stderr, new RegExp(say("fs.no_space")));
  // An output cut for a model, with no room for its spill file: cut, and no file left behind.
  const cut = await cliRun(dirs, ["call", "big", "{}", "--json", "--approve", "always"]);
  assertOutcome(cut, 0);
  assert.equal(JSON.parse(cut.stdout).truncated, true);
  assert.deepEqual([...Deno.readDirSync(`${dirs.stateDir}/spill`)], []);
  {
    await using session = await mcp(dirs);
    assert.equal(resultText(await mcpCall(session, "echo", { x: "mcp" })), '{"x":"mcp"}');
    assertServerClean(session);
  }
  assert.equal(await Deno.readTextFile(`${dirs.stateDir}/audit.jsonl`), first, "nothing half");
  await Deno.remove(filler);
  assertOutcome(await cliRun(dirs, ["call", "echo", '{"x":"again"}', "--approve", "always"]), 0);
  const lines = await auditLines(dirs);
  assert.deepEqual(lines.map((line) => line.type), ["note", "decision", "run"]);
});

Deno.test("a trail that ends in half a line gets the next line on a line of its own (CLI, MCP)", async () => {
  await using dirs = await scratch(ECHO);
  await unconfined(dirs);
  await Deno.mkdir(dirs.stateDir, { recursive: true, mode: 0o700 });
  await Deno.writeTextFile(`${dirs.stateDir}/audit.jsonl`, '{"ts":"2026-', { mode: 0o600 });
  assertOutcome(await cliRun(dirs, ["call", "echo", "{}", "--approve", "always"]), 0, 0);
  {
    await using session = await mcp(dirs);
    await mcpCall(session, "echo", {});
  }
  const [torn, ...rest] = (await Deno.readTextFile(`${dirs.stateDir}/audit.jsonl`)).split("\n");
  assert.equal(torn, '{"ts":"2026-');
  assert.equal(rest.pop(), "");
  assert.deepEqual(rest.map((line) => JSON.parse(line).type), [
    "decision",
    "run",
    "decision",
    "run",
  ]);
});

// --- 3. A full cache directory ---

Deno.test({
  name: "a full cache directory leaves no temporary file: the probe's note, validators " +
    "(CLI and MCP; root: mounts)",
  ignore: !ROOT,
}, async () => {
  await using dirs = await scratch(ECHO);
  await using _mount = await tmpfs(dirs.cacheDir);
  await fill(dirs.cacheDir);
  for (let i = 0; i < 2; i++) {
    const result = await cliRun(dirs, ["call", "echo", '{"x":[1]}', "--approve", "always"]);
    assertOutcome(result, 4);
    assertOutcome(await cliRun(dirs, ["call", "echo", '{"x":"a"}', "--approve", "always"]), 0, 0);
  }
  {
    await using session = await mcp(dirs);
    assert.equal(resultText(await mcpCall(session, "echo", { x: "b" })), '{"x":"b"}');
    assert.equal((await mcpCall(session, "echo", { x: [1] })).isError, true);
    assertServerClean(session);
  }
  assertNoTemps(dirs);
  assert.deepEqual(
    [...Deno.readDirSync(dirs.cacheDir)].map((entry) => entry.name).filter((name) =>
      name !== "filler" && name !== "validators"
    ),
    [],
  );
});

// --- 4, and what stands in place of each file read ---

/** A file basis-tools reads, where it is, and what a call says when it cannot be used. */
interface Place {
  readonly name: string;
  readonly path: (dirs: Scratch) => string;
  /** The exit code of `call echo` with a FIFO or a huge file there. */
  readonly code: number;
  /** The exit code with a directory there (a directory where a config file goes is none). */
  readonly directoryCode: number;
  /** The reason said for a FIFO (when the call fails). */
  readonly fifo?: string;
  /** Whether a file there is the user's, never replaced (else it is basis-tools' own). */
  readonly users: boolean;
}

const PLACES: readonly Place[] = [
  {
    name: "rules.json",
    path: (dirs) => `${dirs.configDir}/rules.json`,
    code: 5,
    directoryCode: 5,
    fifo: NOT_REGULAR,
    users: true,
  },
  {
    name: "the workspace tools.json",
    path: (dirs) => `${dirs.root}/.basis/tools.json`,
    code: 6,
    directoryCode: 0,
    fifo: say("file.read_not_file"),
    users: true,
  },
  {
    name: "sandbox.json",
    path: (dirs) => `${dirs.configDir}/sandbox.json`,
    code: 6,
    directoryCode: 0,
    fifo: say("file.read_not_file"),
    users: true,
  },
  {
    name: "audit.jsonl",
    path: (dirs) => `${dirs.stateDir}/audit.jsonl`,
    code: 0,
    directoryCode: 0,
    users: false,
  },
  {
    name: "the probe's note",
    path: (dirs) => `${dirs.cacheDir}/sandbox-probe.json`,
    code: 0,
    directoryCode: 0,
    users: false,
  },
];

/**
 * The workspace's tools.json, moved to the global config so that the tool stays declared. The
 * directory is then no workspace: a confined call there (in the host's /tmp) would be refused for
 * its working directory, so the call runs unconfined (what is tested is the file).
 */
async function globalManifest(dirs: Scratch, place: Place): Promise<void> {
  if (place.name !== "the workspace tools.json") return;
  await Deno.rename(`${dirs.root}/.basis/tools.json`, `${dirs.configDir}/tools.json`);
  await unconfined(dirs);
}

for (const place of PLACES) {
  for (const stand of ["a FIFO", "a directory", "a 100 MiB file"] as const) {
    Deno.test({
      name: `${stand} in place of ${place.name}: no hang, one line, the documented exit code ` +
        "(CLI and MCP)",
      ignore: !LINUX,
    }, async () => {
      await using dirs = await scratch(ECHO);
      if (stand === "a directory") await globalManifest(dirs, place);
      const path = place.path(dirs);
      await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true, mode: 0o700 });
      await Deno.remove(path).catch(() => {});
      if (stand === "a FIFO") await mkfifo(path);
      else if (stand === "a directory") await Deno.mkdir(path, { mode: 0o700 });
      else await huge(path);
      const code = stand === "a directory" ? place.directoryCode : place.code;
      const result = await cliRun(dirs, ["call", "echo", '{"x":"a"}', "--approve", "always"]);
      assertOutcome(result, code);
      if (code === 0) assert.equal(result.stdout, '{"x":"a"}');
      if (stand === "a FIFO" && place.fifo !== undefined) {
        assert.ok(result.stderr.includes(place.fifo), result.stderr);
      }
      if (stand === "a 100 MiB file" && code !== 0) {
        assert.ok(result.stderr.includes(TOO_LARGE), result.stderr);
      }
      if (code === 6) {
        // A file of the roster that cannot be read refuses the roster: the server does not start.
        const server = await cliRun(dirs, ["mcp", "--approve", "always"], { stdin: "" });
        assertOutcome(server, 6);
        assert.equal(server.stderr, result.stderr);
      } else {
        await using session = await mcp(dirs);
        const answer = await mcpCall(session, "echo", { x: "a" });
        assert.equal(answer.isError, code === 0 ? undefined : true, resultText(answer));
        assertNoStackTrace(session.stderr());
        assert.deepEqual(session.errors, []);
      }
      if (stand === "a 100 MiB file" && place.users) {
        assert.equal((await Deno.stat(path)).size, 100 << 20);
      }
      if (place.name !== "audit.jsonl") await auditLines(dirs);
      assertNoTemps(dirs);
    });
  }
}

Deno.test("a 100 MiB spawn.json is refused unread: one line, exit 6 (CLI and MCP)", async () => {
  await using dirs = await scratch(ECHO);
  await huge(`${dirs.configDir}/spawn.json`);
  const result = await cliRun(dirs, ["spawn", "!echo hi", "--approve", "always"]);
  assertOutcome(result, 6);
  assert.ok(result.stderr.includes(TOO_LARGE), result.stderr);
  for (const stand of ["fifo", "directory"] as const) {
    await Deno.remove(`${dirs.configDir}/spawn.json`, { recursive: true });
    if (stand === "fifo") await mkfifo(`${dirs.configDir}/spawn.json`);
    else await Deno.mkdir(`${dirs.configDir}/spawn.json`);
    const again = await cliRun(dirs, ["spawn", "!echo hi", "--approve", "always"]);
    // A directory is no spawn.json: the defaults hold (commands run).
    assertOutcome(again, stand === "fifo" ? 6 : 0, stand === "fifo" ? 1 : 0);
  }
  await Deno.remove(`${dirs.configDir}/spawn.json`, { recursive: true });
  await huge(`${dirs.configDir}/spawn.json`);
  // Over MCP spawn is left out, saying why (README "The manifest"); the echo tool still works.
  await using session = await mcp(dirs);
  const listed = await within(session.client.listTools(), HUNG_MS, "the tool list");
  assert.deepEqual(listed.tools.map((tool) => tool.name), ["echo"]);
  await session.stderrContains(TOO_LARGE);
  const refused = await mcpCall(session, "spawn", { command: "!echo hi" }).catch((e) => e);
  assert.ok(refused instanceof Error && refused.message.includes(TOO_LARGE), String(refused));
  assert.equal(resultText(await mcpCall(session, "echo", { x: "a" })), '{"x":"a"}');
  assertNoStackTrace(session.stderr());
});

Deno.test("a 100 MiB rules.json that is not JSON is refused unread: rules list, check, add (exit 5)", async () => {
  await using dirs = await scratch(ECHO);
  await huge(`${dirs.configDir}/rules.json`, 100, "not json");
  for (const args of [["rules", "list"], ["rules", "add", "--tool", "echo"]]) {
    const result = await cliRun(dirs, args);
    assertOutcome(result, 5);
    assert.ok(result.stderr.includes(TOO_LARGE), result.stderr);
  }
  assert.equal((await Deno.stat(`${dirs.configDir}/rules.json`)).size, 100 << 20);
});

Deno.test("100 MB of invalid input on stdin: one line, exit 2, the error located in one pass", async () => {
  await using dirs = await scratch(ECHO);
  await unconfined(dirs);
  // Every comma is an error: a reader that collects them all (and builds a tree besides) to say
  // where the first one is runs V8 out of memory.
  const input = `[${",".repeat(100_000_000)}]`;
  const result = await cliRun(dirs, ["call", "echo", "--approve", "always"], { stdin: input });
  assertOutcome(result, 2);
  const at = phrase("json.at", {
    detail: phrase("json.unexpected_expected", { found: '","', expected: phrase("json.value") }),
    line: 1,
    column: 2,
  });
  const said = say("cli.invalid_json", { tool: '"echo"', detail: at });
  assert.equal(result.stderr, `basis-tools: ${said}\n`);
  assert.deepEqual(await auditLines(dirs), [], "nothing was decided");
});

// --- 5. A cached validator that is not what was written ---

/** The cached validator of the workspace's tool (written by a first call). */
async function cachedValidator(dirs: Scratch): Promise<string> {
  assertOutcome(await cliRun(dirs, ["call", "echo", '{"x":"a"}', "--approve", "always"]), 0, 0);
  const schema = { type: "object", properties: { x: { type: "string" } } }; // ECHO's input_schema
  const path = validatorPath(dirs.cacheDir, await cacheKey("draft-07", JSON.stringify(schema)));
  assert.ok(Deno.statSync(path).isFile, path);
  return path;
}

/** Asserts that `{"x":[1]}` is refused (exit 4) and `{"x":"a"}` runs, on the CLI and over MCP. */
async function assertGateHolds(dirs: Scratch): Promise<void> {
  const refused = await cliRun(dirs, ["call", "echo", '{"x":[1]}', "--approve", "always"]);
  assertOutcome(refused, 4);
  assert.equal(refused.stdout, "");
  assertOutcome(await cliRun(dirs, ["call", "echo", '{"x":"a"}', "--approve", "always"]), 0, 0);
  await using session = await mcp(dirs);
  assert.equal((await mcpCall(session, "echo", { x: [1] })).isError, true);
  assert.equal(resultText(await mcpCall(session, "echo", { x: "b" })), '{"x":"b"}');
  assertServerClean(session);
}

Deno.test("a cached validator changed to the same length, still valid code, is never run", async () => {
  await using dirs = await scratch(ECHO);
  const path = await cachedValidator(dirs);
  const code = await Deno.readTextFile(path);
  // Inverted: every string refused, everything else let through.
  const planted = code.replace('!== "string"', '=== "string"');
  assert.notEqual(planted, code);
  assert.equal(planted.length, code.length);
  await Deno.writeTextFile(path, planted);
  await assertGateHolds(dirs);
});

for (const stand of ["a FIFO", "a directory", "a symbolic link", "a 100 MiB file"] as const) {
  Deno.test({
    name: `${stand} in place of a cached validator: never opened or run, the gate holds`,
    ignore: !LINUX,
  }, async () => {
    await using dirs = await scratch(ECHO);
    const path = await cachedValidator(dirs);
    const code = await Deno.readTextFile(path);
    await Deno.remove(path);
    if (stand === "a FIFO") await mkfifo(path);
    else if (stand === "a directory") await Deno.mkdir(path, { mode: 0o700 });
    else if (stand === "a 100 MiB file") await huge(path, 100, code);
    else {
      // The very code that was cached, elsewhere: a link is not followed, whatever it leads to.
      const elsewhere = `${dirs.cacheDir}/planted.js`;
      await Deno.writeTextFile(elsewhere, code.replace('!== "string"', '=== "string"'), {
        mode: 0o600,
      });
      await Deno.symlink(elsewhere, path);
    }
    await assertGateHolds(dirs);
  });
}

Deno.test({
  name: "a FIFO in place of a cached file digest is never opened: the approved call runs",
  ignore: !LINUX,
}, async () => {
  await using dirs = await scratch(oneTool("script", { command: ["./tool.sh"] }));
  await unconfined(dirs);
  const script = `${dirs.root}/tool.sh`;
  await Deno.writeTextFile(script, "#!/bin/sh\ncat\n", { mode: 0o755 });
  assertOutcome(await cliRun(dirs, ["rules", "add", "--tool", "script"]), 0, 2);
  // A file changed a moment ago is hashed every time; once it has settled its digest is cached.
  const digests = `${dirs.cacheDir}/digests`;
  const entry = await until(async () => {
    assertOutcome(await cliRun(dirs, ["call", "script", '{"a":1}']), 0, 0);
    const names = (() => {
      try {
        return [...Deno.readDirSync(digests)].map((found) => found.name);
      } catch {
        return [];
      }
    })();
    return names[0] === undefined ? undefined : `${digests}/${names[0]}`;
  }, { timeoutMs: 20_000, intervalMs: 200, what: "a cached digest" });
  await Deno.remove(entry);
  await mkfifo(entry);
  const result = await cliRun(dirs, ["call", "script", '{"a":2}']);
  assertOutcome(result, 0, 0);
  assert.equal(result.stdout, '{"a":2}');
  assertNoTemps(dirs);
});

// --- 6. Refusals of an untrusted rules file are decisions too ---

const UNTRUSTED: readonly [string, (dirs: Scratch) => Promise<void>][] = [
  ["a config directory others may write (0777)", (dirs) => Deno.chmod(dirs.configDir, 0o777)],
  ["a rules.json others may write (0666)", async (dirs) => {
    await Deno.writeTextFile(`${dirs.configDir}/rules.json`, '{"version": 2, "rules": []}\n');
    await Deno.chmod(`${dirs.configDir}/rules.json`, 0o666);
  }],
  ["a directory as rules.json", (dirs) => Deno.mkdir(`${dirs.configDir}/rules.json`)],
];

for (const [name, make] of UNTRUSTED) {
  Deno.test({
    name: `${name}: every call is denied (exit 5) and each denial is in the audit trail (CLI, MCP)`,
    ignore: Deno.build.os === "windows",
  }, async () => {
    await using dirs = await scratch(ECHO);
    await unconfined(dirs);
    await make(dirs);
    for (const x of ["one", "two"]) {
      assertOutcome(await cliRun(dirs, ["call", "echo", JSON.stringify({ x })]), 5);
    }
    {
      await using session = await mcp(dirs, ["--approve", "always"]);
      for (const x of ["three", "four", "five"]) {
        const answer = await mcpCall(session, "echo", { x });
        assert.equal(answer.isError, true);
        assert.match(resultText(answer), /rules\.json/);
      }
      assertServerClean(session);
    }
    const lines = await auditLines(dirs);
    assert.equal(lines.length, 5);
    for (const [i, line] of lines.entries()) {
      assert.equal(line.type, "decision");
      assert.equal(line.allowed, false);
      assert.match(String(line.reason), /^Cannot load rules /);
      assert.deepEqual((line.preview as { input: unknown }).input, {
        x: ["one", "two", "three", "four", "five"][i],
      });
    }
  });
}

// --- 7. A SIGKILL of the MCP server ---

/** Whether a process is gone (or a zombie: killed, waiting for init to reap it). */
function gone(pid: number): boolean {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    return /^[ZX]/.test(stat.slice(stat.lastIndexOf(")") + 2));
  } catch {
    return true;
  }
}

/** Whether util-linux's setpriv is there (what ties an unconfined tool to basis-tools' life). */
function hasSetpriv(): boolean {
  try {
    return new Deno.Command("setpriv", { args: ["--help"], stdout: "null" }).outputSync().success;
  } catch {
    return false;
  }
}

/** A pid written to a file, read the moment it is there (a tight poll: the race is the test). */
async function pidNow(path: string): Promise<number> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const text = (await Deno.readTextFile(path).catch(() => "")).trim().split(" ")[0] ?? "";
    if (/^\d+$/.test(text)) return Number(text);
    await new Promise((done) => setTimeout(done, 1));
  }
  throw new Error(`no pid in ${path}`);
}

/**
 * A server running unconfined tools, after one quick call (its watchdog is ready by then): its
 * tools, `forever` (a group with a background sleep) and `straggler` (a leader that exits at once
 * and leaves a sleep that ignores SIGTERM and holds stdout), write their group to `records`.
 */
async function watchedServer(records: string, permissions: readonly string[]) {
  const straggler = `${records}/straggler.sh`;
  await Deno.writeTextFile(
    straggler,
    `#!/bin/sh\necho $$ > "$1"\nsh -c 'trap "" TERM; exec sleep 300' &\nexit 0\n`,
    { mode: 0o755 },
  );
  const tool = (command: string[]) => ({ description: "A tool", input_schema: {}, command });
  const dirs = await scratch({
    schema: 1,
    tools: {
      quick: tool(["cat"]),
      forever: tool([`${FIXTURES}/grandchild.sh`, `${records}/forever`]),
      straggler: tool([straggler, `${records}/straggler`]),
    },
  });
  await unconfined(dirs);
  const session = await connectMcp(dirs, ["mcp", "--approve", "always"], {
    permissions: [...permissions],
  });
  // The first call starts the watchdog (and goes through setpriv); the next are the watchdog's.
  await mcpCall(session, "quick");
  await mcpCall(session, "quick");
  const server = session.transport.pid;
  assert.ok(server !== null);
  return { dirs, session, server };
}

for (
  const [tool, when, permissions] of [
    ["forever", "the moment its tool has started", ["-A"]],
    ["straggler", "after its tool's leader exited, before the runner stopped the rest", ["-A"]],
    ["forever", "under the released binary's permissions", DEFAULT_PERMISSIONS],
  ] as const
) {
  Deno.test({
    name: `SIGKILL of an MCP server ${when} kills the tool's whole group (its watchdog)`,
    ignore: !LINUX,
  }, async () => {
    await using records = await tempDir();
    const { dirs, session, server } = await watchedServer(records.path, permissions);
    let leader: number | undefined;
    try {
      callTool(session, tool).catch(() => {});
      leader = await pidNow(`${records.path}/${tool}`);
      // The watchdog is told right after the start (synchronously, not when the event loop gets to
      // it); 20 ms is for the server's thread to have run again on a loaded machine.
      await new Promise((done) => setTimeout(done, 20));
      if (tool === "straggler") {
        const left = leader;
        await until(() => gone(left) || undefined, {
          timeoutMs: 10_000,
          what: "the leader's exit",
        });
      }
      Deno.kill(server, "SIGKILL");
      assert.deepEqual(await processesLeftInGroup(leader), []);
    } finally {
      await session.close().catch(() => {});
      await dirs[Symbol.asyncDispose]();
      if (leader !== undefined) {
        try {
          Deno.kill(-leader, "SIGKILL");
        } catch {
          // All gone.
        }
      }
    }
  });
}

Deno.test({
  name: "SIGKILL of a call kills the unconfined tool it runs (setpriv)",
  ignore: !LINUX || !hasSetpriv(),
}, async () => {
  await using records = await tempDir();
  const pidFile = `${records.path}/pgid`;
  await using dirs = await scratch(
    oneTool("forever", { command: [`${FIXTURES}/grandchild.sh`, pidFile] }),
  );
  await unconfined(dirs);
  const call = spawnCli(dirs, ["call", "forever", "{}", "--approve", "always"]);
  let leader: number | undefined;
  try {
    leader = await readPid(pidFile, () => call.kill("SIGKILL"));
    call.kill("SIGKILL");
    await call.output();
    assert.ok(await settle(() => gone(leader!), (done) => done, { timeoutMs: 10_000 }));
  } finally {
    // What the tool started itself is not reached by its parent's death (README "Sandbox").
    if (leader !== undefined) {
      try {
        Deno.kill(-leader, "SIGKILL");
      } catch {
        // All gone.
      }
    }
  }
});
