/**
 * The MCP binding: the roster served to any MCP client over stdio with the official
 * `@modelcontextprotocol/sdk`, every call through the tool contract (schema gate → preview →
 * remembered rules → approver → run). Import it only where it is used: it loads the SDK.
 *
 * @example Serve a workspace's roster
 * ```ts ignore
 * import { serveMcp } from "./mod.ts";
 * import { rosterTools } from "../contract/roster_tools.ts";
 * import { loadRoster } from "../manifest/load.ts";
 * import { loadSpawnConfig } from "../spawn/config.ts";
 * const configDir = "/home/me/.config/basis";
 * const root = "/work/app";
 * await serveMcp({
 *   configDir,
 *   root,
 *   load: async (approver) =>
 *     rosterTools(
 *       await loadRoster({ workspace: root, configDir }),
 *       await loadSpawnConfig(configDir),
 *       { declared: { approver }, spawn: { approver } },
 *     ),
 * });
 * ```
 *
 * @module
 */

export * from "./serve_mcp.ts";
export type { Approver, Tool } from "../contract/types.ts";
export type { ApprovalPolicy } from "../approval/policy.ts";
