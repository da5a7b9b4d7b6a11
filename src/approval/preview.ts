/**
 * The preview: what a person or a remembered rule sees of a call. One function builds each kind, with
 * the key order pinned (README: "Approval"). Of the manifest's `env` a preview shows the names, and
 * the values of the public variables only.
 *
 * @module
 */

import type { PreviewSandbox } from "../sandbox/types.ts";
import type { ToolSpec } from "../manifest/types.ts";
import { parseKeepingNumbers } from "../json_text.ts";
import { attempt } from "../quietly.ts";

/** Above this size the input is taken as parsed (every number as its double). */
const EXACT_INPUT_LIMIT = 1 << 20;

/**
 * The preview of a declared tool's call. Key order: tool, program, command, cwd, env, sandbox,
 * input.
 */
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
   * The variables the manifest's `env` sets, sorted by name: a public one as `NAME=value`, a secret
   * one as its name alone (its value is never shown). A rule pins the values by digest.
   */
  readonly env: readonly string[];
  /**
   * What the call may touch beyond the default OS sandbox: its grants (`network`, and the `write`
   * and `read` paths, absolute), or `"unconfined"` when it runs without a sandbox.
   */
  readonly sandbox: PreviewSandbox;
  /** The validated input. */
  readonly input: unknown;
}

/**
 * Builds the preview of a declared tool's call, keys in the pinned order.
 *
 * @param spec The tool's name, argv, working directory, manifest `env` and its public names.
 * @param call The resolved program (absolute path) and the call's sandbox grants.
 * @param input The validated input.
 * @returns The preview object.
 * @example The key order is fixed
 * ```ts
 * import { toolPreview } from "./preview.ts";
 * const spec = { name: "echo", command: ["cat"], cwd: "/w", env: { B: "2", A: "1" }, publicEnv: ["B"] };
 * const sandbox = { network: false, write: [], read: [] };
 * const preview = toolPreview(spec, { program: "/usr/bin/cat", sandbox }, { a: 1 });
 * console.assert(JSON.stringify(preview) === '{"tool":"echo","program":"/usr/bin/cat","command":["cat"],"cwd":"/w","env":["A","B=2"],"sandbox":{"network":false,"write":[],"read":[]},"input":{"a":1}}');
 * ```
 */
export function toolPreview(
  spec: Pick<ToolSpec, "name" | "command" | "cwd" | "env" | "publicEnv">,
  call: { readonly program: string; readonly sandbox: PreviewSandbox },
  input: unknown,
): ToolPreview {
  return {
    tool: spec.name,
    program: call.program,
    command: [...spec.command],
    cwd: spec.cwd,
    env: Object.keys(spec.env).sort().map((name) =>
      spec.publicEnv?.includes(name) ? `${name}=${spec.env[name]}` : name
    ),
    sandbox: copySandbox(call.sandbox),
    input,
  };
}

/**
 * The grants with their keys in the pinned order: network, write, read.
 *
 * @param sandbox The grants (or `"unconfined"`).
 * @returns A copy.
 */
export function copySandbox(sandbox: PreviewSandbox): PreviewSandbox {
  if (typeof sandbox === "string") return sandbox;
  return { network: sandbox.network, write: [...sandbox.write], read: [...sandbox.read] };
}

/**
 * The input as the program receives it, when its stdin is known: a number written with more digits
 * than a double holds stays those digits, so what is shown and matched is what the program gets.
 *
 * @param request The preview and, when known, the program's stdin.
 * @returns The input, its numbers kept as written where the stdin says them.
 */
export function exactInput(
  request: { readonly preview: { readonly input: unknown }; readonly stdin?: Uint8Array },
): unknown {
  const { stdin } = request;
  if (stdin === undefined || stdin.length > EXACT_INPUT_LIMIT) return request.preview.input;
  return attempt(() => parseKeepingNumbers(new TextDecoder().decode(stdin)), request.preview.input);
}
