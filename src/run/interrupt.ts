/**
 * Turning Ctrl-C (and a terminal hang-up or SIGTERM) into cancellation. The child runs in its own
 * process group, so the terminal's SIGINT never reaches it: the runner must stop it.
 *
 * @module
 */

import { attempt } from "../quietly.ts";

/**
 * An abort signal tied to process signals (aborted, with the signal's name as reason, when one of
 * them arrives); dispose it when the run is over (`dispose()` stops listening, and is idempotent).
 */
export type InterruptHandle = Disposable & { readonly signal: AbortSignal; dispose(): void };

/**
 * Listens for Ctrl-C, SIGTERM and SIGHUP (Ctrl-C and Ctrl-Break on Windows) and aborts the
 * returned signal, so that a run given it stops its whole process group and resolves with
 * `cancelled: true`. While listening,
 * those signals no longer end this process: the caller exits once the run has resolved.
 *
 * @returns The abort signal and a way to stop listening.
 *
 * @example Cancel a run on Ctrl-C
 * ```ts ignore
 * import { abortOnInterrupt } from "./interrupt.ts";
 * import { runProgram } from "./run_program.ts";
 * using interrupt = abortOnInterrupt();
 * const result = await runProgram(
 *   { program: "sleep", args: ["30"], cwd: "/", stdin: new Uint8Array(), timeoutMs: 60000 },
 *   { signal: interrupt.signal },
 * );
 * if (result.outcome === "cancelled") Deno.exitCode = 130;
 * ```
 */
export function abortOnInterrupt(): InterruptHandle {
  const windows = Deno.build.os === "windows";
  const signals: Deno.Signal[] = windows ? ["SIGINT", "SIGBREAK"] : ["SIGINT", "SIGTERM", "SIGHUP"];
  const controller = new AbortController();
  const listeners: [Deno.Signal, () => void][] = [];
  for (const name of signals) {
    const listener = () => controller.abort(name);
    // Not supported on this platform: not listened to.
    if (attempt(() => Deno.addSignalListener(name, listener), false) === false) continue;
    listeners.push([name, listener]);
  }
  const dispose = () => {
    for (const [name, listener] of listeners.splice(0)) {
      attempt(() => Deno.removeSignalListener(name, listener)); // Or already gone.
    }
  };
  return { signal: controller.signal, dispose, [Symbol.dispose]: dispose };
}
