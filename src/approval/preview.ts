/**
 * The preview: what a person or a remembered rule sees of a call. One function builds each kind, with
 * the key order pinned (README: "Approval"). The environment is never part of a preview.
 *
 * @module
 */

/** The preview of a declared tool's call. Key order: tool, program, command, cwd, input. */
export interface ToolPreview {
  /** The tool's name. */
  readonly tool: string;
  /**
   * The program that will really run: its absolute path, found with exactly the environment the
   * program gets (inherited, then `--env`, then the manifest's `env`).
   */
  readonly program: string;
  /** The argv after expansion, as written in the manifest (`command[0]` as written). */
  readonly command: readonly string[];
  /** Absolute working directory. */
  readonly cwd: string;
  /** The validated input. */
  readonly input: unknown;
}

/**
 * Builds the preview of a declared tool's call, keys in the pinned order.
 *
 * @param spec The tool's name, argv and working directory.
 * @param program The resolved program (absolute path).
 * @param input The validated input.
 * @returns The preview object.
 * @example The key order is fixed
 * ```ts
 * import { toolPreview } from "./preview.ts";
 * const preview = toolPreview({ name: "echo", command: ["cat"], cwd: "/w" }, "/usr/bin/cat", { a: 1 });
 * console.assert(JSON.stringify(preview) === '{"tool":"echo","program":"/usr/bin/cat","command":["cat"],"cwd":"/w","input":{"a":1}}');
 * ```
 */
export function toolPreview(
  spec: { readonly name: string; readonly command: readonly string[]; readonly cwd: string },
  program: string,
  input: unknown,
): ToolPreview {
  return { tool: spec.name, program, command: [...spec.command], cwd: spec.cwd, input };
}
