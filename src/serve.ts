/**
 * Serving a workspace's tools over MCP (stdio) in one call, as `basis-tools mcp` does: the roster,
 * `spawn` and the user's sandbox policy are loaded from the workspace and the config directory and
 * loaded again when one of their files changes; every call goes through the tool contract. The MCP
 * SDK is imported only when the server starts.
 *
 * @module
 */

import type { ApprovalPolicy } from "./approval/policy.ts";
import type { AuditSink } from "./contract/types.ts";
import type { Locale } from "./locale/locale.ts";
import { cacheDir, configDir, resolvePath } from "./paths.ts";
import type { SandboxPolicy } from "./sandbox/types.ts";

/** Options of {@linkcode serveWorkspace}. */
export interface ServeOptions {
  /**
   * The workspace root.
   *
   * @default {the nearest ancestor of the current directory holding `.basis/tools.json`, else it}
   */
  workspace?: string;
  /**
   * The user's config directory: global tools, `spawn.json`, `sandbox.json`, remembered rules.
   *
   * @default {configDir()}
   */
  configDir?: string;
  /** Where compiled validators and file digests are cached. @default {cacheDir()} */
  cacheDir?: string;
  /**
   * Who decides a call no remembered rule answers: `prompt` asks through the client when it can,
   * else denies.
   *
   * @default {"prompt"}
   */
  policy?: ApprovalPolicy;
  /** The language of what the server and its tools say. @default {"en-US"} */
  locale?: Locale;
  /** Where decisions and runs are recorded. @default {nowhere} */
  audit?: AuditSink;
  /** Ends the server as if the client had gone away. */
  signal?: AbortSignal;
}

/**
 * Serves a workspace's tools over MCP's stdio transport until the client closes stdin (or `signal`
 * aborts).
 *
 * @param options The workspace, directories, approval policy, locale, audit sink and signal.
 * @returns Resolves once the client is gone and every call has ended, telling whether calls were
 *   still running then (they were stopped).
 * @throws {ManifestError} When a manifest is invalid at start.
 * @example Serve the current workspace
 * ```ts ignore
 * import { serveWorkspace } from "@basis/tools";
 * await serveWorkspace({ policy: "prompt" });
 * ```
 */
export async function serveWorkspace(
  options: ServeOptions = {},
): Promise<{ interrupted: boolean }> {
  const [{ serveRoster }, { contextOf }, { findWorkspaceRoot }] = await Promise.all([
    import("./mcp/roster_tools.ts"),
    import("./contract/context.ts"),
    import("./manifest/load.ts"),
  ]);
  const root = options.workspace === undefined
    ? await findWorkspaceRoot(Deno.cwd())
    : resolvePath(options.workspace);
  const cache = options.cacheDir ?? cacheDir();
  const { locale = "en-US", audit } = options;
  return await serveRoster({
    root,
    configDir: resolvePath(options.configDir ?? configDir()),
    context: contextOf({ locale, root, cacheDir: cache, ...(audit && { audit }) }),
    sandbox: (policy: SandboxPolicy) => ({ policy, cacheDir: cache }),
    policy: options.policy,
    signal: options.signal,
  });
}
