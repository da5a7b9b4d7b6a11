/**
 * `basis-tools completion bash|zsh|fish`: a script for the shell that completes the commands, their
 * options and option values, and the names of the workspace's tools. Each completion asks the
 * program: `basis-tools completion candidates -- WORD…` (the words after the program's name, the
 * last one being completed) prints the candidates one a line, or `:dir` or `:file` for the shell to
 * complete a path. So the words are read here, once, by the same tables the parser uses, and the
 * tool names are those of the workspace the words name (`-C`, else the current directory's), read
 * from the manifests as `list` reads them: no program is resolved and no tool runs.
 *
 * @module
 */

import { APPROVAL_POLICIES } from "../../approval/policy.ts";
import { DEFINITION_FORMATS } from "../../contract/types.ts";
import { BasisError } from "../../errors.ts";
import { LOCALES } from "../../locale/locale.ts";
import { phrase } from "../../locale/messages.ts";
import { PERMISSION_FORMATS } from "../../permissions/format.ts";
import { ROSTER_NAME } from "../../spawn/child.ts";
import { SPAWN_TOOL } from "../../spawn/types.ts";
import { type OptionSpec, scanArgs } from "../args.ts";
import { HELP_OPTIONS } from "../help.ts";
import { out } from "../output.ts";
import { rosterFor, serves } from "../_roster.ts";
import { COMMAND_OPTIONS, GLOBAL_OPTIONS, resolveSettings, type Settings } from "../settings.ts";
import { RULES_SUBCOMMANDS } from "./rules.ts";

/** Where the shell completes a path itself. */
type PathKind = ":dir" | ":file";

/** The values an option takes, by its name (`format`: by the command, `tool`: the tool names). */
const VALUES: Readonly<Record<string, readonly string[] | PathKind>> = {
  workspace: ":dir",
  "config-dir": ":dir",
  cwd: ":dir",
  "audit-log": ":file",
  program: ":file",
  approve: APPROVAL_POLICIES,
  locale: LOCALES,
};

/**
 * Prints the completion script of a shell, or (`candidates`) the candidates for a command line.
 *
 * @param settings The run's settings.
 * @param positionals The shell, or `candidates` and the words.
 * @returns The exit code.
 * @throws {BasisError} `usage` for a shell it has no script for.
 */
export async function completionCommand(
  settings: Settings,
  positionals: readonly string[],
): Promise<number> {
  const [what = "", ...words] = positionals;
  if (what === "candidates") {
    const found = await candidates(words, settings);
    out(found.map((line) => `${line}\n`).join(""));
    return 0;
  }
  if (!Object.hasOwn(SCRIPTS, what)) {
    const params = { shell: JSON.stringify(what), shells: Object.keys(SCRIPTS).join(", ") };
    throw BasisError.of("usage", phrase("cli.completion_shell", params));
  }
  out(SCRIPTS[what]!);
  return 0;
}

/** What may follow the words before the last one, starting as the last one does. */
async function candidates(words: readonly string[], settings: Settings): Promise<string[]> {
  const current = words.at(-1) ?? "";
  const before = words.slice(0, -1);
  const { command, positionals, pending, rest } = readWords(before);
  const names = () => toolNames(before, settings);
  const inline = /^(--[a-z-]+)=/.exec(current);
  const inlineSpec = inline === null ? undefined : specOf(inline[1]!, command);
  let found: readonly string[] | PathKind;
  if (pending !== undefined) found = await valuesOf(pending, command, names);
  else if (!rest && inlineSpec !== undefined && inlineSpec.kind !== "boolean") {
    const values = await valuesOf(inlineSpec, command, names);
    found = typeof values === "string" ? [] : values.map((value) => `${inline![0]}${value}`);
  } else if (!rest && current.startsWith("-")) {
    const own = command === undefined || !Object.hasOwn(HELP_OPTIONS, command)
      ? GLOBAL_OPTIONS.map((spec) => spec.name)
      : HELP_OPTIONS[command]!;
    found = own.map((name) => `--${name}`);
  } else found = await positional(command, positionals, names);
  if (typeof found === "string") return [found];
  return found.filter((candidate) => candidate.startsWith(current));
}

/** The command, its positionals and an option still waiting for its value, as parsed. */
function readWords(words: readonly string[]) {
  let command: string | undefined;
  const positionals: string[] = [];
  let pending: OptionSpec | undefined;
  let rest = false;
  for (const word of words) {
    if (pending !== undefined) pending = undefined;
    else if (rest || word === "-" || !word.startsWith("-")) {
      if (command === undefined && !rest) command = word;
      else positionals.push(word);
    } else if (word === "--") rest = true;
    else {
      const spec = specOf(word, command);
      if (spec !== undefined && spec.kind !== "boolean") pending = spec;
    }
  }
  return { command, positionals, pending, rest };
}

/** The option a word names (`--name` or `-X`, without a value), among those the command takes. */
function specOf(word: string, command: string | undefined): OptionSpec | undefined {
  const own = command !== undefined && Object.hasOwn(COMMAND_OPTIONS, command)
    ? COMMAND_OPTIONS[command]!
    : [];
  return [...GLOBAL_OPTIONS, ...own].find((spec) =>
    word === `--${spec.name}` || (spec.short !== undefined && word === `-${spec.short}`)
  );
}

async function valuesOf(
  spec: OptionSpec,
  command: string | undefined,
  names: () => Promise<string[]>,
): Promise<readonly string[] | PathKind> {
  if (spec.name === "tool") return await names();
  if (spec.name === "format") {
    return command === "schema"
      ? DEFINITION_FORMATS
      : command === "permissions"
      ? PERMISSION_FORMATS
      : [];
  }
  return VALUES[spec.name] ?? [];
}

async function positional(
  command: string | undefined,
  positionals: readonly string[],
  names: () => Promise<string[]>,
): Promise<readonly string[]> {
  const [first, ...more] = positionals;
  if (command === undefined || (command === "help" && first === undefined)) {
    return Object.keys(HELP_OPTIONS);
  }
  if (first === undefined) {
    if (command === "call" || command === "show") return await names();
    if (command === "rules") return RULES_SUBCOMMANDS;
    if (command === "completion") return Object.keys(SCRIPTS);
  }
  if (command === "rules" && first === "test" && more.length === 0) return await names();
  return [];
}

/**
 * The roster's names in the workspace and config directory the words name (else this run's), spawn
 * among them when served; none when the manifests cannot be read.
 */
async function toolNames(words: readonly string[], settings: Settings): Promise<string[]> {
  let own = settings;
  try {
    own = resolveSettings(scanArgs(words, GLOBAL_OPTIONS, COMMAND_OPTIONS), settings.envLookup);
  } catch (error) {
    if (!(error instanceof BasisError)) throw error;
  }
  try {
    const roster = await rosterFor(own);
    const names = [...roster.tools.keys(), ...roster.unavailable.keys()];
    if (serves(own, SPAWN_TOOL)) names.push(SPAWN_TOOL);
    // Only what a tool may be named reaches the shell: nothing in it is a shell's syntax.
    return names.filter((name) => ROSTER_NAME.test(name));
  } catch (error) {
    if (!(error instanceof BasisError)) throw error;
    return [];
  }
}

/** Each shell's script: it sends the words to `completion candidates` and offers what comes back. */
const SCRIPTS: Readonly<Record<string, string>> = {
  bash: `# basis-tools completion for bash. In ~/.bashrc: source <(basis-tools completion bash)
_basis_tools() {
  local program=\${COMP_WORDS[0]} word line strip found i
  local -a words=()
  # The program typed, when it is an absolute path; else the one on PATH (./basis-tools in a cloned
  # repository is not run by a Tab).
  [[ $program == /* ]] || program=basis-tools
  # bash splits --name=value (and KEY=VALUE) at "=": join the parts again; a word before the last
  # one in quotes ('my dir') is the text inside them.
  for ((i = 1; i <= COMP_CWORD; i++)); do
    word=\${COMP_WORDS[i]}
    if ((i < COMP_CWORD)) && [[ $word == \\'*\\' || $word == \\"*\\" ]]; then word=\${word:1:\${#word}-2}; fi
    if ((\${#words[@]} > 0)) && [[ $word == "=" || \${words[\${#words[@]}-1]} == *= ]]; then
      words[\${#words[@]}-1]+=$word
    else
      words+=("$word")
    fi
  done
  found=$("$program" completion candidates -- "\${words[@]}" </dev/null 2>/dev/null) || return
  COMPREPLY=()
  word=\${COMP_WORDS[COMP_CWORD]}
  if [[ $found == :dir || $found == :file ]]; then
    compopt -o filenames 2>/dev/null
    if [[ $found == :dir ]]; then found=$(compgen -d -- "$word"); else found=$(compgen -f -- "$word"); fi
    strip=
  else
    # The candidates are whole words; bash replaces only the part after its last "=".
    strip=\${words[\${#words[@]}-1]}
    strip=\${strip:0:\${#strip}-\${#word}}
  fi
  while IFS= read -r line; do
    [[ -n $line ]] && COMPREPLY+=("\${line#"$strip"}")
  done <<<"$found"
}
complete -F _basis_tools basis-tools
`,
  zsh: `#compdef basis-tools
# basis-tools completion for zsh. In ~/.zshrc, after compinit: source <(basis-tools completion zsh)
# (or save it as _basis-tools in a directory of $fpath).
_basis-tools() {
  local program=\${words[1]} found
  [[ $program == /* ]] || program=basis-tools
  found=$("$program" completion candidates -- "\${(@Q)words[2,CURRENT]}" </dev/null 2>/dev/null) ||
    return 1
  case $found in
    :dir) _files -/ ;;
    :file) _files ;;
    ?*) local -a lines=("\${(@f)found}"); compadd -- "\${lines[@]}" ;;
  esac
}
if [[ \${funcstack[1]} == _basis-tools ]]; then _basis-tools "$@"; else compdef _basis-tools basis-tools; fi
`,
  fish: `# basis-tools completion for fish:
# basis-tools completion fish > ~/.config/fish/completions/basis-tools.fish
function __basis_tools_candidates
    set -l words (commandline -opc) (commandline -ct)
    set -l program $words[1]
    string match -q -- '/*' $program; or set program basis-tools
    set -l found ($program completion candidates -- $words[2..-1] </dev/null 2>/dev/null)
    switch "$found"
        case :dir
            __fish_complete_directories (commandline -ct) ''
        case :file
            __fish_complete_path (commandline -ct)
        case '*'
            printf '%s\\n' $found
    end
end
complete -c basis-tools -f -a '(__basis_tools_candidates)'
`,
};
