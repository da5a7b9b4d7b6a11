/**
 * The rules of a schema 1 manifest (README: "The manifest"). Its shape is
 * `schemas/tools.schema.json`, checked by the schema gate (every failure, each worded for the
 * field it names, each tool's confined to it; `call` checks only its tool). By hand, only what a
 * schema cannot say: a tool's name against the names the program answers to, `${VAR}` expansion,
 * arguments taken from the input against the input schema, sandbox paths that climb out with `..`,
 * and `__proto__` keys or depth anywhere in a tool's schemas. Each valid tool becomes a
 * {@linkcode ToolSpec}.
 *
 * @module
 */

import TOOLS_SCHEMA from "../../schemas/tools.schema.json" with { type: "json" };
import { type Phrase, phrase } from "../locale/messages.ts";
import { isAbsolutePath, resolvePath } from "../paths.ts";
import type { ArgumentType, InputArgument, ToolSpec } from "./types.ts";
import type { Segment } from "../json_text.ts";
import { fieldName, keyLabel } from "../text.ts";
import { nearWords } from "../suggest.ts";
import { type SchemaIssue, schemaIssues } from "../schema/gate.ts";
import { expand } from "./_expand.ts";
import { isSecret, redactorOf } from "../redact.ts";
import type { ParseOptions } from "./parse.ts";
import {
  isObject,
  type Json,
  pointerOf,
  type Report,
  SCHEMA_VERSION,
  show,
  wordIssues,
} from "./_words.ts";

/** How deep an `input_schema` may nest before it is refused. */
const MAX_SCHEMA_DEPTH = 100;
/** The env variables that choose the program: public, and holding no secret. */
const CHOOSES_PROGRAM = /^PATH(?:EXT)?$/i;
const ARGUMENT_TYPES: readonly string[] = ["string", "integer", "number", "boolean"];

/**
 * What the rules need besides the document: the file (absolute), its scope, the workspace root
 * (absolute), the environment, the names the program already answers to, and the one tool to
 * check (of the others, only the name; every tool when absent).
 */
export type ValidateContext = Required<Pick<ParseOptions, "scope" | "root" | "env">> & Resolved;
type Resolved = { readonly file: string; readonly reserved: ReadonlySet<string>; only?: string };

/**
 * One problem, not yet located: its path in the document, whether at the key, the tool and field
 * it names, why, and the tool (its name as declared) it is confined to: that tool cannot be used,
 * the others can. No `confinedTo` for a problem of the file itself (not an object, its version, a
 * tool's name), which refuses the whole file.
 */
export type Issue =
  & { readonly path: readonly Segment[]; at: "key" | "value"; reason: Phrase }
  & Named;
type Named = { readonly tool?: string; readonly field?: string; readonly confinedTo?: string };

/** The valid tools of one document and every problem found in it. */
export type Validated = { tools: ToolSpec[]; issues: Issue[]; broken: Broken[] };
/** A tool left out for problems confined to it, and its description when valid. */
type Broken = { readonly name: string; readonly description: string | undefined };

/**
 * Checks a parsed manifest against every rule of schema 1.
 *
 * @param document The parsed JSON, untrusted.
 * @param context The file, scope, root, environment, reserved names and the tool to check.
 * @returns The valid tools (in document order) and every problem.
 */
export async function validateManifest(
  document: unknown,
  context: ValidateContext,
): Promise<Validated> {
  const issues: Issue[] = [];
  const tools: ToolSpec[] = [];
  const broken: Validated["broken"] = [];
  const declared = isObject(document) && isObject(document.tools) ? document.tools : undefined;
  const version = isObject(document) ? document.schema : undefined;
  // Another version's tools are not this program's to check.
  const foreign = typeof version === "number" && version !== SCHEMA_VERSION;
  const names = declared === undefined || foreign ? [] : Object.keys(declared);
  const views: Json = Object.fromEntries(
    names.filter((name) => context.only === undefined || name === context.only)
      .map((name) => [name, viewOf(declared![name])]),
  );
  const { envelope, byTool } = await shapeIssues(document, views);
  wordIssues(envelope, document, false, (path, at, field, reason) => {
    issues.push({ path, at, ...(field ? { field } : {}), reason });
  });
  // Tools share their variables: each is read once (a read is a call into Deno).
  const known = new Map<string, string | undefined>();
  const env = (name: string) =>
    known.has(name) ? known.get(name) : known.set(name, context.env(name)).get(name);
  const lookup = { ...context, env };
  for (const name of names) {
    const tool = keyLabel(name);
    const nameProblem = checkName(name, context.reserved);
    if (nameProblem !== undefined) {
      // A name the format cannot take refuses the whole file: it is not a tool's own problem.
      const reason = phrase("manifest.invalid_name", { reason: nameProblem });
      issues.push({ path: ["tools", name], at: "key", tool, reason });
    }
    if (context.only !== undefined && name !== context.only) continue;
    const raw = declared![name];
    let ok = nameProblem === undefined;
    const report: Report = (path, at, field, reason) => {
      ok = false;
      const where = { path: ["tools", name, ...path], at };
      issues.push({ ...where, tool, ...(field ? { field } : {}), reason, confinedTo: name });
    };
    const shape = byTool.get(name) ?? [];
    wordIssues(shape, views[name], true, report);
    const refused = new Set(shape.map((found) => found.pointer));
    const spec = isObject(raw) ? beyondShape(name, raw, lookup, refused, report) : undefined;
    // Every failure is worded (a test holds it); should one not be, the tool is still refused.
    if (shape.length > 0 && ok) report([], "value", "", phrase("schema.invalid"));
    if (ok && spec !== undefined) tools.push(spec);
    else {
      const text = isObject(raw) ? raw.description : undefined;
      // Listed still: without the secrets its env writes, as an available tool's would be.
      const env = isObject(raw) && isObject(raw.env) ? Object.values(raw.env) : [];
      const secrets = env.map((value) =>
        isObject(value) ? value.public !== true && value.value : value
      )
        .filter((value): value is string => typeof value === "string" && isSecret(value));
      const description = typeof text === "string" && text.trim() !== ""
        ? redactorOf(secrets).text(text.trim())
        : undefined;
      broken.push({ name, description });
    }
  }
  return { tools, issues, broken };
}

/** A tool's entry as its shape is checked: its schemas cut to their `type` (the gate compiles them). */
function viewOf(raw: unknown): unknown {
  if (!isObject(raw)) return raw;
  const view = { ...raw };
  for (const key of ["input_schema", "output_schema"]) {
    const schema = raw[key];
    if (isObject(schema)) view[key] = Object.hasOwn(schema, "type") ? { type: schema.type } : {};
    else if (Array.isArray(schema)) view[key] = [];
  }
  return view;
}

/**
 * The schema's failures in a document whose `tools` are the views to check: those of the file
 * itself, and each tool's (with paths inside its entry). The whole document is checked at once;
 * when a value stops the gate (a number too large for a double, nesting too deep), the file and each
 * tool on their own, so that it stays the problem of one tool.
 */
async function shapeIssues(document: unknown, views: Json) {
  const all = { allErrors: true };
  const whole = isObject(document) && isObject(document.tools)
    ? { ...document, tools: views }
    : document;
  let found = await schemaIssues(TOOLS_SCHEMA, whole, all);
  if (found.some(({ keyword }) => keyword === "") && whole !== document) {
    const parts = [
      { ...whole as Json, tools: {} },
      ...Object.keys(views).map((name) => ({
        schema: SCHEMA_VERSION,
        tools: Object.fromEntries([[name, views[name]]]),
      })),
    ];
    found = (await Promise.all(parts.map((part) => schemaIssues(TOOLS_SCHEMA, part, all)))).flat();
  }
  const envelope: SchemaIssue[] = [];
  const byTool = new Map<string, SchemaIssue[]>();
  for (const issue of found) {
    const [, top, token] = issue.instancePath.split("/");
    if (top !== "tools" || token === undefined) {
      // A tool's name is checked by hand (against the names the program answers to).
      if (issue.instancePath !== "/tools" || issue.keyword === "type") envelope.push(issue);
      continue;
    }
    const name = token.replaceAll("~1", "/").replaceAll("~0", "~");
    const cut = (pointer: string) => pointer.slice(`/tools/${token}`.length);
    const list = byTool.get(name) ?? [];
    list.push({ ...issue, instancePath: cut(issue.instancePath), pointer: cut(issue.pointer) });
    byTool.set(name, list);
  }
  return { envelope, byTool };
}

/** Why a tool name is refused, or `undefined` when it is fine. */
function checkName(name: string, reserved: ReadonlySet<string>): Phrase | undefined {
  if (name === "") return phrase("manifest.name_empty");
  if (name.length > 64) return phrase("manifest.name_long", { max: 64, count: name.length });
  const bad = /[^A-Za-z0-9_-]/u.exec(name)?.[0];
  if (bad !== undefined) return phrase("manifest.name_chars", { char: JSON.stringify(bad) });
  if (name.startsWith("mcp__")) return phrase("manifest.name_mcp");
  if (name.startsWith("-")) return phrase("manifest.name_dash");
  if (name === "__proto__") return phrase("manifest.name_proto");
  if (reserved.has(name)) return phrase("manifest.name_reserved", { name: JSON.stringify(name) });
  return undefined;
}

/**
 * The rules of one tool no schema can say, for each field of a shape the schema accepted (`bad`
 * holds the pointers of those it refused); the tool, resolved, when it has no problem at all.
 */
function beyondShape(
  name: string,
  raw: Json,
  context: ValidateContext,
  bad: ReadonlySet<string>,
  report: Report,
): ToolSpec | undefined {
  let ok = bad.size === 0;
  const problem: Report = (...found) => {
    ok = false;
    report(...found);
  };
  /** Whether the schema refused the value at a path, or anything inside it. */
  const refused = (path: Segment[]) => {
    if (bad.size === 0) return false;
    const pointer = pointerOf(path);
    return [...bad].some((at) => at === pointer || at.startsWith(`${pointer}/`));
  };
  /**
   * A string field `${VAR}` expands in, expanded: never echoed in a problem. The command and cwd
   * are shown before approval, never redacted: they read no variable that may hold a secret.
   */
  const expanded = (path: Segment[], value: unknown, publicValue = false): string | undefined => {
    if (typeof value !== "string" || refused(path)) return undefined;
    const shown = path[0] === "command" || path[0] === "cwd"
      ? "manifest.expand_shown"
      : publicValue
      ? "manifest.expand_not_public"
      : undefined;
    const result = expand(value, context.env, shown);
    const nul = typeof result === "string" && result.includes("\0");
    const reasons = typeof result !== "string" ? result : nul ? [phrase("manifest.nul")] : [];
    for (const reason of reasons) problem(path, "value", fieldName(path), reason);
    return reasons.length === 0 ? result as string : undefined;
  };
  const command: unknown[] = Array.isArray(raw.command) ? raw.command : [];
  const argv: (string | undefined)[] = [];
  const written: Written[] = [];
  command.forEach((element, index) => {
    if (!isObject(element)) argv.push(expanded(["command", index], element));
    // (Not a string when the gate could not check the tool: a value elsewhere nested too deep.)
    else if (!refused(["command", index]) && typeof element.input === "string") {
      const field = element.input;
      const [flag, prefix] = [element.flag, element.prefix].map((text) =>
        typeof text === "string" ? text : undefined
      );
      const kind = flag !== undefined ? { flag } : prefix !== undefined ? { prefix } : {};
      written.push({ index, field, ...kind });
      // How help and show print it: `<name>`, `[-i]`, `[--max-count=<name>]`.
      const value = `${prefix ?? ""}<${field}>`;
      argv.push(flag !== undefined ? `[${flag}]` : prefix !== undefined ? `[${value}]` : value);
    }
  });
  const complete = argv.length === command.length && argv.every((arg) => arg !== undefined);
  if (complete && argv[0]?.trim() === "") {
    problem(["command", 0], "value", "command[0]", phrase("manifest.program_blank_expanded"));
  }
  // Arguments are checked against an input schema that is sound, whatever else is wrong.
  const keysOk = ["input_schema", "output_schema"].map((key) => {
    const schema = raw[key];
    return !isObject(schema) || schemaKeys(schema, [key], problem);
  });
  const schemaOk = keysOk[0] && !refused(["input_schema"]);
  const inputArguments = written.length > 0 && schemaOk
    ? checkArguments(written, command, raw.input_schema as Json, problem)
    : [];
  const cwd = Object.hasOwn(raw, "cwd") ? expanded(["cwd"], raw.cwd) : undefined;
  const env: Record<string, string> = Object.create(null);
  const publicEnv: string[] = [];
  for (const [key, value] of Object.entries(isObject(raw.env) ? raw.env : {})) {
    // A string is a secret; {"value", "public"} says which it is. PATH and PATHEXT are public:
    // they choose the program, which the approver must see (and a directory looked in is named).
    const open = (isObject(value) && value.public === true) || CHOOSES_PROGRAM.test(key);
    if (open) publicEnv.push(key);
    const text = isObject(value)
      ? expanded(["env", key, "value"], value.value, open)
      : expanded(["env", key], value, open);
    if (text !== undefined) env[key] = text;
  }
  const sandbox = isObject(raw.sandbox) ? raw.sandbox : {};
  const grants: Record<string, string[]> = { write: [], read: [] };
  for (const key of ["write", "read"]) {
    const list = Array.isArray(sandbox[key]) ? sandbox[key] : [];
    list.forEach((item: unknown, index: number) => {
      if (typeof item !== "string" || refused(["sandbox", key, index])) return;
      const path = grantPath(item, context.root);
      if (typeof path === "string") grants[key]!.push(path);
      else problem(["sandbox", key, index], "value", `sandbox.${key}[${index}]`, path);
    });
  }
  // What the approver is shown hides nothing: a secret value of env found in it (the command,
  // whole or an argument, the program, the cwd, a public value, a grant, as expanded) would be
  // shown there as [redacted].
  // (An argument from the input is shown as its field's name: not a value.)
  const literal = argv.map((arg, index) => isObject(command[index]) ? "\0" : arg);
  const shown: [Segment[], string | undefined][] = [
    ...literal.map((arg, index): [Segment[], string | undefined] => [["command", index], arg]),
    [["command"], literal.join(" ")],
    [["command", 0], argv[0] && program(context.root, argv[0])],
    [["cwd"], cwd && resolvePath(context.root, cwd)],
    // (A public value may hold a secret, shown hidden: PATH's choose the program.)
    ...publicEnv.filter((key) => CHOOSES_PROGRAM.test(key)).map((
      key,
    ): [Segment[], string | undefined] => [["env", key], env[key]]),
    ...["write", "read"].flatMap((key) =>
      grants[key]!.map((grant, index): [Segment[], string] => [
        ["sandbox", key, index],
        grant.replace(/^~(?=\/|$)/, () => context.env("HOME") ?? "~"),
      ])
    ),
  ];
  for (const [key, secret] of Object.entries(env)) {
    if (publicEnv.includes(key) || !isSecret(secret)) continue;
    const found = shown.find(([, text]) => text?.includes(secret));
    if (found === undefined) continue;
    const [path] = found;
    problem(path, "value", fieldName(path), phrase("manifest.secret_written", { variable: key }));
  }
  if (!ok) return undefined;
  const external = raw.side_effect === "external";
  const title = typeof raw.title === "string" ? raw.title.trim() : undefined;
  const files = raw.files as string[] | undefined;
  return Object.freeze({
    name,
    description: (raw.description as string).trim(),
    ...(title === undefined ? {} : { title }),
    inputSchema: raw.input_schema as Json,
    ...(isObject(raw.output_schema) ? { outputSchema: raw.output_schema } : {}),
    ...(raw.output === "content" ? { output: "content" } : {}),
    command: Object.freeze(argv as string[]),
    ...(inputArguments.length === 0 ? {} : { inputArguments: Object.freeze(inputArguments) }),
    program: program(context.root, argv[0]!),
    cwd: cwd === undefined || cwd === "" ? context.root : resolvePath(context.root, cwd),
    env: Object.freeze(env),
    ...(publicEnv.length === 0 ? {} : { publicEnv: Object.freeze(publicEnv.sort()) }),
    sideEffect: external ? "external" : "process",
    timeoutMs: typeof raw.timeout_ms === "number" ? raw.timeout_ms : 120_000,
    ...(Array.isArray(raw.success_exit_codes)
      ? { successExitCodes: Object.freeze(raw.success_exit_codes.toSorted((a, b) => a - b)) }
      : {}),
    sandbox: Object.freeze({
      network: typeof sandbox.network === "boolean" ? sandbox.network : external,
      write: Object.freeze(grants.write!),
      read: Object.freeze(grants.read!),
    }),
    ...(files === undefined
      ? {}
      : { files: Object.freeze(files.map((glob) => glob.replace(/^(?:\.\/)+/, ""))) }),
    file: context.file,
    scope: context.scope,
  });
}

/**
 * The program to start: an absolute path as is, a bare name (no separator) kept bare for a `PATH`
 * lookup at call time, a relative path with a separator resolved against the root.
 */
function program(root: string, written: string): string {
  if (isAbsolutePath(written)) return written;
  const separated = written.includes("/") ||
    (Deno.build.os === "windows" && written.includes("\\"));
  return separated ? resolvePath(root, written) : written;
}

/**
 * A `sandbox` path (of a tool, or of `sandbox.json`), resolved: relative to the workspace root,
 * `~` or `~/…` for the home directory (kept, expanded at call time), or absolute; or why it is
 * refused (it climbs out with `..`).
 *
 * @param value The path as written.
 * @param root The workspace root, for a relative path.
 * @returns The path, normalised, or why not.
 */
export function grantPath(value: string, root: string): string | Phrase {
  if (value === "~" || value.startsWith("~/")) {
    const rest = value.slice(1);
    if (climbs(rest)) return phrase("manifest.sandbox_escapes", { base: "~" });
    const normal = resolvePath("/", rest);
    return normal === "/" ? "~" : `~${normal}`;
  }
  if (isAbsolutePath(value)) return resolvePath(value);
  if (climbs(value)) {
    return phrase("manifest.sandbox_escapes", { base: phrase("manifest.sandbox_root") });
  }
  return resolvePath(root, value);
}

/** Whether a relative path's `..` segments climb above where it starts. */
function climbs(path: string): boolean {
  let depth = 0;
  for (const part of path.split("/")) {
    if (part === "..") depth--;
    else if (part !== "" && part !== ".") depth++;
    if (depth < 0) return true;
  }
  return false;
}

/**
 * Whether a tool's schema nests at most {@linkcode MAX_SCHEMA_DEPTH} levels and has no `__proto__`
 * key anywhere (ajv compiles one wrongly); each problem is reported. Recursion is bounded by the
 * depth; only objects and arrays are visited.
 */
function schemaKeys(value: object, path: Segment[], report: Report): boolean {
  if (path.length > MAX_SCHEMA_DEPTH) {
    const reason = phrase("manifest.schema_deep", { max: MAX_SCHEMA_DEPTH });
    report([...path], "value", fieldName(path), reason);
    return false;
  }
  // One path for the whole walk, copied only to report; only objects and arrays are visited.
  let ok = true;
  for (const key of Array.isArray(value) ? value.keys() : Object.keys(value)) {
    const item = (value as Record<Segment, unknown>)[key];
    path.push(key);
    if (key === "__proto__") {
      report([...path], "key", fieldName(path), phrase("manifest.proto_key"));
      ok = false;
    } else if (typeof item === "object" && item !== null && !schemaKeys(item, path, report)) {
      ok = false;
    }
    path.pop();
  }
  return ok;
}

/** An element of `command` taken from the input, as written (the schema has checked its shape). */
type Written = { index: number; field: string; flag?: string; prefix?: string };

/**
 * Checks each argument taken from the input (`{"input": "name", …}`) against the input schema:
 * the property is listed under `properties` and its schema's `type` is one scalar type (`boolean`
 * for a flag); a plain argument's is listed in `required`, so every call the gate lets through has
 * exactly one value for it, while a flag or a prefixed value is left out when not given.
 */
function checkArguments(
  written: readonly Written[],
  command: readonly unknown[],
  schema: Json,
  report: Report,
): InputArgument[] {
  const properties = isObject(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? schema.required : [];
  const dashes = command.indexOf("--");
  const out: InputArgument[] = [];
  for (const { index, field, flag, prefix } of written) {
    const where = (reason: Phrase) =>
      report(["command", index, "input"], "value", `command[${index}].input`, reason);
    const name = JSON.stringify(field);
    const property = Object.hasOwn(properties, field) ? properties[field] : undefined;
    const type = isObject(property) ? property.type : undefined;
    const afterDashes = dashes !== -1 && dashes < index;
    if (property === undefined) {
      const near = nearWords(field, Object.keys(properties), 1)[0];
      where(
        near === undefined
          ? phrase("manifest.argument_unknown", { name })
          : phrase("manifest.argument_unknown_near", { name, near: JSON.stringify(near) }),
      );
    } else if (flag !== undefined ? type !== "boolean" : !ARGUMENT_TYPES.includes(type as string)) {
      const found = type === undefined ? phrase("found.nothing") : show(type);
      const key = flag === undefined ? "manifest.argument_type" : "manifest.argument_flag_type";
      where(phrase(key, { name, found }));
    } else if (flag === undefined && prefix === undefined && !required.includes(field)) {
      where(phrase("manifest.argument_optional", { name }));
    } else {
      const kind = flag === undefined ? prefix === undefined ? {} : { prefix } : { flag };
      out.push({ index, field, type: type as ArgumentType, afterDashes, ...kind });
    }
  }
  return out;
}
