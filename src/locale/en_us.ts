/**
 * Every message of the tool contract and the CLI in US English. `{name}` marks a placeholder; the
 * Ukrainian catalogue has exactly these keys and uses exactly these placeholders. Values shown in
 * messages (tool names, paths, fields) arrive already quoted as JSON where the message quotes them.
 *
 * @module
 */

/** The US English catalogue, the fallback for every other locale. */
export const EN_US = {
  // Who a message is about.
  "label.tool": "Tool {tool}",
  "label.command": "Command",
  "label.command_on": "Command on target {target}",
  "label.subagent": "Subagent",

  // How a run ended.
  "run.timed_out": "{label} timed out after {ms} ms",
  "run.cancelled": "{label} was cancelled",
  "run.signal": "{label} was killed by signal {signal}",
  "run.exit": "{label} exited with code {code}",
  "run.not_started": "{label} could not start: {reason}",
  "run.no_reason": "no reason was given",
  "run.cut": "{text}… (cut; {size} in all)",
  "run.printed_nothing": "{label} finished and printed nothing",
  "run.interrupted": "{label} was interrupted",
  "run.interrupted_stopped": "{label} was interrupted; its process group was stopped",
  "run.cut_note": "[output cut at {size} / {lines} lines; {bytes} bytes in all]",
  "run.cut_note_spilled":
    "[output cut at {size} / {lines} lines; {bytes} bytes in all; full output: {path}]",

  // Why a program did not start.
  "start.not_on_path": "program {program} was not found on PATH",
  "start.missing": "program {program} does not exist",
  "start.directory": "program {program} is a directory",
  "start.not_executable": "program {program} is not executable (no execute permission)",
  "start.permission": "program {program} could not be executed: permission denied",
  "start.blank": "the program name is blank",
  "start.cwd_missing": "working directory {cwd} does not exist",
  "start.cwd_not_dir": "working directory {cwd} is not a directory",
  "start.sandbox": "Deno's sandbox refused to start program {program}; allow it with {flag}",

  // Sizes.
  "size.byte": "1 byte",
  "size.bytes": "{count} bytes",
  "size.kib": "{count} KiB",
  "size.mib": "{count} MiB",
  "size.gib": "{count} GiB",
  "size.tib": "{count} TiB",
  "size.decimal": ".",

  // What a value was.
  "found.null": "null",
  "found.array": "an array",
  "found.object": "an object",
  "found.string": "a string",
  "found.number": "a number",
  "found.boolean": "a boolean",
  "found.other": "a {type}",

  // Refused input.
  "input.refused": "Input refused by tool {tool}: {pointer}: {reason}",
  "input.must_be_object": "must be a JSON object, found {found}",
  "schema.refused": "Input refused by tool {tool} schema: {pointer}: {reason}",
  "schema.root": "(root)",
  "schema.required": "required property is missing",
  "schema.required_when": "required property is missing (required when {property} is present)",
  "schema.not_allowed": "property is not allowed",
  "schema.enum": "must be one of: {values}",
  "schema.enum_more": "{values}, … ({count} more)",
  "schema.const": "must be equal to {value}",
  "schema.type": "must be {types}",
  "schema.or": "or",
  "schema.false": "is not allowed",
  "schema.property_name": "property name {reason}",
  "schema.min_length": "must NOT have fewer than {limit} characters",
  "schema.max_length": "must NOT have more than {limit} characters",
  "schema.compare": "must be {comparison} {limit}",
  "schema.min_items": "must NOT have fewer than {limit} items",
  "schema.max_items": "must NOT have more than {limit} items",
  "schema.min_properties": "must NOT have fewer than {limit} properties",
  "schema.max_properties": "must NOT have more than {limit} properties",
  "schema.pattern": 'must match pattern "{pattern}"',
  "schema.format": 'must match format "{format}"',
  "schema.multiple_of": "must be multiple of {value}",
  "schema.unique": "must NOT have duplicate items (items ## {first} and {second} are identical)",
  "schema.one_of": "must match exactly one schema in oneOf",
  "schema.any_of": "must match a schema in anyOf",
  "schema.not": "must NOT be valid",
  "schema.if": 'must match "{clause}" schema',
  "schema.contains": "must contain at least {min} valid item(s)",
  "schema.too_deep": "is nested too deeply to check",
  "schema.not_json": "is not JSON data",
  "schema.invalid": "is not valid",

  // Denials.
  "denied.never": "Call of tool {tool} denied by --approve never",
  "denied.prompt": "Call of tool {tool} denied at the prompt",
  "denied.prompt_remembered": "Call of tool {tool} denied at the prompt (remembered as {rule})",
  "denied.rule": "Call of tool {tool} denied by rule {rule}",
  "denied.rule_reason": "Call of tool {tool} denied by rule {rule}: {reason}",
  "denied.no_terminal":
    "Call of tool {tool} denied: no remembered rule allows it and there is no terminal to ask; allow it with `{command}` or --approve always",
  "denied.generic": "Call of tool {tool} denied",
  "denied.rules_file": "Cannot load rules {file}: {problem}",
  "denied.rules_file_more_one": "Cannot load rules {file}: {problem} (and 1 more problem)",
  "denied.rules_file_more": "Cannot load rules {file}: {problem} (and {count} more problems)",

  // The spawn tool's input.
  "spawn.input.must_be_object":
    'must be a JSON object with a string property "input", found {found}',
  "spawn.input.missing": 'required string property "input" is missing',
  "spawn.input.not_string": "must be a string, found {found}",
  "spawn.input.extra": 'unexpected property; spawn takes only "input"',
  "spawn.input.empty":
    'is empty: write a command after "!" (for example "!cargo test") or a task to delegate',
  "spawn.input.no_command": 'has no command after "!": write one, for example "!cargo test"',
  "spawn.input.no_target":
    'names no target after "!@": write "!@<target> <command>", for example "!@builder make"',
  "spawn.input.bad_target":
    'target name {name} is not allowed: use only letters, digits, "_" and "-"',
  "spawn.input.local_target": '"!@local" is not needed: a plain "!<command>" already runs here',
  "spawn.input.target_no_command":
    'names target "{name}" but no command: write "!@{name} <command>"',

  // The spawn tool's refusals before approval.
  "spawn.guard.no_shell":
    'Spawn refused: commands are turned off (--no-shell); a task without a leading "!" can still be delegated',
  "spawn.guard.unknown_target_none":
    'Spawn refused: unknown target {target}; no targets are configured (add "targets" to {file})',
  "spawn.guard.unknown_target":
    "Spawn refused: unknown target {target}; configured targets: {names}",
  "spawn.guard.depth_unknown":
    "Spawn refused: {variable} is not a whole number, so the delegation depth is unknown; commands still work",
  "spawn.guard.depth_limit":
    'Spawn refused: this call is at delegation depth {depth} and the limit is {max}, so it cannot delegate further; commands ("!<command>") still work',
  "spawn.guard.no_agent":
    'Spawn refused: no subagent is configured; add an argv such as "agent": ["claude", "-p"] to {file} (it gets the task on stdin and answers on stdout)',

  // The spawn tool's results.
  "spawn.agent_silent": "The subagent finished without saying anything",
  "spawn.agent_failed": "The subagent failed",
  "spawn.exit_status": "{label} exited with status {code}",
  "spawn.cut_note": "[output cut at {size}; {bytes} bytes in all]",

  // How the spawn tool presents itself.
  "spawn.display_name": "Run or delegate",
  "spawn.description":
    'Run a shell command or delegate a task. "!<command>" runs the command with /bin/sh in the workspace root (for example "!cargo test"); any other text is handed to a subagent as its task. Start with "!!" for a task that itself begins with "!".',
  "spawn.description_targets":
    '"!@<target> <command>" runs the command on a configured target: {names}.',
  "spawn.system_prompt":
    'spawn: run a shell command with {"input": "!<command>"}, or delegate a task to a subagent with {"input": "<task>"} ("!!" starts a task that begins with "!"). Commands run with /bin/sh in the workspace root; each call is approved first.',
  "spawn.system_prompt_targets": 'Use "!@<target> <command>" to run on a target: {names}.',
  "spawn.help":
    '# {title} (`spawn`)\n\nRuns a shell command or hands a task to a subagent. The input is one string, `input`:\n\n- `!<command>` runs the command with `/bin/sh -c` in the workspace root, in its own process group, with only `PATH`, `HOME`, `LANG` and the configured variables in its environment; for example `{"input": "!cargo test"}`.\n{targets}- `!!<text>` is a task that itself begins with `!`.\n- Any other text is a task for the configured subagent: it gets the text on standard input and answers on standard output.\n\nThe result is the command\'s output (standard output, else standard error) or the subagent\'s answer. A command stops after {command_ms} ms and a subagent after {agent_ms} ms; each stream is kept up to 64 KiB. Every call is approved before it runs.',
  "spawn.help_targets":
    "- `!@<target> <command>` runs the command on a configured target: {names}.\n",

  // How a declared tool presents itself.
  "tool.system_prompt":
    "{name}: {description} Input: one JSON object matching its input schema. Output: what the program prints. Side effect: {effect}.",
  "tool.help":
    "# {title} (`{name}`)\n\n{description}\n\n- Side effect: {effect}\n- Time limit: {ms} ms\n\n## Input\n\nOne JSON object matching this schema, given to the program on standard input:\n\n{schema}\n\n## Output\n\nWhat the program prints on standard output. A refused input, a denial, a failure or a time-out is an error that says why.",
  "effect.process": "runs a program on this machine",
  "effect.external": "acts on systems beyond this machine",

  // The CLI's own messages.
  "cli.unknown_command": "Unknown command {command}: see basis-tools --help",
  "cli.missing_argument": "Cannot run {command}: an argument is missing; see --help",
  "cli.unexpected_argument": "Cannot run {command}: unexpected argument {argument}; see --help",
  "cli.bad_milliseconds":
    "Cannot use --{option} {value}: expected a whole number of milliseconds above 0",
  "cli.bad_format": "Cannot use --format {value}: expected one of {formats}",
  "cli.unknown_tool_near": "Cannot find tool {tool}; did you mean {names}?",
  "cli.unknown_tool_none": "Cannot find tool {tool}; no tools are declared (see basis-tools check)",
  "cli.unknown_tool_list": "Cannot find tool {tool}; see basis-tools list",
  "cli.invalid_json": "Cannot parse the input of tool {tool} as JSON: {detail}",
  "cli.not_a_directory": "Cannot use workspace {path}: not a directory",
  "cli.unknown_option": "Unknown option {option}: see --help",
  "cli.option_missing_value": "Cannot parse option {option}: a value is missing",
  "cli.option_no_value": "Cannot parse option {option}: it takes no value",
  "cli.bad_policy": "Cannot use approval policy {value}: expected one of {policies}",
  "cli.bad_env_pair":
    "Cannot parse --env pair {index}: expected KEY=VALUE with KEY made of letters, digits and _",
} as const;

/** A message's key. */
export type MessageKey = keyof typeof EN_US;

/** A catalogue: one text for every key. */
export type Catalogue = Readonly<Record<MessageKey, string>>;
