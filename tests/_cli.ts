/**
 * Helpers for end-to-end tests: a scratch workspace with its own config, cache and state
 * directories, and a way to run the real CLI in it as a subprocess.
 *
 * @module
 */

import { denoRunArgs, finish, type ProcessResult } from "./_deno_run.ts";
import { ROOT } from "./_fixtures.ts";
import { removeAll } from "./_scratch.ts";
import { settle, until } from "./_poll.ts";

// The fixtures' folder and builders live in tests/_fixtures.ts; the end-to-end tests take these
// from here with the rest.
export { FIXTURES, oneTool, ROOT } from "./_fixtures.ts";

/**
 * What the CLI is run from: the source entry point, or the bundle when `BASIS_TEST_BUNDLE` names
 * one (CI runs the suite against the bundle as it ships).
 */
const ENTRY = Deno.env.get("BASIS_TEST_BUNDLE") ?? `${ROOT}src/main.ts`;
/**
 * The compiled binary the CLI is run as when `BASIS_TEST_BINARY` names one (CI compiles it and runs
 * the suite against it). Its permissions were fixed when it was compiled: a run that asks for Deno
 * flags of its own runs from {@linkcode ENTRY} instead.
 */
const BINARY = Deno.env.get("BASIS_TEST_BINARY");

/** The keys of what `call --json` prints, in order (README: `call`). */
export const CALL_JSON_KEYS: readonly string[] = [
  "tool",
  "ok",
  "result",
  "structured_content",
  "content",
  "stdout",
  "stderr",
  "exit_code",
  "signal",
  "timed_out",
  "truncated",
  "duration_ms",
  "error",
];

/**
 * A scratch workspace and the user directories that go with it: `await using dirs = await
 * scratch(…)` removes them all when the block ends, whether the test passed or failed.
 */
export interface Scratch extends AsyncDisposable {
  /** The workspace root (holds `.basis/tools.json`). */
  root: string;
  configDir: string;
  cacheDir: string;
  stateDir: string;
}

/** What one CLI run printed and how it ended. */
export type CliResult = ProcessResult;

/**
 * Creates a scratch workspace, removed when disposed (`await using`). A manifest given as an object
 * is written as JSON; as a string, as is.
 *
 * @param manifest The workspace manifest, or `undefined` for none.
 * @param global The global manifest, or `undefined` for none.
 * @returns The scratch directories.
 */
export async function scratch(manifest?: unknown, global?: unknown): Promise<Scratch> {
  const base = await Deno.makeTempDir({ prefix: "basis-e2e-" });
  const root = `${base}/work`;
  const configDir = `${base}/config`;
  await Deno.mkdir(`${root}/.basis`, { recursive: true });
  await Deno.mkdir(configDir, { recursive: true });
  // Where bwrap cannot confine a call, calls run as they did before the sandbox, without its note
  // (tests/sandbox_test.ts skips what needs it and says why).
  if (!SANDBOX_WORKS) await Deno.writeTextFile(`${configDir}/sandbox.json`, '{"mode": "off"}\n');
  if (manifest !== undefined) await Deno.writeTextFile(`${root}/.basis/tools.json`, text(manifest));
  if (global !== undefined) await Deno.writeTextFile(`${configDir}/tools.json`, text(global));
  return {
    root,
    configDir,
    cacheDir: `${base}/cache`,
    stateDir: `${base}/state`,
    [Symbol.asyncDispose]: () => removeAll(base),
  };
}

/**
 * Turns the OS sandbox off in a scratch workspace's config directory (`sandbox.json`
 * `{"mode": "off"}`): for tests of what an unconfined call does (process groups, files written
 * outside the workspace). Tests of the sandbox itself are in tests/sandbox_test.ts.
 *
 * @param dirs The scratch workspace.
 */
export async function unconfined(dirs: Scratch): Promise<void> {
  await Deno.writeTextFile(`${dirs.configDir}/sandbox.json`, '{"mode": "off"}\n');
}

/**
 * Whether bubblewrap can confine a call on this machine (Linux, installed, allowed to make
 * namespaces): asked once per test process.
 */
export const SANDBOX_WORKS: boolean = (() => {
  if (Deno.build.os !== "linux") return false;
  try {
    return new Deno.Command("bwrap", {
      args: [
        "--unshare-pid",
        "--unshare-net",
        "--ro-bind",
        "/",
        "/",
        "--proc",
        "/proc",
        "--",
        "/bin/true",
      ],
      stdout: "null",
      stderr: "null",
    }).outputSync().success;
  } catch {
    return false;
  }
})();

function text(manifest: unknown): string {
  return typeof manifest === "string" ? manifest : JSON.stringify(manifest, null, 2);
}

/** How the CLI is started: options of {@linkcode cliCommand}. */
export interface CliCommandOptions {
  /** Extra environment variables. */
  env?: Record<string, string>;
  /** Working directory. @default the scratch root */
  cwd?: string;
  /** Deno's permission flags, for a run in a narrower sandbox. @default ["-A"] */
  permissions?: string[];
}

/** Options of {@linkcode cli} and {@linkcode spawnCli}. */
export interface CliOptions extends CliCommandOptions {
  /** Bytes or text for stdin; when absent stdin is closed (like CI). */
  stdin?: string | Uint8Array;
}

/** A command that starts the CLI, for `Deno.Command` or an MCP client's stdio transport. */
export interface CliCommand {
  command: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
}

/**
 * The environment of the CLI in a scratch workspace: its user directories, no colour, English.
 *
 * @param dirs The scratch workspace.
 * @param env Extra environment variables, laid over the rest.
 * @returns The variables.
 */
export function cliEnv(dirs: Scratch, env: Record<string, string> = {}): Record<string, string> {
  return {
    BASIS_CONFIG_DIR: dirs.configDir,
    BASIS_CACHE_DIR: dirs.cacheDir,
    BASIS_STATE_DIR: dirs.stateDir,
    NO_COLOR: "1",
    // Messages in English whatever the machine's LANG; a test passes another locale itself.
    BASIS_LOCALE: "en-US",
    ...env,
  };
}

/**
 * The command that runs the CLI (from source, the bundle, or the compiled binary) in a scratch
 * workspace.
 *
 * @param dirs The scratch workspace.
 * @param args The CLI's arguments.
 * @param options Extra env, cwd, Deno's permission flags.
 * @returns The program, its arguments, working directory and environment.
 */
export function cliCommand(
  dirs: Scratch,
  args: string[],
  options: CliCommandOptions = {},
): CliCommand {
  if (BINARY !== undefined && options.permissions === undefined) {
    return { command: BINARY, args, cwd: options.cwd ?? dirs.root, env: cliEnv(dirs, options.env) };
  }
  return {
    command: Deno.execPath(),
    args: denoRunArgs(ENTRY, withCodeDir(options.permissions ?? ["-A"]), args),
    cwd: options.cwd ?? dirs.root,
    env: cliEnv(dirs, options.env),
  };
}

/**
 * A test's own Deno flags, plus the read of the bundle's directory when the suite runs the bundle:
 * it loads its chunks on demand, a read `permissions` grants too (as the directory of its code).
 */
function withCodeDir(flags: readonly string[]): string[] {
  if (!ENTRY.endsWith(".js")) return [...flags];
  const dir = ENTRY.slice(0, ENTRY.lastIndexOf("/"));
  if (flags.some((flag) => flag === "-A" || flag === "--allow-all" || flag === "--allow-read")) {
    return [...flags];
  }
  const scoped = flags.findIndex((flag) => flag.startsWith("--allow-read="));
  if (scoped === -1) return [...flags, `--allow-read=${dir}`];
  return flags.map((flag, i) => i === scoped ? `${flag},${dir}` : flag);
}

/**
 * Runs the CLI in a scratch workspace and collects what it printed.
 *
 * @param dirs The scratch workspace.
 * @param args The arguments.
 * @param options stdin, extra env, cwd, Deno's permission flags.
 * @returns Exit code, stdout and stderr.
 */
export async function cli(
  dirs: Scratch,
  args: string[],
  options: CliOptions = {},
): Promise<CliResult> {
  return await finish(spawnCli(dirs, args, options), options.stdin);
}

/**
 * Starts the CLI without waiting for it (for signal tests).
 *
 * @param dirs The scratch workspace.
 * @param args The arguments.
 * @param options stdin, extra env, cwd, Deno's permission flags.
 * @returns The child process, with piped stdin, stdout and stderr.
 */
export function spawnCli(
  dirs: Scratch,
  args: string[],
  options: CliOptions = {},
): Deno.ChildProcess {
  const { command, ...started } = cliCommand(dirs, args, options);
  // In a session of its own the CLI has no controlling terminal, as in CI: a test that expects "no
  // terminal to ask" never puts a question on the terminal of the person running the suite.
  // (setsid execs in place: the pid is the CLI's.)
  const detach = SETSID === undefined ? {} : { args: [command, ...started.args] };
  return new Deno.Command(SETSID ?? command, {
    ...started,
    ...detach,
    stdin: options.stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
}

/** `setsid(1)`, when the system has it. */
const SETSID = ["/usr/bin/setsid", "/bin/setsid"].find((path) => {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
});

/**
 * The pids of live processes in a process group, read from `/proc`.
 *
 * @param pgid The process group id.
 * @returns The pids still in it (zombies and the dead excluded).
 */
export function processesInGroup(pgid: number): number[] {
  const pids: number[] = [];
  for (const entry of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    let stat: string;
    try {
      stat = Deno.readTextFileSync(`/proc/${entry.name}/stat`);
    } catch {
      continue;
    }
    // pid (comm) state ppid pgrp …; comm may hold spaces and parentheses.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const dead = fields[0] === "Z" || fields[0] === "X";
    if (!dead && Number(fields[2]) === pgid) pids.push(Number(entry.name));
  }
  return pids;
}

/**
 * The live members of a group once signals sent to it have had time to land (a SIGKILL is
 * delivered asynchronously): polls `/proc` for up to 2 s until the group is empty.
 *
 * @param pgid The process group id.
 * @returns The pids still in it after the wait.
 */
export function processesLeftInGroup(pgid: number): Promise<number[]> {
  return settle(() => processesInGroup(pgid), (pids) => pids.length === 0, { timeoutMs: 2000 });
}

/**
 * Asserts that no line of the text looks like a stack trace.
 *
 * @param text What a command printed.
 */
export function assertNoStackTrace(text: string): void {
  if (/^\s+at .+:\d+:\d+\)?$/m.test(text) || text.includes("error: Uncaught")) {
    throw new Error(`Expected no stack trace, got:\n${text}`);
  }
}

/**
 * Waits for a file to hold a number (a process group id a fixture wrote), for up to 10 s.
 *
 * @param path The file.
 * @param onTimeout Called before giving up (to stop what should have written it).
 * @returns The number.
 * @throws {Error} When the file never holds one.
 */
export async function readPid(path: string, onTimeout?: () => void): Promise<number> {
  const probe = async () => {
    // Not written yet reads as empty.
    const text = (await Deno.readTextFile(path).catch(() => "")).trim();
    return /^\d+$/.test(text) ? Number(text) : undefined;
  };
  try {
    return await until(probe, { timeoutMs: 10_000, what: `a process group id in ${path}` });
  } catch (error) {
    onTimeout?.();
    throw error;
  }
}

/**
 * Writes the workspace manifest: each tool gets its name as description and an object schema.
 *
 * @param dirs The scratch workspace.
 * @param tools The tools' other fields, by name.
 */
export async function manifest(dirs: Scratch, tools: Record<string, unknown>): Promise<void> {
  const full = Object.fromEntries(
    Object.entries(tools).map((
      [name, tool],
    ) => [name, { description: name, input_schema: { type: "object" }, ...tool as object }]),
  );
  await Deno.writeTextFile(
    `${dirs.root}/.basis/tools.json`,
    JSON.stringify({ schema: 1, tools: full }),
  );
}

/**
 * Whether anything is at a path (a link itself counts, wherever it points).
 *
 * @param path The path.
 * @returns True when `lstat` finds it.
 */
export async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch {
    return false;
  }
}
