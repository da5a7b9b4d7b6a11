/**
 * Starting a child in a process group of its own, and every way a start fails. Private to the
 * runner.
 *
 * Deno's `detached: true` makes the group with a `setsid()` between fork and exec, which rules out
 * `posix_spawn`: Deno then forks its whole address space, 4–8 ms a start in a long-running process
 * (the MCP server) against about 1 ms for a plain spawn. Where `setsid(1)` exists and
 * `--allow-run` is unscoped (so it grants nothing more), the child is spawned plainly as
 * `setsid -- PROGRAM ARGS…`: setsid, not a group leader, calls `setsid()` and execs the program in
 * place, so the pid Deno sees leads the new group. Otherwise: `detached`.
 *
 * Where `setpriv(1)` is there too (util-linux, like setsid), the start is
 * `setpriv --pdeathsig KILL -- setsid -- PROGRAM ARGS…`: the program gets SIGKILL when basis-tools
 * dies, even of a SIGKILL nothing can catch (the kernel's parent-death signal survives both execs;
 * about 1 ms more a start). A setpriv that refuses `--pdeathsig` (util-linux before 2.33, BusyBox)
 * is left out: its program is read once a process to see. Without it such a death leaves an
 * unconfined program running. Processes the program started itself are not reached this way (only
 * a sandbox's PID namespace holds them). bwrap is started without setpriv: its `--die-with-parent`
 * does the same.
 *
 * A long-running process (the MCP server, {@linkcode tieToWatchdog}) does without setpriv's exec
 * on every start: one watchdog of its own, a shell in a session of its own started with the first
 * child, is told each child's group as it starts (before the call goes on) and once the runner is
 * done with it, and kills the groups still running when its input ends, which is when basis-tools
 * ends, however it dies. Until the watchdog says it is ready, and should it die or stop taking
 * lines, children are started through setpriv.
 *
 * @module
 */

import type { MessageKey } from "../locale/en_us.ts";
import { type Phrase, phrase, type PhraseParams } from "../locale/messages.ts";
import { attempt } from "../quietly.ts";
import type { StartFailure } from "./types.ts";
import { quote } from "./resolve_program.ts";

/** Why the program did not start: its kind, and the reason as a phrase. */
export type StartProblem = { failure: StartFailure; reason: Phrase };

/** A start problem of a kind, its reason worded by `key`. */
function problem(failure: StartFailure, key: MessageKey, params: PhraseParams): StartProblem {
  return { failure, reason: phrase(key, params) };
}

/** The argv put before a program: setsid alone, and setsid behind setpriv (or setsid alone). */
let launchers: { setsid: string[]; tied: string[] } | null | undefined;

/**
 * What children are started through, found once: only on Linux, only when Deno may run any
 * program (no scope, nothing denied), and only when setsid is there; with setpriv before it when
 * that is there too and takes `--pdeathsig` (util-linux 2.33 and later; not BusyBox's). Its
 * program, an ELF file, names the option in its usage text exactly when it has it: reading the
 * file (80 KiB) costs a tenth of a millisecond, where running it to ask costs several.
 */
function launcher(): { setsid: string[]; tied: string[] } | undefined {
  if (launchers !== undefined) return launchers ?? undefined;
  launchers = null;
  if (Deno.build.os !== "linux") return undefined;
  // Not allowed to look, or not there: detached it is.
  launchers = attempt(() => {
    const run = Deno.permissions.querySync({ name: "run" });
    const setsid = run.state === "granted" && !run.partial ? findLauncher("setsid") : undefined;
    if (setsid === undefined) return null;
    const setpriv = findLauncher("setpriv");
    const through = [setsid, "--"];
    const tied = setpriv !== undefined && takesDeathSignal(setpriv)
      ? [setpriv, "--pdeathsig", "KILL", "--", ...through]
      : through;
    return { setsid: through, tied };
  }, null);
  return launchers ?? undefined;
}

function takesDeathSignal(setpriv: string): boolean {
  return attempt(() => {
    // The largest setpriv read (BusyBox is ~2 MiB).
    if (Deno.statSync(setpriv).size > 8 * 1024 * 1024) return false;
    const text = new TextDecoder("latin1").decode(Deno.readFileSync(setpriv));
    return text.startsWith("\x7fELF") && text.includes("--pdeathsig");
  }, false);
}

/** An executable file of that name in `/usr/bin` or `/bin` (util-linux, BusyBox). */
function findLauncher(name: string): string | undefined {
  for (const path of [`/usr/bin/${name}`, `/bin/${name}`]) {
    // Never a permission prompt: look only where reading is already granted.
    if (Deno.permissions.querySync({ name: "read", path }).state !== "granted") continue;
    const info = attempt(() => Deno.statSync(path));
    if (info?.isFile && ((info.mode ?? 0) & 0o111) !== 0) return path;
  }
  return undefined;
}

/**
 * The watchdog's program: it says it is ready, then `+PGID` and `-PGID` lines add and drop a
 * group; at the end of its input, SIGKILL to every group left (or to the process itself, had it
 * not made its group yet). It ignores the signals a terminal or a client sends basis-tools' group.
 */
const WATCHDOG = "trap '' HUP INT TERM QUIT PIPE; echo ready; g=' '; while IFS= read -r l; do " +
  'case $l in +*) g="$g${l#+} ";; -*) i=${l#-}; case $g in *" $i "*) ' +
  'g="${g%% $i *} ${g#* $i }";; esac;; esac; done; ' +
  'for i in $g; do kill -s KILL -- "-$i" 2>/dev/null || kill -s KILL -- "$i" 2>/dev/null; done';

/**
 * The watchdog: asked for (`undefined`), starting (children still go through setpriv until it
 * says it is ready), ready (its input), or none (`null`: not asked for, or it died or stopped
 * taking lines).
 */
let watchdog: "starting" | WritableStreamDefaultWriter<Uint8Array> | null | undefined = null;

/** How long a line may take to reach the watchdog before it is given up (a stopped watchdog). */
const TELL_MS = 200;

/**
 * Ties the children this process starts from now on to one watchdog instead of a setpriv each:
 * for a process that starts many (the MCP server). The watchdog starts with the first child (which
 * goes through setpriv). Where there is no setsid to start it with, or it cannot start, children
 * go on being started as before.
 */
export function tieToWatchdog(): void {
  if (watchdog === null) watchdog = undefined;
}

/** The watchdog's input once it is ready; started on first need. */
function watchdogInput(setsid: string): WritableStreamDefaultWriter<Uint8Array> | undefined {
  if (watchdog === undefined) {
    watchdog = "starting";
    try {
      const started = new Deno.Command(setsid, {
        args: ["--", "/bin/sh", "-c", WATCHDOG],
        // Builtins only: nothing of the environment (no BASH_ENV, no LD_PRELOAD) reaches it.
        clearEnv: true,
        env: {},
        stdin: "piped",
        stdout: "piped",
        stderr: "null",
      }).spawn();
      started.unref();
      const input = started.stdin.getWriter();
      const said = started.stdout.getReader();
      said.read().then(({ value }) => {
        if (watchdog === "starting" && value !== undefined) watchdog = input;
        return said.cancel();
      }).catch(() => {});
      started.status.finally(() => watchdog = null).catch(() => {});
    } catch {
      watchdog = null;
    }
  }
  return typeof watchdog === "object" && watchdog !== null ? watchdog : undefined;
}

/**
 * Tells the watchdog a line, resolving once it is in the watchdog's pipe (or given up: a watchdog
 * that does not take it within {@linkcode TELL_MS}, or cannot, is no longer used).
 */
async function tell(input: WritableStreamDefaultWriter<Uint8Array>, line: string): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<false>((done) => timer = setTimeout(() => done(false), TELL_MS));
  const told = input.write(new TextEncoder().encode(`${line}\n`)).then(() => true, () => false);
  const taken = await Promise.race([told, late]);
  clearTimeout(timer);
  if (!taken && watchdog === input) watchdog = null;
}

/**
 * A started child (its pid leads its process group once setsid has run) and how: through
 * setsid(1), or as bwrap; what reports an exec failure as an exit ({@linkcode launchFailure}).
 */
export type Launched = {
  readonly child: Deno.ChildProcess;
  viaSetsid: boolean;
  bwrap: boolean;
  /** Called once the runner is done with the group (its last signal sent): the watchdog drops it. */
  release(): void;
};

/**
 * Spawns a program with piped stdio in a process group of its own.
 *
 * @param program The program as resolved, or the sandbox wrapper.
 * @param args Its arguments.
 * @param options Working directory and environment; `bwrap` for bubblewrap, which dies with its
 *   parent by itself and is started without setpriv.
 * @returns The child, once the watchdog (if it has one) knows its group.
 * @throws What `Deno.Command#spawn` throws.
 */
export async function spawnInOwnGroup(
  program: string,
  args: readonly string[],
  options: { cwd: string; env: Record<string, string>; clearEnv: boolean; bwrap: boolean },
): Promise<Launched> {
  const { bwrap, ...spawn } = options;
  const stdio = { stdin: "piped", stdout: "piped", stderr: "piped" } as const;
  const found = launcher();
  const watched = found !== undefined && !bwrap ? watchdogInput(found.setsid[0]!) : undefined;
  const [first, ...rest] = (bwrap || watched ? found?.setsid : found?.tied) ?? [program];
  const child = new Deno.Command(first as string, {
    args: found === undefined ? [...args] : [...rest, program, ...args],
    ...spawn,
    ...stdio,
    detached: found === undefined,
  }).spawn();
  // The call goes on once the watchdog has its group (nothing else runs in between).
  if (watched !== undefined) await tell(watched, `+${child.pid}`);
  let released = watched === undefined;
  const release = () => {
    if (!released) tell(watched!, `-${child.pid}`);
    released = true;
  };
  return { child, viaSetsid: found !== undefined, bwrap, release };
}

/** What setsid(1) writes when it cannot exec the program (exit 126 or 127). */
const SETSID_FAILED = /^setsid: failed to execute (.+?): (.+)$/;
/** bwrap: one `bwrap: …` line, exit 1, when it could not set the sandbox up or exec the program. */
const BWRAP_FAILED = /^bwrap: (.+)$/;
const EXEC_FAILED = /^execvp (.+?): (.+)$/;

/**
 * Tells a program that could not be executed (setsid could not exec it: a script's interpreter
 * missing, a `noexec` mount; bwrap could not set the sandbox up or exec it) from a program that
 * ran and exited so: one line on stderr, nothing on stdout, the launcher's exit code.
 *
 * @param launched How the program was started.
 * @param status How it ended.
 * @param stdoutBytes What was written on stdout.
 * @param stderr The stderr text.
 * @returns The start problem, or `undefined` when the program ran.
 */
export function launchFailure(
  launched: Launched,
  status: Deno.CommandStatus,
  stdoutBytes: number,
  stderr: string,
): StartProblem | undefined {
  const text = stderr.trim();
  if (status.signal !== null || stdoutBytes !== 0 || text.includes("\n")) return undefined;
  const setsid = launched.viaSetsid ? SETSID_FAILED.exec(text) : null;
  if (setsid !== null && (status.code === 126 || status.code === 127)) {
    const program = quote(setsid[1] ?? "");
    const failure = status.code === 127 ? "not_found" : "other";
    return problem(failure, "start.failed", { program, detail: setsid[2] ?? "" });
  }
  const said = launched.bwrap && status.code === 1 ? BWRAP_FAILED.exec(text)?.[1] : undefined;
  if (said === undefined) return undefined;
  const exec = EXEC_FAILED.exec(said);
  if (exec === null) return problem("other", "start.sandbox_failed", { detail: said });
  const [, program = "", detail = ""] = exec;
  const failure = /no such file/i.test(detail)
    ? "not_found"
    : /permission denied/i.test(detail)
    ? "not_executable"
    : "other";
  return problem(failure, "start.failed", { program: quote(program), detail });
}

/** Linux's signal numbers, for bwrap's 128 + N. */
const SIGNALS =
  ("HUP INT QUIT ILL TRAP ABRT BUS FPE KILL USR1 SEGV USR2 PIPE ALRM TERM STKFLT CHLD " +
    "CONT STOP TSTP TTIN TTOU URG XCPU XFSZ VTALRM PROF WINCH IO PWR SYS").split(" ");

/**
 * The status as the program in bwrap ended: bwrap reports a program killed by signal N as exit
 * 128 + N, as shells do.
 *
 * @param status bwrap's status.
 * @returns The program's.
 */
export function signalledStatus(status: Deno.CommandStatus): Deno.CommandStatus {
  const name = status.signal === null ? SIGNALS[status.code - 129] : undefined;
  if (name === undefined) return status;
  return { success: false, code: status.code, signal: `SIG${name}` as Deno.Signal };
}

/**
 * Classifies an error thrown by `Deno.Command#spawn`.
 *
 * @param error What was thrown.
 * @param program The tool's program (not the launcher that may have started it).
 * @param cwd The working directory.
 * @param loaderVars Names of `LD_*`/`DYLD_*` variables the child would have received.
 * @returns The failure kind and its reason.
 */
export function classifySpawnError(
  error: unknown,
  program: string,
  cwd: string,
  loaderVars: readonly string[],
): StartProblem {
  const detail = error instanceof Error ? error.message : String(error);
  const denied = error instanceof Deno.errors.PermissionDenied;
  if (error instanceof Deno.errors.NotCapable || (denied && !/os error/i.test(detail))) {
    return refusal(detail, program, loaderVars);
  }
  if (denied) return problem("not_executable", "start.permission", { program: quote(program) });
  if (error instanceof Deno.errors.NotFound) {
    if (/cwd/i.test(detail)) return cwdMissing(cwd);
    const key = program.includes("/") ? "start.missing" : "start.not_on_path";
    return problem("not_found", key, { program: quote(program) });
  }
  // Deno's "Failed to spawn 'X': " names what it started, which may be a launcher (setsid, bwrap).
  // (`\x27` is a single quote: quotes in the file stay paired for tools that read it as text.)
  const why = detail.replace(/\s*\n\s*/g, " ").trim().replace(/^Failed to spawn '[^\x27]*': /, "");
  return problem("other", "start.failed", { program: quote(program), detail: why });
}

/**
 * The problem for a working directory that is missing or not a directory.
 *
 * @param cwd The working directory.
 * @param isFile Whether something that is not a directory is there.
 * @returns A start problem of kind `"other"`.
 */
export function cwdMissing(cwd: string, isFile = false): StartProblem {
  return problem("other", isFile ? "start.cwd_not_dir" : "start.cwd_missing", { cwd: quote(cwd) });
}

function refusal(detail: string, program: string, loaderVars: readonly string[]): StartProblem {
  // `\x22` is a double quote: quotes in the file stay paired for tools that read it as text.
  const named = /access to "([^\x22]+)"/.exec(detail)?.[1] ?? program;
  if (/environment variable/i.test(detail)) {
    const fromMessage = /with (\S+) environment variable/.exec(detail)?.[1];
    const vars = loaderVars.length > 0 ? loaderVars : fromMessage ? [fromMessage] : [];
    const variables = vars.length > 0 ? vars.join(", ") : phrase("start.loader_variables");
    return problem("permission_denied", "start.loader_env", { program: quote(program), variables });
  }
  const flag = named.includes("/") || named.includes("\\")
    ? `--allow-run=${named}`
    : phrase("start.sandbox_flag", { program: named });
  return problem("permission_denied", "start.sandbox", { program: quote(named), flag });
}
