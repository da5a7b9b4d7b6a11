/**
 * The workspace root for commands that need no manifest (`spawn`, `show spawn`).
 *
 * @module
 */

import { BasisError } from "../errors.ts";
import { phrase } from "../locale/messages.ts";
import { findWorkspaceRoot } from "../manifest/load.ts";
import { resolvePath } from "../paths.ts";
import type { Settings } from "./settings.ts";

/**
 * The workspace root: `-C DIR`, which must be a directory, else the nearest ancestor of the
 * current directory holding `.basis/tools.json`, else the current directory.
 *
 * @param settings The run's settings.
 * @returns The absolute root.
 * @throws {BasisError} `usage` when `-C` names something that is not a directory.
 */
export async function workspaceRoot(settings: Settings): Promise<string> {
  if (settings.workspace === undefined) return await findWorkspaceRoot(Deno.cwd());
  const path = resolvePath(settings.workspace);
  try {
    if (Deno.statSync(path).isDirectory) return path;
  } catch {
    // Reported below.
  }
  throw notADirectory(settings.workspace);
}

/**
 * The error for a `-C` that is not a directory.
 *
 * @param workspace The `-C` value.
 * @returns The usage error.
 */
export function notADirectory(workspace: string): BasisError {
  return BasisError.of("usage", phrase("cli.not_a_directory", { path: JSON.stringify(workspace) }));
}
