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
import { callSecrets, redactPhrase } from "../redact.ts";
import { resolveRunProgram } from "../run/run_program.ts";
import type { Resolution } from "../run/mod.ts";

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

/** What one pass over a roster looked up once: programs, and the real path of each directory. */
class Lookups {
  /** Program lookups, by what a lookup depends on. */
  readonly programs: Map<string, Resolution> = new Map();
  readonly #cwds = new Map<string, string>();

  /**
   * A directory's real path, resolved once a pass.
   *
   * @param path The directory as the manifest gave it.
   * @returns Its real path (as `canonicalPath`).
   */
  cwd(path: string): string {
    let real = this.#cwds.get(path);
    if (real === undefined) this.#cwds.set(path, real = canonicalPath(path));
    return real;
  }
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
  return problemsOf(spec, options, undefined);
}

/** {@linkcode toolProblems}, sharing `lookups` already made in one pass over a roster. */
async function problemsOf(
  spec: ToolSpec,
  options: AvailabilityOptions,
  lookups: Lookups | undefined,
): Promise<ManifestProblem[]> {
  const where = { file: spec.file, tool: spec.name };
  const problems: ManifestProblem[] = [];
  const found = resolveRunProgram({
    program: spec.program,
    args: spec.command.slice(1),
    cwd: lookups === undefined ? canonicalPath(spec.cwd) : lookups.cwd(spec.cwd),
    stdin: new Uint8Array(),
    env: [options.env ?? {}, spec.env],
    timeoutMs: spec.timeoutMs,
  }, lookups?.programs);
  if (!found.ok) {
    const secrets = callSecrets(spec.env, options.env ?? {});
    problems.push(
      problemOf({ ...where, field: "command[0]" }, redactPhrase(found.reason, secrets)),
    );
  }
  if (options.schemas ?? true) {
    // The gate is loaded only here: `list` checks no schema and never loads it.
    const { schemaProblem } = await import("../schema/gate.ts");
    const gate = options.cacheDir === undefined ? {} : { cacheDir: options.cacheDir };
    const input = await schemaProblem(spec, gate);
    if (input !== undefined) problems.push(problemOf({ ...where, field: "input_schema" }, input));
    if (spec.outputSchema !== undefined) {
      const output = await schemaProblem({ name: spec.name, inputSchema: spec.outputSchema }, gate);
      if (output !== undefined) {
        problems.push(problemOf({ ...where, field: "output_schema" }, output));
      }
    }
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
  const lookups = new Lookups();
  for (const spec of roster.tools.values()) {
    const problems = await problemsOf(spec, options, lookups);
    if (problems.length === 0) {
      tools.set(spec.name, spec);
      continue;
    }
    found.push(...problems);
    unavailable.set(spec.name, {
      name: spec.name,
      description: spec.description,
      file: spec.file,
      scope: spec.scope,
      problems,
    });
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
    ...[...roster.tools.values()].map((spec) => ({ name: spec.name, spec, scope: spec.scope })),
    ...[...roster.unavailable.values()].map((tool) => ({
      name: tool.name,
      unavailable: tool,
      scope: tool.scope,
    })),
  ];
  entries.sort((a, b) =>
    a.scope !== b.scope ? (a.scope === "workspace" ? -1 : 1) : a.name < b.name ? -1 : 1
  );
  return entries.map(({ scope: _, ...entry }) => entry);
}
