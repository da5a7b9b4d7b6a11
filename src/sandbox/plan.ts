/**
 * Planning one call's sandbox, before it is approved: which grants it has (the preview shows
 * them), whether the policy allows them, and how the runner will confine it — or why it will run
 * unconfined, or may not run at all.
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
import { exists } from "../quietly.ts";
import { bwrapArgs } from "./_bwrap.ts";
import { callLayout, type TrustedPath } from "./_layout.ts";
import { type BwrapFound, findBwrap, forgetProbe, namedBwrap, probe } from "./_probe.ts";
import { expandList, hostSockets, isInside, present, unique } from "./_paths.ts";
import { SANDBOX_EXEC, seatbeltArgs } from "./_seatbelt.ts";
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

/** Who is calling: a declared tool with what it declares, a spawn command, or a subagent. */
export type PlanCaller =
  | {
    readonly kind: "tool";
    /** The manifest's `sandbox` (paths absolute or `~…`). */
    readonly grants: GrantLists & { readonly network: boolean };
  }
  | { readonly kind: "spawn" }
  | { readonly kind: "agent" };

/** The call to plan. */
export interface PlanRequest {
  /** Who is calling. */
  readonly caller: PlanCaller;
  /**
   * The workspace root (absolute): writable when it is a real workspace (it holds
   * `.basis/tools.json`) and neither `/` nor the home directory nor above it.
   */
  readonly root: string;
  /** The working directory (absolute). */
  readonly cwd: string;
  /** The program that will run (absolute, as resolved for approval). */
  readonly program: string;
}

/** Options of {@linkcode planSandbox}. */
export interface PlanOptions {
  /** How `HOME` (for `~`) and `PATH` (to find bwrap) are read. @default readEnv */
  env?: EnvLookup;
  /** The operating system. @default Deno.build.os */
  os?: typeof Deno.build.os;
  /**
   * The cache directory: never writable from a call; where the answer "bwrap works here" is kept
   * between processes.
   * @default {cacheDir(env) for the first, asked once per process for the second}
   */
  cacheDir?: string;
  /** The state directory (audit trail, spill files): never writable from a call. @default stateDir(env) */
  stateDir?: string;
  /** The audit trail when it is kept elsewhere: never writable from a call. @default {none} */
  auditLog?: string;
}

/**
 * Plans the sandbox of one call under the user's policy. Whenever the policy is not `off` (so that
 * a call refused on one machine is refused on every machine), declared grants are resolved through
 * links and checked against the policy's `grantable`, and the call is laid out (`_layout.ts`): a
 * grant into basis-tools' own directories, or a working directory the sandbox covers, refuses it.
 * The workspace root is writable only when it is a real workspace and neither `/` nor the home
 * directory nor above it. A confined plan lists the paths to make, which
 * {@linkcode prepareSandbox} creates once the call is approved.
 *
 * @param policy The user's policy (`loadSandboxPolicy()`).
 * @param request Who calls, where, and which program.
 * @param options Where variables are read, the operating system.
 * @returns The plan: confined (with the preview's grants and the wrapper), unconfined (with why,
 *   under `auto`), unavailable (under `required`), or refused (a grant the policy does not allow,
 *   one into basis-tools' own directories, a covered working directory).
 * @throws Never.
 * @example A declared tool asking for the network
 * ```ts ignore
 * import { loadSandboxPolicy, planSandbox } from "./mod.ts";
 * const policy = await loadSandboxPolicy("/home/me/.config/basis");
 * const plan = await planSandbox(policy, {
 *   caller: { kind: "tool", grants: { network: true, write: [], read: [] } },
 *   root: "/w", cwd: "/w", program: "/usr/bin/curl",
 * });
 * console.log(plan.kind); // "confined" where bwrap works
 * ```
 */
export async function planSandbox(
  policy: SandboxPolicy,
  request: PlanRequest,
  options: PlanOptions = {},
): Promise<SandboxPlan> {
  const { caller } = request;
  if (policy.mode === "off" || (caller.kind === "agent" && !policy.spawn.agent)) {
    return { kind: "unconfined", note: undefined };
  }
  const env = options.env ?? readEnv;
  const home = env("HOME");
  const asked = caller.kind === "tool" ? caller.grants : policy.spawn;
  const expanded = expandGrants(asked, home);
  if ("problem" in expanded) {
    const raw = { network: asked.network, write: [...asked.write], read: [...asked.read] };
    return { kind: "refused", reason: expanded.problem, asked: raw };
  }
  const preview = expanded.grants;
  const root = workspaceWrite(request.root, home);
  if (caller.kind === "tool") {
    const refusal = refusedGrant(preview, policy, root, home);
    if (refusal !== undefined) return { kind: "refused", reason: refusal, asked: preview };
  }
  const os = options.os ?? Deno.build.os;
  const named = namedBwrap(policy, home);
  const bwrap = os === "linux" ? findBwrap(env("PATH"), named) : undefined;
  const layout = callLayout({
    write: unique([...(root ?? []), ...(expandList(policy.write, home) ?? []), ...preview.write]),
    read: preview.read,
    hidden: present(expandList(policy.hidden, home, resolvePath) ?? []).map(canonicalPath),
    sockets: present(hostSockets(env)).map(canonicalPath),
    trusted: trustedPaths(policy, options, env, bwrap),
    program: canonicalPath(request.program),
    cwd: canonicalPath(request.cwd),
    policyFile: policy.file,
  });
  if ("refusal" in layout) return { kind: "refused", reason: layout.refusal, asked: preview };
  const network = preview.network || policy.network;
  const { create } = layout;
  const bound = layout.mounts.flatMap((mount) =>
    mount.kind === "read" || mount.kind === "write" || mount.kind === "keep" ? [mount.path] : []
  );
  const fallback = (reason: Phrase): SandboxPlan =>
    policy.mode === "required"
      ? { kind: "unavailable", reason: phrase("sandbox.required", { reason, file: policy.file }) }
      : { kind: "unconfined", note: reason };
  if (os === "linux") {
    if (bwrap === undefined) {
      return fallback(
        named === undefined ? phrase("sandbox.bwrap_missing") : phrase("sandbox.bwrap_not_there", {
          path: JSON.stringify(named),
          file: JSON.stringify(policy.file),
        }),
      );
    }
    if ("untrusted" in bwrap) {
      return fallback(phrase("sandbox.bwrap_untrusted", { path: JSON.stringify(bwrap.untrusted) }));
    }
    const broken = await probe(bwrap.path, options.cacheDir);
    if (broken !== undefined) return fallback(broken);
    const args = bwrapArgs(layout.mounts, network, canonicalPath(request.cwd));
    return {
      kind: "confined",
      preview,
      wrap: { kind: "bwrap", program: bwrap.path, args },
      create,
      bound,
    };
  }
  if (os === "darwin") {
    if (!exists(SANDBOX_EXEC)) return fallback(phrase("sandbox.unsupported", { os }));
    const hidden = layout.mounts.filter((mount) => mount.kind === "hide").map((at) => at.path);
    const write = layout.mounts.filter((mount) => mount.kind === "write").map((at) => at.path);
    const args = seatbeltArgs({
      network,
      write,
      read: preview.read,
      hidden,
      protect: layout.trusted,
    });
    const wrap = { kind: "sandbox-exec", program: SANDBOX_EXEC, args } as const;
    return { kind: "confined", preview, wrap, create, bound };
  }
  return fallback(phrase("sandbox.unsupported", { os }));
}

/**
 * The workspace root as a writable path: only a real workspace (it holds `.basis/tools.json`),
 * and never `/`, the home directory or a directory above it (a dotfiles repository is the home).
 */
function workspaceWrite(root: string, home: string | undefined): [string] | undefined {
  const path = canonicalPath(root);
  if (path === "/" || !isWorkspaceRoot(path)) return undefined;
  if (home !== undefined && isAbsolutePath(home) && isInside(canonicalPath(home), path)) {
    return undefined;
  }
  return [path];
}

/**
 * basis-tools' own paths: the config directory (the policy's), the cache and state directories,
 * the audit trail when it is kept elsewhere, and the bwrap every call runs through. A directory
 * that cannot be named (no home) is one basis-tools cannot use either.
 */
function trustedPaths(
  policy: SandboxPolicy,
  options: PlanOptions,
  env: EnvLookup,
  bwrap: BwrapFound,
): TrustedPath[] {
  // As given, not resolved: the layout looks for the links on the way.
  const named = (given: string | undefined, find: () => string) => {
    try {
      return resolvePath(given ?? find());
    } catch {
      return undefined;
    }
  };
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
 * @throws What `Deno.mkdir` throws.
 */
export async function prepareSandbox(plan: SandboxPlan): Promise<void> {
  if (plan.kind !== "confined") return;
  for (const path of plan.create) {
    await Deno.mkdir(path, { recursive: true, mode: 0o700 });
    // A link put on the way since the plan (by another call) would have moved it.
    if (canonicalPath(path) !== path) {
      throw new Error(`"${path}" was made through a symbolic link`);
    }
  }
  // The same for what is bound: a mount follows links, so a grant another call turned into a link
  // since the preview would give this one a place the preview does not show.
  for (const path of plan.bound) {
    if (canonicalPath(path) !== path) {
      throw new Error(`"${path}" has become a symbolic link since the preview`);
    }
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
  switch (plan.kind) {
    case "confined":
      return plan.preview;
    case "unconfined":
      return UNCONFINED;
    case "refused":
      return plan.asked;
    case "unavailable":
      return undefined;
  }
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

/** The declared grants with `~` expanded and links resolved, or why `~` cannot be. */
function expandGrants(
  asked: GrantLists & { readonly network: boolean },
  home: string | undefined,
): { grants: SandboxGrants } | { problem: Phrase } {
  const write = expandList(asked.write, home);
  const read = expandList(asked.read, home);
  if (write === undefined || read === undefined) return { problem: phrase("sandbox.no_home") };
  return { grants: { network: asked.network, write: unique(write), read: unique(read) } };
}

/**
 * The first grant the policy does not allow, as a phrase naming it (paths resolved; inside the
 * workspace only when it is writable).
 */
function refusedGrant(
  grants: SandboxGrants,
  policy: SandboxPolicy,
  root: [string] | undefined,
  home: string | undefined,
): Phrase | undefined {
  const said = (grant: string) =>
    phrase("sandbox.grant_refused", { grant, file: JSON.stringify(policy.file) });
  if (grants.network && !policy.grantable.network) return said("network");
  const writable = expandList(policy.grantable.write, home) ?? [];
  for (const path of grants.write) {
    if (
      root?.some((base) => isInside(path, base)) || writable.some((base) => isInside(path, base))
    ) {
      continue;
    }
    return said(`write ${JSON.stringify(path)}`);
  }
  const readable = expandList(policy.grantable.read, home) ?? [];
  for (const path of grants.read) {
    if (readable.some((base) => isInside(path, base))) continue;
    return said(`read ${JSON.stringify(path)}`);
  }
  return undefined;
}

/**
 * The policy of {@linkcode SandboxOptions} when none is given: the built-in defaults.
 *
 * @param options The options.
 * @returns The policy to plan with.
 */
export function policyOf(options: SandboxOptions | undefined): SandboxPolicy {
  return options?.policy ?? { file: SANDBOX_CONFIG_FILE, ...DEFAULT_POLICY };
}

/**
 * The options of {@linkcode planSandbox} that a tool's {@linkcode SandboxOptions} give.
 *
 * @param options The tool's sandbox options.
 * @returns Where variables are read and the answer about bwrap is kept.
 */
export function planOptionsOf(options: SandboxOptions | undefined): PlanOptions {
  return {
    ...(options?.env === undefined ? {} : { env: options.env }),
    ...(options?.cacheDir === undefined ? {} : { cacheDir: options.cacheDir }),
    ...(options?.stateDir === undefined ? {} : { stateDir: options.stateDir }),
    ...(options?.auditLog === undefined ? {} : { auditLog: options.auditLog }),
  };
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
