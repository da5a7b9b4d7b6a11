/**
 * A declared tool (one entry of `.basis/tools.json`) under the tool contract: its builder, its
 * metadata and definitions, and the prepare step of its calls — schema gate, argv, the program
 * resolved once, the sandbox plan, the preview — before the pipeline decides, runs and records.
 *
 * @module
 */

import type { InputSlot } from "../approval/approve.ts";
import { toolPreview } from "../approval/preview.ts";
import { BasisError } from "../errors.ts";
import { foundPhrase, jsonKind } from "../json_kind.ts";
import type { Locale } from "../locale/locale.ts";
import { type Phrase, phrase } from "../locale/messages.ts";
import type { SideEffect, ToolSpec } from "../manifest/types.ts";
import { canonicalPath } from "../paths.ts";
import { callSecrets, Redactor, secretEnv } from "../redact.ts";
import { modelResult, printedNothing } from "../run/model_result.ts";
import { DEFAULT_MAX_BYTES, resolveRunProgram } from "../run/run_program.ts";
import { runProgram, startFailureResult } from "../run/run_program.ts";
import { formatSize } from "../run/size.ts";
import type { RunRequest, RunResult } from "../run/types.ts";
import { planSandbox, previewSandbox } from "../sandbox/plan.ts";
import type { SandboxOptions } from "../sandbox/types.ts";
import { schemaProblem, validateInput, validateOutput } from "../schema/gate.ts";
import { VERSION } from "../version.ts";
import { fillArguments } from "./_arguments.ts";
import { readContent } from "./_content.ts";
import { carryOut, Execution, failureCode, recordRun, runFailed, type Sinks } from "./_call.ts";
import { textOutput } from "./_call.ts";
import { definitionOf } from "./_definition.ts";
import type { PolicyApproverOptions } from "./approver.ts";
import { type CallContext, contextOf } from "./context.ts";
import { OptionsBuilder } from "./options_builder.ts";
import { ToolError } from "./tool_error.ts";
import type { Approver, AuditSink, DeclaredToolExtra, DefinitionFormat } from "./types.ts";
import type { ExecutionOptions, Tool, ToolDefinitions, ToolOutput, ToolService } from "./types.ts";

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
};

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
  /** Makes one tool with the defaults applied to the options. */
  protected override make(spec: ToolSpec, options: DeclaredToolOptions): Tool<DeclaredToolExtra> {
    return new DeclaredTool(spec, contextOf(options));
  }
}

/**
 * A declared tool built on a run context (how the CLI and the MCP server build theirs).
 *
 * @param spec The tool, from the roster.
 * @param context The run context.
 * @returns The tool.
 */
export function declaredTool(spec: ToolSpec, context: CallContext): Tool<DeclaredToolExtra> {
  return new DeclaredTool(spec, context);
}

/** "word_count" → "Word count". */
function humanize(name: string): string {
  const words = name.replace(/[_-]+/g, " ").trim();
  return words === "" ? name : words[0]?.toUpperCase() + words.slice(1);
}

class DeclaredTool implements Tool<DeclaredToolExtra> {
  readonly name: string;
  readonly locale: Locale;
  readonly version: string = VERSION;
  readonly sideEffects: readonly SideEffect[];
  readonly #spec: ToolSpec;
  readonly #context: CallContext;
  /** The secrets of every call: the manifest's env values and the --env pairs' values. */
  readonly #redactor: Redactor;

  constructor(spec: ToolSpec, context: CallContext) {
    [this.name, this.locale, this.sideEffects] = [spec.name, context.locale, [spec.sideEffect]];
    [this.#spec, this.#context] = [spec, context];
    this.#redactor = new Redactor(callSecrets(secretEnv(spec), context.env));
  }

  // What a model or a person reads of the tool (its title, description, schemas, help and the
  // definitions built from them) never shows one of its secrets: each comes redacted from here.
  displayName(): string {
    return this.#redactor.text(this.#spec.title ?? humanize(this.name));
  }

  description(): string {
    return this.#redactor.text(this.#spec.description);
  }

  help(): string {
    const schema = "```json\n" + JSON.stringify(this.inputSchema(), null, 2) + "\n```";
    return this.#context.words.t("tool.help", {
      title: this.displayName(),
      ...this.#said(),
      ms: this.#context.timeoutMs ?? this.#spec.timeoutMs,
      schema,
    });
  }

  systemPrompt(): string {
    return this.#context.words.t("tool.system_prompt", this.#said());
  }

  /** The name, the description as a sentence, the side effect in words. */
  #said(): { name: string; description: string; effect: string } {
    const external = this.#spec.sideEffect === "external";
    const effect = this.#context.words.t(external ? "effect.external" : "effect.process");
    // The description as a sentence.
    const text = this.description().trim();
    return { name: this.name, description: /[.!?…]$/.test(text) ? text : `${text}.`, effect };
  }

  inputSchema(): Record<string, unknown> {
    // A copy, secrets hidden (the gate validates with the schema as declared).
    return this.#redactor.value(this.#spec.inputSchema) as Record<string, unknown>;
  }

  outputSchema(): Record<string, unknown> {
    return this.#redactor.value(this.#spec.outputSchema ?? OUTPUT_SCHEMA) as Record<string, never>;
  }

  definition<F extends DefinitionFormat>(format: F): ToolDefinitions[F] {
    const external = this.#spec.sideEffect === "external";
    return definitionOf(this, format, external, this.#spec.outputSchema && this.outputSchema());
  }

  toService(): ToolService {
    return async (input) => {
      const output = await (await this.execution(input)).execute();
      // What outputSchema() describes: the structured result when the tool declares its schema.
      return output.structuredContent ?? { result: output.result };
    };
  }

  async execution(
    args: unknown,
    options: ExecutionOptions = {},
  ): Promise<Execution<DeclaredToolExtra>> {
    const spec = this.#spec;
    const words = this.#context.words;
    if (jsonKind(args) !== "object") {
      const reason = words.t("input.must_be_object", { found: words.say(foundPhrase(args)) });
      throw this.#refused(words.t("schema.root"), reason);
    }
    await this.#gate(args);
    const stdin = options.encodedInput ?? new TextEncoder().encode(JSON.stringify(args));
    // Each argument taken from the input is filled in before the preview, so that what is
    // approved is what runs; a value the argument rules refuse is a refusal of the input.
    const filled = spec.inputArguments === undefined
      ? { argv: spec.command, fromInput: undefined }
      : fillArguments(spec.command, spec.inputArguments, args as never, stdin);
    if ("pointer" in filled) throw this.#refused(filled.pointer, words.say(filled.reason));
    return new Execution(spec.name, args, (sinks) => this.#run(args, filled, stdin, sinks));
  }

  #refused(pointer: string, reason: string): ToolError {
    const tool = JSON.stringify(this.name);
    const message = this.#context.words.t("input.refused", { tool, pointer, reason });
    return ToolError.user("invalid_input", this.#redactor.text(message), { tool: this.name });
  }

  /**
   * The schema gate: a refusal is user-facing; a schema that cannot compile (the input's, or the
   * output's, checked here so that nothing runs whose output could not be checked) is the
   * operator's.
   */
  async #gate(input: unknown): Promise<void> {
    const spec = this.#spec;
    const gate = { cacheDir: this.#context.cacheDir };
    if (spec.outputSchema !== undefined) {
      const reason = await schemaProblem({ name: spec.name, inputSchema: spec.outputSchema }, gate);
      if (reason !== undefined) throw this.#unusable("output_schema", reason);
    }
    try {
      await validateInput(spec, input, gate);
    } catch (error) {
      if (!(error instanceof BasisError)) throw error;
      if (error.code === "invalid_input") {
        const message = this.#redactor.text(error.wordedIn(this.#context.words));
        throw ToolError.user("invalid_input", message, { tool: spec.name, cause: error });
      }
      if (error.code !== "manifest_invalid") throw error;
      throw this.#unusable("input_schema", await schemaProblem(spec, gate), error);
    }
  }

  /** A schema that cannot compile: the operator's problem, in English for logs, as a phrase too. */
  #unusable(field: string, reason: Phrase | undefined, cause?: BasisError): ToolError {
    const spec = this.#spec;
    // Reason undefined: the schema compiled after all; the validator's own words then.
    const why = reason ?? cause?.phrase ?? phrase("join.one", { item: cause?.message ?? field });
    const said = phrase("manifest.schema_unusable", {
      file: spec.file,
      tool: phrase("manifest.tool", { tool: JSON.stringify(spec.name) }),
      field,
      reason: why,
    });
    return ToolError.internal(said, { code: "manifest_invalid", tool: spec.name, cause });
  }

  /**
   * One call: the program that will really run (found with the environment it gets: what the
   * approver is shown and a rule pins), the sandbox plan (checked against the user's policy before
   * anyone is asked), the preview; then the pipeline. A call that cannot start ends here, recorded
   * as a run that did not start: nothing needs approving.
   */
  async #run(
    input: unknown,
    { argv, fromInput }: { argv: readonly string[]; fromInput: InputSlot[] | undefined },
    stdin: Uint8Array,
    sinks: Sinks,
  ): Promise<ToolOutput<DeclaredToolExtra>> {
    const [spec, context, redactor] = [this.#spec, this.#context, this.#redactor];
    const label = context.words.t("label.tool", { tool: JSON.stringify(spec.name) });
    // The real directory: one spelling for the preview and rules, whatever -C or the manifest
    // said (the program sees the same directory either way).
    const cwd = canonicalPath(spec.cwd);
    const run: RunRequest = {
      program: spec.program,
      args: argv.slice(1),
      cwd,
      stdin,
      env: [context.env, spec.env],
      timeoutMs: context.timeoutMs ?? spec.timeoutMs,
      ...(spec.successExitCodes && { successExitCodes: spec.successExitCodes }),
    };
    const request = {
      tool: spec.name,
      sideEffect: spec.sideEffect,
      source: spec.scope,
      stdin,
      env: spec.env,
      ...(fromInput && { fromInput }),
      ...(spec.files && { files: spec.files }),
    };
    const notStarted = async (failure: Parameters<typeof startFailureResult>[1]) => {
      const result = startFailureResult(run, failure, redactor.secrets);
      recordRun(context, { request, redactor }, result);
      return await this.#outcome(result, label);
    };
    const resolved = resolveRunProgram(run, context.programs);
    if (!resolved.ok) return await notStarted(resolved);
    const program = resolved.path;
    const caller = { kind: "tool", grants: spec.sandbox } as const;
    const root = context.root ?? cwd;
    const plan = await planSandbox({ caller, root, cwd, program }, context.sandbox);
    const other = (reason: Phrase) => notStarted({ failure: "other", path: program, reason });
    if (plan.kind === "unavailable") return await other(plan.reason);
    const shown = { ...spec, command: argv, cwd };
    const preview = toolPreview(shown, { program, sandbox: previewSandbox(plan)! }, input);
    return await carryOut(context, {
      label,
      redactor,
      workspace: context.root ?? spec.cwd,
      plan,
      request: { ...request, preview },
      start: (wrap, sinks) =>
        runProgram({ ...run, program, ...(wrap && { sandbox: wrap }) }, {
          // A structured result or content is read whole: any number of lines (the runner's caps
          // otherwise).
          ...((spec.outputSchema || spec.output) && { maxLines: Infinity }),
          secrets: redactor.secrets,
          spillDir: context.spillDir || undefined,
          ...sinks,
        }),
      outcome: (result) => this.#outcome(result, label),
      notStarted: other,
    }, sinks);
  }

  async #outcome(result: RunResult, label: string): Promise<ToolOutput<DeclaredToolExtra>> {
    // The run came redacted from the runner; what is worded around it is hidden here.
    const hide = (text: string) => this.#redactor.text(text);
    const words = this.#context.words;
    const metadata = { durationMs: result.durationMs, extra: { run: result } };
    const code = failureCode(result);
    if (code !== undefined) {
      const output = (message: string) => textOutput(message, metadata);
      const printed = result.stdout.trim() === "" ? undefined : modelResult(result, label, words);
      throw runFailed(code, this.name, result, label, words, output, printed, hide);
    }
    if (this.#spec.outputSchema !== undefined || this.#spec.output === "content") {
      return await this.#whole(result, label, metadata);
    }
    return textOutput(hide(modelResult(result, label, words)), metadata);
  }

  /**
   * A successful run of a tool whose stdout is read whole: a structured result or content blocks.
   * Output beyond the cap, or that is not what the tool declares, is a failure naming what is
   * wrong, as a refused input is.
   */
  async #whole(
    result: RunResult,
    label: string,
    metadata: ToolOutput<DeclaredToolExtra>["metadata"],
  ): Promise<ToolOutput<DeclaredToolExtra>> {
    const [words, redactor] = [this.#context.words, this.#redactor];
    const fail = (message: string, shown = metadata): never => {
      const text = redactor.text(message);
      const output = textOutput(text, shown);
      throw ToolError.user("invalid_output", text, { tool: this.name, output });
    };
    if (result.stdoutTruncated) {
      const params = {
        label,
        size: formatSize(DEFAULT_MAX_BYTES, words),
        bytes: result.stdoutBytes,
      };
      fail(
        result.spillPath === undefined
          ? words.t("output.too_large", params)
          : words.t("output.too_large_spilled", { ...params, path: result.spillPath }),
      );
    }
    if (this.#spec.outputSchema !== undefined) {
      return await this.#structured(result, label, metadata, fail);
    }
    const cacheDir = this.#context.cacheDir;
    const read = await readContent(result.stdout, this.name, { redactor, words, cacheDir });
    // What stdout is shown as: the output with the secrets in its parsed value hidden too.
    const shown = read?.shown === undefined
      ? metadata
      : { ...metadata, extra: { run: { ...result, stdout: read.shown } } };
    if (read === undefined) {
      return textOutput(redactor.text(printedNothing(result, label, words)), metadata);
    }
    if ("refused" in read) return fail(words.say(read.refused), shown);
    return { result: read.text, content: read.blocks, metadata: shown };
  }

  /**
   * A tool with an output schema: stdout must be a JSON object matching it (the result is that
   * JSON as text, the object its structured content).
   */
  async #structured(
    result: RunResult,
    label: string,
    metadata: ToolOutput<DeclaredToolExtra>["metadata"],
    fail: (message: string) => never,
  ): Promise<ToolOutput<DeclaredToolExtra>> {
    const [spec, words, redactor] = [this.#spec, this.#context.words, this.#redactor];
    let value: Record<string, unknown>;
    try {
      const schema = { name: spec.name, outputSchema: spec.outputSchema! };
      value = await validateOutput(schema, result.stdout, { cacheDir: this.#context.cacheDir });
    } catch (error) {
      if (!(error instanceof BasisError) || error.code !== "invalid_output") throw error;
      return fail(error.wordedIn(words));
    }
    // Matched in the parsed value too: a secret the program wrote JSON-escaped ("\u00e4") is
    // hidden there, and the text (result, stdout) is then that value's JSON.
    const shown = redactor.value(value) as Record<string, unknown>;
    const text = JSON.stringify(shown);
    if (redactor.active && text !== JSON.stringify(value)) {
      const extra = { run: { ...result, stdout: text } };
      return { ...textOutput(text, { ...metadata, extra }), structuredContent: shown };
    }
    const output = textOutput(redactor.text(modelResult(result, label, words)), metadata);
    return { ...output, structuredContent: value };
  }
}
