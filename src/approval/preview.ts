/**
 * The preview: what a person or a remembered rule sees of a call. One function builds each kind, with
 * the key order pinned (README: "Approval"). The environment is never part of a preview.
 *
 * @module
 */

/** The preview of a declared tool's call. Key order: tool, command, cwd, input. */
export interface ToolPreview {
  /** The tool's name. */
  readonly tool: string;
  /** The argv after expansion. */
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
 * @param input The validated input.
 * @returns The preview object.
 * @example The key order is fixed
 * ```ts
 * import { toolPreview } from "./preview.ts";
 * const preview = toolPreview({ name: "echo", command: ["cat"], cwd: "/w" }, { a: 1 });
 * console.assert(JSON.stringify(preview) === '{"tool":"echo","command":["cat"],"cwd":"/w","input":{"a":1}}');
 * ```
 */
export function toolPreview(
  spec: { readonly name: string; readonly command: readonly string[]; readonly cwd: string },
  input: unknown,
): ToolPreview {
  return { tool: spec.name, command: [...spec.command], cwd: spec.cwd, input };
}

/**
 * The compact JSON text of a preview: what rule patterns are matched against.
 *
 * @param preview A preview built by this module.
 * @returns Compact JSON.
 */
export function previewText(preview: ToolPreview): string {
  return JSON.stringify(preview);
}
