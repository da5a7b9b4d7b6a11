/**
 * The shape of a user's config file (`spawn.json`, `sandbox.json`, `rules.json`), checked by its
 * shipped JSON Schema (`schemas/*.schema.json`) through the schema gate's ajv and validator cache:
 * every failure, one line each, naming the field. Where ajv's own words would be a regular
 * expression, the pattern's meaning is said instead; an unknown key gets a suggestion.
 *
 * @module
 */

import { ManifestError, type ManifestProblem, problemOf } from "./errors.ts";
import { createLocator, type Pointer } from "./json_text.ts";
import type { MessageKey } from "./locale/en_us.ts";
import { type Phrase, phrase } from "./locale/messages.ts";
import type { ParsedConfig } from "./read_config_file.ts";
import { unknownKey } from "./suggest.ts";
import { fieldName } from "./text.ts";
import { schemaIssues } from "./schema/gate.ts";

type Segment = string | number;

/**
 * One way a config value fails its schema: where, from the top of the file, whether the problem is
 * the key itself (unknown, badly named, not allowed) or its value, and what is wrong.
 */
export type ShapeProblem = Pointer & { readonly reason: Phrase };

type Node = Readonly<Record<string, unknown>>;

/** What each pattern of the shipped config schemas means, in words (a test holds them to it). */
export const PATTERNS: Readonly<Record<string, MessageKey>> = {
  "\\S": "config.not_blank",
  "[\\s\\S]": "config.not_empty",
  "^[A-Za-z0-9_-]+$": "config.name",
  "^[A-Za-z0-9_][A-Za-z0-9_-]{0,63}$": "config.tool_name",
  "^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$": "config.rule_id",
  "^(?:/|(?:/(?:[^/.][^/]*|\\.[^/.][^/]*|\\.\\.[^/]+))+)$": "config.root",
  "^/": "config.absolute",
  "^[^\\r\\n]*$": "config.one_line",
  "^(?:/(?:[^~/]|~[01])*)*$": "config.pointer",
  "^(?:program|files|argv\\[(?:0|[1-9][0-9]*)\\])$": "config.content_tool",
  "^word\\[(?:0|[1-9][0-9]*)\\]$": "config.content_spawn",
  "^(?:[^\\\\]|\\\\[\\s\\S])*$": "config.glob",
  "^[0-9a-f]{64}$": "config.sha256",
  "^[0-9a-f]{32}$": "config.salt",
  "^(?:~(?:/[^\\u0000]*)?|/[^\\u0000]*)$": "config.grant_path",
};

/** Failures that only say that one inside them failed (already reported). */
const WRAPPERS = new Set(["if", "propertyNames", "anyOf", "oneOf", "allOf"]);

/**
 * Checks a parsed config file against its schema.
 *
 * @param schema The file's JSON Schema (one of `schemas/*.schema.json`).
 * @param value The file's content, as parsed.
 * @returns Every problem, in the order the schema found them; none when the value fits.
 * @throws {Error} Only when the schema itself cannot be compiled (a bug).
 * @example A misspelt key
 * ```ts ignore
 * import { shapeProblems } from "./config_shape.ts";
 * const schema = { type: "object", properties: { mode: {} }, additionalProperties: false };
 * const [problem] = await shapeProblems(schema, { mdoe: "auto" });
 * console.log(problem?.path); // ["mdoe"]
 * ```
 */
export async function shapeProblems(schema: object, value: unknown): Promise<ShapeProblem[]> {
  const issues = await schemaIssues(schema, value, { allErrors: true });
  const seen = new Set<string>();
  return issues.filter((issue) => !WRAPPERS.has(issue.keyword)).map((issue): ShapeProblem => {
    const { keyword, params } = issue;
    let path = pathOf(value, issue.pointer);
    // A value nested too deeply is named where the schema stops describing it.
    if (keyword === "") path = path.slice(0, nodesAt(schema, path).depth);
    const words = keyword === "pattern" ? PATTERNS[String(params.pattern)] : undefined;
    let reason = words === undefined
      ? typeof issue.reason === "string" ? phrase("join.one", { item: issue.reason }) : issue.reason
      : phrase(words);
    if (keyword === "additionalProperties") {
      const known = knownKeys(schema, path.slice(0, -1));
      if (known.length > 0) reason = unknownKey(String(path.at(-1)), known);
    }
    const key = keyword === "additionalProperties" || keyword === "false schema" ||
      (issue.pointer !== issue.instancePath && keyword !== "required");
    return { path, at: key ? "key" : "value", reason };
  }).filter((problem) => {
    // Two schemas may say the same of one value (a rule's "when" and its conditions).
    const said = JSON.stringify(problem);
    return !seen.has(said) && seen.add(said);
  });
}

/** A JSON pointer into `value` as keys and indexes (an index where the value is an array). */
function pathOf(value: unknown, pointer: string): Segment[] {
  const path: Segment[] = [];
  let here = value;
  for (const token of pointer.split("/").slice(1)) {
    const key = token.replaceAll("~1", "/").replaceAll("~0", "~");
    const segment = Array.isArray(here) ? Number(key) : key;
    path.push(segment);
    here = (here as Record<Segment, unknown> | null | undefined)?.[segment];
  }
  return path;
}

/**
 * The schemas that apply at `path` (following `$ref`, `allOf`, `anyOf` and `oneOf`; one chosen by
 * `if` is not followed), and how deep the path goes before none does.
 */
function nodesAt(schema: object, path: readonly Segment[]): { nodes: Node[]; depth: number } {
  const root = schema as Node;
  const expand = (node: unknown): Node[] => {
    if (typeof node !== "object" || node === null) return node === true ? [{}] : [];
    const here = node as Node;
    const ref = typeof here.$ref === "string" ? here.$ref.match(/^#\/definitions\/(.+)$/) : null;
    const target = ref ? (root.definitions as Node)[ref[1]!] : undefined;
    const parts = ["allOf", "anyOf", "oneOf"].flatMap((key) => (here[key] ?? []) as unknown[]);
    return [here, ...expand(target), ...parts.flatMap(expand)];
  };
  let nodes = expand(root);
  let depth = 0;
  for (const segment of path) {
    const next = nodes.flatMap((node) => {
      const items = node.items;
      return expand(
        typeof segment === "number"
          ? (Array.isArray(items) ? items[segment] ?? node.additionalItems : items)
          : (node.properties as Node | undefined)?.[segment] ?? node.additionalProperties,
      );
    });
    if (next.length === 0) break;
    nodes = next;
    depth++;
  }
  return { nodes, depth };
}

/** The keys allowed in the object at `path`: those of each schema there that allows no others. */
function knownKeys(schema: object, path: readonly Segment[]): string[] {
  const { nodes, depth } = nodesAt(schema, path);
  if (depth < path.length) return [];
  const closed = nodes.filter((node) => node.additionalProperties === false);
  return [...new Set(closed.flatMap((node) => Object.keys(node.properties ?? {})))];
}

/**
 * The error of a config file: each problem at its line and column, in file order, after each key
 * the file gives twice.
 *
 * @param file The file's path.
 * @param parsed The file, as `parseConfigText` read it.
 * @param found Its problems.
 * @returns The error to throw.
 */
export async function configError(
  file: string,
  parsed: ParsedConfig,
  found: readonly ShapeProblem[],
): Promise<ManifestError> {
  const locate = await createLocator(parsed.source);
  const located = found.map(({ path, at, reason }) => {
    const field = path.length ? { field: fieldName(path) } : {};
    return problemOf({ file, ...locate({ path, at }), ...field }, reason);
  });
  const place = (problem: ManifestProblem) => (problem.line ?? 0) * 1e6 + (problem.column ?? 0);
  return new ManifestError([...parsed.duplicates, ...located.sort((a, b) => place(a) - place(b))]);
}
