/**
 * The shape rules of a schema 1 manifest (README: "The manifest"): the parsed document comes in as
 * `unknown` and is narrowed field by field; every problem is collected with a pointer to the node
 * it is about, and each valid tool becomes a {@linkcode ToolSpec}.
 *
 * @module
 */

import { type Phrase, phrase } from "../locale/messages.ts";
import type { EnvLookup } from "../paths.ts";
import type { ManifestScope, ToolSpec } from "./types.ts";
import type { Pointer, Segment } from "../json_text.ts";
import { isObject, type Json, show } from "./_describe.ts";
import { foundPhrase } from "../json_kind.ts";
import { keyLabel } from "../text.ts";
import {
  checkCommand,
  checkCwd,
  checkDescription,
  checkEnv,
  checkFiles,
  checkInputSchema,
  checkName,
  checkOutputSchema,
  checkSandbox,
  checkSideEffect,
  checkTimeout,
  checkTitle,
} from "./_fields.ts";
import { PathResolver } from "./_resolve.ts";
import { checkArguments, type WrittenArgument } from "./_arguments.ts";
import { unknownKey } from "../suggest.ts";

/** The only manifest version this program reads. */
export const SCHEMA_VERSION = 1;

/** `$schema` names the JSON Schema an editor checks the file with; this program ignores it. */
const TOP_KEYS = ["$schema", "schema", "tools"] as const;
const TOOL_KEYS = [
  "description",
  "input_schema",
  "command",
  "cwd",
  "env",
  "side_effect",
  "timeout_ms",
  "output_schema",
  "title",
  "sandbox",
  "files",
] as const;

/** What the rules need besides the document. */
export interface ValidateContext {
  /** The manifest file (absolute). */
  readonly file: string;
  readonly scope: ManifestScope;
  /** The workspace root (absolute). */
  readonly root: string;
  readonly env: EnvLookup;
  /** Names the program already answers to. */
  readonly reserved: ReadonlySet<string>;
}

/** One problem, not yet located: the pointer says which node it is about. */
export interface Issue {
  readonly pointer: Pointer;
  readonly tool?: string;
  readonly field?: string;
  readonly reason: Phrase;
  /**
   * The tool (its name as declared) the problem is confined to: that tool cannot be used, the
   * others can. Absent for a problem of the file itself (not an object, its version, a tool's
   * name), which refuses the whole file.
   */
  readonly confinedTo?: string;
}

/** A tool left out for problems of its own. */
export interface BrokenTool {
  readonly name: string;
  /** Its description, when that field is valid. */
  readonly description: string | undefined;
}

/** The valid tools of one document and every problem found in it. */
export interface Validated {
  readonly tools: ToolSpec[];
  readonly issues: Issue[];
  /** The tools left out for problems confined to them, in document order. */
  readonly broken: BrokenTool[];
}

/**
 * Checks a parsed manifest against every rule of schema 1.
 *
 * @param document The parsed JSON, untrusted.
 * @param context The file, scope, root, environment and reserved names.
 * @returns The valid tools (in document order) and every problem.
 */
export function validateManifest(document: unknown, context: ValidateContext): Validated {
  const issues: Issue[] = [];
  const tools: ToolSpec[] = [];
  const broken: BrokenTool[] = [];
  if (!isObject(document)) {
    issues.push({
      pointer: { path: [], at: "value" },
      reason: phrase("manifest.not_object", { found: foundPhrase(document) }),
    });
    return { tools, issues, broken };
  }
  for (const key of Object.keys(document)) {
    if (!(TOP_KEYS as readonly string[]).includes(key)) {
      issues.push({ pointer: { path: [key], at: "key" }, ...unknownKey(key, TOP_KEYS) });
    }
  }
  if (Object.hasOwn(document, "$schema") && typeof document.$schema !== "string") {
    issues.push({
      pointer: { path: ["$schema"], at: "value" },
      field: "$schema",
      reason: phrase("manifest.not_string", { found: foundPhrase(document.$schema) }),
    });
  }
  const skipTools = checkSchema(document, issues);
  if (!Object.hasOwn(document, "tools")) {
    issues.push({
      pointer: { path: [], at: "value" },
      field: "tools",
      reason: phrase("manifest.tools_required"),
    });
  } else if (!isObject(document.tools)) {
    issues.push({
      pointer: { path: ["tools"], at: "value" },
      field: "tools",
      reason: phrase("manifest.tools_not_object", { found: foundPhrase(document.tools) }),
    });
  } else if (!skipTools) {
    const declared = document.tools;
    const paths = new PathResolver(context.root);
    for (const name of Object.keys(declared)) {
      const checked = checkTool(name, declared[name], context, paths, issues);
      if ("spec" in checked) tools.push(checked.spec);
      else broken.push(checked);
    }
  }
  return { tools, issues, broken };
}

/** Returns true when the document is another version, whose tools are not checked. */
function checkSchema(document: Json, issues: Issue[]): boolean {
  if (!Object.hasOwn(document, "schema")) {
    issues.push({
      pointer: { path: [], at: "value" },
      field: "schema",
      reason: phrase("manifest.schema_required", { version: SCHEMA_VERSION }),
    });
    return false;
  }
  const version = document.schema;
  if (version === SCHEMA_VERSION) return false;
  issues.push({
    pointer: { path: ["schema"], at: "value" },
    field: "schema",
    reason: phrase("manifest.schema_unsupported", {
      value: show(version),
      version: SCHEMA_VERSION,
    }),
  });
  return typeof version === "number";
}

function checkTool(
  name: string,
  raw: unknown,
  context: ValidateContext,
  paths: PathResolver,
  issues: Issue[],
): { spec: ToolSpec } | BrokenTool {
  const tool = keyLabel(name);
  const before = issues.length;
  const report = (
    path: readonly Segment[],
    at: Pointer["at"],
    field: string | undefined,
    reason: Phrase,
  ) => {
    issues.push({
      pointer: { path: ["tools", name, ...path], at },
      tool,
      ...(field === undefined ? {} : { field }),
      reason,
      confinedTo: name,
    });
  };

  const nameProblem = checkName(name, context.reserved);
  if (nameProblem !== undefined) {
    // A name the format cannot take refuses the whole file: it is not a tool's own problem.
    issues.push({
      pointer: { path: ["tools", name], at: "key" },
      tool,
      reason: phrase("manifest.invalid_name", { reason: nameProblem }),
    });
  }
  if (!isObject(raw)) {
    report([], "value", undefined, phrase("manifest.tool_not_object", { found: foundPhrase(raw) }));
    return { name, description: undefined };
  }
  for (const key of Object.keys(raw)) {
    if (!(TOOL_KEYS as readonly string[]).includes(key)) {
      const { field, reason } = unknownKey(key, TOOL_KEYS);
      report([key], "key", field, reason);
    }
  }

  const description = checkDescription(raw, report);
  const inputSchema = checkInputSchema(raw, report);
  const written: WrittenArgument[] = [];
  const argv = checkCommand(raw, context.env, report, written);
  // Checked against the schema even when another element is wrong: every problem is reported.
  const inputArguments = written.length === 0 || inputSchema === undefined
    ? []
    : checkArguments(written, raw.command as unknown[], inputSchema, report);
  const cwd = checkCwd(raw, context.env, report);
  const env = checkEnv(raw, context.env, report);
  const sideEffect = checkSideEffect(raw, report);
  const timeoutMs = checkTimeout(raw, report);
  const sandbox = checkSandbox(raw, paths.root, sideEffect, report);
  const outputSchema = checkOutputSchema(raw, report);
  const title = checkTitle(raw, report);
  const files = checkFiles(raw, report);

  if (
    issues.length !== before || description === undefined || inputSchema === undefined ||
    argv === undefined || inputArguments === undefined || cwd === false || env === undefined ||
    sideEffect === undefined || timeoutMs === undefined || outputSchema === false ||
    title === false || sandbox === undefined || files === false
  ) {
    return { name, description };
  }
  const spec: ToolSpec = Object.freeze({
    name,
    description,
    ...(title === undefined ? {} : { title }),
    inputSchema,
    ...(outputSchema === undefined ? {} : { outputSchema }),
    command: Object.freeze(argv),
    ...(inputArguments.length === 0 ? {} : { inputArguments: Object.freeze(inputArguments) }),
    program: paths.program(argv[0]!),
    cwd: paths.cwd(cwd),
    env: Object.freeze(env),
    sideEffect,
    timeoutMs,
    sandbox,
    ...(files === undefined ? {} : { files }),
    file: context.file,
    scope: context.scope,
  });
  return { spec };
}
