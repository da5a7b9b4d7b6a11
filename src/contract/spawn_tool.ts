/**
 * The built-in `spawn` tool under the tool contract: its builder, its localized metadata and
 * definitions, and its execution — the grammar, the refusals that need no one (commands off,
 * unknown target, depth, no subagent), preview, remembered rules, approver, then the command or
 * the subagent.
 *
 * @module
 */

import type { ApprovalRequest } from "../approval/approve.ts";
import { DEFAULT_LOCALE, type Locale, resolveLocale } from "../locale/locale.ts";
import { type Messages, messages } from "../locale/messages.ts";
import { canonicalPath, type EnvLookup } from "../paths.ts";
import { callSecrets, redact } from "../redact.ts";
import { describeFailure } from "../run/failure_message.ts";
import type { RunResult } from "../run/types.ts";
import { childPreview } from "../spawn/child.ts";
import { childPolicy, namedAgents, reachPolicy, type SpawnConfig } from "../spawn/config.ts";
import { parseSpawnInput } from "../spawn/grammar.ts";
import { spawnRefusal } from "../spawn/guard.ts";
import { spawnTimeout } from "../spawn/limits.ts";
import { spawnPreview, withDelegation } from "../spawn/preview.ts";
import { spawnLabel, spawnOutput, spawnResultText } from "../spawn/result.ts";
import { runSpawn, SHELL } from "../spawn/run_spawn.ts";
import { planOptionsOf, planSandbox, policyOf, spawnPreviewGrants } from "../sandbox/plan.ts";
import type { SandboxOptions, SandboxPlan } from "../sandbox/types.ts";
import { checkedRun, prepared } from "./_sandbox.ts";
import { spawnInputSchema } from "../spawn/tool_definition.ts";
import {
  SPAWN_SIDE_EFFECTS,
  SPAWN_TOOL,
  type SpawnCall,
  type SpawnOutput,
  type SpawnPreview,
  type SpawnSideEffect,
} from "../spawn/types.ts";
import { VERSION } from "../version.ts";
import { buildDefinition, SPAWN_ANNOTATIONS } from "./_definition.ts";
import { Execution, type RunContext } from "./_execution.ts";
import { approve, failureCode, type FlowSettings, recordRefusal, recordRun } from "./_flow.ts";
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
  ToolOutput,
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

interface SpawnSettings {
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
    return Promise.resolve(
      new Execution(SPAWN_TOOL, args, (context) => this.#run(call, context)),
    );
  }

  async #run(call: SpawnCall, context: RunContext): Promise<ToolOutput<SpawnToolExtra>> {
    const settings = this.#settings;
    const words = this.#words;
    const flow: FlowSettings = {
      words,
      approver: settings.approver,
      audit: settings.audit,
      workspace: settings.root,
      // The --env values: hidden from the prompt, the audit trail and (in runSpawn) the run.
      secrets: callSecrets(settings.env),
    };
    const plan = await this.#plan(call);
    // The real directory: one spelling for the preview and rules, whatever -C said.
    const preview = this.#preview(call, canonicalPath(settings.root), plan);
    const refusal = spawnRefusal(call, {
      noShell: settings.noShell,
      depth: settings.depth,
      config: this.#config,
    });
    if (refusal !== undefined) {
      // Refused before anyone is asked: recorded as the policy's answer, in English.
      recordRefusal(flow, SPAWN_TOOL, preview, refusal.phrase);
      const text = redact(words.say(refusal.phrase), flow.secrets);
      throw ToolError.user("denied", text, { tool: SPAWN_TOOL });
    }
    const request: ApprovalRequest = {
      tool: SPAWN_TOOL,
      kind: "spawn",
      sideEffect: SPAWN_SIDE_EFFECTS[call.mode],
      preview,
    };
    const label = spawnLabel(call, words);
    if (plan.kind === "unavailable") {
      const message = words.t("run.not_started", { label, reason: words.say(plan.reason) });
      throw ToolError.user("spawn_failed", message, { tool: SPAWN_TOOL });
    }
    await approve(flow, request, label, context.signal);
    // Said once something is to run unconfined that the policy wanted confined.
    if (plan.kind === "unconfined" && plan.note !== undefined) {
      settings.sandbox?.onUnconfined?.(plan.note);
    }
    const unprepared = await prepared(plan);
    if (unprepared !== undefined) {
      const message = words.t("run.not_started", { label, reason: words.say(unprepared) });
      throw ToolError.user("spawn_failed", message, { tool: SPAWN_TOOL });
    }
    const result = await runSpawn(call, settings.root, {
      ...(plan.kind === "confined" ? { sandbox: plan.wrap } : {}),
      config: this.#config,
      env: settings.env,
      depth: settings.depth ?? 0,
      agentEnv: settings.agentEnv,
      // What was approved is what the child gets.
      ...(preview.child === undefined ? {} : { child: preview.child }),
      ...(settings.timeoutMs === undefined ? {} : { timeoutMs: settings.timeoutMs }),
      ...(context.signal === undefined ? {} : { signal: context.signal }),
      ...(context.onStdout === undefined ? {} : { onStdout: context.onStdout }),
      ...(context.onStderr === undefined ? {} : { onStderr: context.onStderr }),
      ...(settings.readEnv === undefined ? {} : { readEnv: settings.readEnv }),
    });
    checkedRun(plan, settings.sandbox, result);
    recordRun(flow, SPAWN_TOOL, result);
    return this.#outcome(call, result, label);
  }

  /**
   * The preview: for a task, the effective reach when the call chose one other than the policy's
   * default, and what the child will be when the child policy overrides anything.
   */
  #preview(call: SpawnCall, cwd: string, plan: SandboxPlan): SpawnPreview {
    const preview = spawnPreview(call, cwd, spawnPreviewGrants(plan));
    if (call.mode !== "agent") return preview;
    const config = this.#config;
    const reach = call.reach === reachPolicy(config).default ? undefined : call.reach;
    const child = childPreview(childPolicy(config, call.target), this.#settings.roster);
    return withDelegation(preview, { reach, child });
  }

  /**
   * The sandbox of a call: a local command gets the default plus the policy's spawn grants; a
   * subagent is confined only when the policy says so; a command on a target is not (it runs on
   * another machine).
   */
  async #plan(call: SpawnCall): Promise<SandboxPlan> {
    if (call.mode === "command" && call.target !== undefined) {
      return { kind: "unconfined", note: undefined };
    }
    const settings = this.#settings;
    // A task's program: the named agent's, or the configured subagent's.
    const agent = call.mode === "agent" && call.target !== undefined
      ? namedAgents(this.#config).get(call.target)?.argv
      : this.#config.agent;
    const program = call.mode === "command" ? SHELL : agent?.[0] ?? SHELL;
    return await planSandbox(policyOf(settings.sandbox), {
      caller: { kind: call.mode === "command" ? "spawn" : "agent" },
      root: settings.root,
      cwd: settings.root,
      program,
    }, planOptionsOf(settings.sandbox));
  }

  #outcome(call: SpawnCall, result: RunResult, label: string): ToolOutput<SpawnToolExtra> {
    const words = this.#words;
    const code = failureCode(result);
    const output: SpawnOutput = spawnOutput(call, result, words);
    const text = spawnResultText(call, result, words);
    const metadata = { durationMs: result.durationMs, extra: { call, run: result, output } };
    if (code === undefined) return { result: text, images: [], metadata };
    const message = output.error ?? label;
    const summary = describeFailure({ ...result, stdout: "", stderr: "" }, label, words) ?? label;
    throw ToolError.user(code, message, {
      tool: SPAWN_TOOL,
      summary,
      output: { result: text, images: [], metadata },
    });
  }
}
