/**
 * The CLI: parse the arguments, run one command, turn user errors into one line and an exit code.
 * Bugs are not caught here; they keep their stack trace.
 *
 * @module
 */

import { callSecrets, redact } from "../redact.ts";
import { BasisError, errorLines } from "../errors.ts";
import { type EnvLookup, readEnv } from "../paths.ts";
import { VERSION } from "../version.ts";
import { parseArgs } from "./args.ts";
import { exitCodeFor } from "./exit_codes.ts";
import { helpText, isCommand, nearCommands } from "./help.ts";
import { failedCall } from "./commands/_call_json.ts";
import { err, out, outJson } from "./output.ts";
import { passLineageOn } from "../spawn/lineage.ts";
import type { Locale } from "../locale/locale.ts";
import type { Catalogue } from "../locale/en_us.ts";
import { listOf, phrase } from "../locale/messages.ts";
import { cliMessages } from "./_cli_messages.ts";
import {
  cliLocale,
  COMMAND_OPTIONS,
  GLOBAL_OPTIONS,
  millisecondsError,
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

/** The name that makes the binary `basis-tools call --quiet --result` (Gemini CLI's callCommand). */
export const CALL_PROGRAM = "basis-tools-call";

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
  if (base.replace(/\.exe$/i, "").toLowerCase() !== CALL_PROGRAM) return { argv: args, mode: {} };
  return { argv: ["call", ...args, "--quiet", "--result"], mode: { gemini: true } };
}

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
  // Known before parsing can fail, so that even a usage error is reported in the promised shape.
  const json = argv.includes("--json");
  const call = callNamed(argv);
  const locale = cliLocale(localeOption(argv), env);
  // The --env values are secrets of every call: no error line may show them, whatever it quotes.
  let secrets: readonly string[] = [];
  try {
    const args = parseArgs(argv, GLOBAL_OPTIONS, COMMAND_OPTIONS, (command) => {
      if (!isCommand(command)) throw unknownCommand(command);
    });
    if (args.options.get("version") === true) {
      if (json) outJson({ name: "basis-tools", version: VERSION, deno: Deno.version.deno });
      else out(`basis-tools ${VERSION}\n`);
      return 0;
    }
    const help = args.options.get("help") === true;
    if (help && args.command === "call" && args.positionals[0] !== undefined) {
      // call NAME --help: that tool's description and input fields, from the roster.
      expectPositionals("call", args.positionals, 1, 1);
      const settings = resolveSettings(args, env);
      await loadLocaleOf(settings.locale);
      const { toolHelpCommand } = await import("./commands/tool_help.ts");
      return await toolHelpCommand(settings, args.positionals[0]);
    }
    if (help || args.command === "help") {
      const topic = args.command === "help" ? args.positionals[0] : args.command;
      if (args.command === "help") expectPositionals("help", args.positionals, 0, 1);
      if (topic !== undefined && !isCommand(topic)) throw unknownCommand(topic);
      out(helpText(topic, await helpCatalogue(locale)) + "\n");
      return 0;
    }
    if (args.command === undefined) {
      err(helpText(undefined, await helpCatalogue(locale)) + "\n");
      return 2;
    }
    const settings = resolveSettings(args, env);
    // What this run inherited reaches what it starts, whatever clears their environment.
    passLineageOn(settings);
    secrets = callSecrets(settings.env);
    await loadLocaleOf(settings.locale);
    return await dispatch(args.command, args.positionals, args.options, settings, mode);
  } catch (error) {
    if (!(error instanceof BasisError)) throw error;
    // A misuse of the tool contract is a bug: it keeps its stack trace.
    if (error.code === "internal") throw error;
    await reportError(error, json, call, locale, secrets);
    return exitCodeFor(error.code);
  }
}

/** The catalogue for `--help`: English is built in; another is loaded only when it is used. */
async function helpCatalogue(locale: Locale): Promise<Catalogue | undefined> {
  if (locale === "en-US") return undefined;
  const { catalogue, loadLocale } = await import("../locale/messages.ts");
  await loadLocale(locale);
  return catalogue(locale);
}

/** English is built in; another language's catalogue is loaded only when it is used. */
async function loadLocaleOf(locale: Locale): Promise<void> {
  if (locale === "en-US") return;
  const { loadLocale } = await import("../locale/messages.ts");
  await loadLocale(locale);
}

/** The `--locale` value on the command line (before `--`), read before parsing can fail. */
function localeOption(argv: readonly string[]): string | undefined {
  let found: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === "--") break;
    if (arg === "--locale") found = argv[++i];
    else if (arg.startsWith("--locale=")) found = arg.slice("--locale=".length);
  }
  return found;
}

function unknownCommand(command: string): BasisError {
  const near = nearCommands(command);
  const quoted = JSON.stringify(command);
  return BasisError.of(
    "usage",
    near.length === 0 ? phrase("cli.unknown_command", { command: quoted }) : phrase(
      "cli.unknown_command_near",
      { command: quoted, names: listOf(near.map((name) => JSON.stringify(name)), "join.or") },
    ),
  );
}

async function dispatch(
  command: string,
  positionals: string[],
  options: Map<string, string | boolean | string[]>,
  settings: Settings,
  mode: CliMode,
): Promise<number> {
  const presentation = {
    quiet: options.get("quiet") === true,
    result: options.get("result") === true,
    gemini: mode.gemini === true,
  };
  switch (command) {
    case "list": {
      expectPositionals(command, positionals, 0, 0);
      const { listCommand } = await import("./commands/list.ts");
      return await listCommand(settings);
    }
    case "show": {
      expectPositionals(command, positionals, 1, 1);
      const { showCommand } = await import("./commands/show.ts");
      return await showCommand(settings, positionals[0] as string);
    }
    case "check": {
      expectPositionals(command, positionals, 0, 0);
      const { checkCommand } = await import("./commands/check.ts");
      return await checkCommand(settings, { strict: options.get("strict") === true });
    }
    case "init": {
      expectPositionals(command, positionals, 0, 0);
      const { initCommand } = await import("./commands/init.ts");
      return await initCommand(settings);
    }
    case "call": {
      expectPositionals(command, positionals, 1, 2);
      const timeout = options.get("timeout");
      if (positionals[0] === "spawn") {
        // The built-in tool, called like a declared one: the same code as `spawn STRING`.
        const { callSpawnCommand } = await import("./commands/spawn.ts");
        return await callSpawnCommand(settings, positionals[1], {
          timeoutMs: typeof timeout === "string" ? parseTimeout(timeout) : undefined,
          dryRun: options.get("dry-run") === true,
          ...presentation,
        });
      }
      const { callCommand } = await import("./commands/call.ts");
      return await callCommand(settings, positionals[0] as string, positionals[1], {
        timeoutMs: typeof timeout === "string" ? parseTimeout(timeout) : undefined,
        dryRun: options.get("dry-run") === true,
        ...presentation,
      });
    }
    case "spawn": {
      expectPositionals(command, positionals, 1, 1);
      const { spawnCommand } = await import("./commands/spawn.ts");
      return await spawnCommand(settings, positionals[0] as string, {
        dryRun: options.get("dry-run") === true,
        ...presentation,
      });
    }
    case "schema": {
      expectPositionals(command, positionals, 0, 0);
      const format = options.get("format");
      const { schemaCommand } = await import("./commands/schema.ts");
      return await schemaCommand(settings, typeof format === "string" ? format : undefined);
    }
    case "rules": {
      const { rulesCommand } = await import("./commands/rules.ts");
      return await rulesCommand(settings, positionals, options);
    }
    case "permissions": {
      expectPositionals(command, positionals, 0, 0);
      const format = options.get("format");
      const { permissionsCommand } = await import("./commands/permissions.ts");
      return await permissionsCommand(settings, typeof format === "string" ? format : undefined);
    }
    case "mcp": {
      expectPositionals(command, positionals, 0, 0);
      // The MCP SDK is reachable only through this import: no other command loads it.
      const { mcpCommand } = await import("./commands/mcp.ts");
      return await mcpCommand(settings);
    }
  }
  throw unknownCommand(command);
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

function parseTimeout(text: string): number {
  const value = Number(text);
  if (!/^[0-9]+$/.test(text) || !Number.isSafeInteger(value) || value <= 0) {
    throw millisecondsError("timeout", text);
  }
  return value;
}

/** For `call`, the tool named on the command line (`null` when none): its `--json` shape needs it. */
function callNamed(argv: readonly string[]): { tool: string | null } | undefined {
  const words = argv.filter((arg) => !arg.startsWith("-"));
  const at = words.indexOf("call");
  return at === -1 ? undefined : { tool: words[at + 1] ?? null };
}

async function reportError(
  error: BasisError,
  json: boolean,
  call: { tool: string | null } | undefined,
  locale: Locale,
  secrets: readonly string[],
) {
  const lines = errorLines(error, await cliMessages(locale)).map((line) => redact(line, secrets));
  if (json) {
    const failure = { kind: error.code, message: lines.join("\n") };
    const tool = call?.tool == null ? null : redact(call.tool, secrets);
    outJson(call ? failedCall(tool, failure) : { ok: false, error: failure });
    return;
  }
  err(lines.map((line) => `basis-tools: ${line}\n`).join(""));
}
