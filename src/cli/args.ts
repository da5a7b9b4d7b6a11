/**
 * A small argument parser: options that shape a whole run are accepted before or after the command
 * name, `--name=value` and `--name value` both work, `--` ends the options, and anything unknown is
 * a usage error. Hand-written because a general parser costs start-up time on every call.
 *
 * @module
 */

import { BasisError } from "../errors.ts";
import type { MessageKey } from "../locale/en_us.ts";
import { listOf, phrase } from "../locale/messages.ts";
import { nearWords } from "../suggest.ts";

/** How an option takes its value. */
export type OptionKind = "boolean" | "string" | "list";

/** One option a command accepts. */
export interface OptionSpec {
  /** The long name without dashes (`config-dir`). */
  name: string;
  kind: OptionKind;
  /** A one-letter alias without the dash (`C`). */
  short?: string;
}

/** The parsed command line. */
export interface ParsedArgs {
  /** The command name, or `undefined` when none was given. */
  command: string | undefined;
  /** Positional arguments after the command name. */
  positionals: string[];
  /** Option values by long name: `true` for booleans, the last value for strings, every value for lists. */
  options: Map<string, string | boolean | string[]>;
}

/**
 * Parses `argv` against the options every command accepts plus those of the command named in it.
 *
 * @param argv The arguments after the program name.
 * @param global Options accepted by every command.
 * @param perCommand Options accepted by one command, keyed by the command name.
 * @param onCommand Called with the command name as soon as it is read (it may throw: an unknown
 *   command is reported before the options after it).
 * @returns The command, its positionals and its options.
 * @throws {BasisError} `usage` for an unknown option or a missing option value.
 * @example Options before and after the command
 * ```ts
 * import { parseArgs } from "./args.ts";
 * const parsed = parseArgs(["--json", "call", "echo", "-C", "dir"], [
 *   { name: "json", kind: "boolean" },
 *   { name: "workspace", kind: "string", short: "C" },
 * ], {});
 * console.assert(parsed.command === "call" && parsed.options.get("workspace") === "dir");
 * ```
 */
export function parseArgs(...args: Parameters<typeof scanArgs>): ParsedArgs {
  const parsed = scanArgs(...args);
  if (parsed.error !== undefined) throw parsed.error;
  return parsed;
}

/**
 * The text given to an option that takes one.
 *
 * @param options The parsed options.
 * @param name The option's long name.
 * @returns Its value, or `undefined` when it was not given.
 */
export function optionText(options: ParsedArgs["options"], name: string): string | undefined {
  const value = options.get(name);
  return typeof value === "string" ? value : undefined;
}

/**
 * {@linkcode parseArgs} in one pass that never stops: the first error is kept and the scan goes on,
 * so that what shapes the report of that error (`--json`, `--locale`, the tool of `call`) is read
 * from the same pass.
 *
 * @param argv The arguments after the program name.
 * @param global Options accepted by every command.
 * @param perCommand Options accepted by one command, keyed by the command name.
 * @param onCommand Called with the command name as soon as it is read (what it throws is kept).
 * @returns What was parsed, and the first error.
 */
export function scanArgs(
  argv: readonly string[],
  global: readonly OptionSpec[],
  perCommand: Readonly<Record<string, readonly OptionSpec[]>>,
  onCommand?: (command: string) => void,
): ParsedArgs & { error: BasisError | undefined } {
  const options = new Map<string, string | boolean | string[]>();
  const positionals: string[] = [];
  let command: string | undefined;
  let specs = global;
  let onlyPositionals = false;
  let error: BasisError | undefined;
  const fail = (key: MessageKey, option: string) =>
    error ??= BasisError.of("usage", phrase(key, { option }));
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (onlyPositionals || arg === "-" || !arg.startsWith("-")) {
      if (command !== undefined || onlyPositionals) positionals.push(arg);
      else {
        command = arg;
        try {
          onCommand?.(arg);
          specs = [...global, ...(Object.hasOwn(perCommand, arg) ? perCommand[arg] ?? [] : [])];
        } catch (thrown) {
          if (!(thrown instanceof BasisError)) throw thrown;
          error ??= thrown;
        }
      }
      continue;
    }
    if (arg === "--") {
      onlyPositionals = true;
      continue;
    }
    // `--name[=value]`, or `-X[[=]value]`.
    const long = arg.startsWith("--");
    const eq = long ? arg.indexOf("=") : -1;
    const name = long ? arg.slice(2, eq === -1 ? undefined : eq) : arg.slice(1, 2);
    const inline = long
      ? (eq === -1 ? undefined : arg.slice(eq + 1))
      : (arg.length > 2 ? arg.slice(2).replace(/^=/, "") : undefined);
    const spec = specs.find((s) => (long ? s.name : s.short) === name);
    if (spec === undefined) {
      error ??= unknownOption(arg, specs, command, perCommand);
      continue;
    }
    const option = `"--${spec.name}"`;
    const value = spec.kind === "boolean" ? inline : inline ?? argv[++i];
    if (spec.kind === "boolean") {
      if (value !== undefined) fail("cli.option_no_value", option);
      else options.set(spec.name, true);
    } else if (value === undefined) fail("cli.option_missing_value", option);
    else if (spec.kind === "string") options.set(spec.name, value);
    else options.set(spec.name, [...(options.get(spec.name) as string[] | undefined ?? []), value]);
  }
  return { command, positionals, options, error };
}

/**
 * An option this command does not take: the close ones suggested ("did you mean"), or the commands
 * that take it named.
 */
function unknownOption(
  arg: string,
  specs: readonly OptionSpec[],
  command: string | undefined,
  perCommand: Readonly<Record<string, readonly OptionSpec[]>>,
): BasisError {
  const written = arg.split("=")[0]!;
  const option = JSON.stringify(written);
  const name = written.slice(2);
  const quoted = (names: string[]) => listOf(names.map((n) => JSON.stringify(n)), "join.or");
  if (written.startsWith("--") && written.length > 3) {
    const near = nearWords(name, specs.map((spec) => spec.name), 2, { prefix: true });
    if (near.length > 0) {
      const names = quoted(near.map((n) => `--${n}`));
      return BasisError.of("usage", phrase("cli.unknown_option_near", { option, names }));
    }
    const takers = Object.keys(perCommand).filter((other) =>
      perCommand[other]?.some((spec) => spec.name === name)
    );
    if (command !== undefined && takers.length > 0) {
      const commands = quoted(takers);
      const params = { option, command: JSON.stringify(command), name: command, commands };
      return BasisError.of("usage", phrase("cli.option_of_other", params));
    }
  }
  return BasisError.of("usage", phrase("cli.unknown_option", { option }));
}
