/**
 * Every command but `mcp`, `list` and `call`, behind one import: a run loads its command with one
 * dynamic import, and the bundle gives these commands one chunk (with what they share) instead of
 * one per command and per combination of shared modules — Deno pays for each module it loads. The
 * MCP SDK stays behind `mcp`'s own import; `list` has its own, without the call pipeline, and
 * `call` its own, without the other commands.
 *
 * @module
 */

export { checkCommand } from "./check.ts";
export { completionCommand } from "./completion.ts";
export { initCommand } from "./init.ts";
export { permissionsCommand } from "./permissions.ts";
export { rulesCommand } from "./rules.ts";
export { schemaCommand } from "./schema.ts";
export { showCommand } from "./show.ts";
export { toolHelpCommand } from "./tool_help.ts";
