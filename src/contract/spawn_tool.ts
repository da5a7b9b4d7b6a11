/**
 * The built-in `spawn` tool under the tool contract: its builder, its localized metadata and
 * definitions, and its execution — the grammar here, then (in `_spawn_run.ts`, loaded with the
 * first call) the refusals that need no one (commands off, unknown target, depth, no subagent),
 * preview, remembered rules, approver, then the command or the subagent.
 *
 * @module
 */

import { DEFAULT_LOCALE, type Locale, resolveLocale } from "../locale/locale.ts";
import { type Messages, messages } from "../locale/messages.ts";
import type { EnvLookup } from "../paths.ts";
import { callSecrets, redact } from "../redact.ts";
import { namedAgents, reachPolicy, type SpawnConfig } from "../spawn/config.ts";
import { parseSpawnInput } from "../spawn/grammar.ts";
import { spawnTimeout } from "../spawn/limits.ts";
import type { SandboxOptions } from "../sandbox/types.ts";
import { spawnInputSchema } from "../spawn/tool_definition.ts";
import { SPAWN_SIDE_EFFECTS, SPAWN_TOOL, type SpawnSideEffect } from "../spawn/types.ts";
import { VERSION } from "../version.ts";
import { buildDefinition, SPAWN_ANNOTATIONS } from "./_definition.ts";
import { Execution } from "./_execution.ts";
import { policyApprover, type PolicyApproverOptions } from "./approver.ts";
import { ToolError } from "./tool_error.ts";
import type {
  Approver,
  AuditSink,
  DefinitionFormat,
  SpawnToolExtra,
  Tool,
  ToolDefinitions,
  ToolExecution,
  ToolService,
} from "./types.ts";
import { OptionsBuilder } from "./options_builder.ts";

/** Options of {@linkcode SpawnToolBuilder}. Every one is optional. */
export interface SpawnToolOptions {
  /**
   * The language of the tool's texts and user-facing errors.
   *
   * @default {"en-US"}
   */
  locale?: Locale | string;
  /**
   * The workspace root: where commands and subagents run, the scope of remembered rules.
   *
   * @default {Deno.cwd()}
   */
  root?: string;
  /**
   * Turns commands off (`--no-shell`): only tasks for a subagent are accepted.
   *
   * @default {false}
   */
  noShell?: boolean;
  /**
   * This process's delegation depth (`BASIS_SPAWN_DEPTH`); `"unknown"` refuses every task.
   *
   * @default {0}
   */
  depth?: number | "unknown";
  /**
   * Variables added to both modes' environment (the CLI's `--env` pairs). Their values are
   * secrets: redacted from the output, the prompt and the audit trail.
   *
   * @default {{}}
   */
  env?: Readonly<Record<string, string>>;
  /**
   * More variables for a subagent only (the approval settings it inherits).
   *
   * @default {{}}
   */
  agentEnv?: Readonly<Record<string, string>>;
  /**
   * The tool names this process itself may expose (`BASIS_ROSTER`), when it is restricted: a
   * child policy's roster never gives a child more than this.
   *
   * @default {no restriction}
   */
  roster?: readonly string[];
  /**
   * The time limit, in milliseconds, capped at 600,000.
   *
   * @default {120000 for a command, 600000 for a subagent}
   */
  timeoutMs?: number;
  /**
   * How the built-in approver decides. Ignored when `approver` is given.
   *
   * @default {{ policy: "prompt" }}
   */
  approval?: Omit<PolicyApproverOptions, "root">;
  /**
   * Decides every call that passed the grammar and the refusals.
   *
   * @default {policyApprover({ ...approval, root })}
   */
  approver?: Approver;
  /**
   * Where decisions and runs are recorded.
   *
   * @default {nothing is recorded}
   */
  audit?: AuditSink;
  /**
   * Where the variables a command keeps (`PATH`, `HOME`, `LANG`) are read from.
   *
   * @default {readEnv}
   */
  readEnv?: EnvLookup;
  /**
   * The OS sandbox local commands run in (and subagents, when the policy's `spawn.agent` says
   * so): the default, plus the policy's `spawn` grants. Commands on a target are not confined
   * here: they run on another machine.
   *
   * @default {the built-in policy: "auto"}
   */
  sandbox?: SandboxOptions;
}

/** The options of a spawn tool with their defaults applied (what a call runs with). */
export interface SpawnSettings {
  readonly locale: Locale;
  readonly root: string;
  readonly noShell: boolean;
  readonly depth: number | undefined;
  readonly env: Readonly<Record<string, string>>;
  readonly agentEnv: Readonly<Record<string, string>>;
  readonly roster: readonly string[] | undefined;
  readonly timeoutMs: number | undefined;
  readonly approver: Approver;
  readonly audit: AuditSink | undefined;
  readonly readEnv: EnvLookup | undefined;
  readonly sandbox: SandboxOptions | undefined;
}

/** What `toService()` returns for spawn: the text for a model and the structured output. */
const OUTPUT_SCHEMA = {
  type: "object",
  properties: {
    result: { type: "string", description: "The command's output or the subagent's answer" },
    stdout: { type: "string" },
    stderr: { type: "string" },
    exit_code: { type: ["integer", "null"], description: "124 when the call timed out" },
    error: { type: ["string", "null"] },
    stdout_truncated: { type: "boolean" },
    stderr_truncated: { type: "boolean" },
  },
  required: [
    "result",
    "stdout",
    "stderr",
    "exit_code",
    "error",
    "stdout_truncated",
    "stderr_truncated",
  ],
  additionalProperties: false,
} as const;

/**
 * Builds the `spawn` tool from the user's spawn configuration (`loadSpawnConfig()`). `build()`
 * does not consume the builder.
 *
 * `metadata.extra` of an output (and of a failed run's `ToolError.output`) is
 * {@linkcode SpawnToolExtra}: the parsed call, the run, and the structured output.
 *
 * MCP annotations: spawn is destructive and open-world — a shell command reaches whatever the
 * user can (the network included), a target is another machine, and a subagent acts on its own.
 *
 * @example Run a command through the contract
 * ```ts ignore
 * import { loadSpawnConfig, policyApprover, SpawnToolBuilder } from "@basis/tools";
 * const config = await loadSpawnConfig("/home/me/.config/basis");
 * const tool = new SpawnToolBuilder(config, {
 *   root: "/work/app",
 *   approver: policyApprover({ policy: "always" }),
 * }).build();
 * const output = await (await tool.execution({ input: "!ls" })).execute();
 * console.log(output.result);
 * ```
 */
export class SpawnToolBuilder
  extends OptionsBuilder<SpawnConfig, SpawnToolOptions, SpawnToolExtra> {
  /**
   * Holds a configuration and options.
   *
   * @param config The user's spawn configuration (agent, targets, depth limit).
   * @param options The locale, root, environment, limits, approval and audit.
   */
  constructor(config: SpawnConfig, options: SpawnToolOptions = {}) {
    super(config, options);
  }

  /** Makes one tool with the defaults applied to the options. */
  protected override make(config: SpawnConfig, options: SpawnToolOptions): Tool<SpawnToolExtra> {
    return new SpawnTool(config, settle(options));
  }
}

function settle(options: SpawnToolOptions): SpawnSettings {
  const root = options.root ?? Deno.cwd();
  return {
    locale: options.locale === undefined ? DEFAULT_LOCALE : resolveLocale(options.locale),
    root,
    noShell: options.noShell ?? false,
    depth: options.depth === "unknown" ? undefined : options.depth ?? 0,
    env: options.env ?? {},
    agentEnv: options.agentEnv ?? {},
    roster: options.roster,
    timeoutMs: options.timeoutMs,
    approver: options.approver ?? policyApprover({ ...options.approval, root }),
    audit: options.audit,
    readEnv: options.readEnv,
    sandbox: options.sandbox,
  };
}

class SpawnTool implements Tool<SpawnToolExtra> {
  readonly name: string = SPAWN_TOOL;
  readonly locale: Locale;
  readonly version: string = VERSION;
  readonly sideEffects: readonly SpawnSideEffect[] = [
    SPAWN_SIDE_EFFECTS.command,
    SPAWN_SIDE_EFFECTS.agent,
  ];
  readonly #config: SpawnConfig;
  readonly #settings: SpawnSettings;
  readonly #words: Messages;

  constructor(config: SpawnConfig, settings: SpawnSettings) {
    this.locale = settings.locale;
    this.#config = config;
    this.#settings = settings;
    this.#words = messages(settings.locale);
  }

  #targets(): string {
    return [...this.#config.targets.keys()].sort().join(", ");
  }

  #agents(): string {
    return [...namedAgents(this.#config).keys()].sort().join(", ");
  }

  /** The text, then the sentence about targets and the one about agents when there are any. */
  #withNames(
    text: string,
    targetsKey: "spawn.description_targets" | "spawn.system_prompt_targets",
    agentsKey: "spawn.description_agents" | "spawn.system_prompt_agents",
  ): string {
    const parts = [text];
    const targets = this.#targets();
    if (targets !== "") parts.push(this.#words.t(targetsKey, { names: targets }));
    const agents = this.#agents();
    if (agents !== "") parts.push(this.#words.t(agentsKey, { names: agents }));
    return parts.join(" ");
  }

  displayName(): string {
    return this.#words.t("spawn.display_name");
  }

  description(): string {
    return this.#withNames(
      this.#words.t("spawn.description"),
      "spawn.description_targets",
      "spawn.description_agents",
    );
  }

  help(): string {
    const targets = this.#targets();
    const agents = this.#agents();
    return this.#words.t("spawn.help", {
      title: this.displayName(),
      targets: targets === "" ? "" : this.#words.t("spawn.help_targets", { names: targets }),
      agents: agents === "" ? "" : this.#words.t("spawn.help_agents", {
        names: agents,
        default: JSON.stringify(reachPolicy(this.#config).default),
      }),
      command_ms: spawnTimeout("command", this.#settings.timeoutMs),
      agent_ms: spawnTimeout("agent", this.#settings.timeoutMs),
    });
  }

  systemPrompt(): string {
    return this.#withNames(
      this.#words.t("spawn.system_prompt"),
      "spawn.system_prompt_targets",
      "spawn.system_prompt_agents",
    );
  }

  inputSchema(): Record<string, unknown> {
    return spawnInputSchema(this.#config);
  }

  outputSchema(): Record<string, unknown> {
    return structuredClone(OUTPUT_SCHEMA) as unknown as Record<string, unknown>;
  }

  definition<F extends DefinitionFormat>(format: F): ToolDefinitions[F] {
    return buildDefinition({
      name: this.name,
      title: this.displayName(),
      description: this.description(),
      inputSchema: this.inputSchema(),
      annotations: SPAWN_ANNOTATIONS,
    }, format);
  }

  toService(): ToolService {
    return async (input) => {
      const execution = await this.execution(input);
      const output = await execution.execute();
      return { result: output.result, ...output.metadata.extra.output };
    };
  }

  execution(args: unknown): Promise<ToolExecution<SpawnToolExtra>> {
    const parsed = parseSpawnInput(args);
    if (!parsed.ok) {
      // The refusal may quote the input (a property, a target name): hidden like any output.
      const message = redact(this.#words.say(parsed.phrase), callSecrets(this.#settings.env));
      return Promise.reject(ToolError.user("invalid_input", message, { tool: SPAWN_TOOL }));
    }
    const call = parsed.call;
    const [config, settings, words] = [this.#config, this.#settings, this.#words];
    return Promise.resolve(
      new Execution(SPAWN_TOOL, args, async (context) => {
        // The run is loaded with the first call: a tool that is only described never needs it.
        const { runSpawnCall } = await import("./_spawn_run.ts");
        return await runSpawnCall(call, context, { config, settings, words });
      }),
    );
  }
}
