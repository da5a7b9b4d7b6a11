/**
 * Stopping a child and everything it started: SIGTERM, a grace period, then SIGKILL. Private to
 * the runner.
 *
 * The one place that signals a process group. `Deno.kill(-pgid)` needs unscoped `--allow-run`;
 * under a scoped one the `kill` program does the same (`kill -s TERM -- -PGID`), when it may run.
 *
 * A program inside bubblewrap: Deno sees bwrap; bwrap's init (pid 1 of the call's PID namespace)
 * is its child, and the program is the init's child, leading a session of its own
 * (`--new-session`). Killing bwrap kills the init (`--die-with-parent`), and the kernel then kills
 * every process left in the namespace, whatever session or group it made for itself: that is the
 * guarantee. The grace comes first: SIGTERM to the group of each process the init holds (the
 * program, and anything reparented to the init), then up to `graceMs`, then SIGKILL to bwrap.
 *
 * @module
 */

import { attempt } from "../quietly.ts";
import { settlesWithin } from "./_wait.ts";

/** The `kill` programs tried, in order, when Deno refuses to signal a group itself. */
export const KILL_PROGRAMS: readonly string[] = ["/bin/kill", "/usr/bin/kill", "kill"];

type Signal = "SIGTERM" | "SIGKILL";

let denoMaySignalGroups = true;
/** The `kill` program that worked; `null` once none does. */
let killProgram: string | null | undefined;

/**
 * Sends a signal to every process in the group led by `pid` (POSIX only): `"sent"`, `"gone"` when
 * no process of the group is left, `"refused"` when neither Deno nor a `kill` program may.
 */
async function signalGroup(pid: number, signal: Signal): Promise<"sent" | "gone" | "refused"> {
  if (denoMaySignalGroups) {
    try {
      Deno.kill(-pid, signal);
      return "sent";
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return "gone";
      if (!isRefusal(error)) throw error;
      // A sandbox refusal holds for the whole run of this program; an OS refusal may not.
      if (error instanceof Deno.errors.NotCapable) denoMaySignalGroups = false;
    }
  }
  const args = ["-s", signal.slice(3), "--", `-${pid}`];
  const quiet = { args, stdin: "null", stdout: "null", stderr: "null" } as const;
  for (const program of killProgram === undefined ? KILL_PROGRAMS : [killProgram ?? []].flat()) {
    try {
      const { code } = await new Deno.Command(program, quiet).output();
      killProgram = program;
      // kill exits non-zero when no process of the group is left (ESRCH).
      return code === 0 ? "sent" : "gone";
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound) && !isRefusal(error)) throw error;
    }
  }
  killProgram = null;
  return "refused";
}

function isRefusal(error: unknown): boolean {
  return error instanceof Deno.errors.NotCapable || error instanceof Deno.errors.PermissionDenied;
}

/** Runs a kill; false when there was nothing left to signal. */
function tried(kill: () => void): boolean {
  return attempt(() => (kill(), true), false);
}

/** The group of the child, else (Windows, no way to reach the group, no group yet) the child. */
async function signal(child: Deno.ChildProcess, name: Signal): Promise<boolean> {
  // "gone" may also mean a child started through setsid(1) that has not made its group yet.
  if (Deno.build.os !== "windows" && (await signalGroup(child.pid, name)) === "sent") return true;
  return tried(() => child.kill(name));
}

/**
 * Stops the child's process group: SIGTERM, then up to `graceMs` for `settled` (the child has
 * exited and its output pipes are closed), then SIGKILL to whatever is left.
 *
 * @param child The child, leading its own process group.
 * @param graceMs Milliseconds between SIGTERM and SIGKILL.
 * @param settled Resolves once the child has exited and its pipes are closed.
 * @returns Whether SIGKILL was needed: the child or a holder of its output outlived the grace.
 */
export async function stopGroup(
  child: Deno.ChildProcess,
  graceMs: number,
  settled: Promise<unknown>,
): Promise<boolean> {
  if (!(await signal(child, "SIGTERM"))) return false;
  const inTime = await settlesWithin(settled, graceMs);
  // Sent even when the child settled: a straggler that ignores SIGTERM and let go of the pipes
  // must not survive either.
  const killed = await signal(child, "SIGKILL");
  return !inTime && killed;
}

/**
 * Stops a sandboxed child: SIGTERM inside, a grace period, SIGKILL to bwrap (and so to the whole
 * namespace).
 *
 * @param child bwrap.
 * @param graceMs Milliseconds between SIGTERM and SIGKILL.
 * @param settled Resolves once bwrap has exited and the output pipes are closed.
 * @returns Whether SIGKILL was needed: something inside outlived the grace.
 */
export async function stopSandboxed(
  child: Deno.ChildProcess,
  graceMs: number,
  settled: Promise<unknown>,
): Promise<boolean> {
  let termed = false;
  // The processes bwrap's init holds (nothing when /proc may not be read: SIGKILL then comes
  // without the grace). Each is a session leader (the program) or was reparented to the init: its
  // group, else it.
  for (const pid of childrenOf(child.pid).flatMap(childrenOf)) {
    if ((await signalGroup(pid, "SIGTERM")) === "sent" || tried(() => Deno.kill(pid, "SIGTERM"))) {
      termed = true;
    }
  }
  const inTime = termed && await settlesWithin(settled, graceMs);
  // The init dies with bwrap, and the namespace with the init.
  return tried(() => child.kill("SIGKILL")) && !inTime;
}

function childrenOf(pid: number): number[] {
  const text = attempt(() => Deno.readTextFileSync(`/proc/${pid}/task/${pid}/children`), "");
  return text.trim().split(/\s+/).filter((part) => part !== "").map(Number);
}
