/**
 * Stopping a program that runs inside bubblewrap. Deno sees bwrap; bwrap's init (pid 1 of the
 * call's PID namespace) is its child, and the program is the init's child, leading a session of
 * its own (`--new-session`). Killing bwrap kills the init (`--die-with-parent`), and the kernel then
 * kills every process left in the namespace, whatever session or group it made for itself: that
 * is the guarantee. The grace comes first: SIGTERM to the group of each process the init holds
 * (the program, and anything reparented to the init), then up to `graceMs`, then SIGKILL to bwrap.
 * Private to the runner.
 *
 * @module
 */

import { signalGroup } from "./_kill.ts";
import { settlesWithin } from "./_wait.ts";

/**
 * Stops a sandboxed child: SIGTERM inside, a grace period, SIGKILL to bwrap (and so to the whole
 * namespace).
 *
 * @param child bwrap, started in a process group of its own.
 * @param graceMs Milliseconds between SIGTERM and SIGKILL.
 * @param settled Resolves once bwrap has exited and the output pipes are closed.
 * @returns Whether SIGKILL was needed: something inside outlived the grace.
 */
export async function stopSandboxed(
  child: Deno.ChildProcess,
  graceMs: number,
  settled: Promise<unknown>,
): Promise<boolean> {
  const inside = insidePids(child.pid);
  let termed = false;
  for (const pid of inside) {
    // Each is a session leader (the program) or was reparented to the init: its group, else it.
    if ((await signalGroup(pid, "SIGTERM")) === "sent") termed = true;
    else if (signalPid(pid, "SIGTERM")) termed = true;
  }
  const inTime = termed ? await settlesWithin(settled, graceMs) : false;
  const killed = killBwrap(child);
  return !inTime && killed;
}

/** SIGKILL to bwrap: the init dies with it, and the namespace with the init. */
function killBwrap(child: Deno.ChildProcess): boolean {
  try {
    child.kill("SIGKILL");
    return true;
  } catch {
    return false;
  }
}

function signalPid(pid: number, signal: Deno.Signal): boolean {
  try {
    Deno.kill(pid, signal);
    return true;
  } catch {
    return false;
  }
}

/**
 * The processes bwrap's init holds: the children of bwrap's children, read from `/proc` (nothing
 * when it may not be read: SIGKILL then comes without the grace).
 */
function insidePids(bwrap: number): number[] {
  const out: number[] = [];
  for (const init of childrenOf(bwrap)) out.push(...childrenOf(init));
  return out;
}

function childrenOf(pid: number): number[] {
  try {
    const text = Deno.readTextFileSync(`/proc/${pid}/task/${pid}/children`);
    return text.trim().split(/\s+/).filter((part) => part !== "").map(Number);
  } catch {
    return [];
  }
}
