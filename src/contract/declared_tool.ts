/**
 * A declared tool (one entry of `.basis/tools.json`) under the tool contract: its builder, its
 * metadata and definitions, and its execution — schema gate, preview, remembered rules, approver,
 * then the program with the input as compact JSON on stdin.
 *
 * @module
 */

import type { ApprovalRequest } from "../approval/approve.ts";
import { toolPreview } from "../approval/preview.ts";
import { BasisError } from "../errors.ts";
import { DEFAULT_LOCALE, type Locale, resolveLocale } from "../locale/locale.ts";
import { type Messages, messages, type Phrase, phrase } from "../locale/messages.ts";
import type { SideEffect, ToolSpec } from "../manifest/types.ts";
import {
  cacheDir as defaultCacheDir,
  canonicalPath,
  spillDir as defaultSpillDir,
} from "../paths.ts";
import { callSecrets, redact, redactValue } from "../redact.ts";
import {
  DEFAULT_MAX_BYTES,
  DEFAULT_MAX_LINES,
  resolveRunProgram,
  runProgram,
  startFailureResult,
} from "../run/run_program.ts";
import type { RunRequest, RunResult } from "../run/types.ts";
import { schemaProblem, validateInput, validateOutput } from "../schema/gate.ts";
import { VERSION } from "../version.ts";
import { annotationsFor, buildDefinition } from "./_definition.ts";
import { Execution, type RunContext } from "./_execution.ts";
import { approve, failureCode, type FlowSettings, recordRefusal, recordRun } from "./_flow.ts";
import { checkedRun, prepared } from "./_sandbox.ts";
import { planSandbox, previewSandbox } from "../sandbox/plan.ts";
import type { SandboxOptions } from "../sandbox/types.ts";
import { quote, toolLabel } from "./_words.ts";
import { modelResult } from "../run/model_result.ts";
import { fillArguments } from "./_arguments.ts";
import { formatSize } from "../run/size.ts";
import { foundPhrase, jsonKind } from "../json_kind.ts";
import { policyApprover, type PolicyApproverOptions } from "./approver.ts";
import { ToolError } from "./tool_error.ts";
import type {
  Approver,
  AuditSink,
  DeclaredToolExtra,
  DefinitionFormat,
  ExecutionOptions,
  Tool,
  ToolDefinitions,
  ToolExecution,
  ToolOutput,
  ToolService,
} from "./types.ts";
import { OptionsBuilder } from "./options_builder.ts";

/** Options of {@linkcode DeclaredToolBuilder}. Every one is optional. */
export interface DeclaredToolOptions {
  /**
   * The language of the tool's texts and user-facing errors (a tag such as `uk_UA.UTF-8` is
   * resolved; anything unsupported is English).
   *
   * @default {"en-US"}
   */
  locale?: Locale | string;
  /**
   * Where compiled input validators are cached.
   *
   * @default {cacheDir(): $BASIS_CACHE_DIR, $XDG_CACHE_HOME/basis or ~/.cache/basis}
   */
  cacheDir?: string;
  /**
   * Where the full stdout of a run cut for the model is saved; `false` saves nothing.
   *
   * @default {spillDir(): spill/ in the state directory}
   */
  spillDir?: string | false;
  /**
   * Variables added to the program's environment over the inherited one, under the manifest's
   * `env` (the CLI's `--env` pairs). Their values are secrets, as the manifest's are.
   *
   * @default {{}}
   */
  env?: Readonly<Record<string, string>>;
  /**
   * The time limit of a run, in milliseconds.
   *
   * @default {the manifest's timeout_ms}
   */
  timeoutMs?: number;
  /**
   * The workspace root: the scope of remembered rules and the workspace the audit trail names.
   *
   * @default {no workspace: global rules only; the audit trail names the tool's cwd}
   */
  root?: string;
  /**
   * How the built-in approver decides: the policy, where rules live, how to ask a person. Ignored
   * when `approver` is given.
   *
   * @default {{ policy: "prompt" }: no rules, the terminal when there is one, else denied}
   */
  approval?: Omit<PolicyApproverOptions, "root">;
  /**
   * Decides every call after the schema gate; a denial's reason is shown as given.
   *
   * @default {policyApprover({ ...approval, root })}
   */
  approver?: Approver;
  /**
   * Where decisions and runs are recorded (`openAuditLog()`), with the call's secrets (the
   * manifest's and `env`'s values) redacted.
   *
   * @default {nothing is recorded}
   */
  audit?: AuditSink;
  /**
   * The OS sandbox each call runs in: the user's policy, and who is told when a call runs
   * unconfined. The workspace (`root`, else the tool's cwd) is always writable.
   *
   * @default {the built-in policy: "auto"}
   */
  sandbox?: SandboxOptions;
}

/** The options with every default applied. */
interface DeclaredSettings {
  readonly locale: Locale;
  readonly cacheDir: string | undefined;
  readonly spillDir: string | false | undefined;
  readonly env: Readonly<Record<string, string>>;
  readonly timeoutMs: number | undefined;
  readonly root: string | undefined;
  readonly approver: Approver;
  readonly audit: AuditSink | undefined;
  readonly sandbox: SandboxOptions | undefined;
}

/** How much of a program's output a model is given. */
const MODEL_CAPS = { maxBytes: DEFAULT_MAX_BYTES, maxLines: DEFAULT_MAX_LINES } as const;
/**
 * How much of a structured result is kept: the same bytes, any number of lines (the JSON is read
 * whole, so it must fit; how it is laid out does not matter).
 */
const STRUCTURED_CAPS = { maxBytes: DEFAULT_MAX_BYTES, maxLines: Infinity } as const;

/** The output schema of a declared tool: the text the program printed, for a model. */
const OUTPUT_SCHEMA = {
  type: "object",
  properties: {
    result: {
      type: "string",
      description: "What the program printed on stdout, trailing newlines trimmed",
    },
  },
  required: ["result"],
  additionalProperties: false,
} as const;

/**
 * Builds declared tools from a loaded manifest spec. `build()` does not consume the builder: build
 * again after `configure()`, or in another locale.
 *
 * `metadata.extra` of an output (and of a failed run's `ToolError.output`) is
 * {@linkcode DeclaredToolExtra}: the run, its secrets (the manifest's and `env`'s values) redacted.
 *
 * @example Call a declared tool from a host
 * ```ts ignore
 * import { DeclaredToolBuilder, loadRoster, policyApprover } from "@basis/tools";
 * const roster = await loadRoster({ workspace: "examples" });
 * const spec = roster.tools.get("word_count")!;
 * const tool = new DeclaredToolBuilder(spec, {
 *   root: roster.root,
 *   approver: policyApprover({ policy: "always" }),
 * }).build();
 * const execution = await tool.execution({ text: "one two three" });
 * const output = await execution.execute();
 * console.log(output.result); // {"words":3,"lines":1,"characters":13}
 * ```
 */
export class DeclaredToolBuilder
  extends OptionsBuilder<ToolSpec, DeclaredToolOptions, DeclaredToolExtra> {
  /**
   * Holds a spec and options.
   *
   * @param spec A tool from `loadRoster()` (or `parseManifestText()`).
   * @param options The locale, directories, environment pairs, approval and audit.
   */
  constructor(spec: ToolSpec, options: DeclaredToolOptions = {}) {
    super(spec, options);
  }

  /** Makes one tool with the defaults applied to the options. */
  protected override make(spec: ToolSpec, options: DeclaredToolOptions): Tool<DeclaredToolExtra> {
    return new DeclaredTool(spec, settle(options));
  }
}

/** Applies the defaults, in one place. */
function settle(options: DeclaredToolOptions): DeclaredSettings {
  return {
    locale: options.locale === undefined ? DEFAULT_LOCALE : resolveLocale(options.locale),
    cacheDir: options.cacheDir,
    spillDir: options.spillDir,
    env: options.env ?? {},
    timeoutMs: options.timeoutMs,
    root: options.root,
    approver: options.approver ??
      policyApprover({
        ...options.approval,
        ...(options.root === undefined ? {} : { root: options.root }),
      }),
    audit: options.audit,
    sandbox: options.sandbox,
  };
}

/** "word_count" → "Word count". */
function humanize(name: string): string {
  const words = name.replace(/[_-]+/g, " ").trim();
  return words === "" ? name : words[0]?.toUpperCase() + words.slice(1);
}

function sentence(text: string): string {
  const trimmed = text.trim();
  return /[.!?…]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

class DeclaredTool implements Tool<DeclaredToolExtra> {
  readonly name: string;
  readonly locale: Locale;
  readonly version: string = VERSION;
  readonly sideEffects: readonly SideEffect[];
  readonly #spec: ToolSpec;
  readonly #settings: DeclaredSettings;
  readonly #words: Messages;
  readonly #secrets: readonly string[];

  constructor(spec: ToolSpec, settings: DeclaredSettings) {
    this.name = spec.name;
    this.locale = settings.locale;
    this.sideEffects = [spec.sideEffect];
    this.#spec = spec;
    this.#settings = settings;
    this.#words = messages(settings.locale);
    // The secrets of every call: the manifest's env values and the --env pairs' values.
    this.#secrets = callSecrets(spec.env, settings.env);
  }

  displayName(): string {
    return this.#spec.title ?? humanize(this.name);
  }

  description(): string {
    // What a model or a person reads of the tool never shows one of its secrets.
    return redact(this.#spec.description, this.#secrets);
  }

  help(): string {
    const schema = "```json\n" + JSON.stringify(this.#spec.inputSchema, null, 2) + "\n```";
    return this.#words.t("tool.help", {
      title: this.displayName(),
      name: this.name,
      description: sentence(this.#spec.description),
      effect: this.#effect(),
      ms: this.#settings.timeoutMs ?? this.#spec.timeoutMs,
      schema,
    });
  }

  systemPrompt(): string {
    return this.#words.t("tool.system_prompt", {
      name: this.name,
      description: sentence(this.#spec.description),
      effect: this.#effect(),
    });
  }

  inputSchema(): Record<string, unknown> {
    // A copy, secrets hidden (the gate validates with the schema as declared).
    return redactValue(this.#spec.inputSchema, this.#secrets) as Record<string, unknown>;
  }

  outputSchema(): Record<string, unknown> {
    const declared = this.#spec.outputSchema;
    return redactValue(declared ?? OUTPUT_SCHEMA, this.#secrets) as Record<string, unknown>;
  }

  definition<F extends DefinitionFormat>(format: F): ToolDefinitions[F] {
    const declared = this.#spec.outputSchema;
    return buildDefinition({
      name: this.name,
      title: this.displayName(),
      description: this.description(),
      inputSchema: this.inputSchema(),
      ...(declared === undefined
        ? {}
        : { outputSchema: structuredClone(declared) as Record<string, unknown> }),
      annotations: annotationsFor(this.#spec.sideEffect),
    }, format);
  }

  toService(): ToolService {
    return async (input) => {
      const execution = await this.execution(input);
      const output = await execution.execute();
      // What outputSchema() describes: the structured result when the tool declares its schema.
      return output.structuredContent ?? { result: output.result };
    };
  }

  async execution(
    args: unknown,
    options: ExecutionOptions = {},
  ): Promise<ToolExecution<DeclaredToolExtra>> {
    const spec = this.#spec;
    const words = this.#words;
    const kind = jsonKind(args);
    if (kind !== "object") {
      const message = words.t("input.refused", {
        tool: quote(spec.name),
        pointer: words.t("schema.root"),
        reason: words.t("input.must_be_object", { found: words.say(foundPhrase(args)) }),
      });
      throw ToolError.user("invalid_input", message, { tool: spec.name });
    }
    await this.#gate(args);
    const stdin = options.encodedInput ?? new TextEncoder().encode(JSON.stringify(args));
    const argv = this.#argv(args as Record<string, unknown>, stdin);
    return new Execution(spec.name, args, (context) => this.#run(args, argv, stdin, context));
  }

  /**
   * The argv of this call: the manifest's, each argument taken from the input filled in (before
   * the preview, so that what is approved is what runs). A value the argument rules refuse is a
   * refusal of the input, as the schema's are: nothing is asked.
   */
  #argv(input: Record<string, unknown>, stdin: Uint8Array): readonly string[] {
    const spec = this.#spec;
    if (spec.inputArguments === undefined) return spec.command;
    const filled = fillArguments(spec.command, spec.inputArguments, input, stdin);
    if (filled.ok) return filled.argv;
    const words = this.#words;
    const message = words.t("input.refused", {
      tool: quote(spec.name),
      pointer: filled.refusal.pointer,
      reason: words.say(filled.refusal.reason),
    });
    throw ToolError.user("invalid_input", redact(message, this.#secrets), { tool: spec.name });
  }

  #effect(): string {
    return this.#words.t(
      this.#spec.sideEffect === "external" ? "effect.external" : "effect.process",
    );
  }

  /**
   * The schema gate: a refusal is user-facing; a schema that cannot compile (the input's, or the
   * output's, checked here so that nothing runs whose output could not be checked) is the
   * operator's.
   */
  async #gate(input: unknown): Promise<void> {
    const spec = this.#spec;
    const cacheDir = this.#settings.cacheDir ?? defaultCacheDir();
    if (spec.outputSchema !== undefined) {
      const output = { name: spec.name, inputSchema: spec.outputSchema };
      const reason = await schemaProblem(output, { cacheDir });
      if (reason !== undefined) throw this.#unusable("output_schema", reason);
    }
    try {
      await validateInput(spec, input, { cacheDir });
    } catch (error) {
      if (!(error instanceof BasisError)) throw error;
      if (error.code === "invalid_input") {
        const message = redact(error.wordedIn(this.#words), this.#secrets);
        throw ToolError.user("invalid_input", message, { tool: spec.name, cause: error });
      }
      if (error.code !== "manifest_invalid") throw error;
      const reason = await schemaProblem(spec, { cacheDir });
      throw this.#unusable("input_schema", reason, error);
    }
  }

  /** A schema that cannot compile: the operator's problem, in English for logs, as a phrase too. */
  #unusable(
    field: "input_schema" | "output_schema",
    reason: Phrase | undefined,
    cause?: BasisError,
  ): ToolError {
    const spec = this.#spec;
    // Reason undefined: the schema compiled after all; the validator's own words then.
    const why = reason ?? cause?.phrase ?? phrase("join.one", { item: cause?.message ?? field });
    const said = phrase("manifest.schema_unusable", {
      file: spec.file,
      tool: phrase("manifest.tool", { tool: JSON.stringify(spec.name) }),
      field,
      reason: why,
    });
    return ToolError.internal(said, {
      code: "manifest_invalid",
      tool: spec.name,
      ...(cause === undefined ? {} : { cause }),
    });
  }

  async #run(
    input: unknown,
    argv: readonly string[],
    stdin: Uint8Array,
    context: RunContext,
  ): Promise<ToolOutput<DeclaredToolExtra>> {
    const spec = this.#spec;
    const settings = this.#settings;
    const words = this.#words;
    const label = toolLabel(spec.name, words);
    const flow: FlowSettings = {
      words,
      approver: settings.approver,
      audit: settings.audit,
      workspace: settings.root ?? spec.cwd,
      secrets: this.#secrets,
      inputBytes: stdin.length,
    };
    const run: RunRequest = {
      program: spec.program,
      args: argv.slice(1),
      // The real directory: one spelling for the preview and rules, whatever -C or the manifest
      // said (the program sees the same directory either way).
      cwd: canonicalPath(spec.cwd),
      stdin,
      env: [settings.env, spec.env],
      timeoutMs: settings.timeoutMs ?? spec.timeoutMs,
    };
    // The program that will really run, found with the environment it gets: what the approver is
    // shown and what a rule pins. A program that cannot be found needs no approval: nothing starts.
    const resolved = resolveRunProgram(run);
    if (!resolved.ok) {
      const result = startFailureResult(run, resolved, this.#secrets);
      recordRun(flow, spec.name, result);
      return await this.#outcome(result, label);
    }
    // What the call may touch is part of what is approved: planned (and checked against the
    // user's policy) before anyone is asked.
    const plan = await planSandbox({
      caller: { kind: "tool", grants: spec.sandbox },
      root: settings.root ?? run.cwd,
      cwd: run.cwd,
      program: resolved.path,
    }, settings.sandbox);
    const sandbox = previewSandbox(plan);
    if (plan.kind === "unavailable" || sandbox === undefined) {
      const reason = plan.kind === "unavailable" ? plan.reason : phrase("sandbox.no_home");
      const failure = { failure: "other" as const, path: resolved.path, reason };
      const result = startFailureResult(run, failure, this.#secrets);
      recordRun(flow, spec.name, result);
      return await this.#outcome(result, label);
    }
    const preview = toolPreview(
      { ...spec, command: argv, cwd: run.cwd },
      { program: resolved.path, sandbox },
      input,
    );
    if (plan.kind === "refused") {
      recordRefusal(flow, spec.name, preview, plan.reason);
      const message = words.t("denied.sandbox", {
        tool: quote(spec.name),
        reason: words.say(plan.reason),
      });
      throw ToolError.user("denied", redact(message, this.#secrets), { tool: spec.name });
    }
    const request: ApprovalRequest = {
      tool: spec.name,
      sideEffect: spec.sideEffect,
      preview,
      source: spec.scope,
      stdin,
      env: spec.env,
      ...(spec.inputArguments === undefined ? {} : {
        fromInput: spec.inputArguments.map(({ index, field }) => ({ index, field })),
      }),
      ...(spec.files === undefined ? {} : { files: spec.files }),
    };
    await approve(flow, request, label, context.signal);
    // Said once something is to run unconfined that the policy wanted confined.
    if (plan.kind === "unconfined" && plan.note !== undefined) {
      settings.sandbox?.onUnconfined?.(plan.note);
    }
    const unprepared = await prepared(plan);
    if (unprepared !== undefined) {
      const failure = { failure: "other" as const, path: resolved.path, reason: unprepared };
      const result = startFailureResult(run, failure, this.#secrets);
      recordRun(flow, spec.name, result);
      return await this.#outcome(result, label);
    }
    const spillDir = settings.spillDir === undefined ? defaultSpillDir() : settings.spillDir;
    const result = await runProgram(
      {
        ...run,
        program: resolved.path,
        ...(plan.kind === "confined" ? { sandbox: plan.wrap } : {}),
      },
      {
        ...(spec.outputSchema === undefined ? MODEL_CAPS : STRUCTURED_CAPS),
        secrets: this.#secrets,
        ...(spillDir === false ? {} : { spillDir }),
        ...(context.signal === undefined ? {} : { signal: context.signal }),
        ...(context.onStdout === undefined ? {} : { onStdout: context.onStdout }),
        ...(context.onStderr === undefined ? {} : { onStderr: context.onStderr }),
      },
    );
    checkedRun(plan, settings.sandbox, result);
    recordRun(flow, spec.name, result);
    return await this.#outcome(result, label);
  }

  async #outcome(result: RunResult, label: string): Promise<ToolOutput<DeclaredToolExtra>> {
    // The run came redacted from the runner; what is worded around it is hidden here.
    const hide = (text: string) => redact(text, this.#secrets);
    const run = result;
    const metadata = { durationMs: result.durationMs, extra: { run } };
    const code = failureCode(result);
    if (code === undefined && this.#spec.outputSchema !== undefined) {
      return await this.#structured(result, label, metadata);
    }
    if (code === undefined) {
      return {
        result: hide(modelResult(result, label, MODEL_CAPS, this.#words)),
        images: [],
        metadata,
      };
    }
    // Failures are worded by a module loaded only when a run fails.
    const { describeFailure } = await import("../run/failure_message.ts");
    const message = hide(describeFailure(result, label, this.#words) ?? label);
    const summary = hide(
      describeFailure({ ...result, stdout: "", stderr: "" }, label, this.#words) ?? label,
    );
    throw ToolError.user(code, message, {
      tool: this.name,
      summary,
      output: { result: message, images: [], metadata },
    });
  }

  /**
   * A successful run of a tool with an output schema: stdout must be a JSON object matching it (the
   * result is that JSON as text, the object its structured content); anything else is a failure
   * naming what is wrong, as a refused input is.
   */
  async #structured(
    result: RunResult,
    label: string,
    metadata: ToolOutput<DeclaredToolExtra>["metadata"],
  ): Promise<ToolOutput<DeclaredToolExtra>> {
    const spec = this.#spec;
    const words = this.#words;
    const hide = (text: string) => redact(text, this.#secrets);
    const fail = (message: string): never => {
      throw ToolError.user("invalid_output", hide(message), {
        tool: spec.name,
        output: { result: hide(message), images: [], metadata },
      });
    };
    if (result.stdoutTruncated) {
      const size = formatSize(DEFAULT_MAX_BYTES, words);
      const params = { label, size, bytes: result.stdoutBytes };
      fail(
        result.spillPath === undefined
          ? words.t("output.too_large", params)
          : words.t("output.too_large_spilled", { ...params, path: result.spillPath }),
      );
    }
    const cacheDir = this.#settings.cacheDir ?? defaultCacheDir();
    let value: Record<string, unknown>;
    try {
      value = await validateOutput(
        { name: spec.name, outputSchema: spec.outputSchema! },
        result.stdout,
        { cacheDir },
      );
    } catch (error) {
      if (!(error instanceof BasisError) || error.code !== "invalid_output") throw error;
      return fail(error.wordedIn(words));
    }
    // Matched in the parsed value too: a secret the program wrote JSON-escaped ("\u00e4") is
    // hidden there, and the text (result, stdout) is then that value's JSON.
    const shown = redactValue(value, this.#secrets) as Record<string, unknown>;
    const text = JSON.stringify(shown);
    if (this.#secrets.length > 0 && text !== JSON.stringify(value)) {
      const run = { ...result, stdout: text };
      return {
        result: text,
        images: [],
        metadata: { ...metadata, extra: { run } },
        structuredContent: shown,
      };
    }
    return {
      result: hide(modelResult(result, label, MODEL_CAPS, words)),
      images: [],
      metadata,
      structuredContent: value,
    };
  }
}
