/**
 * The shapes of the OS sandbox: the user's policy, the grants a call has, and the plan for one
 * call. Nothing here runs anything.
 *
 * @module
 */

import type { Phrase } from "../locale/messages.ts";
import type { EnvLookup } from "../paths.ts";
import type { SandboxWrap } from "../run/types.ts";

/** `off` never confines; `auto` confines where it can; `required` refuses to run unconfined. */
export type SandboxMode = "off" | "auto" | "required";

/** Lists of paths: absolute, or `~` / `~/…` for the home directory. */
export interface GrantLists {
  /** Paths that may be written. */
  readonly write: readonly string[];
  /** Hidden paths that may be read. */
  readonly read: readonly string[];
}

/** The user's policy (`sandbox.json` in the config directory). */
export interface SandboxPolicy {
  /** The file it was read from (absolute; it may not exist). */
  readonly file: string;
  /** How calls are confined. */
  readonly mode: SandboxMode;
  /** Whether every confined call may reach the network. */
  readonly network: boolean;
  /** Paths every confined call may write, besides the workspace. */
  readonly write: readonly string[];
  /** Paths no call may read unless granted. */
  readonly hidden: readonly string[];
  /** What a tool's declaration may ask for: paths are the roots a granted path must be inside. */
  readonly grantable: SandboxGrants;
  /** What spawn commands get beyond the default; `agent` confines subagents too. */
  readonly spawn: SandboxGrants & { readonly agent: boolean };
  /** The bwrap to run calls through (absolute or `~…`), when not the system's. */
  readonly bwrap?: string;
}

/**
 * The grants a call has beyond the default, as the preview shows and rules pin them: absolute
 * paths (home expanded, symbolic links resolved), sorted, each once.
 */
export interface SandboxGrants extends GrantLists {
  /** Whether it may reach the network. */
  readonly network: boolean;
}

/** What a preview says of the sandbox: the grants of a confined call, or that it is not confined. */
export type PreviewSandbox = SandboxGrants | "unconfined";

/** The preview's value for a call that runs without an OS sandbox. */
export const UNCONFINED = "unconfined";

/** How one call will run. */
export type SandboxPlan =
  | {
    /** Inside the OS sandbox. */
    readonly kind: "confined";
    /** What the preview shows. */
    readonly preview: SandboxGrants;
    /** The wrapper the runner starts the program through. */
    readonly wrap: SandboxWrap;
    /** Writable paths that do not exist yet: `prepareSandbox()` creates them once approved. */
    readonly create: readonly string[];
    /**
     * The host paths bound into the sandbox, canonical when planned: `prepareSandbox()` refuses
     * the call when one has become a link since (the mount would follow it elsewhere).
     */
    readonly bound: readonly string[];
  }
  /**
   * Without one: the policy is `off`, or `auto` found no sandbox that works here; `note` says why
   * when the policy wanted one (`auto`), to say once.
   */
  | { readonly kind: "unconfined"; readonly note: Phrase | undefined }
  /**
   * The policy is `required` and no sandbox works here: nothing may run (`reason`: why, and how to
   * install one).
   */
  | { readonly kind: "unavailable"; readonly reason: Phrase }
  /**
   * The declaration asks for a grant the policy does not allow: refused before approval, with one
   * line naming the grant, and what was asked for (for the audit trail).
   */
  | { readonly kind: "refused"; readonly reason: Phrase; readonly asked: SandboxGrants };

/** How a tool confines its calls: the options of the tool builders' `sandbox`. */
export interface SandboxOptions {
  /**
   * The user's policy (`loadSandboxPolicy(configDir)`).
   *
   * @default {the built-in policy: "auto", no network, writes only the workspace}
   */
  policy?: SandboxPolicy;
  /**
   * Told why, each time a call runs unconfined although the policy asked for a sandbox
   * (`auto` where none works): the caller says so once.
   *
   * @default {nothing is said}
   */
  onUnconfined?: (reason: Phrase) => void;
  /**
   * How `HOME` (for `~` paths) and `PATH` (to find bwrap) are read.
   *
   * @default {readEnv}
   */
  env?: EnvLookup;
  /**
   * The cache directory, which no call may write; the answer "bwrap works here" is kept there
   * between processes, so that a call starts one bwrap, not two.
   *
   * @default {cacheDir() from the environment; the answer asked once per process}
   */
  cacheDir?: string;
  /**
   * The state directory (audit trail, spill files), which no call may write.
   *
   * @default {stateDir() from the environment}
   */
  stateDir?: string;
  /**
   * The audit trail when it is kept outside the state directory, which no call may write.
   *
   * @default {none}
   */
  auditLog?: string;
}
