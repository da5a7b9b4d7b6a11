/**
 * The shape rules of a schema 1 manifest (DESIGN.md §2): the parsed document comes in as
 * `unknown` and is narrowed field by field; every problem is collected with a pointer to the node
 * it is about, and each valid tool becomes a {@linkcode ToolSpec}.
 *
 * Found values are quoted only for fields whose values are never secret (`schema`, `side_effect`,
 * `timeout_ms`, `input_schema.type`); elsewhere a problem names the type that was found.
 *
 * @module
 */

import type { EnvLookup } from "../paths.ts";
import type { ManifestScope, SideEffect, ToolSpec } from "./types.ts";
import type { Pointer, Segment } from "./_json.ts";
import { expand } from "./_expand.ts";
import { PathResolver } from "./_resolve.ts";
import { suggestKey } from "./_suggest.ts";

/** The only manifest version this program reads. */
export const SCHEMA_VERSION = 1;
/** The default `timeout_ms`. */
export const DEFAULT_TIMEOUT_MS = 120_000;
/** The largest `timeout_ms`: timers cannot wait longer (about 24.8 days). */
export const MAX_TIMEOUT_MS = 2 ** 31 - 1;
/** How deep an `input_schema` may nest before it is refused. */
export const MAX_SCHEMA_DEPTH = 100;

const TOP_KEYS = ["schema", "tools"] as const;
const TOOL_KEYS = [
  "description",
  "input_schema",
  "command",
  "cwd",
  "env",
  "side_effect",
  "timeout_ms",
] as const;
const SIDE_EFFECTS: readonly string[] = ["process", "external"] satisfies SideEffect[];
const NAME_CHARS = /^[A-Za-z0-9_-]+$/;
const BAD_NAME_CHAR = /[^A-Za-z0-9_-]/u;
const MAX_NAME_LENGTH = 64;
const MAX_LABEL_LENGTH = 200;
// deno-lint-ignore no-control-regex
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

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
  readonly reason: string;
}

/** The valid tools of one document and every problem found in it. */
export interface Validated {
  readonly tools: ToolSpec[];
  readonly issues: Issue[];
}

type Json = Record<string, unknown>;

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
  if (!isObject(document)) {
    issues.push({
      pointer: { path: [], at: "value" },
      reason: `the manifest must be a JSON object, found ${kind(document)}`,
    });
    return { tools, issues };
  }
  for (const key of Object.keys(document)) {
    if (!(TOP_KEYS as readonly string[]).includes(key)) {
      issues.push({ pointer: { path: [key], at: "key" }, ...unknownKey(key, TOP_KEYS) });
    }
  }
  const skipTools = checkSchema(document, issues);
  if (!Object.hasOwn(document, "tools")) {
    issues.push({
      pointer: { path: [], at: "value" },
      field: "tools",
      reason: "is required (an object keyed by tool name; {} declares none)",
    });
  } else if (!isObject(document.tools)) {
    issues.push({
      pointer: { path: ["tools"], at: "value" },
      field: "tools",
      reason: `must be an object keyed by tool name, found ${kind(document.tools)}`,
    });
  } else if (!skipTools) {
    const declared = document.tools;
    const paths = new PathResolver(context.root);
    for (const name of Object.keys(declared)) {
      const spec = checkTool(name, declared[name], context, paths, issues);
      if (spec !== undefined) tools.push(spec);
    }
  }
  return { tools, issues };
}

/** Returns true when the document is another version, whose tools are not checked. */
function checkSchema(document: Json, issues: Issue[]): boolean {
  const supported = `(this program reads version ${SCHEMA_VERSION})`;
  if (!Object.hasOwn(document, "schema")) {
    issues.push({
      pointer: { path: [], at: "value" },
      field: "schema",
      reason: `is required ${supported}`,
    });
    return false;
  }
  const version = document.schema;
  if (version === SCHEMA_VERSION) return false;
  issues.push({
    pointer: { path: ["schema"], at: "value" },
    field: "schema",
    reason: `unsupported version ${show(version)} ${supported}`,
  });
  return typeof version === "number";
}

function checkTool(
  name: string,
  raw: unknown,
  context: ValidateContext,
  paths: PathResolver,
  issues: Issue[],
): ToolSpec | undefined {
  const tool = label(name);
  const before = issues.length;
  const report = (
    path: readonly Segment[],
    at: Pointer["at"],
    field: string | undefined,
    reason: string,
  ) => {
    issues.push({
      pointer: { path: ["tools", name, ...path], at },
      tool,
      ...(field === undefined ? {} : { field }),
      reason,
    });
  };

  const nameProblem = checkName(name, context.reserved);
  if (nameProblem !== undefined) report([], "key", undefined, `invalid name: ${nameProblem}`);
  if (!isObject(raw)) {
    report([], "value", undefined, `must be an object, found ${kind(raw)}`);
    return undefined;
  }
  for (const key of Object.keys(raw)) {
    if (!(TOOL_KEYS as readonly string[]).includes(key)) {
      const { field, reason } = unknownKey(key, TOOL_KEYS);
      report([key], "key", field, reason);
    }
  }

  const description = checkDescription(raw, report);
  const inputSchema = checkInputSchema(raw, report);
  const argv = checkCommand(raw, context.env, report);
  const cwd = checkCwd(raw, context.env, report);
  const env = checkEnv(raw, context.env, report);
  const sideEffect = checkSideEffect(raw, report);
  const timeoutMs = checkTimeout(raw, report);

  if (
    issues.length !== before || description === undefined || inputSchema === undefined ||
    argv === undefined || cwd === false || env === undefined || sideEffect === undefined ||
    timeoutMs === undefined
  ) {
    return undefined;
  }
  return Object.freeze({
    name,
    description,
    inputSchema,
    command: Object.freeze(argv),
    program: paths.program(argv[0]!),
    cwd: paths.cwd(cwd),
    env: Object.freeze(env),
    sideEffect,
    timeoutMs,
    file: context.file,
    scope: context.scope,
  });
}

type Report = (
  path: readonly Segment[],
  at: Pointer["at"],
  field: string | undefined,
  reason: string,
) => void;

function checkName(name: string, reserved: ReadonlySet<string>): string | undefined {
  if (name === "") return "must not be empty";
  if (name.length > MAX_NAME_LENGTH) {
    return `must be at most ${MAX_NAME_LENGTH} characters, found ${name.length}`;
  }
  if (!NAME_CHARS.test(name)) {
    const bad = BAD_NAME_CHAR.exec(name)?.[0] ?? "";
    return `only A-Z, a-z, 0-9, "_" and "-" are allowed, found ${JSON.stringify(bad)}`;
  }
  if (name.startsWith("mcp__")) return 'must not start with "mcp__" (reserved for MCP tools)';
  if (name === "__proto__") return '"__proto__" is not allowed';
  if (reserved.has(name)) return `${JSON.stringify(name)} is built into this program`;
  return undefined;
}

function checkDescription(raw: Json, report: Report): string | undefined {
  if (!Object.hasOwn(raw, "description")) {
    report([], "value", "description", "is required");
    return undefined;
  }
  const value = raw.description;
  if (typeof value !== "string") {
    report(["description"], "value", "description", `must be a string, found ${kind(value)}`);
    return undefined;
  }
  const trimmed = value.trim();
  if (trimmed === "") {
    report(["description"], "value", "description", "is required (it is blank)");
    return undefined;
  }
  return trimmed;
}

function checkInputSchema(raw: Json, report: Report): Json | undefined {
  if (!Object.hasOwn(raw, "input_schema")) {
    report([], "value", "input_schema", "is required");
    return undefined;
  }
  const schema = raw.input_schema;
  if (!isObject(schema)) {
    report(
      ["input_schema"],
      "value",
      "input_schema",
      `must be a JSON object, found ${kind(schema)}`,
    );
    return undefined;
  }
  let ok = true;
  if (
    Object.hasOwn(schema, "type") && typeof schema.type === "string" && schema.type !== "object"
  ) {
    report(
      ["input_schema", "type"],
      "value",
      "input_schema.type",
      `must be "object" (a tool's input is a JSON object), found ${show(schema.type)}`,
    );
    ok = false;
  }
  // Recursion is bounded by MAX_SCHEMA_DEPTH; the path is one shared stack, copied only to report.
  const path: Segment[] = ["input_schema"];
  const walk = (value: unknown): void => {
    if (typeof value !== "object" || value === null) return;
    if (path.length > MAX_SCHEMA_DEPTH) {
      report(path, "value", fieldOf(path), `nested more than ${MAX_SCHEMA_DEPTH} levels deep`);
      ok = false;
      return;
    }
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        path.push(i);
        walk(value[i]);
        path.pop();
      }
      return;
    }
    for (const key in value) {
      if (!Object.hasOwn(value, key)) continue;
      path.push(key);
      if (key === "__proto__") {
        report(path, "key", fieldOf(path), 'key "__proto__" is not allowed');
        ok = false;
      } else {
        walk((value as Json)[key]);
      }
      path.pop();
    }
  };
  walk(schema);
  return ok ? schema : undefined;
}

function checkCommand(raw: Json, env: EnvLookup, report: Report): string[] | undefined {
  if (!Object.hasOwn(raw, "command")) {
    report([], "value", "command", "is required");
    return undefined;
  }
  const command = raw.command;
  if (!Array.isArray(command)) {
    const hint = typeof command === "string" ? " (an argv, never a shell string)" : "";
    report(
      ["command"],
      "value",
      "command",
      `must be an array of strings${hint}, found ${kind(command)}`,
    );
    return undefined;
  }
  if (command.length === 0) {
    report(["command"], "value", "command", "must not be empty (the first element is the program)");
    return undefined;
  }
  const argv: string[] = [];
  let ok = true;
  for (let i = 0; i < command.length; i++) {
    const field = `command[${i}]`;
    const value = expandField(command[i], env, field, ["command", i], report);
    if (value === undefined) ok = false;
    else argv.push(value);
  }
  if (!ok) return undefined;
  if (argv[0]!.trim() === "") {
    const after = (command[0] as string).includes("${") ? " after expansion" : "";
    report(["command", 0], "value", "command[0]", `the program must not be blank${after}`);
    return undefined;
  }
  return argv;
}

/** `undefined` when absent, the expanded text when valid, `false` when invalid. */
function checkCwd(raw: Json, env: EnvLookup, report: Report): string | undefined | false {
  if (!Object.hasOwn(raw, "cwd")) return undefined;
  return expandField(raw.cwd, env, "cwd", ["cwd"], report) ?? false;
}

function checkEnv(raw: Json, env: EnvLookup, report: Report): Record<string, string> | undefined {
  const out: Record<string, string> = Object.create(null);
  if (!Object.hasOwn(raw, "env")) return out;
  const pairs = raw.env;
  if (!isObject(pairs)) {
    report(["env"], "value", "env", `must be an object of strings, found ${kind(pairs)}`);
    return undefined;
  }
  let ok = true;
  for (const name of Object.keys(pairs)) {
    const field = name === "" ? "env" : `env.${label(name)}`;
    const nameProblem = name === ""
      ? "the variable name must not be empty"
      : name.includes("=")
      ? 'the variable name must not contain "="'
      : name.includes("\0")
      ? "the variable name must not contain a NUL character"
      : name === "__proto__"
      ? 'key "__proto__" is not allowed'
      : undefined;
    if (nameProblem !== undefined) {
      report(["env", name], "key", field, nameProblem);
      ok = false;
      continue;
    }
    const value = expandField(pairs[name], env, field, ["env", name], report);
    if (value === undefined) ok = false;
    else out[name] = value;
  }
  return ok ? out : undefined;
}

function checkSideEffect(raw: Json, report: Report): SideEffect | undefined {
  if (!Object.hasOwn(raw, "side_effect")) return "process";
  const value = raw.side_effect;
  if (typeof value === "string" && SIDE_EFFECTS.includes(value)) return value as SideEffect;
  report(
    ["side_effect"],
    "value",
    "side_effect",
    `must be "process" or "external", found ${show(value)}`,
  );
  return undefined;
}

function checkTimeout(raw: Json, report: Report): number | undefined {
  if (!Object.hasOwn(raw, "timeout_ms")) return DEFAULT_TIMEOUT_MS;
  const value = raw.timeout_ms;
  if (typeof value !== "number" || !Number.isInteger(value) || value <= 0) {
    report(
      ["timeout_ms"],
      "value",
      "timeout_ms",
      `must be a whole number of milliseconds greater than 0, found ${show(value)}`,
    );
    return undefined;
  }
  if (value > MAX_TIMEOUT_MS) {
    report(
      ["timeout_ms"],
      "value",
      "timeout_ms",
      `must be at most ${MAX_TIMEOUT_MS} (about 24.8 days), found ${show(value)}`,
    );
    return undefined;
  }
  return value;
}

/** A string field that `${VAR}` expands in: type check, expansion, NUL check. Never echoes it. */
function expandField(
  value: unknown,
  env: EnvLookup,
  field: string,
  path: readonly Segment[],
  report: Report,
): string | undefined {
  if (typeof value !== "string") {
    report(path, "value", field, `must be a string, found ${kind(value)}`);
    return undefined;
  }
  const result = expand(value, env);
  if (!result.ok) {
    for (const reason of result.reasons) report(path, "value", field, reason);
    return undefined;
  }
  if (result.value.includes("\0")) {
    report(path, "value", field, "must not contain a NUL character");
    return undefined;
  }
  return result.value;
}

function unknownKey(key: string, known: readonly string[]): { field: string; reason: string } {
  const suggestion = suggestKey(key, known);
  const reason = suggestion === undefined
    ? `unknown key (expected one of: ${known.join(", ")})`
    : `unknown key, did you mean ${JSON.stringify(suggestion)}?`;
  return { field: label(key), reason };
}

function fieldOf(path: readonly Segment[]): string {
  let out = "";
  for (const segment of path) {
    out += typeof segment === "number"
      ? `[${segment}]`
      : out === ""
      ? label(segment)
      : `.${label(segment)}`;
  }
  return out;
}

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The kind of a JSON value, for "found …". */
function kind(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  switch (typeof value) {
    case "string":
      return "a string";
    case "number":
      return "a number";
    case "boolean":
      return "a boolean";
    case "object":
      return "an object";
    default:
      return "nothing";
  }
}

/** A non-secret found value: short strings and numbers verbatim, anything else by kind. */
function show(value: unknown): string {
  if (typeof value === "number" || typeof value === "boolean" || value === null) {
    return String(value);
  }
  if (typeof value === "string" && value.length <= 40) return JSON.stringify(value);
  return kind(value);
}

/**
 * A key or name as shown in a problem: cut when very long, and quoted with escapes when it holds a
 * control or line-breaking character (a problem is always one line).
 */
function label(text: string): string {
  const cut = text.length > MAX_LABEL_LENGTH ? `${text.slice(0, MAX_LABEL_LENGTH)}…` : text;
  return UNPRINTABLE.test(cut) ? JSON.stringify(cut) : cut;
}
