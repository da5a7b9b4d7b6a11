/**
 * The run context: what every call of a run shares, resolved once at the entrance — from the CLI's
 * flags, environment and files, the MCP server's, or a builder's options ({@linkcode contextOf}).
 * Below it nothing re-reads a flag, a variable or an option, and nothing re-packs it.
 *
 * @module
 */

import { DEFAULT_LOCALE, type Locale, resolveLocale } from "../locale/locale.ts";
import { type Messages, messages } from "../locale/messages.ts";
import { cacheDir, type EnvLookup, readEnv, spillDir } from "../paths.ts";
import type { Resolution } from "../run/mod.ts";
import type { SandboxOptions } from "../sandbox/types.ts";
import { policyApprover } from "./approver.ts";
import type { DeclaredToolOptions } from "./declared_tool.ts";
import type { SpawnToolOptions } from "./spawn_tool.ts";
import type { Approver, AuditSink } from "./types.ts";

/** Everything a call needs beside its tool's own declaration; every field resolved. */
export interface CallContext {
  /** The language of texts and user-facing errors. */
  readonly locale: Locale;
  /** Its messages. */
  readonly words: Messages;
  /**
   * The workspace root: the scope of rules, the workspace the audit trail names, what the sandbox
   * may write. `undefined`: a declared tool uses its cwd (spawn is always given one).
   */
  readonly root: string | undefined;
  /** The `--env` pairs, over the inherited environment; their values are secrets. */
  readonly env: Readonly<Record<string, string>>;
  /** Where compiled validators (and digests of pinned files) are cached. */
  readonly cacheDir: string;
  /** Where a cut result's full stdout is saved; `false` saves nothing. */
  readonly spillDir: string | false;
  /** A declared tool's time limit (`--timeout`), over the manifest's. */
  readonly timeoutMs: number | undefined;
  /** Spawn's time limit (`--timeout`, else `--spawn-timeout`), capped by the spawn seam. */
  readonly spawnTimeoutMs: number | undefined;
  /** Decides every call that passed its checks. */
  readonly approver: Approver;
  /** Records decisions and runs. */
  readonly audit: AuditSink | undefined;
  /** The OS sandbox of every call. */
  readonly sandbox: SandboxOptions | undefined;
  /** Spawn runs no commands (`--no-shell`). */
  readonly noShell: boolean;
  /** This process's delegation depth; `undefined` refuses every task. */
  readonly depth: number | undefined;
  /** What a subagent inherits beside `env`. */
  readonly agentEnv: Readonly<Record<string, string>>;
  /** The tools this process may expose (`BASIS_ROSTER`), when restricted. */
  readonly roster: readonly string[] | undefined;
  /** Where spawn reads the variables a command keeps. */
  readonly readEnv: EnvLookup;
  /**
   * Program lookups already made in this run, by what a lookup depends on (a CLI call looks its
   * program up once); `undefined` looks up every call (a server outlives what it found).
   */
  readonly programs: Map<string, Resolution> | undefined;
}

/**
 * A builder's options with every default applied, in one place.
 *
 * @param options The options given.
 * @param root The root when the options give none (spawn's: the current directory).
 * @returns The context its tools are built on.
 */
export function contextOf(
  options: DeclaredToolOptions & SpawnToolOptions,
  root: string | undefined = options.root,
): CallContext {
  const locale = options.locale === undefined ? DEFAULT_LOCALE : resolveLocale(options.locale);
  return {
    locale,
    words: messages(locale),
    root,
    env: options.env ?? {},
    cacheDir: options.cacheDir ?? cacheDir(),
    spillDir: options.spillDir ?? spillDir(),
    timeoutMs: options.timeoutMs,
    spawnTimeoutMs: options.timeoutMs,
    approver: options.approver ??
      policyApprover({ ...options.approval, ...(root === undefined ? {} : { root }) }),
    audit: options.audit,
    sandbox: options.sandbox,
    noShell: options.noShell ?? false,
    depth: options.depth === "unknown" ? undefined : options.depth ?? 0,
    agentEnv: options.agentEnv ?? {},
    roster: options.roster,
    readEnv: options.readEnv ?? readEnv,
    programs: undefined,
  };
}
