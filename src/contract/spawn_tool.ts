/**
 * The built-in `spawn` tool under the tool contract: its builder, its localized metadata and
 * definitions, and the prepare step of its calls — the grammar, the sandbox plan, the preview, the
 * refusals that need no one (commands off, unknown target, depth, no subagent) — before the
 * pipeline decides, runs the command or the subagent, and records.
 *
 * @module
 */

import type { Locale } from "../locale/locale.ts";
import type { Phrase } from "../locale/messages.ts";
import { canonicalPath, type EnvLookup } from "../paths.ts";
import { callSecrets, Redactor } from "../redact.ts";
import type { RunResult } from "../run/types.ts";
import { planSandbox, spawnPreviewGrants } from "../sandbox/plan.ts";
import type { SandboxPlan } from "../sandbox/types.ts";
import { childPreview } from "../spawn/child.ts";
import { childPolicy, namedAgents, reachPolicy, type SpawnConfig } from "../spawn/config.ts";
import { parseSpawnInput } from "../spawn/grammar.ts";
import { spawnRefusal } from "../spawn/guard.ts";
import { spawnTimeout } from "../spawn/limits.ts";
import { spawnPreview } from "../spawn/preview.ts";
import { spawnLabel, spawnOutput, spawnResultText, spawnStdout } from "../spawn/result.ts";
import { runSpawn, SHELL } from "../spawn/run_spawn.ts";
import { spawnInputSchema, spawnText } from "../spawn/tool_definition.ts";
import { SPAWN_SIDE_EFFECTS, SPAWN_TOOL, type SpawnCall } from "../spawn/types.ts";
import type { SpawnSideEffect } from "../spawn/types.ts";
import { VERSION } from "../version.ts";
import { carryOut, Execution, failureCode, runFailed, type Sinks, textOutput } from "./_call.ts";
import { definitionOf } from "./_definition.ts";
import type { DeclaredToolOptions } from "./declared_tool.ts";
import { type CallContext, contextOf } from "./context.ts";
import { OptionsBuilder } from "./options_builder.ts";
import { ToolError } from "./tool_error.ts";
import type { DefinitionFormat, SpawnToolExtra, Tool } from "./types.ts";
import type { ToolDefinitions, ToolOutput, ToolService } from "./types.ts";

/**
 * Options of {@linkcode SpawnToolBuilder}. Every one is optional; those shared with a declared
 * tool (the locale, `env`, approval, audit, sandbox) mean what they mean there.
 */
export interface SpawnToolOptions extends Omit<DeclaredToolOptions, "cacheDir" | "spillDir"> {
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
   * Where the variables a command keeps (`PATH`, `HOME`, `LANG`) are read from.
   *
   * @default {readEnv}
   */
  readEnv?: EnvLookup;
}

/** What `toService()` returns for spawn: the text for a model and the structured output. */
const OUTPUT_PROPERTIES = {
  result: { type: "string", description: "The command's output or the subagent's answer" },
  stdout: { type: "string" },
  stderr: { type: "string" },
  exit_code: { type: ["integer", "null"], description: "124 when the call timed out" },
  error: { type: ["string", "null"] },
  stdout_truncated: { type: "boolean" },
  stderr_truncated: { type: "boolean" },
};

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
  /** Makes one tool with the defaults applied to the options. */
  protected override make(config: SpawnConfig, options: SpawnToolOptions): Tool<SpawnToolExtra> {
    const root = options.root ?? Deno.cwd();
    return new SpawnTool(config, contextOf(options, root), root);
  }
}

/**
 * The spawn tool built on a run context (how the CLI and the MCP server build theirs).
 *
 * @param config The user's spawn configuration.
 * @param context The run context; without a root, commands run in the current directory.
 * @returns The tool.
 */
export function spawnTool(config: SpawnConfig, context: CallContext): Tool<SpawnToolExtra> {
  return new SpawnTool(config, context, context.root ?? Deno.cwd());
}

class SpawnTool implements Tool<SpawnToolExtra> {
  readonly name: string = SPAWN_TOOL;
  readonly locale: Locale;
  readonly version: string = VERSION;
  readonly sideEffects: readonly SpawnSideEffect[] = Object.values(SPAWN_SIDE_EFFECTS);
  readonly #config: SpawnConfig;
  readonly #context: CallContext;
  readonly #root: string;
  /** The --env values: hidden from the prompt, the audit trail and the run. */
  readonly #redactor: Redactor;

  constructor(config: SpawnConfig, context: CallContext, root: string) {
    this.locale = context.locale;
    [this.#config, this.#context, this.#root] = [config, context, root];
    this.#redactor = new Redactor(callSecrets(context.env));
  }

  /** The configured targets' names and the named agents', each sorted and joined. */
  #names(): [string, string] {
    const config = this.#config;
    return [[...config.targets.keys()], [...namedAgents(config).keys()]]
      .map((names) => names.sort().join(", ")) as [string, string];
  }

  displayName(): string {
    return this.#context.words.t("spawn.display_name");
  }

  description(): string {
    return spawnText(this.#config, this.#context.words, "description");
  }

  help(): string {
    const [targets, agents] = this.#names();
    const words = this.#context.words;
    const limit = this.#context.spawnTimeoutMs;
    return words.t("spawn.help", {
      title: this.displayName(),
      targets: targets === "" ? "" : words.t("spawn.help_targets", { names: targets }),
      agents: agents === "" ? "" : words.t("spawn.help_agents", {
        names: agents,
        default: JSON.stringify(reachPolicy(this.#config).default),
      }),
      command_ms: spawnTimeout("command", limit),
      agent_ms: spawnTimeout("agent", limit),
    });
  }

  systemPrompt(): string {
    return spawnText(this.#config, this.#context.words, "system_prompt");
  }

  inputSchema(): Record<string, unknown> {
    return spawnInputSchema(this.#config);
  }

  outputSchema(): Record<string, unknown> {
    const properties = structuredClone(OUTPUT_PROPERTIES);
    return {
      type: "object",
      properties,
      required: Object.keys(properties),
      additionalProperties: false,
    };
  }

  definition<F extends DefinitionFormat>(format: F): ToolDefinitions[F] {
    return definitionOf(this, format, true);
  }

  toService(): ToolService {
    return async (input) => {
      const output = await (await this.execution(input)).execute();
      return { result: output.result, ...output.metadata.extra.output };
    };
  }

  execution(args: unknown): Promise<Execution<SpawnToolExtra>> {
    const parsed = parseSpawnInput(args);
    if (!parsed.ok) {
      // The refusal may quote the input (a property, a target name): hidden like any output.
      const message = this.#redactor.text(this.#context.words.say(parsed.phrase));
      return Promise.reject(ToolError.user("invalid_input", message, { tool: SPAWN_TOOL }));
    }
    const call = parsed.call;
    return Promise.resolve(new Execution(SPAWN_TOOL, args, (sinks) => this.#run(call, sinks)));
  }

  /**
   * One call: the preview; the refusals that need no one (recorded as the policy's answer); a
   * sandbox that cannot be had; then the pipeline — approval, the command or the subagent, record.
   */
  async #run(call: SpawnCall, sinks: Sinks): Promise<ToolOutput<SpawnToolExtra>> {
    const [config, context, root] = [this.#config, this.#context, this.#root];
    const words = context.words;
    const plan = await this.#plan(call);
    const task = call.mode === "agent";
    // The real directory: one spelling for the preview and rules, whatever -C said.
    const preview = spawnPreview(call, canonicalPath(root), {
      sandbox: spawnPreviewGrants(plan),
      // The effective reach when the call chose one other than the policy's default, and what the
      // child will be when the child policy overrides anything.
      reach: task && call.reach !== reachPolicy(config).default ? call.reach : undefined,
      child: task ? childPreview(childPolicy(config, call.target), context.roster) : undefined,
    });
    const label = spawnLabel(call, words);
    const notStarted = (reason: Phrase): never => {
      const message = words.t("run.not_started", { label, reason: words.say(reason) });
      throw ToolError.user("spawn_failed", message, { tool: SPAWN_TOOL });
    };
    const refusal = spawnRefusal(call, { noShell: context.noShell, depth: context.depth, config });
    if (refusal === undefined && plan.kind === "unavailable") notStarted(plan.reason);
    return await carryOut(context, {
      label,
      redactor: this.#redactor,
      workspace: root,
      plan,
      refusal,
      request: {
        tool: SPAWN_TOOL,
        kind: "spawn",
        sideEffect: SPAWN_SIDE_EFFECTS[call.mode],
        preview,
      },
      start: (wrap, sinks) =>
        // The context as it is (env, depth, agentEnv, readEnv); what was approved is what the
        // child gets.
        runSpawn(call, root, {
          ...context,
          ...sinks,
          sandbox: wrap,
          config,
          secrets: this.#redactor.secrets,
          child: preview.child,
          timeoutMs: context.spawnTimeoutMs,
        }),
      outcome: (result) => Promise.resolve(this.#outcome(call, result, label)),
      notStarted: (reason) => Promise.resolve(notStarted(reason)),
    }, sinks);
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
    // A task's program: the named agent's, or the configured subagent's.
    const agent = call.mode === "agent" && call.target !== undefined
      ? namedAgents(this.#config).get(call.target)?.argv
      : this.#config.agent;
    const program = call.mode === "command" ? SHELL : agent?.[0] ?? SHELL;
    const caller = { kind: call.mode === "command" ? "spawn" : "agent" } as const;
    const root = this.#root;
    return await planSandbox({ caller, root, cwd: root, program }, this.#context.sandbox);
  }

  #outcome(call: SpawnCall, result: RunResult, label: string): ToolOutput<SpawnToolExtra> {
    const words = this.#context.words;
    const output = spawnOutput(call, result, words);
    const text = spawnResultText(call, result, words);
    const metadata = { durationMs: result.durationMs, extra: { call, run: result, output } };
    const code = failureCode(result);
    if (code === undefined) return textOutput(text, metadata);
    throw runFailed(
      code,
      SPAWN_TOOL,
      result,
      label,
      words,
      () => textOutput(text, metadata),
      spawnStdout(result, words),
    );
  }
}
