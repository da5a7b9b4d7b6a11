/**
 * Remembered rules: allow, deny or ask about a tool's calls without a person deciding each time,
 * by conditions on the fields of the call's preview (the resolved program, each argument, the cwd,
 * input values by JSON pointer; for spawn the body, target, mode and cwd), scoped to one canonical
 * workspace root or global. Stored only in the user's config directory (`<configDir>/rules.json`),
 * never in a workspace.
 *
 * - {@linkcode matchGlob}: the glob of one field (`*` any run within it, `?` one character, `\`
 *   escapes).
 * - {@linkcode decideByRules}: which rule answers a call (deny, then ask, then allow).
 * - {@linkcode pinConditions}: the conditions pinning exactly what a preview shows.
 * - {@linkcode loadRules}, {@linkcode addRule}, {@linkcode removeRule}: the file, read without a
 *   lock, written under one, atomically.
 * - {@linkcode checkRules}: each rule's `match` / `not_match` example previews.
 *
 * @example Load, then decide one call
 * ```ts ignore
 * import { configDir } from "../../paths.ts";
 * import { decideByRules, loadRules } from "./mod.ts";
 * const { rules } = await loadRules(configDir());
 * const preview = { tool: "echo", program: "/usr/bin/cat", command: ["cat"], cwd: "/w", input: {} };
 * const found = await decideByRules(rules, { tool: "echo", kind: "tool", preview, root: "/w", fromWorkspace: true });
 * console.log(found?.decision ?? "ask");
 * ```
 *
 * @module
 */

export * from "./check.ts";
export * from "./decide.ts";
export * from "./errors.ts";
export * from "./glob.ts";
export * from "./id.ts";
export * from "./pin.ts";
export * from "./store.ts";
export type * from "./types.ts";
export { formatRulesDocument, RULES_VERSION, validateRulesDocument } from "./validate.ts";
