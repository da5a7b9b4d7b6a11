/**
 * The spawn tool's limits: time, output and the environment a command keeps.
 *
 * @module
 */

/** Each of stdout and stderr is kept up to this many bytes: 64 KiB. */
export const SPAWN_OUTPUT_CAP = 65_536;
/** The exit code a timed-out call reports (as `timeout(1)` does). */
export const TIMEOUT_EXIT_CODE = 124;

/**
 * The variables a command keeps from this process's environment; everything else is cleared
 * (then the `--env` pairs are added). `HOME` and `LANG` keep ordinary programs (git, cargo,
 * anything that prints non-ASCII) working; the delegation depth and the roster keep a
 * `basis-tools` the command runs where this one is; secrets such as API keys stay behind.
 */
export const KEPT_ENV: readonly string[] = Object.freeze(
  "PATH HOME LANG BASIS_SPAWN_DEPTH BASIS_ROSTER".split(" "),
);

/**
 * The time limit of one spawn call.
 *
 * @param mode The call's mode.
 * @param requested The `--spawn-timeout` value, when given.
 * @returns The limit in milliseconds: by default 120 s for a command, 600 s for a subagent; at
 *   most 600 s (longer requests are cut to it).
 *
 * @example Defaults and the cap
 * ```ts
 * import { spawnTimeout } from "./limits.ts";
 * console.assert(spawnTimeout("command", undefined) === 120000);
 * console.assert(spawnTimeout("agent", undefined) === 600000);
 * console.assert(spawnTimeout("command", 900000) === 600000);
 * ```
 */
export function spawnTimeout(mode: "command" | "agent", requested: number | undefined): number {
  return Math.min(requested ?? (mode === "command" ? 120_000 : 600_000), 600_000);
}
