/**
 * Path rules of the manifest: where a tool runs and which program it starts.
 *
 * @module
 */

import { isAbsolutePath, resolvePath } from "../paths.ts";

/**
 * Resolves the paths of one manifest against its workspace root, remembering answers (tools of a
 * manifest tend to share their `cwd` and program).
 */
export class PathResolver {
  readonly #root: string;
  readonly #cwds = new Map<string, string>();
  readonly #programs = new Map<string, string>();

  /**
   * @param root The workspace root (absolute).
   */
  constructor(root: string) {
    this.#root = resolvePath(root);
  }

  /** The workspace root, absolute and normalised. */
  get root(): string {
    return this.#root;
  }

  /**
   * A tool's working directory: the root when absent or empty, a relative path against the root,
   * an absolute path as given; `.` and `..` normalised.
   *
   * @param cwd The expanded `cwd` field, when present.
   * @returns The absolute directory.
   */
  cwd(cwd: string | undefined): string {
    if (cwd === undefined || cwd === "") return this.#root;
    let out = this.#cwds.get(cwd);
    if (out === undefined) {
      out = resolvePath(this.#root, cwd);
      this.#cwds.set(cwd, out);
    }
    return out;
  }

  /**
   * The program to start: an absolute path as is, a bare name (no separator) kept bare for a
   * `PATH` lookup at call time, a relative path with a separator resolved against the root.
   *
   * @param program The expanded `command[0]`.
   * @returns The program as the runner should see it.
   */
  program(program: string): string {
    let out = this.#programs.get(program);
    if (out === undefined) {
      out = resolveProgram(this.#root, program);
      this.#programs.set(program, out);
    }
    return out;
  }
}

function resolveProgram(root: string, program: string): string {
  if (isAbsolutePath(program)) return program;
  if (!program.includes("/") && !(Deno.build.os === "windows" && program.includes("\\"))) {
    return program;
  }
  return resolvePath(root, program);
}

/**
 * An absolute, normalised form of `path`.
 *
 * @param base The directory relative paths are against.
 * @param path The path.
 * @returns The absolute path.
 */
export function absolute(base: string, path: string): string {
  return resolvePath(base, path);
}
