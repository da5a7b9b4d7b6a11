/**
 * A declared tool's spec, as the manifest loader would produce it, for tests that build tools
 * without a manifest.
 *
 * @module
 */

import type { ToolSpec } from "../src/mod.ts";
import { ROOT } from "./_cli.ts";

/**
 * A workspace tool that runs `command` in the repository root with no extra environment.
 *
 * @example Usage
 * ```ts ignore
 * const spec = toolSpec("echo", ["cat"], { timeoutMs: 100 });
 * ```
 *
 * @param name The tool's name.
 * @param command Its argv; the first word is the program.
 * @param fields The fields that differ.
 * @returns The spec.
 */
export function toolSpec(
  name: string,
  command: string[],
  fields: Partial<ToolSpec> = {},
): ToolSpec {
  return {
    name,
    description: `The ${name} tool`,
    inputSchema: { type: "object" },
    command,
    program: command[0] as string,
    cwd: ROOT,
    env: {},
    sideEffect: "process",
    timeoutMs: 20_000,
    sandbox: { network: false, write: [], read: [] },
    file: `${ROOT}.basis/tools.json`,
    scope: "workspace",
    ...fields,
  };
}
