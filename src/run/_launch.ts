/**
 * Starting a child in a process group of its own. Deno's `detached: true` does it with a `setsid()`
 * between fork and exec, which rules out `posix_spawn`: Deno then forks its whole address space,
 * 4–8 ms a start in a long-running process (the MCP server) against about 1 ms for a plain spawn.
 * Where `setsid(1)` exists and `--allow-run` is unscoped (so it grants nothing more), the child is
 * spawned plainly as `setsid -- PROGRAM ARGS…`: setsid, not a group leader, calls `setsid()` and
 * execs the program in place, so the pid Deno sees leads the new group. Otherwise: `detached`.
 *
 * Where `setpriv(1)` is there too (util-linux, like setsid), the start is
 * `setpriv --pdeathsig KILL -- setsid -- PROGRAM ARGS…`: the program gets SIGKILL when basis-tools
 * dies, even of a SIGKILL nothing can catch (the kernel's parent-death signal survives both execs;
 * about 1 ms more a start). A setpriv that refuses `--pdeathsig` (util-linux before 2.33, BusyBox)
 * is left out: its program is read once a process to see. Without it such a death leaves an unconfined program
 * running. Processes the program started itself are not reached this way (only a sandbox's PID
 * namespace holds them). bwrap is started without setpriv: its `--die-with-parent` does the same.
 * Private to the runner.
 *
 * @module
 */

import { notStartable, type StartProblem } from "./_start_error.ts";

/** Where `setsid(1)` and `setpriv(1)` are looked for (util-linux, BusyBox). */
const LAUNCHER_DIRS: readonly string[] = ["/usr/bin", "/bin"];

/** The prefix setsid(1) writes when it cannot exec the program (exit 126 or 127). */
const EXEC_FAILED = /^setsid: failed to execute (.+?): (.+)$/;

/** The launchers found: setsid alone, and setsid behind setpriv (or setsid alone without it). */
interface Launchers {
  readonly setsid: readonly string[];
  readonly tied: readonly string[];
}

let launchers: Launchers | null | undefined;

/** The largest setpriv program read to see whether it takes `--pdeathsig` (BusyBox is ~2 MiB). */
const MAX_LAUNCHER_BYTES = 8 * 1024 * 1024;

/**
 * What children are started through, found once: only on Linux, only when Deno may run any
 * program (no scope, nothing denied), and only when setsid is there; with setpriv before it when
 * that is there too.
 *
 * @returns The argv to put before the program, or `undefined` to start children `detached`.
 */
function launcher(): Launchers | undefined {
  if (launchers !== undefined) return launchers ?? undefined;
  launchers = null;
  if (Deno.build.os !== "linux") return undefined;
  try {
    const run = Deno.permissions.querySync({ name: "run" });
    if (run.state !== "granted" || run.partial) return undefined;
    const found = findProgram("setsid");
    if (found === undefined) return undefined;
    const setsid = [found, "--"];
    const setpriv = findProgram("setpriv");
    const tied = setpriv === undefined ? [] : [setpriv, "--pdeathsig", "KILL", "--"];
    launchers = { setsid, tied: takesDeathSignal(tied) ? [...tied, ...setsid] : setsid };
  } catch {
    // Not allowed to look, or not there: detached it is.
  }
  return launchers ?? undefined;
}

/**
 * Whether setpriv takes `--pdeathsig` (util-linux 2.33 and later; not BusyBox's): its program, an
 * ELF file, names the option (in its usage text) exactly when it has it. A setpriv that refused it would fail
 * every start; reading the file (80 KiB, read-only) costs a tenth of a millisecond, where running
 * it to ask costs several, on every start of basis-tools.
 */
function takesDeathSignal(tied: readonly string[]): boolean {
  const [setpriv] = tied;
  if (setpriv === undefined) return false;
  try {
    const info = Deno.statSync(setpriv);
    if (info.size > MAX_LAUNCHER_BYTES) return false;
    const text = new TextDecoder("latin1").decode(Deno.readFileSync(setpriv));
    return text.startsWith("\x7fELF") && text.includes("--pdeathsig");
  } catch {
    return false;
  }
}

/** An executable file of that name in one of {@linkcode LAUNCHER_DIRS}. */
function findProgram(name: string): string | undefined {
  for (const dir of LAUNCHER_DIRS) {
    const path = `${dir}/${name}`;
    // Never a permission prompt: look only where reading is already granted.
    if (Deno.permissions.querySync({ name: "read", path }).state !== "granted") continue;
    try {
      const info = Deno.statSync(path);
      if (info.isFile && ((info.mode ?? 0) & 0o111) !== 0) return path;
    } catch {
      // Not there.
    }
  }
  return undefined;
}

/** A started child and how it was started. */
export interface Launched {
  /** The child; its pid leads its process group (once setsid has run, for `viaSetsid`). */
  readonly child: Deno.ChildProcess;
  /** Started through setsid(1): an exec failure shows as its exit 126/127 (see `execFailure`). */
  readonly viaSetsid: boolean;
}

/**
 * Spawns a program with piped stdio in a process group of its own.
 *
 * @param program The program as resolved (an absolute path, or a bare name Deno looks up).
 * @param args Its arguments.
 * @param options Working directory and environment; `ownDeath` for a program that dies with its
 *   parent by itself (bwrap), which is started without setpriv.
 * @returns The child.
 * @throws What `Deno.Command#spawn` throws.
 */
export function spawnInOwnGroup(
  program: string,
  args: readonly string[],
  options: { cwd: string; env: Record<string, string>; clearEnv: boolean; ownDeath: boolean },
): Launched {
  const { ownDeath, ...spawn } = options;
  const stdio = { stdin: "piped", stdout: "piped", stderr: "piped" } as const;
  const found = launcher();
  // A program that dies with its parent by itself (bwrap's --die-with-parent) needs no setpriv.
  const through = ownDeath ? found?.setsid : found?.tied;
  if (through !== undefined) {
    const [first, ...rest] = through as [string, ...string[]];
    const child = new Deno.Command(first, {
      args: [...rest, program, ...args],
      ...spawn,
      ...stdio,
    }).spawn();
    return { child, viaSetsid: true };
  }
  const child = new Deno.Command(program, { args: [...args], ...spawn, ...stdio, detached: true })
    .spawn();
  return { child, viaSetsid: false };
}

/**
 * Tells a program that setsid(1) could not exec (the interpreter of a script is missing, a
 * `noexec` mount…) from a program that ran and exited 126 or 127, as Deno's spawn would have
 * reported it: not started.
 *
 * @param code The exit code.
 * @param stdoutBytes What was written on stdout (an exec failure writes nothing).
 * @param stderr The stderr text.
 * @returns The start problem, or `undefined` when the program ran.
 */
export function execFailure(
  code: number | null,
  stdoutBytes: number,
  stderr: string,
): StartProblem | undefined {
  if ((code !== 126 && code !== 127) || stdoutBytes !== 0) return undefined;
  const match = EXEC_FAILED.exec(stderr.trim());
  if (match === null || stderr.trim().includes("\n")) return undefined;
  const [, program, detail] = match;
  return {
    failure: code === 127 ? "not_found" : "other",
    reason: notStartable(program ?? "", detail ?? ""),
  };
}
