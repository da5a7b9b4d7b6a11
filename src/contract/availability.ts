/**
 * Whether each declared tool can be used beyond what its declaration says: its program can be
 * found (with the environment the program gets) and its schemas compile. A tool that fails is
 * moved to the roster's `unavailable` tools with its reason; the others stay usable.
 *
 * @module
 */

import { type ManifestProblem, problemOf } from "../errors.ts";
import type { Roster, ToolSpec, UnavailableTool } from "../manifest/types.ts";
import { canonicalPath } from "../paths.ts";
import { callSecrets, redactorOf, secretEnv } from "../redact.ts";
import { resolveRunProgram } from "../run/resolve_program.ts";
import { schemaProblem } from "../schema/gate.ts";
import type { Resolution } from "../run/resolve_program.ts";

/** Options of {@linkcode toolProblems} and {@linkcode checkAvailability}. */
export interface AvailabilityOptions {
  /**
   * Whether to compile the input and output schemas (loading the compiler when a schema is not
   * in the cache). `list` skips it; `check`, `schema` and `mcp` do it.
   *
   * @default {true}
   */
  schemas?: boolean;
  /**
   * Where compiled validators are cached.
   *
   * @default {cacheDir(): $BASIS_CACHE_DIR, $XDG_CACHE_HOME/basis or ~/.cache/basis}
   */
  cacheDir?: string;
  /**
   * The `--env` pairs: the program is looked up with the environment it will get (inherited, then
   * these, then the manifest's `env`).
   *
   * @default {{}}
   */
  env?: Readonly<Record<string, string>>;
}

/**
 * Why a declared tool's program cannot be used: it cannot be found or is not executable, looked up
 * with the environment the program gets (field `command[0]`; the tool's secrets hidden).
 *
 * @param spec The tool.
 * @param env The `--env` pairs.
 * @param programs Lookups already made (one pass over a roster, or one call's run).
 * @param cwd The tool's directory, canonical. @default canonicalPath(spec.cwd)
 * @returns The problem, or `undefined` when the program can be started.
 */
export function programProblem(
  spec: ToolSpec,
  env: Readonly<Record<string, string>>,
  programs?: Map<string, Resolution>,
  cwd: string = canonicalPath(spec.cwd),
): ManifestProblem | undefined {
  const request = { program: spec.program, args: [], cwd, stdin: new Uint8Array(), timeoutMs: 0 };
  const found = resolveRunProgram({ ...request, env: [env, spec.env] }, programs);
  if (found.ok) return undefined;
  const where = { file: spec.file, tool: spec.name, field: "command[0]" };
  return problemOf(where, redactorOf(callSecrets(secretEnv(spec), env)).phrase(found.reason));
}

/**
 * Why a declared tool cannot be used, beyond its declaration: the program cannot be found or is
 * not executable (field `command[0]`), a schema does not compile (`input_schema`,
 * `output_schema`). Secrets of the tool never appear in a reason.
 *
 * @param spec The tool, from `loadRoster()`.
 * @param options Whether to compile schemas, the cache, the `--env` pairs.
 * @returns The problems, empty when the tool can be used.
 * @example Find out why a tool cannot run
 * ```ts ignore
 * import { toolProblems } from "./availability.ts";
 * const problems = await toolProblems(roster.tools.get("deploy")!, { schemas: false });
 * for (const problem of problems) console.log(problem.reason);
 * ```
 */
export function toolProblems(
  spec: ToolSpec,
  options: AvailabilityOptions = {},
): Promise<ManifestProblem[]> {
  return problemsOf(spec, options);
}

/** {@linkcode toolProblems}, sharing what one pass over a roster already looked up. */
async function problemsOf(
  spec: ToolSpec,
  options: AvailabilityOptions,
  programs?: Map<string, Resolution>,
  cwd?: string,
): Promise<ManifestProblem[]> {
  const problem = programProblem(spec, options.env ?? {}, programs, cwd);
  const problems = problem === undefined ? [] : [problem];
  if (options.schemas === false) return problems;
  const gate = options.cacheDir === undefined ? {} : { cacheDir: options.cacheDir };
  const schemas = [["input_schema", spec.inputSchema], ["output_schema", spec.outputSchema]];
  for (const [field, schema] of schemas as [string, Record<string, unknown> | undefined][]) {
    const reason = schema && await schemaProblem({ name: spec.name, inputSchema: schema }, gate);
    if (reason) problems.push(problemOf({ file: spec.file, tool: spec.name, field }, reason));
  }
  return problems;
}

/**
 * The roster with every tool that cannot be used (see {@linkcode toolProblems}) moved to
 * `unavailable`, with its reasons (added to `problems` too, after those of the files).
 *
 * @param roster The roster from `loadRoster()`.
 * @param options Whether to compile schemas, the cache, the `--env` pairs.
 * @returns A new roster; the given one is not changed.
 * @example Serve only what can run
 * ```ts ignore
 * import { loadRoster } from "../manifest/load.ts";
 * import { checkAvailability } from "./availability.ts";
 * const roster = await checkAvailability(await loadRoster({ workspace: "." }));
 * for (const [name, tool] of roster.unavailable) console.log(name, tool.problems[0]?.reason);
 * ```
 */
export async function checkAvailability(
  roster: Roster,
  options: AvailabilityOptions = {},
): Promise<Roster> {
  const tools = new Map<string, ToolSpec>();
  const unavailable = new Map<string, UnavailableTool>(roster.unavailable);
  const found: ManifestProblem[] = [];
  // Each program and directory is looked up once a pass.
  const programs = new Map<string, Resolution>();
  const cwds = new Map<string, string>();
  for (const spec of roster.tools.values()) {
    const cwd = cwds.get(spec.cwd) ?? canonicalPath(spec.cwd);
    cwds.set(spec.cwd, cwd);
    const problems = await problemsOf(spec, options, programs, cwd);
    if (problems.length === 0) tools.set(spec.name, spec);
    else {
      found.push(...problems);
      const { name, description, file, scope } = spec;
      unavailable.set(name, { name, description, file, scope, problems });
    }
  }
  return { ...roster, tools, unavailable, problems: [...roster.problems, ...found] };
}

/**
 * Every declared tool of a roster, usable or not, in roster order: workspace tools by name, then
 * the global ones by name.
 *
 * @param roster The roster.
 * @returns Each tool with its spec when usable, or with why it is not.
 */
export function rosterEntries(
  roster: Roster,
): ({ name: string; spec: ToolSpec } | { name: string; unavailable: UnavailableTool })[] {
  const entries = [
    ...[...roster.tools.values()].map((spec) => ({ name: spec.name, spec })),
    ...[...roster.unavailable.values()].map((tool) => ({ name: tool.name, unavailable: tool })),
  ];
  const workspace = (entry: (typeof entries)[number]) =>
    ("spec" in entry ? entry.spec : entry.unavailable).scope === "workspace";
  return entries.sort((a, b) =>
    workspace(a) !== workspace(b) ? (workspace(a) ? -1 : 1) : a.name < b.name ? -1 : 1
  );
}
