/**
 * The CLI: parse the arguments, run one command, turn user errors into one line and an exit code.
 * Bugs are not caught here; they keep their stack trace.
 *
 * @module
 */

import { callSecrets, redactorOf } from "../redact.ts";
import { BasisError, errorLines } from "../errors.ts";
import { type EnvLookup, readEnv } from "../paths.ts";
import { VERSION } from "../version.ts";
import { optionText, scanArgs } from "./args.ts";
import { exitCodeFor } from "./exit_codes.ts";
import { helpText, isCommand, nearCommands } from "./help.ts";
import { callJson } from "./commands/_call_json.ts";
import { err, out, outJson } from "./output.ts";
import { passLineageOn } from "../spawn/lineage.ts";
import { catalogue, listOf, loadLocale, messages, phrase } from "../locale/messages.ts";
import {
  cliLocale,
  COMMAND_OPTIONS,
  GLOBAL_OPTIONS,
  milliseconds,
  resolveSettings,
  type Settings,
} from "./settings.ts";

/** How the program was started, beside its arguments. */
export interface CliMode {
  /**
   * Started as Gemini CLI's `callCommand` (the binary named `basis-tools-call`): `argv` is
   * `call`'s, and Gemini CLI's own `wait_for_previous` argument is dropped from the input.
   */
  gemini?: boolean;
}

/**
 * The arguments for a program started under the name `name`: as `basis-tools-call` (Gemini CLI's
 * `callCommand`, which runs one program with the tool's name as its only argument) they are
 * `call`'s, quiet, printing the result a model reads; otherwise they are as given.
 *
 * @param name The name the program was started as (its argv[0], or the path of the executable).
 * @param args The arguments after it.
 * @returns The arguments for {@linkcode runCli}, and its mode.
 *
 * @example Gemini CLI calls a tool
 * ```ts
 * import { argvFor } from "./run_cli.ts";
 * const { argv, mode } = argvFor("/usr/local/bin/basis-tools-call", ["word_count"]);
 * console.assert(argv.join(" ") === "call word_count --quiet --result" && mode.gemini === true);
 * ```
 */
export function argvFor(
  name: string,
  args: readonly string[],
): { argv: readonly string[]; mode: CliMode } {
  const base = name.slice(Math.max(name.lastIndexOf("/"), name.lastIndexOf("\\")) + 1);
  // The name that makes the binary `call --quiet --result` (Gemini CLI's callCommand).
  if (!/^basis-tools-call(?:\.exe)?$/i.test(base)) return { argv: args, mode: {} };
  return { argv: ["call", ...args, "--quiet", "--result"], mode: { gemini: true } };
}

/** How many positional arguments each command takes, at least and at most (`rules`: any). */
const ARITY: Readonly<Record<string, readonly [number, number]>> = {
  show: [1, 1],
  call: [1, 2],
  spawn: [1, 1],
  rules: [0, Infinity],
  completion: [1, Infinity],
};

/**
 * Runs the CLI with the given arguments and returns the exit code. Never calls `Deno.exit`.
 *
 * @param argv The arguments after the program name.
 * @param env How to read variables. @default readEnv
 * @param mode How the program was started. @default {}
 * @returns The exit code.
 */
export async function runCli(
  argv: readonly string[],
  env: EnvLookup = readEnv,
  mode: CliMode = {},
): Promise<number> {
  // One pass over the arguments; a usage error is kept, so that it is reported in the shape and
  // the language the rest of the command line asks for.
  const args = scanArgs(argv, GLOBAL_OPTIONS, COMMAND_OPTIONS, (command) => {
    if (!isCommand(command)) throw unknownCommand(command);
  });
  const { command, positionals, options } = args;
  const json = options.get("json") === true;
  const locale = cliLocale(args, env);
  // The --env values are secrets of every call: no error line may show them, whatever it quotes.
  let secrets: readonly string[] = [];
  try {
    if (args.error !== undefined) throw args.error;
    if (options.get("version") === true) {
      if (json) outJson({ name: "basis-tools", version: VERSION, deno: Deno.version.deno });
      else out(`basis-tools ${VERSION}\n`);
      return 0;
    }
    const help = options.get("help") === true;
    if (help && command === "call" && positionals[0] !== undefined) {
      // call NAME --help: that tool's description and input fields, from the roster.
      expectPositionals("call", positionals, 1, 1);
      const settings = resolveSettings(args, env, locale);
      await loadLocale(locale);
      const { toolHelpCommand } = await import("./commands/_all.ts");
      return await toolHelpCommand(settings, positionals[0]);
    }
    if (help || command === undefined || command === "help") {
      const topic = command === "help" ? positionals[0] : command;
      if (command === "help") expectPositionals("help", positionals, 0, 1);
      if (topic !== undefined && !isCommand(topic)) throw unknownCommand(topic);
      await loadLocale(locale);
      // Asked for: on stdout; no command at all: on stderr, a usage error.
      const asked = help || command === "help";
      (asked ? out : err)(helpText(topic, catalogue(locale)) + "\n");
      return asked ? 0 : 2;
    }
    const settings = resolveSettings(args, env, locale);
    // What this run inherited reaches what it starts, whatever clears their environment.
    passLineageOn(settings);
    secrets = callSecrets(settings.env);
    await loadLocale(locale);
    const [min, max] = ARITY[command] ?? [0, 0];
    if ((command === "call" || command === "spawn") && positionals.length > max) {
      // More than one INPUT or STRING: a shell split unquoted text at its spaces.
      const count = positionals.length - max + 1;
      const args = { count, arguments: { count, forms: "count.arguments" as const } };
      throw BasisError.of("usage", phrase(`cli.split_${command}`, args));
    }
    expectPositionals(command, positionals, min, max);
    return await dispatch(command, positionals, options, settings, mode);
  } catch (error) {
    if (!(error instanceof BasisError)) throw error;
    // A misuse of the tool contract is a bug: it keeps its stack trace.
    if (error.code === "internal") throw error;
    await loadLocale(locale);
    const lines = errorLines(error, messages(locale)).map((line) => redactorOf(secrets).text(line));
    if (json) {
      const failure = { kind: error.code, message: lines.join("\n") };
      // For `call`, the tool named on the command line (`null` when none): its `--json` needs it.
      const tool = positionals[0] === undefined ? null : redactorOf(secrets).text(positionals[0]);
      outJson(command === "call" ? callJson(tool, failure) : { ok: false, error: failure });
    } else {
      err(lines.map((line) => `basis-tools: ${line}\n`).join(""));
    }
    return exitCodeFor(error.code);
  }
}

function unknownCommand(command: string): BasisError {
  const near = nearCommands(command).map((name) => JSON.stringify(name));
  const quoted = JSON.stringify(command);
  return BasisError.of(
    "usage",
    near.length === 0
      ? phrase("cli.unknown_command", { command: quoted })
      : phrase("cli.unknown_command_near", { command: quoted, names: listOf(near, "join.or") }),
  );
}

async function dispatch(
  command: string,
  positionals: string[],
  options: Map<string, string | boolean | string[]>,
  settings: Settings,
  mode: CliMode,
): Promise<number> {
  // The MCP SDK is reachable only through this import: no other command loads it.
  if (command === "mcp") {
    const { mcpCommand } = await import("./commands/mcp.ts");
    return await mcpCommand(settings, optionText(options, "http"));
  }
  const text = (name: string) => optionText(options, name);
  const flag = (name: string) => options.get(name) === true;
  const [first = "", second] = positionals;
  const timeout = text("timeout");
  const call = () => ({
    timeoutMs: timeout === undefined ? undefined : milliseconds("timeout", timeout),
    dryRun: flag("dry-run"),
    quiet: flag("quiet"),
    result: flag("result"),
    gemini: mode.gemini === true,
  });
  // `list` on its own: it loads the manifest's readers, not the call pipeline the others share;
  // `call` and `spawn` on theirs: the pipeline without the other commands.
  if (command === "list") return await (await import("./commands/list.ts")).listCommand(settings);
  if (command === "call" || command === "spawn") {
    const { callCommand } = await import("./commands/call.ts");
    const [tool, input] = command === "call" ? [first, second] : [undefined, first];
    return await callCommand(settings, tool, input, call());
  }
  const c = await import("./commands/_all.ts");
  const commands: Record<string, () => Promise<number>> = {
    show: () => c.showCommand(settings, first),
    check: () => c.checkCommand(settings, { strict: flag("strict") }),
    init: () => c.initCommand(settings),
    schema: () => c.schemaCommand(settings, text("format")),
    rules: () => c.rulesCommand(settings, positionals, options),
    permissions: () => c.permissionsCommand(settings, text("format")),
    completion: () => c.completionCommand(settings, positionals),
  };
  return await commands[command]!();
}

function expectPositionals(command: string, positionals: string[], min: number, max: number) {
  const quoted = `"${command}"`;
  if (positionals.length < min) {
    throw BasisError.of("usage", phrase("cli.missing_argument", { command: quoted }));
  }
  if (positionals.length > max) {
    const argument = `"${positionals[max]}"`;
    throw BasisError.of("usage", phrase("cli.unexpected_argument", { command: quoted, argument }));
  }
}
