/**
 * The rules of each tool field: type checks, `${VAR}` expansion, defaults and limits. Each check
 * reports through a callback and returns the field's value, or `undefined` when it is invalid.
 *
 * Found values are quoted only for fields whose values are never secret (`side_effect`,
 * `timeout_ms`, `input_schema.type`); elsewhere a problem names the type that was found.
 *
 * @module
 */

import { type Phrase, phrase } from "../locale/messages.ts";
import type { EnvLookup } from "../paths.ts";
import type { SideEffect, ToolSandbox } from "./types.ts";
import type { Pointer, Segment } from "../json_text.ts";
import { expand } from "./_expand.ts";
import { fieldOf, isObject, type Json, show } from "./_describe.ts";
import { foundPhrase } from "../json_kind.ts";
import { keyLabel } from "../text.ts";
import { argumentLabel, readArgument, type WrittenArgument } from "./_arguments.ts";
import { isAbsolutePath, resolvePath } from "../paths.ts";
import { unknownKey } from "../suggest.ts";

/** The default `timeout_ms`. */
export const DEFAULT_TIMEOUT_MS = 120_000;
/** The largest `timeout_ms`: timers cannot wait longer (about 24.8 days). */
export const MAX_TIMEOUT_MS = 2 ** 31 - 1;
/** How deep an `input_schema` may nest before it is refused. */
export const MAX_SCHEMA_DEPTH = 100;

const SIDE_EFFECTS: readonly string[] = ["process", "external"] satisfies SideEffect[];
const NAME_CHARS = /^[A-Za-z0-9_-]+$/;
const BAD_NAME_CHAR = /[^A-Za-z0-9_-]/u;
const MAX_NAME_LENGTH = 64;

/** Records one problem of the tool being checked, at a path inside it. */
export type Report = (
  path: readonly Segment[],
  at: Pointer["at"],
  field: string | undefined,
  reason: Phrase,
) => void;

/** Why a tool name is refused, or `undefined` when it is fine. */
export function checkName(name: string, reserved: ReadonlySet<string>): Phrase | undefined {
  if (name === "") return phrase("manifest.name_empty");
  if (name.length > MAX_NAME_LENGTH) {
    return phrase("manifest.name_long", { max: MAX_NAME_LENGTH, count: name.length });
  }
  if (!NAME_CHARS.test(name)) {
    const bad = BAD_NAME_CHAR.exec(name)?.[0] ?? "";
    return phrase("manifest.name_chars", { char: JSON.stringify(bad) });
  }
  if (name.startsWith("mcp__")) return phrase("manifest.name_mcp");
  if (name.startsWith("-")) return phrase("manifest.name_dash");
  if (name === "__proto__") return phrase("manifest.name_proto");
  if (reserved.has(name)) return phrase("manifest.name_reserved", { name: JSON.stringify(name) });
  return undefined;
}

/** `description`: a string, trimmed, not blank. */
export function checkDescription(raw: Json, report: Report): string | undefined {
  if (!Object.hasOwn(raw, "description")) {
    report([], "value", "description", phrase("manifest.required"));
    return undefined;
  }
  const value = raw.description;
  if (typeof value !== "string") {
    report(["description"], "value", "description", notString(value));
    return undefined;
  }
  const trimmed = value.trim();
  if (trimmed === "") {
    report(["description"], "value", "description", phrase("manifest.blank"));
    return undefined;
  }
  return trimmed;
}

/** `input_schema`: a JSON object of type "object", without `__proto__` keys, not too deep. */
export function checkInputSchema(raw: Json, report: Report): Json | undefined {
  if (!Object.hasOwn(raw, "input_schema")) {
    report([], "value", "input_schema", phrase("manifest.required"));
    return undefined;
  }
  return checkSchemaField(raw, "input_schema", "manifest.schema_type", report);
}

/**
 * `output_schema` (optional): what the program prints on stdout, as JSON, when given; held to the
 * same rules as `input_schema` (a structured result is a JSON object, as an input is).
 */
export function checkOutputSchema(raw: Json, report: Report): Json | undefined | false {
  if (!Object.hasOwn(raw, "output_schema")) return undefined;
  return checkSchemaField(raw, "output_schema", "manifest.output_schema_type", report) ?? false;
}

/** `title` (optional): a display name, trimmed, one line, not blank. */
export function checkTitle(raw: Json, report: Report): string | undefined | false {
  if (!Object.hasOwn(raw, "title")) return undefined;
  const value = raw.title;
  if (typeof value !== "string") {
    report(["title"], "value", "title", notString(value));
    return false;
  }
  const trimmed = value.trim();
  if (trimmed === "") {
    report(["title"], "value", "title", phrase("manifest.blank"));
    return false;
  }
  if (/[\r\n]/.test(trimmed)) {
    report(["title"], "value", "title", phrase("manifest.title_lines"));
    return false;
  }
  return trimmed;
}

/** A schema field: a JSON object of type "object", without `__proto__` keys, not too deep. */
function checkSchemaField(
  raw: Json,
  key: "input_schema" | "output_schema",
  typeKey: "manifest.schema_type" | "manifest.output_schema_type",
  report: Report,
): Json | undefined {
  const schema = raw[key];
  if (!isObject(schema)) {
    report(
      [key],
      "value",
      key,
      phrase("manifest.schema_not_object", { found: foundPhrase(schema) }),
    );
    return undefined;
  }
  let ok = true;
  if (
    Object.hasOwn(schema, "type") && typeof schema.type === "string" && schema.type !== "object"
  ) {
    report([key, "type"], "value", `${key}.type`, phrase(typeKey, { value: show(schema.type) }));
    ok = false;
  }
  // Recursion is bounded by MAX_SCHEMA_DEPTH; the path is one shared stack, copied only to report.
  // Only objects and arrays are visited (most values are leaves), keys through `Object.keys`.
  const path: Segment[] = [key];
  const walk = (value: object): void => {
    if (path.length > MAX_SCHEMA_DEPTH) {
      report(
        path,
        "value",
        fieldOf(path),
        phrase("manifest.schema_deep", { max: MAX_SCHEMA_DEPTH }),
      );
      ok = false;
      return;
    }
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        const item: unknown = value[i];
        if (typeof item !== "object" || item === null) continue;
        path.push(i);
        walk(item);
        path.pop();
      }
      return;
    }
    const keys = Object.keys(value);
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      if (key === "__proto__") {
        path.push(key);
        report(path, "key", fieldOf(path), phrase("manifest.proto_key"));
        path.pop();
        ok = false;
        continue;
      }
      const item = (value as Json)[key];
      if (typeof item !== "object" || item === null) continue;
      path.push(key);
      walk(item);
      path.pop();
    }
  };
  walk(schema);
  return ok ? schema : undefined;
}

/**
 * `command`: a non-empty argv of strings, expanded, whose program is not blank. An element
 * `{"input": "name"}` takes an argument from the input: it is added to `written` (and shown as
 * `<name>` in the argv) for {@linkcode checkArguments} to check against the input schema.
 */
export function checkCommand(
  raw: Json,
  env: EnvLookup,
  report: Report,
  written: WrittenArgument[] = [],
): string[] | undefined {
  if (!Object.hasOwn(raw, "command")) {
    report([], "value", "command", phrase("manifest.required"));
    return undefined;
  }
  const command = raw.command;
  if (!Array.isArray(command)) {
    const key = typeof command === "string"
      ? "manifest.command_shell"
      : "manifest.command_not_argv";
    report(["command"], "value", "command", phrase(key, { found: foundPhrase(command) }));
    return undefined;
  }
  if (command.length === 0) {
    report(["command"], "value", "command", phrase("manifest.command_empty"));
    return undefined;
  }
  const argv: string[] = [];
  let ok = true;
  for (let i = 0; i < command.length; i++) {
    const field = `command[${i}]`;
    const element: unknown = command[i];
    if (isObject(element)) {
      const name = readArgument(element, i, report);
      if (name === undefined) ok = false;
      else {
        written.push({ index: i, field: name });
        argv.push(argumentLabel(name));
      }
      continue;
    }
    if (typeof element !== "string") {
      const found = foundPhrase(element);
      report(["command", i], "value", field, phrase("manifest.argument_not_string", { found }));
      ok = false;
      continue;
    }
    const value = expandField(element, env, field, ["command", i], report);
    if (value === undefined) ok = false;
    else argv.push(value);
  }
  if (!ok) return undefined;
  if (argv[0]!.trim() === "") {
    const expanded = (command[0] as string).includes("${");
    const key = expanded ? "manifest.program_blank_expanded" : "manifest.program_blank";
    report(["command", 0], "value", "command[0]", phrase(key));
    return undefined;
  }
  return argv;
}

/** `undefined` when absent, the expanded text when valid, `false` when invalid. */
export function checkCwd(raw: Json, env: EnvLookup, report: Report): string | undefined | false {
  if (!Object.hasOwn(raw, "cwd")) return undefined;
  return expandField(raw.cwd, env, "cwd", ["cwd"], report) ?? false;
}

/** `env`: variable names to strings, expanded, in an object with no prototype. */
export function checkEnv(
  raw: Json,
  env: EnvLookup,
  report: Report,
): Record<string, string> | undefined {
  const out: Record<string, string> = Object.create(null);
  if (!Object.hasOwn(raw, "env")) return out;
  const pairs = raw.env;
  if (!isObject(pairs)) {
    report(
      ["env"],
      "value",
      "env",
      phrase("manifest.env_not_object", { found: foundPhrase(pairs) }),
    );
    return undefined;
  }
  let ok = true;
  for (const name of Object.keys(pairs)) {
    const field = name === "" ? "env" : `env.${keyLabel(name)}`;
    const nameProblem = name === ""
      ? phrase("manifest.env_name_empty")
      : name.includes("=")
      ? phrase("manifest.env_name_equals")
      : name.includes("\0")
      ? phrase("manifest.env_name_nul")
      : name === "__proto__"
      ? phrase("manifest.proto_key")
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

/** `side_effect`: "process" (the default) or "external". */
export function checkSideEffect(raw: Json, report: Report): SideEffect | undefined {
  if (!Object.hasOwn(raw, "side_effect")) return "process";
  const value = raw.side_effect;
  if (typeof value === "string" && SIDE_EFFECTS.includes(value)) return value as SideEffect;
  report(
    ["side_effect"],
    "value",
    "side_effect",
    phrase("manifest.side_effect", { value: show(value) }),
  );
  return undefined;
}

/** `timeout_ms`: a whole number of milliseconds, 1 to {@linkcode MAX_TIMEOUT_MS}. */
export function checkTimeout(raw: Json, report: Report): number | undefined {
  if (!Object.hasOwn(raw, "timeout_ms")) return DEFAULT_TIMEOUT_MS;
  const value = raw.timeout_ms;
  if (typeof value !== "number" || !Number.isInteger(value) || value <= 0) {
    report(
      ["timeout_ms"],
      "value",
      "timeout_ms",
      phrase("manifest.timeout_invalid", { value: show(value) }),
    );
    return undefined;
  }
  if (value > MAX_TIMEOUT_MS) {
    report(
      ["timeout_ms"],
      "value",
      "timeout_ms",
      phrase("manifest.timeout_max", { max: MAX_TIMEOUT_MS, value: show(value) }),
    );
    return undefined;
  }
  return value;
}

/** The keys of a `sandbox` declaration. */
export const SANDBOX_KEYS = ["network", "write", "read"] as const;

/**
 * `sandbox`: what the tool needs beyond the default sandbox. `network` is a boolean (absent: true
 * for an `"external"` tool, else false); `write` and `read` are lists of paths, relative to the
 * workspace root (resolved here), `~` or `~/…` for the home directory (kept, expanded at call
 * time) or absolute. A relative or `~` path that climbs out of its base with `..` is refused.
 * Nothing is expanded: `${VAR}` is literal text here.
 */
export function checkSandbox(
  raw: Json,
  root: string,
  sideEffect: SideEffect | undefined,
  report: Report,
): ToolSandbox | undefined {
  const external = sideEffect === "external";
  if (!Object.hasOwn(raw, "sandbox")) {
    return Object.freeze({ network: external, write: [], read: [] });
  }
  const value = raw.sandbox;
  if (!isObject(value)) {
    const reason = phrase("manifest.sandbox_not_object", { found: foundPhrase(value) });
    report(["sandbox"], "value", "sandbox", reason);
    return undefined;
  }
  let ok = true;
  for (const key of Object.keys(value)) {
    if (!(SANDBOX_KEYS as readonly string[]).includes(key)) {
      const { field, reason } = unknownKey(key, SANDBOX_KEYS);
      report(["sandbox", key], "key", `sandbox.${field}`, reason);
      ok = false;
    }
  }
  let network = external;
  if (Object.hasOwn(value, "network")) {
    if (typeof value.network === "boolean") network = value.network;
    else {
      const reason = phrase("manifest.sandbox_network", { found: foundPhrase(value.network) });
      report(["sandbox", "network"], "value", "sandbox.network", reason);
      ok = false;
    }
  }
  const lists: Record<string, string[]> = { write: [], read: [] };
  for (const key of ["write", "read"] as const) {
    if (!Object.hasOwn(value, key)) continue;
    const list = value[key];
    const field = `sandbox.${key}`;
    if (!Array.isArray(list)) {
      const reason = phrase("manifest.sandbox_paths", { found: foundPhrase(list) });
      report(["sandbox", key], "value", field, reason);
      ok = false;
      continue;
    }
    list.forEach((item: unknown, index: number) => {
      const at = `${field}[${index}]`;
      const path = sandboxPath(item, root);
      if (typeof path === "string") lists[key]!.push(path);
      else {
        report(["sandbox", key, index], "value", at, path);
        ok = false;
      }
    });
  }
  if (!ok) return undefined;
  return Object.freeze({
    network,
    write: Object.freeze(lists.write!),
    read: Object.freeze(lists.read!),
  });
}

/**
 * `files`: globs, relative to the workspace root, of the rest of the tool's code (what its program
 * or script loads): `*` and `?` within one name, `**` any number of directories, `\` makes the
 * next character literal. A glob that is absolute or climbs out with `..` is refused. Nothing is
 * expanded: `${VAR}` is literal text here. A leading `./` is dropped.
 */
export function checkFiles(raw: Json, report: Report): readonly string[] | undefined | false {
  if (!Object.hasOwn(raw, "files")) return undefined;
  const list = raw.files;
  if (!Array.isArray(list)) {
    report(
      ["files"],
      "value",
      "files",
      phrase("manifest.files_list", { found: foundPhrase(list) }),
    );
    return false;
  }
  const globs: string[] = [];
  list.forEach((item: unknown, index: number) => {
    const problem = typeof item !== "string"
      ? notString(item)
      : item.trim() === ""
      ? phrase("manifest.blank")
      : item.includes("\0")
      ? phrase("manifest.nul")
      : isAbsolutePath(item) || item.split("/").includes("..")
      ? phrase("manifest.files_outside")
      : /(?:^|[^\\])(?:\\\\)*\\$/.test(item)
      ? phrase("manifest.files_backslash")
      : undefined;
    if (problem === undefined) globs.push((item as string).replace(/^(?:\.\/)+/, ""));
    else report(["files", index], "value", `files[${index}]`, problem);
  });
  return globs.length === list.length ? Object.freeze(globs) : false;
}

/** One sandbox path, resolved as `checkSandbox` says, or why it is refused. */
function sandboxPath(value: unknown, root: string): string | Phrase {
  if (typeof value !== "string") return notString(value);
  if (value.trim() === "") return phrase("manifest.blank");
  if (value.includes("\0")) return phrase("manifest.nul");
  if (value.startsWith("~") && value !== "~" && !value.startsWith("~/")) {
    return phrase("manifest.sandbox_tilde");
  }
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

/** A string field that `${VAR}` expands in: type check, expansion, NUL check. Never echoes it. */
function expandField(
  value: unknown,
  env: EnvLookup,
  field: string,
  path: readonly Segment[],
  report: Report,
): string | undefined {
  if (typeof value !== "string") {
    report(path, "value", field, notString(value));
    return undefined;
  }
  const result = expand(value, env);
  if (!result.ok) {
    for (const reason of result.reasons) report(path, "value", field, reason);
    return undefined;
  }
  if (result.value.includes("\0")) {
    report(path, "value", field, phrase("manifest.nul"));
    return undefined;
  }
  return result.value;
}

function notString(value: unknown): Phrase {
  return phrase("manifest.not_string", { found: foundPhrase(value) });
}
