/**
 * Checking one manifest's text in memory: parsing (JSON, then JSONC), every shape rule, `${VAR}`
 * expansion and path resolution, with each problem located at a line and column.
 *
 * @module
 */

import { type ManifestProblem, problemOf } from "../errors.ts";
import { readEnv, resolvePath } from "../paths.ts";
import type { ManifestScope, ToolSpec, UnavailableTool } from "./types.ts";
import { phrase } from "../locale/messages.ts";
import { createLocator, type DuplicateKey, parseJsonc } from "../json_text.ts";
import { fieldName } from "../text.ts";
import { validateManifest } from "./_validate.ts";
import type { LoadOptions } from "./load.ts";

/** The names the program answers to by default. */
export const DEFAULT_RESERVED: readonly string[] = Object.freeze(["spawn"]);

/**
 * Options of {@linkcode parseManifestText}: the environment, reserved names and the one tool to
 * check as {@linkcode LoadOptions} has them (of the other tools, only what the whole file must get
 * right: their names, a tool declared twice; they are left out of the result, unchecked), the
 * file's scope (default `"workspace"`) and the workspace root relative `cwd` values and programs
 * resolve against (default `Deno.cwd()`).
 */
export type ParseOptions = Pick<LoadOptions, "env" | "reserved" | "only"> & Place;
type Place = { scope?: ManifestScope; root?: string };

/** What one manifest's text declares, and what is wrong with it. */
export interface ParsedManifest {
  /** The valid tools, in document order (a tool with any problem is left out). */
  readonly tools: readonly ToolSpec[];
  /** Every problem, in file order; empty when the manifest is valid. */
  readonly problems: readonly ManifestProblem[];
  /**
   * The tools left out for problems confined to them (a field, an unset variable, a key given
   * twice inside the tool), each with its problems, in document order. The other tools are usable
   * unless the file is `refused`.
   */
  readonly unavailable: readonly UnavailableTool[];
  /**
   * Whether the file itself is refused: a problem not confined to one tool (not JSON, not an
   * object, the `schema` version, a tool's name, a tool declared twice, an unknown top-level key).
   * Then none of its tools may be used.
   */
  readonly refused: boolean;
}

/**
 * Checks one manifest's text against the manifest rules (README: "The manifest") without touching
 * the disk. It never throws for bad input: every problem is returned, located where the text
 * allows. A key given twice in one object (a tool declared twice, a field given twice) is a
 * problem at the second one: the format cannot say a name twice.
 *
 * @param text The manifest text (a leading byte order mark is ignored).
 * @param file The path to report (and to record in each {@linkcode ToolSpec}).
 * @param options The scope, root, environment and reserved names.
 * @returns The valid tools and every problem found.
 * @throws Nothing for bad input: every problem is returned, not thrown.
 * @example Check a manifest held in memory
 * ```ts
 * import { parseManifestText } from "./parse.ts";
 * const text = '{"schema": 1, "tools": {"hi": {"description": "Say hi", ' +
 *   '"input_schema": {"type": "object"}, "command": ["echo", "${WHO:-world}"]}}}';
 * const { tools, problems } = await parseManifestText(text, "/w/.basis/tools.json", {
 *   root: "/w",
 *   env: () => undefined,
 * });
 * console.assert(problems.length === 0);
 * console.assert(tools[0]?.command[1] === "world");
 * ```
 */
export async function parseManifestText(
  text: string,
  file: string,
  options: ParseOptions = {},
): Promise<ParsedManifest> {
  const root = resolvePath(Deno.cwd(), options.root ?? ".");
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const parsed = await parseJsonc(source, phrase("manifest.empty_file"));
  if (!parsed.ok) {
    const at = parsed.position ?? {};
    const problems = [problemOf({ file, ...at }, parsed.reason)];
    return { tools: [], problems, unavailable: [], refused: true };
  }
  const scope = options.scope ?? "workspace";
  const { only } = options;
  const { tools, issues, broken } = await validateManifest(parsed.value, {
    file,
    scope,
    root,
    env: options.env ?? readEnv,
    reserved: new Set(options.reserved ?? DEFAULT_RESERVED),
    ...(only === undefined ? {} : { only }),
  });
  // JSON.parse kept the last of a key given twice: the manifest said two things; say where.
  const duplicates = parsed.duplicates.map((duplicate) => duplicateProblem(file, duplicate))
    .filter(({ confinedTo }) =>
      only === undefined || confinedTo === undefined || confinedTo === only
    );
  if (issues.length === 0 && duplicates.length === 0) {
    return { tools, problems: [], unavailable: [], refused: false };
  }
  const find = issues.length === 0 ? () => undefined : await createLocator(source);
  const located: Found[] = issues.map(({ path, at, reason, confinedTo, ...named }) => ({
    problem: problemOf({ file, ...find({ path, at }), ...named }, reason),
    confinedTo,
  }));
  // In file order, as a person reads the file (a stable sort: found order among equals).
  const at = ({ problem }: Found, key: "line" | "column") => problem[key] ?? Infinity;
  const all = [...located, ...duplicates]
    .sort((a, b) => at(a, "line") - at(b, "line") || at(a, "column") - at(b, "column"));
  // Each tool with a problem of its own is left out, with its problems; the rest stay usable.
  const confined = Map.groupBy(all.filter((f) => f.confinedTo !== undefined), (f) => f.confinedTo!);
  const described = new Map([...broken, ...tools].map((tool) => [tool.name, tool.description]));
  const unavailable: UnavailableTool[] = [...confined].map(([name, found]) => ({
    name,
    description: described.get(name),
    file,
    scope,
    problems: found.map(({ problem }) => problem),
  }));
  // A tool declared twice is no tool: which of the two was meant?
  const twice = new Set(
    duplicates.map(({ problem }) => problem.field === undefined && problem.tool),
  );
  return {
    tools: tools.filter((tool) => !confined.has(tool.name) && !twice.has(tool.name)),
    problems: all.map(({ problem }) => problem),
    unavailable,
    refused: all.some(({ confinedTo }) => confinedTo === undefined),
  };
}

/** A problem, and the tool it is confined to (none: a problem of the file itself). */
type Found = { readonly problem: ManifestProblem; readonly confinedTo: string | undefined };

/**
 * A key given twice: a tool declared twice (the file's problem: which one is meant?), or a field
 * given twice inside a tool (that tool's), at the second one.
 */
function duplicateProblem(file: string, duplicate: DuplicateKey): Found {
  const { path, key, position, first } = duplicate;
  const where = { file, line: position.line, column: position.column };
  const again = phrase("json.duplicate_key", { line: first.line, column: first.column });
  const [top, tool, ...rest] = path;
  if (top === "tools" && tool === undefined) {
    const twice = phrase("manifest.duplicate_tool", { line: first.line, column: first.column });
    return { problem: problemOf({ ...where, tool: key }, twice), confinedTo: undefined };
  }
  if (top === "tools" && typeof tool === "string") {
    const problem = problemOf({ ...where, tool, field: fieldName([...rest, key]) }, again);
    return { problem, confinedTo: tool };
  }
  return {
    problem: problemOf({ ...where, field: fieldName([...path, key]) }, again),
    confinedTo: undefined,
  };
}
