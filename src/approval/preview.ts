/**
 * The preview: what a person or a remembered rule sees of a call. One function builds each kind, with
 * the key order pinned (README: "Approval"). The environment is never part of a preview.
 *
 * @module
 */

/** The preview of a declared tool's call. Key order: tool, program, command, cwd, env, input. */
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
  /**
   * The names of the variables the manifest's `env` sets, sorted (their values are secrets: never
   * shown; a rule pins them by digest).
   */
  readonly env: readonly string[];
  /** The validated input. */
  readonly input: unknown;
}

/**
 * Builds the preview of a declared tool's call, keys in the pinned order.
 *
 * @param spec The tool's name, argv, working directory and manifest `env`.
 * @param program The resolved program (absolute path).
 * @param input The validated input.
 * @returns The preview object.
 * @example The key order is fixed
 * ```ts
 * import { toolPreview } from "./preview.ts";
 * const spec = { name: "echo", command: ["cat"], cwd: "/w", env: { B: "2", A: "1" } };
 * const preview = toolPreview(spec, "/usr/bin/cat", { a: 1 });
 * console.assert(JSON.stringify(preview) === '{"tool":"echo","program":"/usr/bin/cat","command":["cat"],"cwd":"/w","env":["A","B"],"input":{"a":1}}');
 * ```
 */
export function toolPreview(
  spec: {
    readonly name: string;
    readonly command: readonly string[];
    readonly cwd: string;
    readonly env: Readonly<Record<string, string>>;
  },
  program: string,
  input: unknown,
): ToolPreview {
  const env = Object.keys(spec.env).sort();
  return { tool: spec.name, program, command: [...spec.command], cwd: spec.cwd, env, input };
}
