/**
 * The one place that signals a process group. `Deno.kill(-pgid)` needs unscoped `--allow-run`; under
 * a scoped one the `kill` program does the same (`kill -s TERM -- -PGID`), when it may run. Private
 * to the runner.
 *
 * @module
 */

/** The `kill` programs tried, in order, when Deno refuses to signal a group itself. */
export const KILL_PROGRAMS: readonly string[] = ["/bin/kill", "/usr/bin/kill", "kill"];

/** What signalling did: reached at least one process, found none left, or was not allowed. */
export type SignalOutcome = "sent" | "gone" | "refused";

let denoMaySignalGroups = true;
let workingKillProgram: string | undefined;
let noKillProgram = false;

/**
 * Sends a signal to every process in the group led by `pid` (POSIX only).
 *
 * @param pid The group leader's pid (the child, started detached, so its pgid is its pid).
 * @param signal `"SIGTERM"` or `"SIGKILL"`.
 * @returns `"sent"`, `"gone"` when no process of the group is left, or `"refused"` when neither
 * Deno nor a `kill` program may signal it.
 */
export async function signalGroup(
  pid: number,
  signal: "SIGTERM" | "SIGKILL",
): Promise<SignalOutcome> {
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
  return await killProgram(pid, signal);
}

async function killProgram(pid: number, signal: "SIGTERM" | "SIGKILL"): Promise<SignalOutcome> {
  if (noKillProgram) return "refused";
  const args = ["-s", signal.slice(3), "--", `-${pid}`];
  const candidates = workingKillProgram ? [workingKillProgram] : KILL_PROGRAMS;
  for (const program of candidates) {
    try {
      const { code } = await new Deno.Command(program, {
        args,
        stdin: "null",
        stdout: "null",
        stderr: "null",
      }).output();
      workingKillProgram = program;
      // kill exits non-zero when no process of the group is left (ESRCH).
      return code === 0 ? "sent" : "gone";
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound) && !isRefusal(error)) throw error;
    }
  }
  noKillProgram = true;
  return "refused";
}

function isRefusal(error: unknown): boolean {
  return error instanceof Deno.errors.NotCapable || error instanceof Deno.errors.PermissionDenied;
}
