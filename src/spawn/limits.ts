/**
 * The spawn tool's limits: time, output and the environment a command keeps.
 *
 * @module
 */

/** A command's time limit unless `--spawn-timeout` says otherwise: 120 s. */
export const DEFAULT_COMMAND_TIMEOUT_MS = 120_000;
/** A subagent's time limit unless `--spawn-timeout` says otherwise: 600 s. */
export const DEFAULT_AGENT_TIMEOUT_MS = 600_000;
/** The longest time limit a spawn call may have: 600 s. Longer requests are cut to it. */
export const MAX_SPAWN_TIMEOUT_MS = 600_000;
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
 * @returns The limit in milliseconds, at most {@linkcode MAX_SPAWN_TIMEOUT_MS}.
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
  const chosen = requested ??
    (mode === "command" ? DEFAULT_COMMAND_TIMEOUT_MS : DEFAULT_AGENT_TIMEOUT_MS);
  return Math.min(chosen, MAX_SPAWN_TIMEOUT_MS);
}
