/**
 * The manifest seam: discovering `.basis/tools.json` files, parsing JSON/JSONC with positions,
 * checking every rule of schema 1, `${VAR}` expansion, path resolution and layering into a roster.
 *
 * @module
 */

export * from "./types.ts";
export * from "./load.ts";
export * from "./parse.ts";
export type { ManifestProblem } from "../errors.ts";
