/**
 * File-system calls where failing is common: the PATH search (most entries lack the program) and
 * configuration files that are usually absent. A failed call throws; most of that throw's cost is
 * capturing a stack trace nobody reads, so these calls capture none.
 *
 * @module
 */

/**
 * Runs a synchronous call whose errors are expected, making them without a stack trace (the same
 * class, the same message).
 *
 * @param call The call, such as `() => Deno.statSync(path)`.
 * @returns What it returns.
 * @throws What it throws, without a stack.
 * @example A missing file
 * ```ts
 * import { quietly } from "./quietly.ts";
 * try {
 *   quietly(() => Deno.statSync("/no/such/file"));
 * } catch (error) {
 *   console.assert(error instanceof Deno.errors.NotFound);
 * }
 * ```
 */
export function quietly<T>(call: () => T): T {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return call();
  } finally {
    Error.stackTraceLimit = limit;
  }
}

/**
 * Runs a call whose failure is expected and needs no handling: what it returns, or `fallback` when
 * it throws.
 *
 * @param call The call.
 * @param fallback What a failure answers. @default undefined
 * @returns The call's value, or the fallback.
 * @example A variable Deno may not read
 * ```ts
 * import { attempt } from "./quietly.ts";
 * console.assert(attempt(() => JSON.parse("{"), null) === null);
 * ```
 */
export function attempt<T, F = undefined>(call: () => T, fallback?: F): T | F {
  try {
    return call();
  } catch {
    return fallback as F;
  }
}

/**
 * Whether a file operation failed because nothing is at the path (or a part of it is a file).
 *
 * @param error What the operation threw.
 * @returns True for `NotFound` and `NotADirectory`.
 */
export function isMissing(error: unknown): boolean {
  return error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory;
}

/**
 * Whether a path exists (following links), asked without a stack trace when it does not.
 *
 * @param path The path.
 * @returns True when `Deno.statSync` finds it; false when it does not or may not look.
 * @example
 * ```ts
 * import { exists } from "./quietly.ts";
 * console.assert(exists("/") && !exists("/no/such/file"));
 * ```
 */
export function exists(path: string): boolean {
  return attempt(() => Boolean(quietly(() => Deno.statSync(path))), false);
}
