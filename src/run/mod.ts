/**
 * The runner: starts one argv (never a shell) in its own process group with bytes on stdin and a
 * layered environment, enforces a time limit and cancellation by stopping the whole group, caps the
 * output it keeps and spills the rest, and words the outcome for people and models.
 *
 * @module
 */

export * from "./types.ts";
export * from "./run_program.ts";
export * from "./failure_message.ts";
export * from "./model_result.ts";
export * from "./interrupt.ts";
export { KILL_PROGRAMS } from "./_stop.ts";
export { tieToWatchdog } from "./_launch.ts";
export { type Resolution, type ResolveContext, resolveProgram } from "./resolve_program.ts";
