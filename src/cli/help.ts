/**
 * The `--help` texts: one for the program, one per command.
 *
 * @module
 */

const GLOBAL = `Options for every command (before or after its name):
  -C, --workspace DIR     workspace root (default: nearest ancestor holding .basis/tools.json)
      --config-dir DIR    global config directory (default: $BASIS_CONFIG_DIR,
                          $XDG_CONFIG_HOME/basis, ~/.config/basis)
      --json              print JSON instead of text
      --approve POLICY    prompt | always | never (default: $BASIS_APPROVE, else prompt)
      --audit-log PATH    where decisions and runs are logged, or off (default:
                          $BASIS_AUDIT_LOG, else ~/.local/state/basis/audit.jsonl)
      --env KEY=VALUE     add a variable to every tool's environment (repeatable)
      --no-shell          spawn runs no commands (tasks for a subagent still work)
      --spawn-timeout MS  time limit of a spawn call (default 120000 for a command,
                          600000 for a subagent; at most 600000)
      --locale LOCALE     en-US | uk-UA
  -h, --help              show help
  -V, --version           show the version`;

const TOP = `basis-tools — declared programs as typed, schema-checked, approved tools

Usage: basis-tools [options] <command> [arguments]

Commands:
  list                    the roster: name, side effect, source, description
  show NAME               one tool in full (env values redacted)
  check                   validate the manifests (exit 0, or 6 with one line per problem)
  call NAME [INPUT|-]     run one tool with a JSON object as input
  spawn STRING            '!cmd' runs a command, '!@target cmd' runs it on a target,
                          anything else is a task for the configured subagent
  schema [--format F]     tool definitions for a model API: openai (default), anthropic,
                          mcp, gemini (what Gemini CLI's discoveryCommand reads)
  rules list|add|remove|check   the remembered approval rules
  permissions             the least-privilege Deno permissions for this workspace
  mcp                     serve the roster to an MCP client over stdio

${GLOBAL}

Exit codes: 0 ok, 1 tool failed, 2 usage, 3 timed out, 4 input refused, 5 denied,
6 manifest invalid, 130 interrupted.`;

const COMMANDS: Readonly<Record<string, string>> = {
  list: `Usage: basis-tools list [--json]

Lists the roster: workspace tools by name, then global tools the workspace does not shadow.`,
  show: `Usage: basis-tools show NAME [--json]

Shows one tool in full: description, command, cwd, env names (values redacted), side effect,
timeout, input schema and the file that declares it.`,
  check: `Usage: basis-tools check [--json]

Validates the workspace and global manifests, including every tool's input schema, and the
spawn configuration (spawn.json in the config directory).
Exits 0, or 6 with one line per problem.`,
  call: `Usage: basis-tools call NAME [INPUT|-] [--timeout MS] [--json] [--env KEY=VALUE]...

Runs one tool. INPUT is a JSON object; '-', or no INPUT while stdin is piped, reads it from stdin;
no INPUT at a terminal means {}. The input is checked against the tool's schema, the call is
approved (--approve), then the program gets the input as compact JSON on stdin and its output is
streamed through. With --json, prints one object:
{tool, ok, result, stdout, stderr, exit_code, signal, timed_out, truncated, duration_ms, error}.

  --timeout MS            override the tool's timeout_ms for this call`,
  spawn: `Usage: basis-tools spawn STRING [--json] [--no-shell] [--spawn-timeout MS]

The built-in spawn tool (also callable as: basis-tools call spawn '{"input":"!ls"}').
  !<command>            runs the command with /bin/sh -c in the workspace root, in its own
                        process group, with only PATH, HOME, LANG and the --env pairs set
  !@<target> <command>  runs it on a target from spawn.json: the target's argv with the
                        command appended as one argument
  !!<text>              a task that starts with '!'
  <text>                a task for the subagent from spawn.json (text on its stdin, answer on
                        its stdout); refused at delegation depth max_depth (default 2)
Output streams through; each stream is kept up to 64 KiB for --json, which prints
{ok, mode, target, result, stdout, stderr, exit_code, error, stdout_truncated,
stderr_truncated, duration_ms}. Configuration: spawn.json in the config directory,
{"agent": [argv], "targets": {"name": [argv prefix]}, "max_depth": 2}.`,
  permissions: `Usage: basis-tools permissions [--format flags|json|deno-json|compile] [--no-shell]

Derives from the manifests the least-privilege Deno permissions for this workspace: --allow-run
for the absolute path of every declared program (bare names found on PATH now), the kill program
that stops a timed-out tool's process group, /bin/sh for spawn commands (not with --no-shell) and
spawn's targets and subagent; --allow-read for the workspace, the config and cache directories and
the files looked at to find each program; --allow-write for the config, cache and state
directories; --allow-env for the variables basis-tools reads and the \${VAR}s the manifests use;
--no-prompt. Warnings go to stderr: programs that cannot be found (left out) and grants that
defeat confinement (shells, env, xargs, interpreters, ...).

  --format flags          one line of deno flags to paste (default; json with --json)
  --format json           {flags, read, write, env, run, programs, warnings}
  --format deno-json      a "permissions" set for deno.json (deno run -P, Deno 2.5 or later)
  --format compile        a deno compile command for a binary confined to this workspace`,
  mcp: `Usage: basis-tools mcp [--approve prompt|always|never] [-C DIR]

Serves the roster (declared tools and spawn) to an MCP client over stdio: stdout carries the
protocol only, logs go to stderr. Calls go through the same schema gate, rules and approval as
call. A call no rule answers is put to the person through the client (elicitation) when the
client supports it; otherwise it is denied, unless --approve always. --approve never denies
without asking. Edits to the manifests and spawn.json reload the roster (a broken edit keeps the
last good one). The server ends, stopping every running call, when the client closes stdin.`,
  schema: `Usage: basis-tools schema [--format openai|anthropic|mcp|gemini] [--locale LOCALE]

Prints the definitions of the roster's tools (declared tools, then spawn) as one JSON array, in
the shape a model API takes:
  openai      {"type": "function", "function": {name, description, parameters}} (default)
  anthropic   {name, description, input_schema}
  mcp         {name, title, description, inputSchema, annotations}
  gemini      {name, description, parametersJsonSchema}
--locale changes the texts of the built-in spawn tool, never names or schemas.

Gemini CLI (settings.json): "tools": {"discoveryCommand": "basis-tools schema --format gemini",
"callCommand": "basis-tools call"}; Gemini CLI runs the call command with the tool's name as its
first argument and the arguments as JSON on stdin, and reads the result from stdout.`,
  rules: `Usage: basis-tools rules list [--json]
       basis-tools rules add --tool NAME [--pattern P] [--deny] [--reason TEXT] [--global]
                             [--match PREVIEW]... [--not-match PREVIEW]...
       basis-tools rules remove ID
       basis-tools rules check

Remembered rules live in rules.json in the config directory (never in a workspace). A rule covers
every call of its tool, or only the calls whose preview (compact JSON) matches its pattern: * is
any run of characters, ? one character, anything else literal, anchored at both ends. A rule with
a pattern beats one without; among equals, deny beats allow. Rules are scoped to the current
workspace unless --global is given. --match/--not-match are example previews checked against the
pattern when the rule is added and by rules check.`,
};

/**
 * The help text for the program or one command.
 *
 * @param command The command, or `undefined` for the program's help.
 * @returns The text, ending with the options every command takes.
 */
export function helpText(command: string | undefined): string {
  if (command === undefined || !Object.hasOwn(COMMANDS, command)) return TOP;
  return `${COMMANDS[command]}\n\n${GLOBAL}`;
}

/**
 * Whether a command exists.
 *
 * @param command A command name.
 * @returns True for the commands this program answers to.
 */
export function isCommand(command: string): boolean {
  return Object.hasOwn(COMMANDS, command);
}
