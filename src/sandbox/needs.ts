/**
 * What confining the calls needs of Deno's permissions, for `basis-tools permissions`.
 *
 * @module
 */

import { readEnv } from "../paths.ts";
import { SANDBOX_EXEC } from "./_seatbelt.ts";
import { findBwrap, namedBwrap } from "./_probe.ts";
import { expandList, hostSockets, unique } from "./_paths.ts";
import type { PlanOptions } from "./plan.ts";
import type { GrantLists, SandboxPolicy } from "./types.ts";
import { exists } from "../quietly.ts";

/** What confining calls needs of Deno's permissions (see `basis-tools permissions`). */
export interface SandboxNeeds {
  /** Whether calls will be confined here: the policy is not `off` and the sandbox is found. */
  readonly sandboxed: boolean;
  /**
   * The wrapper program to grant with `--allow-run`: the bwrap calls run through (absolute; the
   * bare name when none is found or it is not trusted), or `sandbox-exec`.
   */
  readonly program: string | undefined;
  /** Paths looked at to set a call up: the hidden ones, the host sockets, every granted one. */
  readonly read: readonly string[];
  /** Granted writable paths, created when missing. */
  readonly write: readonly string[];
}

/**
 * What confining the calls of these tools needs of Deno's permissions: bwrap on Linux (or
 * `sandbox-exec` on macOS), reading the hidden and granted paths (to cover or bind them), and
 * writing the granted writable ones (to create them when missing).
 *
 * @param policy The user's policy.
 * @param grants Every declared tool's `sandbox`.
 * @param options Where variables are read, the operating system.
 * @returns What to grant.
 * @throws Never.
 */
export function sandboxNeeds(
  policy: SandboxPolicy,
  grants: readonly GrantLists[],
  options: PlanOptions = {},
): SandboxNeeds {
  const os = options.os ?? Deno.build.os;
  if (policy.mode === "off" || (os !== "linux" && os !== "darwin")) {
    return { sandboxed: false, program: undefined, read: [], write: [] };
  }
  const env = options.env ?? readEnv;
  const home = env("HOME");
  const expand = (paths: readonly string[]) => expandList(paths, home) ?? [];
  const write = unique([
    ...expand(policy.write),
    ...expand(policy.spawn.write),
    ...grants.flatMap((asked) => expand(asked.write)),
  ]);
  const read: string[] = unique([
    ...expand(policy.hidden),
    ...hostSockets(env),
    ...expand(policy.spawn.read),
    ...grants.flatMap((asked) => expand(asked.read)),
  ]);
  if (os === "darwin") {
    return { sandboxed: exists(SANDBOX_EXEC), program: SANDBOX_EXEC, read, write };
  }
  const bwrap = findBwrap(env("PATH"), namedBwrap(policy, home));
  const found = bwrap !== undefined && "path" in bwrap;
  // /run is looked at for the links kept in a call's empty /run, and the DNS configuration for the
  // file it links to.
  read.push("/run", "/etc/resolv.conf");
  return { sandboxed: found, program: found ? bwrap.path : "bwrap", read, write };
}
