/**
 * Planning one call's sandbox, before it is approved: which grants it has (the preview shows
 * them), whether the policy allows them, and how the runner will confine it — or why it will run
 * unconfined, or may not run at all; and what confining calls needs of Deno's permissions (for
 * `basis-tools permissions`).
 *
 * @module
 */

import { type Phrase, phrase } from "../locale/messages.ts";
import { isWorkspaceRoot } from "../manifest/load.ts";
import {
  cacheDir,
  canonicalPath,
  configDir,
  type EnvLookup,
  isAbsolutePath,
  parentPath,
  readEnv,
  resolvePath,
  stateDir,
} from "../paths.ts";
import { attempt, exists } from "../quietly.ts";
import { bwrapArgs } from "./_bwrap.ts";
import { callLayout, type TrustedPath } from "./_layout.ts";
import { expandList, hostSockets, isInside, present, unique } from "./_paths.ts";
import { type BwrapFound, findBwrap, forgetProbe, namedBwrap, probe } from "./_probe.ts";
import { SANDBOX_EXEC, seatbeltProfile } from "./_seatbelt.ts";
import {
  type GrantLists,
  type PreviewSandbox,
  type SandboxGrants,
  type SandboxOptions,
  type SandboxPlan,
  type SandboxPolicy,
  UNCONFINED,
} from "./types.ts";
import { DEFAULT_POLICY, SANDBOX_CONFIG_FILE } from "./policy.ts";
import type { SandboxWrap } from "../run/types.ts";

/**
 * Who is calling: a declared tool with what it declares (the manifest's `sandbox`, paths absolute
 * or `~…`), a spawn command, or a subagent.
 */
export type PlanCaller =
  | { readonly kind: "tool"; readonly grants: SandboxGrants }
  | { readonly kind: "spawn" }
  | { readonly kind: "agent" };

/**
 * The call to plan: who is calling; the workspace root (absolute: writable when it is a real
 * workspace, holding `.basis/tools.json`, and neither `/` nor the home directory nor above it);
 * the working directory (absolute); the program that will run (absolute, as resolved for
 * approval).
 */
export type PlanRequest = { readonly caller: PlanCaller } & Readonly<Record<Place, string>>;
type Place = "root" | "cwd" | "program";

/** Options of {@linkcode planSandbox}: the tool's sandbox options, and the operating system. */
export type PlanOptions = SandboxOptions & {
  /** The operating system. @default Deno.build.os */
  readonly os?: typeof Deno.build.os;
};

/**
 * Plans the sandbox of one call under the user's policy. Whenever the policy is not `off` (so that
 * a call refused on one machine is refused on every machine), declared grants are resolved through
 * links and checked against the policy's `grantable`, and the call is laid out (`_layout.ts`): a
 * grant into basis-tools' own directories, or a working directory the sandbox covers, refuses it.
 * The workspace root is writable only when it is a real workspace and neither `/` nor the home
 * directory nor above it. A confined plan lists the paths to make, which
 * {@linkcode prepareSandbox} creates once the call is approved.
 *
 * @param request Who calls, where, and which program.
 * @param options The policy, where variables are read, basis-tools' own directories.
 * @returns The plan: confined (with the preview's grants and the wrapper), unconfined (with why,
 *   under `auto`), unavailable (under `required`), or refused (a grant the policy does not allow,
 *   one into basis-tools' own directories, a covered working directory).
 * @throws Never.
 * @example A declared tool asking for the network
 * ```ts ignore
 * import { loadSandboxPolicy } from "./policy.ts";
 * import { planSandbox } from "./plan.ts";
 * const policy = await loadSandboxPolicy("/home/me/.config/basis");
 * const plan = await planSandbox({
 *   caller: { kind: "tool", grants: { network: true, write: [], read: [] } },
 *   root: "/w", cwd: "/w", program: "/usr/bin/curl",
 * }, { policy });
 * console.log(plan.kind); // "confined" where bwrap works
 * ```
 */
export async function planSandbox(
  request: PlanRequest,
  options: PlanOptions = {},
): Promise<SandboxPlan> {
  const policy = options.policy ?? { file: SANDBOX_CONFIG_FILE, ...DEFAULT_POLICY };
  const { caller } = request;
  if (policy.mode === "off" || (caller.kind === "agent" && !policy.spawn.agent)) {
    return { kind: "unconfined", note: undefined };
  }
  const env = options.env ?? readEnv;
  const home = env("HOME");
  const asked = caller.kind === "tool" ? caller.grants : policy.spawn;
  const write = expandList(asked.write, home);
  const read = expandList(asked.read, home);
  if (write === undefined || read === undefined) {
    const raw = { network: asked.network, write: [...asked.write], read: [...asked.read] };
    return { kind: "refused", reason: phrase("sandbox.no_home"), asked: raw };
  }
  const preview = { network: asked.network, write: unique(write), read: unique(read) };
  const root = workspaceWrite(request.root, home);
  const refusal = caller.kind === "tool" ? refusedGrant(preview, policy, root, home) : undefined;
  if (refusal !== undefined) return { kind: "refused", reason: refusal, asked: preview };
  const os = options.os ?? Deno.build.os;
  const named = namedBwrap(policy, home);
  const bwrap = os === "linux" ? findBwrap(env("PATH"), named) : undefined;
  // One listing of each directory for the hidden paths and the sockets alike.
  const listings = new Map();
  const hidden = expandList(policy.hidden, home, resolvePath) ?? [];
  const layout = callLayout({
    write: unique([...root, ...(expandList(policy.write, home) ?? []), ...preview.write]),
    read: preview.read,
    hidden: present(hidden, listings).map(canonicalPath),
    sockets: present(hostSockets(env), listings).map(canonicalPath),
    trusted: trustedPaths(policy, options, env, bwrap),
    program: canonicalPath(request.program),
    cwd: canonicalPath(request.cwd),
    policyFile: policy.file,
  });
  if ("refusal" in layout) return { kind: "refused", reason: layout.refusal, asked: preview };
  const network = preview.network || policy.network;
  const paths = (...kinds: string[]) =>
    layout.mounts.filter((mount) => kinds.includes(mount.kind)).map((mount) => mount.path);
  const confined = (wrap: SandboxWrap): SandboxPlan => ({
    kind: "confined",
    preview,
    wrap,
    create: layout.create,
    bound: paths("read", "write", "keep"),
  });
  let why: Phrase | undefined;
  if (os === "darwin" && exists(SANDBOX_EXEC)) {
    const profile = seatbeltProfile({
      network,
      write: paths("write"),
      read: preview.read,
      hidden: paths("hide"),
      protect: layout.trusted,
    });
    return confined({ kind: "sandbox-exec", program: SANDBOX_EXEC, args: ["-p", profile, "--"] });
  } else if (os !== "linux") why = phrase("sandbox.unsupported", { os });
  else if (bwrap === undefined) {
    why = named === undefined
      ? phrase("sandbox.bwrap_missing")
      : phrase("sandbox.bwrap_not_there", {
        path: JSON.stringify(named),
        file: JSON.stringify(policy.file),
      });
  } else if ("untrusted" in bwrap) {
    why = phrase("sandbox.bwrap_untrusted", { path: JSON.stringify(bwrap.untrusted) });
  } else if ((why = await probe(bwrap.path, options.cacheDir)) === undefined) {
    const args = bwrapArgs(layout.mounts, network, canonicalPath(request.cwd));
    return confined({ kind: "bwrap", program: bwrap.path, args });
  }
  if (policy.mode !== "required") return { kind: "unconfined", note: why };
  return {
    kind: "unavailable",
    reason: phrase("sandbox.required", { reason: why, file: policy.file }),
  };
}

/**
 * The workspace root as a writable path: only a real workspace (it holds `.basis/tools.json`),
 * and never `/`, the home directory or a directory above it (a dotfiles repository is the home).
 */
function workspaceWrite(root: string, home: string | undefined): string[] {
  const path = canonicalPath(root);
  const homeInside = () =>
    home !== undefined && isAbsolutePath(home) && isInside(canonicalPath(home), path);
  return path === "/" || !isWorkspaceRoot(path) || homeInside() ? [] : [path];
}

/**
 * basis-tools' own paths: the config directory (the policy's), the cache and state directories,
 * the audit trail when it is kept elsewhere, and the bwrap every call runs through. A directory
 * that cannot be named (no home) is one basis-tools cannot use either.
 */
function trustedPaths(
  policy: SandboxPolicy,
  options: SandboxOptions,
  env: EnvLookup,
  bwrap: BwrapFound,
): TrustedPath[] {
  // As given, not resolved: the layout looks for the links on the way.
  const named = (given: string | undefined, find: () => string) =>
    attempt(() => resolvePath(given ?? find()));
  const config = isAbsolutePath(policy.file) ? parentPath(policy.file) : undefined;
  const paths: [string | undefined, TrustedPath["kind"]][] = [
    [named(config, () => configDir(undefined, env)), "hidden"],
    [named(options.cacheDir, () => cacheDir(env)), "directory"],
    [named(options.stateDir, () => stateDir(env)), "directory"],
    [options.auditLog, "file"],
    [bwrap !== undefined && "path" in bwrap ? bwrap.path : undefined, "file"],
  ];
  return paths.flatMap(([path, kind]) => path === undefined ? [] : [{ path, kind }]);
}

/**
 * Creates the writable paths of a confined plan that do not exist yet (as directories of the
 * user's own, mode 0700), and basis-tools' own directories a writable path holds, once the call
 * is approved: bwrap can only bind what is there. Each is made where the plan resolved it.
 *
 * @param plan The plan.
 * @returns `undefined` when ready, else why the call cannot start (what `Deno.mkdir` threw, or a
 *   link put on the way since the plan).
 */
export async function prepareSandbox(plan: SandboxPlan): Promise<Phrase | undefined> {
  if (plan.kind !== "confined") return undefined;
  try {
    const moved = (path: string) => canonicalPath(path) !== path;
    for (const path of plan.create) {
      await Deno.mkdir(path, { recursive: true, mode: 0o700 });
      // A link put on the way since the plan (by another call) would have moved it.
      if (moved(path)) throw new Error(`"${path}" was made through a symbolic link`);
    }
    // The same for what is bound: a mount follows links, so a grant another call turned into a
    // link since the preview would give this one a place the preview does not show.
    for (const path of plan.bound) {
      if (moved(path)) throw new Error(`"${path}" has become a symbolic link since the preview`);
    }
    return undefined;
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return phrase("start.sandbox_failed", { detail: detail.split("\n")[0] ?? detail });
  }
}

/**
 * What a preview shows of a plan: the grants of a confined call, `"unconfined"` for a call that
 * runs without a sandbox, the grants asked for when refused; `undefined` when nothing can run.
 *
 * @param plan The call's plan.
 * @returns The preview's `sandbox` value.
 */
export function previewSandbox(plan: SandboxPlan): PreviewSandbox | undefined {
  return plan.kind === "confined"
    ? plan.preview
    : plan.kind === "refused"
    ? plan.asked
    : plan.kind === "unconfined"
    ? UNCONFINED
    : undefined;
}

/**
 * Whether a spawn call's preview carries its grants: only when it runs confined with grants beyond
 * the default (the policy's `spawn` section), so that a spawn preview stays four keys otherwise.
 *
 * @param plan The call's plan.
 * @returns The grants to show, or `undefined`.
 */
export function spawnPreviewGrants(plan: SandboxPlan): SandboxGrants | undefined {
  if (plan.kind !== "confined") return undefined;
  const { network, write, read } = plan.preview;
  return network || write.length > 0 || read.length > 0 ? plan.preview : undefined;
}

/**
 * The first grant the policy does not allow, as a phrase naming it (paths resolved; inside the
 * workspace only when it is writable).
 */
function refusedGrant(
  grants: SandboxGrants,
  policy: SandboxPolicy,
  root: readonly string[],
  home: string | undefined,
): Phrase | undefined {
  const said = (grant: string) =>
    phrase("sandbox.grant_refused", { grant, file: JSON.stringify(policy.file) });
  if (grants.network && !policy.grantable.network) return said("network");
  // The roots a grant must be inside, expanded only when there is a grant to check.
  for (const [kind, roots] of [["write", root], ["read", []]] as const) {
    if (grants[kind].length === 0) continue;
    const bases = [...roots, ...(expandList(policy.grantable[kind], home) ?? [])];
    const outside = grants[kind].find((path) => !bases.some((base) => isInside(path, base)));
    if (outside !== undefined) return said(`${kind} ${JSON.stringify(outside)}`);
  }
  return undefined;
}

/**
 * After a confined call that bwrap could not set up: forget that bwrap worked, so that the next
 * call asks again (and, under `auto`, runs unconfined if it no longer works).
 *
 * @param plan The call's plan.
 * @param options The tool's sandbox options.
 */
export function sandboxFailed(plan: SandboxPlan, options: SandboxOptions | undefined): void {
  if (plan.kind === "confined" && plan.wrap.kind === "bwrap") {
    forgetProbe(plan.wrap.program, options?.cacheDir);
  }
}

/** What confining calls needs of Deno's permissions (see `basis-tools permissions`). */
export interface SandboxNeeds extends GrantLists {
  /** Whether calls will be confined here: the policy is not `off` and the sandbox is found. */
  readonly sandboxed: boolean;
  /**
   * The wrapper program to grant with `--allow-run`: the bwrap calls run through (absolute; the
   * bare name when none is found or it is not trusted), or `sandbox-exec`. `read`: the paths
   * looked at to set a call up (the hidden ones, the host sockets, every granted one); `write`:
   * the granted writable paths, created when missing.
   */
  readonly program: string | undefined;
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
