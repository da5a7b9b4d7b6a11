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
  "run.printed_nothing_code": "{label} finished with exit code {code} and printed nothing",
  "run.interrupted": "{label} was interrupted",
  "run.interrupted_stopped": "{label} was interrupted; its process group was stopped",
  "run.cut_note": "[output cut at {size} / {lines} lines; {bytes} bytes in all]",
  "run.cut_note_spilled":
    "[output cut at {size} / {lines} lines; {bytes} bytes in all; full output: {path}]",
  "run.cut_note_spill_cut":
    "[output cut at {size} / {lines} lines; {bytes} bytes in all; its first {spilled}: {path}]",

  // Why a program did not start.
  "start.not_on_path": "program {program} was not found on PATH",
  "start.not_on_path_unreadable":
    "program {program} was not found on PATH (some of its directories could not be looked in: {dirs})",
  "start.lookup_refused":
    "Deno's sandbox refused to look for program {program} on PATH ({dirs}); allow reading them with --allow-read, or name the program by its absolute path",
  "start.missing": "program {program} does not exist",
  "start.directory": "program {program} is a directory",
  "start.not_executable": "program {program} is not executable (no execute permission)",
  "start.permission": "program {program} could not be executed: permission denied",
  "start.blank": "the program name is blank",
  "start.cwd_missing": "working directory {cwd} does not exist",
  "start.cwd_not_dir": "working directory {cwd} is not a directory",
  "start.sandbox": "Deno's sandbox refused to start program {program}; allow it with {flag}",
  "start.sandbox_flag": "--allow-run=<absolute path of {program}>",
  "start.loader_env":
    "Deno's sandbox refused to start program {program} because the environment holds {variables}: under a scoped --allow-run Deno starts no program with LD_* or DYLD_* variables; unset {variables} or grant unscoped --allow-run",
  "start.loader_variables": "LD_*/DYLD_* variables",
  "start.batch":
    "program {program} is a batch file, which only runs through a shell; basis-tools never uses a shell, so point the tool at an .exe",
  "start.failed": "program {program} could not be started: {detail}",
  "start.sandbox_failed": "the sandbox (bubblewrap) could not start it: {detail}",

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
  "found.nothing": "nothing",

  // Refused input.
  "input.refused": "Input refused by tool {tool}: {pointer}: {reason}",
  "input.must_be_object": "must be a JSON object, found {found}",
  "input.argument_dash":
    'must not begin with "-": as argument {index} of the command, the program could take it for an option',
  "input.argument_nul":
    "must not contain a NUL character: argument {index} of the command cannot hold one",
  "input.argument_missing": "is required: it is argument {index} of the command",
  "input.argument_type": "must be {type}: it is argument {index} of the command",
  "schema.refused": "Input refused by tool {tool} schema: {pointer}: {reason}",
  "schema.output_refused":
    "Output of tool {tool} does not match its output schema: {pointer}: {reason}",
  "output.not_json": "Output of tool {tool} is not JSON, as its output schema requires: {detail}",
  "output.must_be_object": "must be a JSON object, found {found}",
  "output.too_large":
    "{label} printed {bytes} bytes, more than the {size} a structured result or content blocks may hold",
  "output.too_large_spilled":
    "{label} printed {bytes} bytes, more than the {size} a structured result or content blocks may hold; full output: {path}",
  "output.content_not_json":
    'Output of tool {tool} is not JSON, as its "output": "content" requires: {detail}',
  "output.content_refused": "Output of tool {tool} is not valid MCP content: {pointer}: {reason}",
  "output.content_secret": "holds one of the tool's secrets (its bytes, decoded)",
  "content.image": "[image {media}, {size}]",
  "content.audio": "[audio {media}, {size}]",
  "content.resource": "[resource {uri}, {size}]",
  "content.resource_typed": "[resource {uri} {media}, {size}]",
  "content.link": "[link {uri}]",
  "schema.root": "(root)",
  "schema.required": "required property is missing",
  "schema.required_when": "required property is missing (required when {property} is present)",
  "schema.not_allowed": "property is not allowed",
  "schema.enum": "must be one of: {values}",
  "schema.enum_more": "{values}, … ({count} more)",
  "schema.const": "must be equal to {value}",
  "schema.type": "must be {types}",
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
  "schema.contains_between": "must contain at least {min} and no more than {max} valid item(s)",
  "schema.too_deep": "is nested more than {limit} levels deep",
  "schema.not_finite": "is not a finite number (too large for a 64-bit float)",
  "schema.underflow":
    "is too small for a 64-bit float: it would be judged as 0 while the program receives it as written",
  "schema.not_json": "is not JSON data",
  "schema.invalid": "is not valid",

  // Denials.
  "denied.never": "Call of tool {tool} denied by --approve never",
  "denied.never_ask_rule":
    "Call of tool {tool} denied by --approve never (rule {rule} says to ask)",
  "denied.prompt": "Call of tool {tool} denied at the prompt",
  "denied.prompt_remembered": "Call of tool {tool} denied at the prompt (remembered as {rule})",
  "denied.rule": "Call of tool {tool} denied by rule {rule}",
  "denied.rule_reason": "Call of tool {tool} denied by rule {rule}: {reason}",
  "denied.no_terminal":
    "Call of tool {tool} denied: no remembered rule allows it and there is no terminal to ask; allow it with `{command}` or --approve always",
  "denied.no_terminal_changed":
    "Call of tool {tool} denied: rule {rule} allowed it until {files} changed, and there is no terminal to ask; allow it again with `{command}` or --approve always",
  "denied.generic": "Call of tool {tool} denied",
  "denied.sandbox": "Call of tool {tool} denied: {reason}",
  "denied.ask_no_terminal":
    "Call of tool {tool} denied: rule {rule} says to ask every time and there is no terminal to ask",
  "denied.rules_file": "Cannot load rules {file}: {problem}",
  "denied.rules_file_more": "Cannot load rules {file}: {problem} (and {count} more {problems})",

  // The spawn tool's input.
  "spawn.input.must_be_object":
    'must be a JSON object with a string property "input", found {found}',
  "spawn.input.missing": 'required string property "input" is missing',
  "spawn.input.not_string": "must be a string, found {found}",
  "spawn.input.extra": 'unexpected property; spawn takes only "input" and "reach"',
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
  "spawn.input.bad_reach": 'must be "local", "named" or "any" (or left out), found {found}',
  "spawn.input.local_agent":
    '"@local" is not needed: a task without "@<name>" already goes to the configured subagent (start with "@@" for a task that begins with "@")',
  "spawn.input.agent_no_task":
    'names agent "{name}" but no task: write "@{name} <task>" (start with "@@" for a task that is only "@{name}")',

  // The spawn tool's refusals before approval.
  "spawn.guard.reach_not_allowed":
    'Spawn refused: /reach {reach} is not allowed by the user\'s reach policy; give {allowed}, or leave "reach" out for {default}',
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
  "spawn.guard.unknown_agent_none":
    'Spawn refused: unknown agent {agent}; no agents are configured (add "agents" to {file}); for a task that begins with "@{name}", start it with "@@"',
  "spawn.guard.unknown_agent":
    'Spawn refused: unknown agent {agent}; configured agents: {names} (for a task that begins with "@{name}", start it with "@@")',
  "spawn.guard.reach_needs_name":
    'Spawn refused: reach {reach} lets a task go only to a named agent, and this one names none: write "@<name> <task>"',
  "spawn.guard.reach_local_only":
    'Spawn refused: reach {reach} keeps a task with the configured subagent, and this one is for agent {agent}: leave out "@{name}", or give a reach that covers named agents ("named" or "any")',
  "spawn.guard.no_agent_named":
    'Spawn refused: no subagent is configured for a task without "@<name>"; address a named agent ({names}) or add "agent" to {file}',

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
  "spawn.description_agents":
    '"@<agent> <task>" hands the task to a named agent instead: {names} (start with "@@" for a task that itself begins with "@").',
  "spawn.system_prompt":
    'spawn: run a shell command with {"input": "!<command>"}, or delegate a task to a subagent with {"input": "<task>"} ("!!" starts a task that begins with "!"). Commands run with /bin/sh in the workspace root; each call is approved first.',
  "spawn.system_prompt_targets": 'Use "!@<target> <command>" to run on a target: {names}.',
  "spawn.system_prompt_agents": 'Use "@<agent> <task>" to delegate to a named agent: {names}.',
  "spawn.help":
    '# {title} (`spawn`)\n\nRuns a shell command or hands a task to a subagent. The input is one string, `input`:\n\n- `!<command>` runs the command with `/bin/sh -c` in the workspace root, in its own process group, with only `PATH`, `HOME`, `LANG` and the configured variables in its environment; for example `{"input": "!cargo test"}`.\n{targets}{agents}- `!!<text>` is a task that itself begins with `!`.\n- Any other text is a task for the configured subagent: it gets the text on standard input and answers on standard output.\n\nThe result is the command\'s output (standard output, else standard error) or the subagent\'s answer. A command stops after {command_ms} ms and a subagent after {agent_ms} ms; each stream is kept up to 64 KiB. Every call is approved before it runs.',
  "spawn.help_targets":
    "- `!@<target> <command>` runs the command on a configured target: {names}.\n",
  "spawn.help_agents":
    '- `@<agent> <task>` hands the task to a named agent: {names}; `@@<text>` is a task for the subagent that itself begins with `@`. The optional `reach` field bounds which agents a task may address: `"local"` only the subagent, `"named"` only a named agent, `"any"` either ({default} when left out).\n',
  "spawn.schema.input_targets":
    '"!<command>" runs a shell command; "!@<target> <command>" runs it on a configured target ({names}); any other text is a task for a subagent',
  "spawn.schema.input_agents":
    '{input}; "@<agent> <task>" hands the task to a named agent ({names})',
  "spawn.schema.reach":
    'Which agents a task may address: "local" only the subagent, "named" only an "@<agent>", "any" either; {default} when left out',

  // How a declared tool presents itself.
  "tool.system_prompt":
    "{name}: {description} Input: one JSON object matching its input schema. Output: what the program prints. Side effect: {effect}.",
  "tool.help":
    "# {title} (`{name}`)\n\n{description}\n\n- Side effect: {effect}\n- Time limit: {ms} ms\n\n## Input\n\nOne JSON object matching this schema, given to the program on standard input:\n\n{schema}\n\n## Output\n\nWhat the program prints on standard output. A refused input, a denial, a failure or a time-out is an error that says why.",
  "effect.process": "runs a program on this machine",
  "effect.external": "acts on systems beyond this machine",

  // The CLI's own messages.
  "cli.unknown_command": "Unknown command {command}: see basis-tools --help",
  "cli.unknown_command_near":
    "Unknown command {command}: did you mean {names}? See basis-tools --help",
  "cli.unknown_option_near": "Unknown option {option}: did you mean {names}? See --help",
  "cli.option_of_other":
    "Cannot use option {option} with {command}: it is an option of {commands}; see basis-tools help {name}",
  "cli.missing_argument": "Cannot run {command}: an argument is missing; see --help",
  "cli.unexpected_argument": "Cannot run {command}: unexpected argument {argument}; see --help",
  "cli.split_call":
    `Cannot run "call": its INPUT is split into {count} {arguments} (a shell splits unquoted text at spaces); put the JSON in single quotes, as in basis-tools call NAME '{"text": "hi there"}'`,
  "cli.split_spawn":
    `Cannot run "spawn": its STRING is split into {count} {arguments} (a shell splits unquoted text at spaces); put it in single quotes, as in basis-tools spawn '!cargo test'`,
  "cli.bad_milliseconds":
    "Cannot use --{option} {value}: expected a whole number of milliseconds above 0",
  "cli.bad_format": "Cannot use --format {value}: expected one of {formats}",
  "cli.not_in_roster": "Tool {tool} is not in this run's roster ({variable} lists {names})",
  "cli.not_in_roster_empty":
    "Tool {tool} is not in this run's roster ({variable} is empty: no tools)",
  "cli.bad_roster":
    '{variable} holds {name}, which is not a tool name (write the names joined by ",")',
  "cli.unknown_tool_near": "Cannot find tool {tool}; did you mean {names}?",
  "cli.unknown_tool_none": "Cannot find tool {tool}; {files} declares no tools",
  "cli.unknown_tool_no_manifest":
    "Cannot find tool {tool}: no manifest found (looked in {paths}); {hint}",
  "hint.no_workspace": "basis-tools init starts a workspace here; -C DIR uses another",
  "cli.unknown_tool_list": "Cannot find tool {tool}; see basis-tools list",
  "cli.invalid_json": "Cannot parse the input of tool {tool} as JSON: {detail}",
  "cli.input_too_large": "Cannot read the input of tool {tool}: stdin holds more than {size}",
  "cli.input_not_utf8":
    "Cannot read the input of tool {tool}: stdin is not valid UTF-8 (bad byte at offset {offset})",
  "cli.bad_workspace": "Cannot use workspace {path}: {reason}",
  "workspace.not_directory": "not a directory",
  "workspace.missing": "it does not exist",
  "workspace.refused": "Deno's permissions refuse to read it (it is outside --allow-read)",
  "cli.unknown_option": "Unknown option {option}: see --help",
  "cli.option_missing_value": "Cannot parse option {option}: a value is missing",
  "cli.option_no_value": "Cannot parse option {option}: it takes no value",
  "cli.bad_policy": "Cannot use approval policy {value}: expected one of {policies}",
  "cli.bad_switch": "Cannot use {name}={value}: expected {on} (yes) or {off} (no), in any case",
  "cli.bad_env_pair":
    "Cannot parse --env pair {index}: expected KEY=VALUE with KEY made of letters, digits and _",
  "cli.rules_no_arguments": "Cannot run {command}: expected 0 arguments; see --help",
  "cli.rules_one_argument": "Cannot run {command}: expected 1 argument; see --help",
  "cli.rules_subcommand": "Cannot run {command}: expected list, add, test, remove or check",
  "cli.rules_subcommand_near":
    "Cannot run {command}: did you mean {names}? Expected list, add, test, remove or check",
  "cli.completion_shell": "Cannot print a completion script for {shell}: expected one of {shells}",
  "cli.rules_tool_required": 'Cannot run "rules add": --tool NAME is required',
  "cli.rules_bad_json": "Cannot add rule for tool {tool}: {option} is not JSON: {detail}",
  "cli.rules_bad_input_condition":
    'Cannot add rule for tool {tool}: --input takes POINTER=JSON, for example /branch="main"',
  "cli.rules_deny_and_ask": "Cannot add rule for tool {tool}: give at most one of --deny and --ask",
  "cli.rules_test_arguments":
    "Cannot run {command}: expected a tool name and an optional INPUT; see --help",
  "cli.bad_permissions_format": "Cannot use format {value}: expected one of {formats}",

  // Words that take a count: the forms joined by "|" (English: one|other; Ukrainian:
  // one|few|many), chosen by plural().
  "count.tools": "tool|tools",
  "count.rules": "rule|rules",
  "count.lines": "line|lines",
  "count.problems": "problem|problems",
  "count.warnings": "warning|warnings",

  // Joining items: "a", "a or b", "a, b or c".
  "join.one": "{item}",
  "join.comma": "{first}, {second}",
  "join.or": "{first} or {second}",
  "join.and": "{first} and {second}",
  "count.bytes": "byte|bytes",
  "count.arguments": "argument|arguments",

  // list
  "list.heading_name": "NAME",
  "list.heading_effect": "SIDE EFFECT",
  "list.heading_source": "SOURCE",
  "list.heading_description": "DESCRIPTION",
  "list.no_tools": "(no tools declared; looked in {paths})",
  "list.no_manifest": "(no manifest found; looked in {paths}; {hint})",
  "list.unavailable": "unavailable: {reason}",
  "list.unavailable_more": "unavailable: {reason} (and {count} more: see basis-tools check)",
  "cli.left_out": "Leaving tool {tool} out: it cannot be used: {why}",

  // show
  "show.command": "command",
  "show.title": "title",
  "show.cwd": "cwd",
  "show.env": "env",
  "show.side_effect": "side effect",
  "show.timeout": "timeout",
  "show.success": "success exit codes",
  "show.output": "output",
  "show.output_content": "MCP content blocks (a JSON array)",
  "show.sandbox": "sandbox",
  "show.sandbox_default": "nothing beyond the default sandbox",
  "show.files": "files",
  "show.sandbox_grants": "may {grants}",
  "show.declared_in": "declared in",
  "show.input_schema": "input schema",
  "show.output_schema": "output schema",
  "show.none": "(none)",
  "show.ms": "{ms} ms",

  // show spawn
  "show.source": "source",
  "show.spawn_effect": "{effects} (a command is {command}, a subagent {agent})",
  "show.commands": "commands",
  "show.commands_off": "off (--no-shell)",
  "show.commands_on": "{shell} -c <command>",
  "show.commands_env": "{commands}, keeping only {env} and the --env pairs",
  "show.targets": "targets",
  "show.target_line": "{name}: {prefix} <command>",
  "show.agent": "agent",
  "show.none_configured": "(none configured)",
  "show.depth": "depth",
  "show.depth_value": "{depth} (subagents refused at {max})",
  "show.depth_unknown": "unknown",
  "show.spawn_timeout": "{command} ms for a command, {agent} ms for a subagent",
  "show.configured_in": "configured in",
  "show.agents": "agents",
  "show.reach": "reach",
  "show.reach_value": "{allowed} allowed; {default} when a call gives none",
  "show.child": "child",
  "show.child_inherits": "inherits its roster, model and system prompt",
  "show.child_roster": "roster {names}",
  "show.child_no_tools": "no tools",
  "show.child_model": "model {model}",
  "show.child_system_prompt": "system prompt replaced by {text}",

  // check
  "check.ok": "ok: {count} {tools} ({where})",
  "check.warning": "warning: {problem}",
  "check.hint": "hint: {problem}",
  "check.ok_warnings":
    "ok: {count} {tools} ({where}), {warnings} {warning_word}: fine as declared, but failing here until fixed (--strict: exit 6)",
  "check.ok_no_manifest": "ok: 0 tools (no manifest found), 1 warning (--strict: exit 6)",
  "check.missing": "not found; {hint}",
  "check.missing_both": "not found, nor is the global manifest {global}; {hint}",
  "init.done":
    "Created {manifest} (tool {tool}) and {script}, the program it runs.\n\nNext:\n  {call}\n      call it: you are asked before it runs, then it prints its answer\n  {rule}\n      remember a rule that lets it run without asking (also for an agent)\n  {mcp}\n      serve it to an agent over MCP (see docs/mcp.md)\n  {check}\n      check the manifest after an edit (an editor checks it as you type: see $schema)",
  "init.exists": "Cannot create {path}: it already exists (nothing was written)",
  "init.inside":
    "Cannot create a manifest here: this directory is in workspace {root}, which has one (nothing was written); use -C . to start another workspace here",
  "init.cannot_write": "Cannot create {path}: {reason}",

  // rules
  "rules.none": "No remembered rules ({file})",
  "rules.ignored": " (ignored: see rules check)",
  "rules.heading_id": "ID",
  "rules.heading_decision": "DECISION",
  "rules.heading_tool": "TOOL",
  "rules.heading_scope": "SCOPE",
  "rules.heading_when": "CONDITIONS",
  "rules.global": "(global)",
  "rules.workspace": "(workspace {path})",
  "rules.added": "Added {id}: {decision} {tool} {scope}",
  "rules.removed": "Removed {id}: {decision} {tool} {scope}",
  "rules.exists": "Already there as {id}: {decision} {tool} {scope} (nothing written)",
  "rules.pinned": "  it pins what the tool runs now ({fields}): {conditions}",
  "rules.problem_ignored": " (rule ignored)",
  "rules.ok": "ok: {count} {rules} ({file})",
  "rules.test_preview": "preview   {preview}",
  "rules.test_allow_rule": "decision  allow, by rule {rule}",
  "rules.test_allow_policy": "decision  allow, by --approve always",
  "rules.test_deny_rule": "decision  deny, by rule {rule}",
  "rules.test_deny_policy": "decision  deny, by --approve never",
  "rules.test_ask_rule":
    "decision  ask: rule {rule} says to ask every time (denied where no one can be asked)",
  "rules.test_ask":
    "decision  ask: no rule answers, so a person would be asked (denied where no one can be asked)",
  "rules.test_changed": "changed   {files}, since rule {rule} pinned them",

  // permissions
  "permissions.warning": "basis-tools: warning: {message}",

  // Files that cannot be read or written (the sandbox texts are Deno's own words).
  "file.sandbox_read": "Requires read access to {path}, run again with the --allow-read flag",
  "file.sandbox_write": "Requires write access to {path}, run again with the --allow-write flag",
  "file.read_not_file": "cannot read: not a regular file",
  "file.read_dangling_link":
    "cannot read: it is a symbolic link to {target}, which does not exist (remove the link, or make the file)",
  "file.read_permission": "cannot read: permission denied",
  "file.read_sandbox": "cannot read: refused by Deno's permissions (grant --allow-read for it)",
  "file.read_other": "cannot read: {reason}",
  "file.read_utf8": "cannot read: not valid UTF-8 text",
  "file.too_large": "cannot read: larger than {limit}",
  "fs.no_space": "no space left on the device",
  "fs.quota": "the disk quota is exceeded",
  "fs.read_only": "the file system is read-only",
  "fs.permission": "permission denied",

  // JSON text people write (manifests, spawn.json, rules.json, a call's input).
  "json.at": "{detail} at {line}:{column}",
  "json.quote_hint":
    `{detail} (did a shell take its quotes? Put the JSON in single quotes, as in '{"text": "hi"}')`,
  "json.invalid": "invalid JSON",
  "json.invalid_detail": "invalid JSON: {detail}",
  "json.nested": "nested too deeply",
  "json.unexpected": "unexpected {found}",
  "json.unexpected_expected": "unexpected {found}, expected {expected}",
  "json.property_name": "a property name in double quotes",
  "json.value": "a value",
  "json.end": "end of file",
  "json.end_input": "end of input",
  "json.string": "string",
  "json.number": "number",
  "json.unquoted": "unquoted text",
  "json.single_quoted": "single-quoted text (use double quotes)",
  "json.invalid_number": "invalid number",
  "json.comment": "comments are not allowed",
  "json.unterminated_comment": 'unterminated comment (expected "*/")',
  "json.unterminated_string": "unterminated string",
  "json.bad_unicode": 'invalid "\\u" escape in a string',
  "json.bad_escape": "invalid escape sequence in a string",
  "json.control": "control character in a string (escape it)",
  "json.duplicate_key":
    "given twice (first at {line}:{column}); a key may appear only once in an object",

  // Manifest problems: the reason after "file:line:column: tool \"x\": field: ".
  "manifest.tool": "tool {tool}",
  "manifest.duplicate_tool":
    "declared twice (first at {line}:{column}); a tool name may be declared only once",
  "manifest.schema_unusable": "{file}: {tool}: {field}: {reason}",
  "manifest.not_object": "the manifest must be a JSON object, found {found}",
  "manifest.tools_required": "is required (an object keyed by tool name; {} declares none)",
  "manifest.tools_not_object": "must be an object keyed by tool name, found {found}",
  "manifest.schema_required": "is required (this program reads version {version})",
  "manifest.schema_unsupported":
    "unsupported version {value} (this program reads version {version})",
  "manifest.tool_not_object": "must be an object, found {found}",
  "manifest.unknown_key": "unknown key (expected one of: {keys})",
  "manifest.unknown_key_near": "unknown key, did you mean {key}?",
  "manifest.invalid_name": "invalid name: {reason}",
  "manifest.name_empty": "must not be empty",
  "manifest.name_long": "must be at most {max} characters, found {count}",
  "manifest.name_chars": 'only A-Z, a-z, 0-9, "_" and "-" are allowed, found {char}',
  "manifest.name_mcp": 'must not start with "mcp__" (reserved for MCP tools)',
  "manifest.name_dash": 'must not start with "-" (a command line would read it as an option)',
  "manifest.name_proto": '"__proto__" is not allowed',
  "manifest.name_reserved": "{name} is built into this program",
  "manifest.required": "is required",
  "manifest.blank": "is required (it is blank)",
  "manifest.title_lines": "must be one line",
  "manifest.not_string": "must be a string, found {found}",
  "manifest.nul": "must not contain a NUL character",
  "manifest.proto_key": 'key "__proto__" is not allowed',
  "manifest.schema_not_object": "must be a JSON object, found {found}",
  "manifest.schema_type": 'must be "object" (a tool\'s input is a JSON object), found {value}',
  "manifest.output_schema_type":
    'must be "object" (a structured result is a JSON object), found {value}',
  "manifest.schema_deep": "nested more than {max} levels deep",
  "manifest.command_not_argv": "must be an array of strings, found {found}",
  "manifest.command_shell":
    "must be an array of strings (an argv, never a shell string), found {found}",
  "manifest.command_empty": "must not be empty (the first element is the program)",
  "manifest.program_blank": "the program must not be blank",
  "manifest.program_blank_expanded": "the program must not be blank after expansion",
  "manifest.argument_not_string":
    'must be a string, or {"input": "<property>"} for an argument from the input, found {found}',
  "manifest.argument_program": "the program cannot come from the input: write it as a string",
  "manifest.argument_shape": 'an argument from the input is written {"input": "<property>"}',
  "manifest.argument_name": "must name a property of the input schema, found {found}",
  "manifest.argument_unknown": "property {name} is not in input_schema.properties",
  "manifest.argument_unknown_near":
    "property {name} is not in input_schema.properties; did you mean {near}?",
  "manifest.argument_type":
    'property {name} must have "type" "string", "integer", "number" or "boolean" to be an argument, found {found}',
  "manifest.argument_optional":
    'property {name} must be listed in input_schema.required: a plain argument cannot be left out (an optional one is written with "flag" or "prefix")',
  "manifest.argument_flag_type":
    'property {name} must have "type" "boolean" to be a flag (present when true), found {found}',
  "manifest.argument_flag":
    'must be one option: "-" and at least one more character, no space or control character, and not "--"',
  "manifest.argument_prefix":
    'must be a long option or a word ending with "=", such as "--max-count=" or "if=": the value comes after the "=", so it can never pick the option (not "-n=", which many parsers read as "-n" then options made of the value)',
  "manifest.argument_flag_prefix": 'an argument has "flag" or "prefix", not both',
  "manifest.env_not_object": "must be an object of variables, found {found}",
  "manifest.env_name_empty": "the variable name must not be empty",
  "manifest.env_name_equals": 'the variable name must not contain "="',
  "manifest.env_name_nul": "the variable name must not contain a NUL character",
  "manifest.env_value":
    'must be a string (a secret) or {"value": "…", "public": true} (configuration), found {found}',
  "manifest.output": 'must be "text" or "content", found {value}',
  "manifest.output_with_schema":
    'must be "text" when output_schema is given (a structured result is one JSON object), found {value}',
  "manifest.side_effect": 'must be "process" or "external", found {value}',
  "manifest.timeout_invalid":
    "must be a whole number of milliseconds greater than 0, found {value}",
  "manifest.timeout_max": "must be at most {max} (about 24.8 days), found {value}",
  "manifest.exit_codes": "must be an array of exit codes, found {found}",
  "manifest.exit_codes_empty": "must list at least one exit code",
  "manifest.exit_codes_twice": "lists exit code {value} twice",
  "manifest.exit_code": "must be a whole number from 0 to 255, found {value}",
  "manifest.sandbox_not_object":
    'must be an object of "network", "write" and "read", found {found}',
  "manifest.not_boolean": "must be true or false, found {found}",
  "manifest.sandbox_paths": "must be an array of paths, found {found}",
  "manifest.sandbox_tilde": 'must start with "~/" to name a path in the home directory',
  "manifest.sandbox_escapes": 'must not climb out of {base} with ".."',
  "manifest.sandbox_root": "the workspace root",
  "manifest.files_list": "must be an array of globs relative to the workspace root, found {found}",
  "manifest.files_outside": 'must be relative to the workspace root, without ".."',
  "manifest.files_backslash": "ends with a lone \\ (write \\\\ for a backslash)",
  "check.files_hint":
    '{script} is run by {program}: list what else it loads in "files" (for example ["{dir}/**"]), so that an approval pins that too',
  "manifest.expand_unterminated": 'unterminated "${" (expected "}")',
  "manifest.expand_empty": 'empty "${}" (expected a variable name)',
  "manifest.expand_bad_name":
    'invalid variable name in "${…}" (a name is letters, digits and "_", not starting with a digit)',
  "manifest.expand_unset":
    'variable {variable} is not set (use "${{name}:-default}" for a fallback)',
  "manifest.expand_unsupported":
    'unsupported expansion of variable {variable} (only "${NAME}" and "${NAME:-default}" are supported)',
  "manifest.expand_nested": 'nested "${" in the default of variable {variable} is not supported',
  "manifest.expand_not_public":
    "a public value may not read variable {variable}, which may hold a secret (it may read {allowed}; a string value stays secret)",
  "manifest.expand_shown":
    "may not read variable {variable}, which may hold a secret: the command and cwd are shown before approval (they may read {allowed}; pass other values to the program through env)",
  "manifest.secret_written":
    'holds the value of env.{variable}, a secret, which would hide it from the approver as [redacted]: declare that value public ({"value": …, "public": true}) or take it out of what is shown',
  "manifest.empty_file": 'empty file (expected {"schema": 1, "tools": {}})',
  // What the patterns of the shipped config schemas (schemas/*.schema.json) mean.
  "config.not_blank": "must not be blank",
  "config.not_empty": "must not be empty",
  "config.name": 'may only hold letters, digits, "_" and "-"',
  "config.tool_name":
    'must be a tool name: 1 to 64 letters, digits, "_" and "-", not starting with "-"',
  "config.rule_id":
    "must be 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit",
  "config.root": "must be an absolute, normalised path",
  "config.absolute": "must be an absolute path",
  "config.one_line": "must be one line",
  "config.pointer": "must be a JSON pointer (empty, or starting with /)",
  "config.content_tool": 'must be "program", "files" or "argv[N]"',
  "config.content_spawn": 'must be "word[N]"',
  "config.glob": "ends with a lone \\ (write \\\\ for a backslash)",
  "config.sha256": "must be a SHA-256: 64 lowercase hex digits",
  "config.salt": "must be a salt: 32 lowercase hex digits",
  "config.grant_path": 'must be an absolute path or start with "~/"',
  "spawn_config.empty": "empty file (expected a JSON object; {} means the defaults)",
  "spawn_config.reach_default_missing":
    'needs "default": "allow" leaves out "any", the default when none is given',
  "spawn_config.reach_default_allowed": "must be one of the allowed values: {allowed}",
  "spawn_config.placeholder":
    'uses {placeholder}, but no child policy sets "{key}" for this agent (add it to "child")',

  // The sandbox policy (sandbox.json) and why a call is not confined.
  "sandbox_config.empty": "empty file (expected a JSON object; {} means the defaults)",
  "sandbox.bwrap_missing":
    'bubblewrap ("bwrap") was not found in /usr/bin, /bin, /usr/local/bin or on PATH; install it (Debian, Ubuntu: apt-get install bubblewrap; Fedora: dnf install bubblewrap)',
  "sandbox.bwrap_not_there": "bubblewrap is not at {path}, where {file} says it is",
  "sandbox.bwrap_untrusted":
    "bubblewrap at {path} is not used: it, or a directory above it, is not owned by root or others may write it (a program there could be replaced by anyone but root); install it from the system's packages",
  "sandbox.bwrap_broken": "bubblewrap cannot make the namespaces a call needs here: {detail}",
  "sandbox.bwrap_refused": "Deno's permissions refuse to run bubblewrap; allow it with {flag}",
  "sandbox.unsupported": "there is no OS sandbox for {os}",
  "sandbox.required": "the sandbox is required by {file} and cannot confine this call: {reason}",
  "sandbox.no_home":
    'a sandbox path starts with "~" and the home directory is not known (HOME is unset or relative)',
  "sandbox.grant_refused": 'its sandbox grant {grant} is not allowed by {file} (see "grantable")',
  "sandbox.cwd_covered":
    "its working directory {cwd} is not shown in the sandbox ({place} is covered there); a read or write grant of it, allowed by {file}, shows it",
  "sandbox.trusted_write":
    "it would write {path}, inside {dir}, which is basis-tools' own and no call may write",
  "sandbox.trusted_read":
    "it would read {path}, inside basis-tools' config directory {dir}, which no call may read",
  "sandbox.trusted_link":
    "it would write {path}, which holds the symbolic link {link} on the way to basis-tools' own {dir}: the call could point it elsewhere",
  "sandbox.note":
    'note: tools run unconfined: {reason}; set "mode" in {file} to "off" to run them so without this note, or to "required" to refuse',

  // Rules files and the rules command.
  "rules.cannot_add": "Cannot add rule for tool {tool}: {problem}",
  "rules.cannot_read": "cannot read {path} to pin its content ({where})",
  "rules.cannot_add_unnamed": "Cannot add rule for a tool: {problem}",
  "rules.cannot_remove": "Cannot remove rule {id}: no rule has that id in {file}",
  "rules.cannot_save": "Cannot save rules {file}: {reason}",
  "rules.save_too_large":
    "it would be larger than {limit}, more than basis-tools reads; remove rules first (rules list, rules remove ID)",
  "rules.lock_busy":
    "Cannot save rules {file}: another process has held the lock {lock} for {ms} ms; try again when it is done",
  "rules_file.unusable": "unusable",
  "rules_file.read_sandbox": "cannot be read: Deno's --allow-read refuses it",
  "rules_file.read_permission": "cannot be read: permission denied",
  "rules_file.read_failed": "cannot be read: {reason}",
  "rules_file.not_regular": "not a regular file",
  "rules_file.dangling_link":
    "a symbolic link to {target}, which does not exist: the rules meant to be here cannot be read",
  "rules_file.loose_mode":
    "writable by group or others (mode {mode}), so anyone could approve tools: run chmod 600 on it",
  "rules_file.dir_loose_mode":
    "its directory {dir} is writable by group or others (mode {mode}), so anyone could approve tools: run chmod 700 on it",
  "rules_file.owner":
    "owned by another user (uid {uid}, you are {own}): only your own rules are trusted",
  "rules_file.dir_owner":
    "its directory {dir} is owned by another user (uid {uid}, you are {own}): only your own rules are trusted",
  "rules_file.owner_unknown": "cannot tell who owns it: Deno's --allow-sys=uid is not granted",
  "rules_file.not_utf8": "not valid UTF-8",
  "rules_file.empty": "empty file",
  "rules_file.version_newer":
    "unsupported version {version}: written by a newer basis-tools (this one reads version {expected})",
  "rules_file.version_old":
    'version 1 is no longer read: its patterns matched text across fields, so its rules cannot be carried over safely; move the file away and add the rules again with "basis-tools rules add" (without conditions it pins a tool\'s current command)',
  "rules_file.in_rule": "rules[{index}] {id}: {problem}",
  "rules_file.in_rule_no_id": "rules[{index}]: {problem}",
  "rules_file.field": "{field}: {problem}",
  "rules_file.timestamp": "must be an ISO 8601 timestamp",
  "rules_file.id_taken": "used by an earlier rule",
  "rules_file.needs_program":
    "an allow rule for a declared tool must pin the program it runs (program): a name never approves on its own",
  "rules_file.needs_body": "an allow rule for spawn must say which command or task (body)",
  "rules_file.holds_secret":
    "{field} holds the value of a secret (an env value); only an exact program, argument, cwd, body or the grants can be kept, by digest",
  "rules_file.rest_last": '{"rest": true} may only come last',
  "rules_file.example_shape": "example {field}: {problem}",
  "rules_file.example_tool_shape":
    'not a preview of this tool: "program", "command" and "cwd" are required, "tool", "env" (an object of names and values), "sandbox" and "input" optional',
  "rules_file.example_spawn_shape":
    'not a spawn preview: "mode" and "body" are required, "cwd", "target", "sandbox", "reach" and "child" optional',
  "rules_file.duplicate_key":
    "given twice, at {line}:{column} (first at {first_line}:{first_column}); a key may appear only once in an object",
  "rules_file.example_unmatched": "rule does not match example match[{index}] {text}",
  "rules_file.example_matched": "rule matches example not_match[{index}] {text}",

  // Permissions warnings.
  "permissions.unresolved":
    "Leaving {user} out of --allow-run: {reason}; it will be refused until the program can run and permissions is run again",
  "permissions.confinement":
    "Granting {path} ({users}) defeats confinement: {why}, and --allow-run cannot limit its arguments",
  "permissions.why_shell": "a shell runs any command it is given",
  "permissions.why_launcher": "it starts any program named in its arguments",
  "permissions.why_interpreter": "it runs any code given in its arguments",
  "permissions.confinement_sandboxed":
    "Granting {path} ({users}) lets it run anything: {why}, and --allow-run cannot limit its arguments; the OS sandbox still confines what it runs to the grants shown when a call is approved",
  "permissions.inline_code": "{user} passes it code with {flag}",
  "permissions.unexpressible":
    "Leaving {path} out of the flags: Deno splits flag values at commas and has no escape for them; use --format deno-json, or move it to a path without a comma",
  "permissions.environment":
    "The environment holds {variables}: under a scoped --allow-run Deno starts no program while LD_* or DYLD_* variables are set; unset them before running basis-tools",
  "permissions.compile_self":
    "A compiled binary cannot compile itself: the command builds from basis-tools.js (deno task bundle, or the bundle of a release); adjust its path",
  "permissions.user_spawn_commands": "spawn commands",
  "permissions.user_spawn_target": "spawn target {target}",
  "permissions.user_spawn_agent": "spawn subagent",
  "permissions.user_spawn_named_agent": "spawn agent {agent}",
  "permissions.user_sandbox": "the OS sandbox",
  "permissions.hint_no_shell": "--no-shell turns spawn commands off and leaves it out",
  // How a locale lists who uses a program, and adds a note to a warning.
  "permissions.list": "{list}, {item}",
  "permissions.more": "{text}; {more}",

  // The approval form an MCP client shows (elicitation).
  "elicit.decision_description":
    "Always allow remembers a rule for this exact command (any input); deny refuses this call",
  "elicit.cannot_ask":
    "Cannot ask the MCP client about a call of tool {tool}: {reason}; the call is denied",
  "elicit.no_client":
    "Call of tool {tool} denied: no remembered rule allows it and this MCP client cannot ask for approval (it does not support elicitation); allow it with `{command}`, or start the MCP server with --approve always",
  "elicit.no_client_ask_rule":
    "Call of tool {tool} denied: rule {rule} says to ask every time and this MCP client cannot ask for approval (it does not support elicitation)",
  "elicit.denied":
    "Call of tool {tool} denied in the MCP client: the person asked chose to deny it",
  "elicit.declined":
    "Call of tool {tool} denied: the person declined the approval request in the MCP client",
  "elicit.cancelled":
    "Call of tool {tool} denied: the approval request was dismissed in the MCP client without an answer",
  "elicit.failed":
    "Call of tool {tool} denied: the MCP client could not ask for approval (see the server's log)",

  // The MCP server (its log and what it tells the client).
  "mcp.instructions":
    "Tools declared for this workspace, and spawn. Every call is checked against the tool's input schema and approved before anything runs.",
  "mcp.serving_http": "Serving {count} {tools} over MCP (Streamable HTTP at {url}) for {root}",
  "mcp.envelope":
    "Invalid params: params._meta must carry {keys} (MCP 2026-07-28 puts the protocol version and the client's capabilities in every request)",
  "mcp.legacy_connection":
    "Invalid request: {method} carries the 2026-07-28 envelope on a connection that began with initialize (the 2025 protocol)",
  "mcp.state_refused":
    "The approval answer of tool {tool} approves nothing: its requestState was not made by this server for this very call, was changed, has expired or was used already; call the tool again to be asked",
  "mcp.state_refused_log":
    "Refused an approval answer of tool {tool}: its requestState is {verdict}",
  "http.not_found": "Not found: the MCP endpoint is /mcp",
  "http.content_type": "Unsupported media type: a message is sent as application/json",
  "http.header_mismatch":
    "Header mismatch: the {header} header does not say what the request's body says",
  "http.no_session":
    "No such session: a session starts with initialize, or send MCP-Protocol-Version: 2026-07-28 for requests without one",
  "mcp.cannot_listen": "Cannot listen on {address}: {reason}",
  "mcp.serving": "Serving {count} {tools} over MCP (stdio) for {root}",
  "mcp.reload_failed": "Cannot reload the roster; the last good one stays in use:",
  "mcp.cannot_watch": "Cannot watch {dir}: {reason}",
  "mcp.unknown_tool_near": "Unknown tool {tool}; did you mean {names}?",
  "mcp.unknown_tool": "Unknown tool {tool}; see tools/list",
  "mcp.progress": "{count} {lines} of output so far",
  "mcp.float_multiple_of":
    "Result of tool {tool} refused: {value} at {pointer} is a multiple of {divisor}, but MCP clients check multipleOf in floating point and would reject it; the output follows as text",
  "mcp.printed_before": "What it printed before it was stopped:",
  "mcp.tool_unusable": "Tool {tool}: {problem}",
  "mcp.tool_left_out":
    "Tool {tool} cannot be used and is left out of tools/list until it is fixed:",
  "mcp.tool_back": "Tool {tool} can be used again and is back in tools/list",
  "mcp.tool_unavailable": "Tool {tool} cannot be used: {problems}",
  "mcp.tool_bug": "Tool {tool} failed inside basis-tools: {detail}",
  "mcp.tool_bug_reply":
    "Tool {tool} failed inside basis-tools; the server's stderr has the details",
  "mcp.refused": "Refused a message from the client: {reason}",
  "mcp.too_large": "Message refused: it holds {size}, more than the {limit} one message may hold",
  "mcp.not_json": "Message is not JSON: {detail}",
  "mcp.not_utf8": "not valid UTF-8 text",
  "mcp.batch": "Invalid request: a batch (a JSON array) is not supported; send one message a line",
  "mcp.invalid_request":
    "Invalid request: not a JSON-RPC 2.0 request, notification or response as MCP defines them",
  "mcp.bad_notification":
    "a notification that is not one as MCP defines them (notifications get no answer)",
  "mcp.duplicate_id":
    "Invalid request: id {id} belongs to a request still in progress; give each request an id of its own",
  "mcp.not_initialized":
    "Invalid request: {method} before initialize; a session starts with initialize (only ping may come first)",
  "mcp.stray_response": "a response to no request of the server (responses get no answer)",
  "mcp.invalid_params": "Invalid params of {method}: {field} is not valid",
  "mcp.invalid_params_type":
    "Invalid params of {method}: {field} must be {expected}, found {found}",
  "audit.cannot_write": "Cannot write audit log {path}: {reason}; calls go on unaudited",
  "audit.not_regular_file": "not a regular file (a FIFO, device or socket is never opened)",
  "audit.warning": "basis-tools: warning: {message}",

  // Schema problems (check, and a schema that cannot be compiled).
  "schema_problem.invalid": "invalid JSON Schema: {detail}",
  "schema_problem.invalid_at": "invalid JSON Schema: {pointer}: {reason}",
  "schema_problem.not_schema": "must be an object or a boolean",
  "schema_problem.proto_key": '"__proto__" cannot be used as a key',
  "schema_problem.not_json": "cannot be written as JSON",
  "schema_problem.unresolved_ref": 'cannot resolve "$ref" {ref}',
  "schema_problem.draft_not_string": 'unsupported "$schema": must be a string',
  "schema_problem.draft_unknown":
    'unsupported "$schema" {value}: use draft-07 (the default), draft-06, 2019-09 or 2020-12',
  "schema_problem.pattern_unsupported": "unsupported pattern {pattern} at {pointer}: {reason}",
  "schema_problem.regex_backreference":
    "backreferences cannot run in linear time (patterns run on RE2)",
  "schema_problem.regex_lookahead": "lookaheads cannot run in linear time (patterns run on RE2)",
  "schema_problem.regex_engine": "the linear-time engine (RE2) refuses it: {detail}",

  // Other errors.
  "error.no_home":
    "Cannot find the user's directories: HOME is not set to an absolute path; set HOME, or set {override} or {variable} to an absolute path",
  "error.input_schema": "Cannot use input schema of tool {tool}: {reason}",
  "error.output_schema": "Cannot use output schema of tool {tool}: {reason}",
  "error.spawn_unknown_target": "Spawn refused: unknown target {target}",
  "error.spawn_unknown_agent": "Spawn refused: unknown agent {agent}",
  "error.spawn_no_agent": "Spawn refused: no subagent is configured",
  "error.spawn_no_lineage":
    "Spawn refused: cannot keep the subagent's depth and roster in {dir} (a read-only or full state directory, or a call inside a sandbox)",

  // The terminal approval prompt.
  "prompt.title_tool": "basis-tools asks before running a tool",
  "prompt.title_command": "basis-tools asks before running a command",
  "prompt.tool": "tool",
  "prompt.program": "program",
  "prompt.side_effect": "side effect",
  "prompt.command": "command",
  "prompt.cwd": "cwd",
  "prompt.env": "env",
  "prompt.input": "input",
  "prompt.mode": "mode",
  "prompt.task": "task",
  "prompt.target": "target",
  "prompt.reach": "reach",
  "prompt.child": "child",
  "prompt.child_roster": "tools: {names}",
  "prompt.child_no_tools": "tools: none",
  "prompt.child_model": "model: {model}",
  "prompt.child_system_prompt": "system prompt, replaced by:",
  "prompt.none": "(none)",
  "prompt.env_names": "{names} (values not shown)",
  "prompt.sandbox": "sandbox",
  "prompt.sandbox_default": "confined: nothing granted beyond the default sandbox",
  "prompt.sandbox_grants": "confined, and may {grants}",
  "prompt.sandbox_network": "reach the network",
  "prompt.sandbox_write": "write {paths}",
  "prompt.sandbox_read": "read {paths}",
  "prompt.sandbox_unconfined": "unconfined (runs with your full rights)",
  "prompt.effect_process": "runs a program on this machine",
  "prompt.effect_external": "acts on systems beyond this machine",
  "prompt.effect_local_state": "hands a task to a subagent on this machine",
  "prompt.cut": "… {lines} more {line_word} ({bytes} {byte_word})",
  "prompt.question": "Allow this call?",
  "prompt.allow_once": "Allow once",
  "prompt.allowed_once": "Allowed once",
  "prompt.always_allow": "Always allow (remember this exact command)",
  "prompt.always_allow_any": "Always allow (this command, with any {fields})",
  "prompt.always_allowed": "Always allowed",
  "prompt.remembered": "Remembered as rule {rule}",
  "prompt.not_remembered": "Allowed this once, not remembered: {reason}",
  "prompt.not_remembered_never": "Denied this once, not remembered: {reason}",
  "prompt.deny": "Deny",
  "prompt.denied": "Denied",
  "prompt.never": "Never (remember the refusal)",
  "prompt.nevered": "Never",
  "prompt.asked_by_rule":
    "Asked because rule {rule} says to ask every time; the answer is not remembered",
  "prompt.changed": "changed",
  "prompt.changed_since": "since rule {rule} allowed this call:",
  "prompt.change_changed": "{path}: changed",
  "prompt.change_added": "{path}: new, not pinned by the rule",
  "prompt.change_removed": "{path}: gone",
  "prompt.not_whole": "Too long to show whole here: it can be allowed once, not remembered",
  "prompt.key_navigate": "navigate",
  "prompt.key_select": "select",
  "prompt.key_deny": "deny",

  // The --help texts (option names, command names and examples are never translated).
  "help.global": "Options for every command (before or after its name):",
  "help.more": "A command's own options: basis-tools help COMMAND (or COMMAND --help).",
  "help.options": "Options:",
  "help.tool_usage": "Usage: basis-tools call {name} [INPUT|-]\nExample: {example}",
  "help.tool_command": "Runs: {command}",
  "help.tool_env": "Environment: {env}",
  "help.tool_effect": "Side effect: {effect}",
  "help.tool_effect_timeout": "Side effect: {effect}; time limit: {ms} ms",
  "help.tool_sandbox": "Sandbox: {sandbox}",
  "help.tool_empty": "Input: {} (the schema allows no fields)",
  "help.tool_any": "Input: any JSON object (the schema names no fields)",
  "help.tool_fields":
    "Input: one JSON object, which the program reads on stdin, with these fields:",
  "help.tool_yes": "yes",
  "help.tool_no": "no",
  "help.tool_heading_field": "FIELD",
  "help.tool_heading_type": "TYPE",
  "help.tool_heading_required": "REQUIRED",
  "help.tool_heading_default": "DEFAULT",
  "help.tool_heading_description": "DESCRIPTION",
  "help.tool_other_fields": "Fields not listed here are allowed too.",
  "help.tool_argument":
    "The value of {field} is also argument {index} of the command (<{field}> above).",
  "help.tool_flag":
    "When {field} is true, argument {index} of the command is {flag} ([{flag}] above); else it is left out.",
  "help.tool_prefix":
    "When {field} is given, argument {index} of the command is {prefix} and its value ([{prefix}<{field}>] above); else it is left out.",
  "help.top":
    "basis-tools — declared programs as typed, schema-checked, approved tools\n\nUsage: basis-tools [options] <command> [arguments]\n\nCommands:\n  init                    start a workspace: .basis/tools.json and an example tool\n  list                    the roster: name, side effect, source, description\n  show NAME               one tool in full (env values redacted)\n  check                   validate the manifests (exit 0, or 6 with one line per problem)\n  call NAME [INPUT|-]     run one tool with a JSON object as input\n                          (call NAME --help: the tool's description and input fields)\n  spawn STRING            '!cmd' runs a command, '!@target cmd' runs it on a target,\n                          anything else is a task for the configured subagent\n  schema [--format F]     tool definitions for a model API: openai (default), anthropic,\n                          mcp, gemini (what Gemini CLI's discoveryCommand reads)\n  rules list|add|test|remove|check   the remembered approval rules\n  permissions             the least-privilege Deno permissions for this workspace\n  mcp                     serve the roster to an MCP client over stdio\n  completion SHELL        a completion script for bash, zsh or fish\n  help [COMMAND]          this help, or a command's\n\n{global}\n\nExit codes: 0 ok, 1 tool failed, 2 usage, 3 timed out, 4 input refused, 5 denied,\n6 manifest invalid, 130 interrupted.",
  "help.init":
    "Usage: basis-tools init [-C DIR]\n\nStarts a workspace in DIR (default: the current directory): writes .basis/tools.json, which names\nits JSON Schema ($schema) so that editors check and complete it, and .basis/tools/hello.sh, a tool\nthat reads its input as JSON on stdin and takes one field as an argument; then says what to do\nnext. It overwrites nothing: when a manifest is already there (or the directory is inside a\nworkspace that has one), it exits 2 and writes nothing.",
  "help.help":
    "Usage: basis-tools help [COMMAND]\n\nPrints the program's help, or a command's (the same as COMMAND --help).\nbasis-tools call NAME --help describes one tool: what it does and its input fields.",
  "help.list":
    "Usage: basis-tools list [--json]\n\nLists the roster: workspace tools by name, then global tools the workspace does not shadow, then\nspawn; a tool that cannot be used says why. At a terminal the columns are cut to its width; in a\npipe or a file every line is whole.",
  "help.show":
    "Usage: basis-tools show NAME [--json]\n\nShows one tool in full: description, command (<name> where an argument comes from the input),\ncwd, env names (values redacted), side effect, timeout, input schema and the file that declares\nit.",
  "help.check":
    "Usage: basis-tools check [--strict] [--json]\n\nValidates the workspace and global manifests, including every tool's input and output schemas, and\nthe spawn configuration (spawn.json in the config directory): exit 6, with one line per problem.\nWhat would fail only when a tool is called here — a program that cannot be found on PATH or is not\nexecutable, a relative program that does not exist, a cwd that is not a directory — is a warning\n(exit 0; such a tool is unavailable until it is fixed); with --strict it is a problem (exit 6).",
  "help.call":
    "Usage: basis-tools call NAME [INPUT|-] [options]\n       basis-tools call NAME --help\n\nRuns one tool. INPUT is a JSON object; '-', or no INPUT while stdin is a pipe or a file, reads it\nfrom stdin (empty stdin is refused); no INPUT at a terminal or /dev/null means {}. The input is\nchecked against the tool's schema, the call is approved (--approve; with piped input the question\nis asked on the terminal, /dev/tty), then the program gets the input as compact JSON on stdin,\nevery number as written, and its output is streamed through. With --json, prints one object:\n{tool, ok, result, structured_content, stdout, stderr, exit_code, signal, timed_out, truncated, duration_ms, error}.\ncall NAME --help shows the tool's description and its input fields. Named \"basis-tools-call\" (a\nlink), the binary is call --quiet --result: Gemini CLI's callCommand.",
  "help.spawn":
    'Usage: basis-tools spawn STRING [options]\n\nThe built-in spawn tool (also callable as: basis-tools call spawn \'{"input":"!ls"}\').\n  !<command>            runs the command with /bin/sh -c in the workspace root, in its own\n                        process group, with only PATH, HOME, LANG and the --env pairs set\n  !@<target> <command>  runs it on a target from spawn.json: the target\'s argv with the\n                        command appended as one argument\n  !!<text>              a task that starts with \'!\'\n  <text>                a task for the subagent from spawn.json (text on its stdin, answer on\n                        its stdout); refused at delegation depth max_depth (default 2)\n  @<agent> <text>       a task for a named agent from spawn.json ("agents")\n  @@<text>              a task for the subagent that starts with \'@\'\nThe optional input field "reach" ("local", "named" or "any") bounds which agents a task may\naddress; spawn.json\'s "reach" says which values are allowed and the default.\nOutput streams through; each stream is kept up to 64 KiB for --json, which prints\n{ok, mode, target, result, stdout, stderr, exit_code, error, stdout_truncated,\nstderr_truncated, duration_ms}. Configuration: spawn.json in the config directory,\n{"agent": [argv], "agents": {"name": [argv]}, "targets": {"name": [argv prefix]},\n"max_depth": 2, "reach": {"allow": [...], "default": "any"}, "child": {"roster": [names],\n"model": "...", "system_prompt": "..."}}.',
  "help.permissions":
    "Usage: basis-tools permissions [--format flags|json|deno-json|compile] [--no-shell]\n\nDerives from the manifests the least-privilege Deno permissions for this workspace: --allow-run\nfor the absolute path of every declared program (bare names found on PATH now), the kill program\nthat stops a timed-out tool's process group, /bin/sh for spawn commands (not with --no-shell) and\nspawn's targets and subagent; --allow-read for the workspace, the config and cache directories,\nthe files looked at to find each program and /dev/tty (the prompt); --allow-write for the config,\ncache and state directories and /dev/tty; --allow-env for the variables basis-tools reads and the\n${VAR}s the manifests use; --no-prompt. Warnings go to stderr: programs that cannot be found (left\nout) and grants that defeat confinement (shells, env, xargs, interpreters, ...).",
  "help.mcp":
    "Usage: basis-tools mcp [--http HOST:PORT] [--approve prompt|always|never] [-C DIR]\n\nServes the roster (declared tools and spawn) to an MCP client over stdio: stdout carries the\nprotocol only, logs go to stderr. With --http, over Streamable HTTP at http://HOST:PORT/mcp instead\n(loopback only unless a bearer token is set: $BASIS_MCP_TOKEN, else one made and printed once on\nstderr; the Host and Origin headers must name the address). Clients of the 2025 protocol and of\n2026-07-28 alike. Calls go through the same schema gate, rules and approval as\ncall. A call no rule answers is put to the person through the client (elicitation) when the\nclient supports it; otherwise it is denied, unless --approve always. --approve never denies\nwithout asking. Edits to the manifests and spawn.json reload the roster (a broken edit keeps the\nlast good one); a tool that cannot be used is left out, and logged once. The server ends, stopping\nevery running call, when the client closes stdin; SIGINT or SIGTERM ends it too (exit 0 when idle).",
  "help.schema":
    'Usage: basis-tools schema [--format openai|anthropic|mcp|gemini|openai-responses] [--locale LOCALE]\n\nPrints the definitions of the roster\'s tools (declared tools, then spawn) as one JSON array, in\nthe shape a model API takes. --locale changes the texts of the built-in spawn tool, never names or\nschemas. Tools that cannot be used are left out, with a line on stderr.\n\nGemini CLI (settings.json): "tools": {"discoveryCommand": "basis-tools schema --format gemini",\n"callCommand": "basis-tools-call"}, "basis-tools-call" being a link to the binary: Gemini CLI runs\nit with the tool\'s name as its only argument and the arguments as JSON on stdin.',
  "help.completion":
    "Usage: basis-tools completion bash|zsh|fish\n\nPrints a script that completes, in that shell, the commands of basis-tools, their options and\noption values, and the names of the tools of the workspace the command line names (-C, else the\ncurrent directory's):\n  bash   in ~/.bashrc: source <(basis-tools completion bash)\n  zsh    in ~/.zshrc, after compinit: source <(basis-tools completion zsh)\n  fish   basis-tools completion fish > ~/.config/fish/completions/basis-tools.fish\nEach completion runs basis-tools completion candidates -- WORD..., which prints what may follow,\none a line, for the last word: tool names come from the manifests, read as list reads them; no\ntool runs.",
  "help.rules":
    "Usage: basis-tools rules list [--json]\n       basis-tools rules add --tool NAME [conditions] [--deny | --ask] [--reason TEXT] [--global]\n                             [--match PREVIEW]... [--not-match PREVIEW]...\n       basis-tools rules test NAME [INPUT|-] [--json]\n       basis-tools rules remove ID\n       basis-tools rules check\n\nRemembered rules live in rules.json in the config directory (never in a workspace). A rule's\nconditions are per field of the call's preview and must all hold. Without conditions, add pins\nthe tool's current program, argv and cwd (an argument taken from the input matches any value,\nand an optional one its absence too). A deny rule beats an ask rule, which beats an allow rule.\nRules are scoped to the current workspace (its real path) unless --global is given. test prints\nthe preview and the decision that would be taken, running nothing: exit 0 when allowed, 5 when\nnot. list is cut to the terminal's width.",
  "opt.http":
    "serve Streamable HTTP at HOST:PORT instead of stdio\n(a token is required unless HOST is loopback)",
  "cli.bad_http":
    "Invalid --http {value}: give HOST:PORT (a name or an IP address, [::1] for IPv6, and a port from 0 to 65535)",
  "cli.short_token":
    "Invalid BASIS_MCP_TOKEN: a token has at least 32 characters (its value is not shown)",
  "http.token": "Bearer token of this server (shown once; BASIS_MCP_TOKEN sets your own): {token}",
  "opt.workspace": "workspace root (default: nearest ancestor holding\n.basis/tools.json)",
  "opt.config_dir":
    "global config directory (default: $BASIS_CONFIG_DIR,\n$XDG_CONFIG_HOME/basis, ~/.config/basis)",
  "opt.json": "print JSON instead of text",
  "opt.approve": "prompt | always | never (default: $BASIS_APPROVE, else prompt)",
  "opt.audit_log":
    "where decisions and runs are logged, or off (default:\n$BASIS_AUDIT_LOG, else ~/.local/state/basis/audit.jsonl)",
  "opt.env": "add a variable to every tool's environment (repeatable)",
  "opt.no_shell": "spawn runs no commands (tasks for a subagent still work)",
  "opt.spawn_timeout":
    "time limit of a spawn call (default 120000 for a command,\n600000 for a subagent; at most 600000)",
  "opt.locale": "the language of messages: en-US | uk-UA",
  "opt.help": "show help",
  "opt.version": "show the version (with --json: as JSON)",
  "opt.timeout": "override the tool's timeout_ms for this call",
  "opt.dry_run": "print the preview and the decision that would be taken; run nothing",
  "opt.quiet": "no notes of basis-tools' own on stderr when the call succeeds",
  "opt.result": "print the result a model reads instead of the program's output",
  "opt.strict": "what fails only at call time (a program not found) is a problem",
  "opt.tool": "the tool the rule is for (add: required)",
  "opt.program": "the resolved program (pinned on every allow or ask rule)",
  "opt.argv":
    'one condition per argument: "text" exact, {"glob": "a*"} within that\nargument, {"rest": true} last for any further arguments',
  "opt.cwd": "the working directory, exactly",
  "opt.sandbox":
    'the call\'s sandbox grants, exactly: {"network": false, "write": [...],\n"read": [...]}, "unconfined" or "any" (an allow rule without one holds\nonly for a call with no grants)',
  "opt.input": "the input value at a JSON pointer equals JSON (repeatable)",
  "opt.body": "spawn: the command line or task, exactly",
  "opt.body_glob": "spawn: a glob over the command line (simple commands only)",
  "opt.target": "spawn: the target",
  "opt.mode": "spawn: the mode, command | agent",
  "opt.when": "the whole condition object (the options above are laid over it)",
  "opt.deny": "a rule that denies",
  "opt.ask": "a rule that always asks a person",
  "opt.reason": "why, in one line (shown with a denial)",
  "opt.global": "a rule for every workspace",
  "opt.match": "an example preview the rule must match (repeatable)",
  "opt.not_match": "an example preview the rule must not match (repeatable)",
  "opt.format_schema":
    'the shape of the definitions:\nopenai      {"type": "function", "function": {name, description, parameters, strict}}\n            (default)\nanthropic   {name, description, input_schema}\nmcp         {name, title, description, inputSchema, outputSchema?, annotations}\ngemini      {name, description, parametersJsonSchema, responseJsonSchema?}',
  "opt.format_permissions":
    'what to print:\nflags       one line of deno flags to paste (default; json with --json)\njson        {flags, read, write, env, run, programs, warnings}\ndeno-json   a "permissions" set for deno.json (deno run -P, Deno 2.5 or later)\ncompile     a deno compile command for a binary confined to this workspace',
} as const;

/** A message's key. */
export type MessageKey = keyof typeof EN_US;

/** A catalogue: one text for every key. */
export type Catalogue = Readonly<Record<MessageKey, string>>;
