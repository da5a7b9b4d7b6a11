/**
 * The validated shapes the manifest loader produces. Everything here has passed every rule of
 * README section "The manifest"; nothing here knows about processes, prompts or CLI flags.
 *
 * @module
 */

/** How far a tool's effects can reach. There is no read-only level. */
export type SideEffect = "process" | "external";

/** Where a tool was declared. */
export type ManifestScope = "workspace" | "global";

import type { ManifestProblem } from "../errors.ts";

/** The JSON types an argument taken from the input may have: one argv element each. */
export type ArgumentType = "string" | "integer" | "number" | "boolean";

/**
 * One element of `command` taken from the input. `{"input": "name"}` stands for a whole argument
 * (never split, never joined with text), filled from a top-level property the input schema
 * requires and types as a scalar. Two more kinds are optional, present only when the input says:
 * `{"input": "name", "flag": "-i"}`, the fixed text `-i` when the boolean property is true (no
 * element when it is false or absent), and `{"input": "name", "prefix": "--max-count="}`, the value
 * joined to the fixed text in one element (no element when the property is absent).
 */
export interface InputArgument {
  /** Its position in `command` (1 or more: the program never comes from the input). */
  readonly index: number;
  /** The top-level property of the input it is filled from. */
  readonly field: string;
  /** The property's type in the input schema. */
  readonly type: ArgumentType;
  /**
   * Whether a literal `--` comes before it in `command`: only then may its value begin with `-`
   * (before it, the program could read the value as an option). A prefixed value may always.
   */
  readonly afterDashes: boolean;
  /** The option present when the property is true: one element of its own, no value in it. */
  readonly flag?: string;
  /** The option, ending with `=`, that the value is joined to when the property is given. */
  readonly prefix?: string;
}

/**
 * What a tool declares it needs beyond the default OS sandbox (manifest `sandbox`). Paths are
 * absolute (relative ones resolved against the workspace root) or start with `~` (the home
 * directory, expanded when the tool is called).
 */
export interface ToolSandbox {
  /** Whether it may reach the network: as declared, else true for an `"external"` tool. */
  readonly network: boolean;
  /** Paths it may write, beyond the workspace. */
  readonly write: readonly string[];
  /** Paths it may read that the sandbox hides by default (`~/.ssh`, …). */
  readonly read: readonly string[];
}

/** A declared tool after validation, `${VAR}` expansion and path resolution. */
export interface ToolSpec {
  /** 1–64 of `A-Z a-z 0-9 _ -`, not starting with `-`; never `mcp__…` nor a built-in name. */
  readonly name: string;
  /** Trimmed, never blank. */
  readonly description: string;
  /** The JSON Schema for the input, as written (a JSON object). */
  readonly inputSchema: Readonly<Record<string, unknown>>;
  /**
   * The JSON Schema of what the program prints on stdout, as written (a JSON object), when the
   * manifest declares one: stdout must then be a JSON object matching it. Absent: stdout is text.
   */
  readonly outputSchema?: Readonly<Record<string, unknown>>;
  /**
   * `"content"` when the manifest declares `"output": "content"`: stdout is then a JSON array of MCP
   * content blocks, checked before they are served. Absent: stdout is text (or, with
   * `outputSchema`, one JSON object).
   */
  readonly output?: "content";
  /** A display name for people (MCP's `title`), trimmed, when the manifest gives one. */
  readonly title?: string;
  /**
   * The argv after expansion (`command[0]` as written). An argument taken from the input holds
   * `<name>` here (`[-i]` for a flag, `[--max-count=<name>]` for a prefixed value; see
   * `inputArguments`): a call puts the input's value in its place, or leaves an optional one out,
   * before the preview is built.
   */
  readonly command: readonly string[];
  /**
   * The arguments taken from the input (`{"input": "name", …}` elements of `command`), in argv
   * order; absent when the command takes none.
   */
  readonly inputArguments?: readonly InputArgument[];
  /**
   * The program to start: an absolute path when `command[0]` was absolute or relative with a `/`
   * (resolved against the workspace root), else the bare name, found on `PATH` at call time.
   */
  readonly program: string;
  /** Absolute working directory. */
  readonly cwd: string;
  /**
   * Expanded environment pairs, as the program gets them. Their values are secrets, never printed,
   * but for those `publicEnv` names.
   */
  readonly env: Readonly<Record<string, string>>;
  /**
   * The variables of `env` declared public (`{"value": …, "public": true}`), sorted: configuration,
   * shown in previews and never redacted (a secret inside one still is). Absent when none is.
   */
  readonly publicEnv?: readonly string[];
  /** Default `"process"`. */
  readonly sideEffect: SideEffect;
  /** Default 120000. */
  readonly timeoutMs: number;
  /** The exit codes that mean the program succeeded, sorted; absent: only 0. */
  readonly successExitCodes?: readonly number[];
  /** What it needs beyond the default sandbox. */
  readonly sandbox: ToolSandbox;
  /**
   * The rest of the tool's code (what its program or script loads), as globs relative to the
   * workspace root: an allow rule pins these files' content as one digest. Absent when the
   * manifest names none.
   */
  readonly files?: readonly string[];
  /** The manifest file that declared the tool (absolute path). */
  readonly file: string;
  /** Whether that file is the workspace's or the global one. */
  readonly scope: ManifestScope;
}

/** One manifest file that was considered. */
export interface ManifestSource {
  /** Absolute path. */
  readonly path: string;
  /** Whether it is the workspace's file or the global one. */
  readonly scope: ManifestScope;
  /** False when the file does not exist (or is a directory, which is skipped). */
  readonly found: boolean;
}

/**
 * A declared tool that cannot be used: a problem confined to it (a field it gets wrong, a variable
 * that is not set, a key given twice inside it) leaves it out of the usable tools, with every
 * reason, while the rest of the roster works. It still shadows a global tool of the same name.
 */
export interface UnavailableTool {
  /** The tool's name, as declared. */
  readonly name: string;
  /** Its description, when that field is valid (for `list`). */
  readonly description: string | undefined;
  /** The manifest file that declared it (absolute path). */
  readonly file: string;
  /** Whether that file is the workspace's or the global one. */
  readonly scope: ManifestScope;
  /** Why it cannot be used: every problem found, in file order (never empty). */
  readonly problems: readonly ManifestProblem[];
}

/** The loaded roster: every declared tool, workspace first, then unshadowed global tools. */
export interface Roster {
  /** The workspace root (absolute). */
  readonly root: string;
  /** The global config directory (absolute). */
  readonly configDir: string;
  /** The files considered, workspace first. */
  readonly sources: readonly ManifestSource[];
  /**
   * The usable tools in roster order: workspace tools by name, then unshadowed global tools by
   * name. A tool with a problem of its own is not here but in `unavailable`.
   */
  readonly tools: ReadonlyMap<string, ToolSpec>;
  /**
   * The declared tools that cannot be used, each with why, in the same order (a name is in
   * `tools` or here, never both). Empty when every tool is usable.
   */
  readonly unavailable: ReadonlyMap<string, UnavailableTool>;
  /**
   * Every problem found in the files, in file order, workspace first: those of the tools in
   * `unavailable`, and of tools shadowed by a workspace tool of the same name (both files are
   * fully checked). Empty when every declaration is valid.
   */
  readonly problems: readonly ManifestProblem[];
}
