/**
 * The CLI: parse the arguments, run one command, turn user errors into one line and an exit code.
 * Bugs are not caught here; they keep their stack trace.
 *
 * @module
 */

import { BasisError, formatProblem, ManifestError } from "../errors.ts";
import { type EnvLookup, readEnv } from "../paths.ts";
import { VERSION } from "../version.ts";
import { parseArgs } from "./args.ts";
import { exitCodeFor } from "./exit_codes.ts";
import { helpText, isCommand } from "./help.ts";
import { failedCall } from "./commands/_call_json.ts";
import { err, out, outJson, OutputClosed } from "./output.ts";
import { COMMAND_OPTIONS, GLOBAL_OPTIONS, resolveSettings, type Settings } from "./settings.ts";

/**
 * Runs the CLI with the given arguments and returns the exit code. Never calls `Deno.exit`.
 *
 * @param argv The arguments after the program name.
 * @param env How to read variables. @default readEnv
 * @returns The exit code.
 */
export async function runCli(argv: readonly string[], env: EnvLookup = readEnv): Promise<number> {
  // Known before parsing can fail, so that even a usage error is reported in the promised shape.
  const json = argv.includes("--json");
  const call = callNamed(argv);
  try {
    const args = parseArgs(argv, GLOBAL_OPTIONS, COMMAND_OPTIONS);
    if (args.options.get("version") === true) {
      out(`basis-tools ${VERSION}\n`);
      return 0;
    }
    if (args.command !== undefined && !isCommand(args.command)) {
      throw new BasisError("usage", `Unknown command "${args.command}": see basis-tools --help`);
    }
    if (args.options.get("help") === true) {
      out(helpText(args.command) + "\n");
      return 0;
    }
    if (args.command === undefined) {
      err(helpText(undefined) + "\n");
      return 2;
    }
    const settings = resolveSettings(args, env);
    return await dispatch(args.command, args.positionals, args.options, settings);
  } catch (error) {
    if (!(error instanceof BasisError)) throw error;
    if (!(error instanceof OutputClosed)) reportError(error, json, call);
    return exitCodeFor(error.code);
  }
}

async function dispatch(
  command: string,
  positionals: string[],
  options: Map<string, string | boolean | string[]>,
  settings: Settings,
): Promise<number> {
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
      return await checkCommand(settings);
    }
    case "call": {
      expectPositionals(command, positionals, 1, 2);
      const timeout = options.get("timeout");
      if (positionals[0] === "spawn") {
        // The built-in tool, called like a declared one: the same code as `spawn STRING`.
        const { callSpawnCommand } = await import("./commands/spawn.ts");
        return await callSpawnCommand(settings, positionals[1], {
          timeoutMs: typeof timeout === "string" ? parseTimeout(timeout) : undefined,
        });
      }
      const { callCommand } = await import("./commands/call.ts");
      return await callCommand(settings, positionals[0] as string, positionals[1], {
        timeoutMs: typeof timeout === "string" ? parseTimeout(timeout) : undefined,
      });
    }
    case "spawn": {
      expectPositionals(command, positionals, 1, 1);
      const { spawnCommand } = await import("./commands/spawn.ts");
      return await spawnCommand(settings, positionals[0] as string);
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
  }
  throw new BasisError("usage", `Unknown command "${command}": see basis-tools --help`);
}

function expectPositionals(command: string, positionals: string[], min: number, max: number) {
  if (positionals.length < min) {
    throw new BasisError("usage", `Cannot run "${command}": an argument is missing; see --help`);
  }
  if (positionals.length > max) {
    throw new BasisError(
      "usage",
      `Cannot run "${command}": unexpected argument "${positionals[max]}"; see --help`,
    );
  }
}

function parseTimeout(text: string): number {
  const value = Number(text);
  if (!/^[0-9]+$/.test(text) || !Number.isSafeInteger(value) || value <= 0) {
    throw new BasisError(
      "usage",
      `Cannot use --timeout "${text}": expected a whole number of milliseconds above 0`,
    );
  }
  return value;
}

/** For `call`, the tool named on the command line (`null` when none): its `--json` shape needs it. */
function callNamed(argv: readonly string[]): { tool: string | null } | undefined {
  const words = argv.filter((arg) => !arg.startsWith("-"));
  const at = words.indexOf("call");
  return at === -1 ? undefined : { tool: words[at + 1] ?? null };
}

function reportError(error: BasisError, json: boolean, call: { tool: string | null } | undefined) {
  const lines = error instanceof ManifestError
    ? error.problems.map(formatProblem)
    : [error.message.replaceAll("\n", " ")];
  if (json) {
    const failure = { kind: error.code, message: lines.join("\n") };
    outJson(call ? failedCall(call.tool, failure) : { ok: false, error: failure });
    return;
  }
  err(lines.map((line) => `basis-tools: ${line}\n`).join(""));
}
