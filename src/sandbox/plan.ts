/**
 * Planning one call's sandbox, before it is approved: which grants it has (the preview shows
 * them), whether the policy allows them, and how the runner will confine it — or why it will run
 * unconfined, or may not run at all.
 *
 * @module
 */

import { type Phrase, phrase } from "../locale/messages.ts";
import { type EnvLookup, isAbsolutePath, parentPath, readEnv, resolvePath } from "../paths.ts";
import { bwrapArgs, isInside, mountPath } from "./_bwrap.ts";
import { findBwrap, forgetProbe, probe } from "./_probe.ts";
import { expandList, unique } from "./_paths.ts";
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
import { exists } from "../quietly.ts";

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
  /** The workspace root (absolute): always writable. */
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
   * Where the answer "bwrap works here" is kept between processes (the cache directory).
   * @default {asked once per process}
   */
  cacheDir?: string;
}

/**
 * Plans the sandbox of one call under the user's policy. Declared grants are checked against the
 * policy's `grantable` whenever the policy is not `off` (so a call refused on one machine is
 * refused on every machine); a confined plan lists the writable paths that do not exist yet, which
 * {@linkcode prepareSandbox} creates once the call is approved.
 *
 * @param policy The user's policy (`loadSandboxPolicy()`).
 * @param request Who calls, where, and which program.
 * @param options Where variables are read, the operating system.
 * @returns The plan: confined (with the preview's grants and the wrapper), unconfined (with why,
 *   under `auto`), unavailable (under `required`), or refused (a grant the policy does not allow).
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
  const root = mountPath(resolvePath(request.root));
  if (caller.kind === "tool") {
    const refusal = refusedGrant(expanded.grants, policy, root, home);
    if (refusal !== undefined) return { kind: "refused", reason: refusal, asked: expanded.grants };
  }
  const defaults = expandList(policy.write, home) ?? [];
  const hidden = expandList(policy.hidden, home) ?? [];
  const preview = expanded.grants;
  const network = preview.network || policy.network;
  const write = unique([root, ...defaults, ...preview.write]);
  const create = write.filter((path) => !exists(path));
  // The rules and the policy: no call may change what approves calls, whatever it was granted.
  const protect = isAbsolutePath(policy.file) ? [mountPath(parentPath(policy.file))] : [];
  const os = options.os ?? Deno.build.os;
  const fallback = (reason: Phrase): SandboxPlan =>
    policy.mode === "required"
      ? { kind: "unavailable", reason: phrase("sandbox.required", { reason, file: policy.file }) }
      : { kind: "unconfined", note: reason };
  if (os === "linux") {
    const bwrap = findBwrap(env("PATH"));
    if (bwrap === undefined) return fallback(phrase("sandbox.bwrap_missing"));
    const broken = await probe(bwrap, options.cacheDir);
    if (broken !== undefined) return fallback(broken);
    const args = bwrapArgs({
      network,
      write,
      read: preview.read,
      hidden,
      needed: [mountPath(request.program), mountPath(request.cwd)],
      cwd: mountPath(request.cwd),
      protect,
    });
    return { kind: "confined", preview, wrap: { kind: "bwrap", program: bwrap, args }, create };
  }
  if (os === "darwin") {
    if (!exists(SANDBOX_EXEC)) return fallback(phrase("sandbox.unsupported", { os }));
    const args = seatbeltArgs({ network, write, read: preview.read, hidden, protect });
    const wrap = { kind: "sandbox-exec", program: SANDBOX_EXEC, args } as const;
    return { kind: "confined", preview, wrap, create };
  }
  return fallback(phrase("sandbox.unsupported", { os }));
}

/**
 * Creates the writable paths of a confined plan that do not exist yet (as directories), once the
 * call is approved: bwrap can only bind what is there.
 *
 * @param plan The plan.
 * @throws What `Deno.mkdir` throws.
 */
export async function prepareSandbox(plan: SandboxPlan): Promise<void> {
  if (plan.kind !== "confined") return;
  for (const path of plan.create) await Deno.mkdir(path, { recursive: true });
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

/** The first grant the policy does not allow, as a phrase naming it. */
function refusedGrant(
  grants: SandboxGrants,
  policy: SandboxPolicy,
  root: string,
  home: string | undefined,
): Phrase | undefined {
  const said = (grant: string) =>
    phrase("sandbox.grant_refused", { grant, file: JSON.stringify(policy.file) });
  if (grants.network && !policy.grantable.network) return said("network");
  const writable = expandList(policy.grantable.write, home) ?? [];
  for (const path of grants.write) {
    if (isInside(path, root) || writable.some((base) => isInside(path, base))) continue;
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
