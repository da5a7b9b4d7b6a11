/**
 * Remembered rules: allow or deny a tool's calls without asking, by tool, by a glob over the
 * preview's compact JSON, and by scope (one workspace root, or global). Stored only in the user's
 * config directory (`<configDir>/rules.json`), never in a workspace.
 *
 * - {@linkcode matchPattern}: the glob (`*` any run, `?` one character, the rest literal).
 * - {@linkcode decideByRules}: which rule answers a call (pattern over bare, deny over allow,
 *   workspace over global, then the smaller id).
 * - {@linkcode loadRules}, {@linkcode addRule}, {@linkcode removeRule}: the file, read without a
 *   lock, written under one, atomically.
 * - {@linkcode checkRules}: each rule's `match` / `not_match` examples.
 *
 * @example Load, then decide one call
 * ```ts ignore
 * import { configDir } from "../../paths.ts";
 * import { decideByRules, loadRules } from "./mod.ts";
 * const { rules } = await loadRules(configDir());
 * const previewText = '{"tool":"echo","command":["cat"],"cwd":"/w","input":{}}';
 * const found = decideByRules(rules, { tool: "echo", previewText, root: "/w" });
 * console.log(found?.decision ?? "ask");
 * ```
 *
 * @module
 */

export * from "./check.ts";
export * from "./decide.ts";
export * from "./errors.ts";
export * from "./id.ts";
export * from "./pattern.ts";
export * from "./store.ts";
export type * from "./types.ts";
export * from "./validate.ts";
