/**
 * The rules of each tool field: type checks, `${VAR}` expansion, defaults and limits. Each check
 * reports through a callback and returns the field's value, or `undefined` when it is invalid.
 *
 * Found values are quoted only for fields whose values are never secret (`side_effect`,
 * `timeout_ms`, `input_schema.type`); elsewhere a problem names the type that was found.
 *
 * @module
 */

import type { EnvLookup } from "../paths.ts";
import type { SideEffect } from "./types.ts";
import type { Pointer, Segment } from "./_json.ts";
import { expand } from "./_expand.ts";
import { fieldOf, isObject, type Json, kind, label, show } from "./_describe.ts";

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
  reason: string,
) => void;

/** Why a tool name is refused, or `undefined` when it is fine. */
export function checkName(name: string, reserved: ReadonlySet<string>): string | undefined {
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

/** `description`: a string, trimmed, not blank. */
export function checkDescription(raw: Json, report: Report): string | undefined {
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

/** `input_schema`: a JSON object of type "object", without `__proto__` keys, not too deep. */
export function checkInputSchema(raw: Json, report: Report): Json | undefined {
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
  // Only objects and arrays are visited (most values are leaves), keys through `Object.keys`.
  const path: Segment[] = ["input_schema"];
  const walk = (value: object): void => {
    if (path.length > MAX_SCHEMA_DEPTH) {
      report(path, "value", fieldOf(path), `nested more than ${MAX_SCHEMA_DEPTH} levels deep`);
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
        report(path, "key", fieldOf(path), 'key "__proto__" is not allowed');
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

/** `command`: a non-empty argv of strings, expanded, whose program is not blank. */
export function checkCommand(raw: Json, env: EnvLookup, report: Report): string[] | undefined {
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

/** `side_effect`: "process" (the default) or "external". */
export function checkSideEffect(raw: Json, report: Report): SideEffect | undefined {
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

/** `timeout_ms`: a whole number of milliseconds, 1 to {@linkcode MAX_TIMEOUT_MS}. */
export function checkTimeout(raw: Json, report: Report): number | undefined {
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
