/**
 * basis-tools as a library: load the declared tools of a workspace, check input against a tool's
 * schema, decide a call, run a program with JSON on stdin, and parse and run the built-in `spawn`
 * tool.
 *
 * @example Load a workspace's roster and call one tool
 * ```ts ignore
 * import { loadRoster, runProgram, validateInput } from "@basis/tools";
 * const roster = await loadRoster({ workspace: "examples" });
 * const tool = roster.tools.get("word_count")!;
 * const input = { text: "one two three" };
 * await validateInput(tool, input);
 * const result = await runProgram({
 *   program: tool.program,
 *   args: tool.command.slice(1),
 *   cwd: tool.cwd,
 *   stdin: new TextEncoder().encode(JSON.stringify(input)),
 *   env: [tool.env],
 *   timeoutMs: tool.timeoutMs,
 * });
 * console.log(result.stdout);
 * ```
 *
 * @module
 */

export * from "./errors.ts";
export * from "./manifest/mod.ts";
export * from "./schema/mod.ts";
export * from "./run/mod.ts";
export * from "./approval/preview.ts";
export * from "./approval/approve.ts";
export * from "./approval/shell_quote.ts";
export * from "./permissions/mod.ts";
export * from "./spawn/mod.ts";
export { redact, REDACTED } from "./redact.ts";
