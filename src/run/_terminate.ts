/**
 * Stopping a child and everything it started: SIGTERM to the group, a grace period, then SIGKILL.
 * Private to the runner.
 *
 * @module
 */

import { signalGroup, type SignalOutcome } from "./_kill.ts";
import { settlesWithin } from "./_wait.ts";

const IS_WINDOWS = Deno.build.os === "windows";

/**
 * Stops the child's process group: SIGTERM, then up to `graceMs` for `settled` (the child has exited
 * and its output pipes are closed), then SIGKILL to whatever is left.
 *
 * @param child The child, started detached so that it leads its own process group.
 * @param graceMs Milliseconds between SIGTERM and SIGKILL.
 * @param settled Resolves once the child has exited and its pipes are closed.
 * @returns Whether SIGKILL was needed: the child or a holder of its output outlived the grace.
 */
export async function stopGroup(
  child: Deno.ChildProcess,
  graceMs: number,
  settled: Promise<unknown>,
): Promise<boolean> {
  if ((await signal(child, "SIGTERM")) === "gone") return false;
  const inTime = await settlesWithin(settled, graceMs);
  // Sent even when the child settled: a straggler that ignores SIGTERM and let go of the pipes
  // must not survive either.
  const killed = await signal(child, "SIGKILL");
  return !inTime && killed === "sent";
}

async function signal(
  child: Deno.ChildProcess,
  name: "SIGTERM" | "SIGKILL",
): Promise<SignalOutcome> {
  if (!IS_WINDOWS) {
    const outcome = await signalGroup(child.pid, name);
    if (outcome === "sent") return outcome;
    // "gone" may also mean a child started through setsid(1) that has not made its group yet.
    if (outcome === "gone") return directly(child, name) ? "sent" : "gone";
  }
  // Windows, or no way to reach the group: the direct child only.
  return directly(child, name) ? "sent" : "gone";
}

/** Signals the child itself; false when it has already ended. */
function directly(child: Deno.ChildProcess, name: "SIGTERM" | "SIGKILL"): boolean {
  try {
    child.kill(name);
    return true;
  } catch {
    return false;
  }
}
