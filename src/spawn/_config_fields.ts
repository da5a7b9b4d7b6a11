/**
 * Narrowing each key of `spawn.json` from untrusted JSON: argvs, targets, named agents, the reach
 * policy and the child policy. Every problem is reported with the path of the value it is about,
 * so the caller can say where it is (line:column). Private to the spawn seam.
 *
 * @module
 */

import { type Phrase, phrase } from "../locale/messages.ts";
import type { Segment } from "../json_text.ts";
import { resolvePath } from "../paths.ts";
import { unknownKey } from "../suggest.ts";
import {
  type ChildPolicy,
  MODEL_PLACEHOLDER,
  ROSTER_NAME,
  SYSTEM_PROMPT_PLACEHOLDER,
} from "./child.ts";
import { isReach, type Reach, REACH_VALUES, type ReachPolicy } from "./reach.ts";

/** Target and agent names: letters, digits, `_` and `-`. */
export const CONFIG_NAME = /^[A-Za-z0-9_-]+$/;

/** The keys of a child policy. */
export const CHILD_KEYS = ["roster", "model", "system_prompt"] as const;
/** The keys of a named agent written as an object. */
export const AGENT_KEYS = ["argv", "child"] as const;
/** The keys of the reach policy. */
export const REACH_KEYS = ["allow", "default"] as const;

/** Where problems go: the path of the value (or key) and the reason. */
export interface ProblemSink {
  /** Records one problem. */
  add(path: readonly Segment[], reason: Phrase, at?: "key" | "value"): void;
}

/** A JSON object as `JSON.parse` builds it. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Reports every key of `value` that is not one of `known`, at the key.
 *
 * @param value The object.
 * @param known The keys allowed.
 * @param path Where the object is.
 * @param sink Where problems go.
 */
export function unknownKeys(
  value: Record<string, unknown>,
  known: readonly string[],
  path: readonly Segment[],
  sink: ProblemSink,
): void {
  for (const key of Object.keys(value)) {
    if (!known.includes(key)) sink.add([...path, key], unknownKey(key, known).reason, "key");
  }
}

/**
 * A non-empty argv of strings; a relative program with a `/` resolves against `dir`.
 *
 * @param value The value as written.
 * @param path Where it is.
 * @param dir The config directory.
 * @param sink Where problems go.
 * @returns The argv, or `undefined` after reporting why not.
 */
export function narrowArgv(
  value: unknown,
  path: readonly Segment[],
  dir: string,
  sink: ProblemSink,
): readonly string[] | undefined {
  if (!Array.isArray(value) || value.length === 0 || !value.every((v) => typeof v === "string")) {
    sink.add(path, phrase("spawn_config.argv"));
    return undefined;
  }
  const [program, ...args] = value as string[];
  if (program === undefined || program.trim() === "") {
    sink.add([...path, 0], phrase("spawn_config.program_blank"));
    return undefined;
  }
  const resolved = program.includes("/") && !program.startsWith("/")
    ? resolvePath(dir, program)
    : program;
  return [resolved, ...args];
}

/**
 * Checks a target or agent name: the name syntax, and not `local`.
 *
 * @param name The name.
 * @param path Where it is (the key).
 * @param sink Where problems go.
 * @param reasons Why a malformed name is refused, and why `local` is.
 * @returns Whether the name is usable.
 */
export function checkName(
  name: string,
  path: readonly Segment[],
  sink: ProblemSink,
  reasons: { readonly bad: Phrase; readonly local: Phrase },
): boolean {
  const { local } = reasons;
  if (!CONFIG_NAME.test(name)) {
    sink.add(path, reasons.bad, "key");
    return false;
  }
  if (name === "local") {
    sink.add(path, local, "key");
    return false;
  }
  return true;
}

/**
 * The reach policy: `{"allow": [...], "default": "..."}`, both optional. `allow` defaults to
 * every value; `default` to `any` when allowed, else it must be given.
 *
 * @param value The value as written.
 * @param sink Where problems go.
 * @returns The policy, or `undefined` after reporting why not.
 */
export function narrowReach(value: unknown, sink: ProblemSink): ReachPolicy | undefined {
  if (!isObject(value)) {
    sink.add(["reach"], phrase("spawn_config.reach_object"));
    return undefined;
  }
  unknownKeys(value, REACH_KEYS, ["reach"], sink);
  const quoted = (list: readonly string[]) => list.map((item) => JSON.stringify(item)).join(", ");
  const values = quoted(REACH_VALUES);
  let allow: readonly Reach[] = REACH_VALUES;
  let ok = true;
  if (value.allow !== undefined) {
    const list = value.allow;
    if (!Array.isArray(list) || list.length === 0) {
      sink.add(["reach", "allow"], phrase("spawn_config.reach_allow", { values }));
      ok = false;
    } else {
      list.forEach((item: unknown, index: number) => {
        if (!isReach(item)) {
          sink.add(["reach", "allow", index], phrase("spawn_config.reach_value", { values }));
          ok = false;
        }
      });
      allow = REACH_VALUES.filter((reach) => list.includes(reach));
    }
  }
  let fallback: Reach | undefined;
  if (value.default === undefined) {
    if (ok && !allow.includes("any")) {
      sink.add(["reach"], phrase("spawn_config.reach_default_missing"));
      ok = false;
    }
    fallback = "any";
  } else if (!isReach(value.default)) {
    sink.add(["reach", "default"], phrase("spawn_config.reach_value", { values }));
    ok = false;
  } else if (ok && !allow.includes(value.default)) {
    sink.add(
      ["reach", "default"],
      phrase("spawn_config.reach_default_allowed", { allowed: quoted(allow) }),
    );
    ok = false;
  } else {
    fallback = value.default;
  }
  return ok && fallback !== undefined ? { allow, default: fallback } : undefined;
}

/**
 * A child policy: `{"roster": [names], "model": "…", "system_prompt": "…"}`, every key optional.
 *
 * @param value The value as written.
 * @param path Where it is.
 * @param sink Where problems go.
 * @returns The policy (roster sorted, each name once), or `undefined` after reporting why not.
 */
export function narrowChild(
  value: unknown,
  path: readonly Segment[],
  sink: ProblemSink,
): ChildPolicy | undefined {
  if (!isObject(value)) {
    sink.add(path, phrase("spawn_config.child_object"));
    return undefined;
  }
  unknownKeys(value, CHILD_KEYS, path, sink);
  let ok = true;
  const out: { roster?: string[]; model?: string; systemPrompt?: string } = {};
  if (value.roster !== undefined) {
    const list = value.roster;
    if (!Array.isArray(list)) {
      sink.add([...path, "roster"], phrase("spawn_config.roster"));
      ok = false;
    } else {
      list.forEach((name: unknown, index: number) => {
        if (typeof name !== "string" || !ROSTER_NAME.test(name)) {
          sink.add([...path, "roster", index], phrase("spawn_config.roster_name"));
          ok = false;
        }
      });
      if (ok) out.roster = [...new Set(list as string[])].sort();
    }
  }
  for (const [key, field] of [["model", "model"], ["system_prompt", "systemPrompt"]] as const) {
    const text = value[key];
    if (text === undefined) continue;
    if (typeof text !== "string" || text.trim() === "") {
      sink.add([...path, key], phrase("spawn_config.child_text"));
      ok = false;
    } else {
      out[field] = text;
    }
  }
  return ok ? out : undefined;
}

/**
 * Checks that every placeholder an agent's argv uses is filled by its child policy.
 *
 * @param argv The agent's argv.
 * @param child The child policy that applies to it.
 * @param path Where the argv is.
 * @param sink Where problems go.
 */
export function checkPlaceholders(
  argv: readonly string[],
  child: ChildPolicy,
  path: readonly Segment[],
  sink: ProblemSink,
): void {
  argv.forEach((arg, index) => {
    if (index === 0) return;
    if (arg.includes(MODEL_PLACEHOLDER) && child.model === undefined) {
      sink.add(
        [...path, index],
        phrase("spawn_config.placeholder", {
          placeholder: JSON.stringify(MODEL_PLACEHOLDER),
          key: "model",
        }),
      );
    }
    if (arg.includes(SYSTEM_PROMPT_PLACEHOLDER) && child.systemPrompt === undefined) {
      sink.add(
        [...path, index],
        phrase("spawn_config.placeholder", {
          placeholder: JSON.stringify(SYSTEM_PROMPT_PLACEHOLDER),
          key: "system_prompt",
        }),
      );
    }
  });
}

/**
 * The child policy of a named agent: its own keys laid over the top-level policy's.
 *
 * @param top The top-level `child`.
 * @param own The agent's `child`, when it has one.
 * @returns The policy that applies to the agent.
 */
export function mergeChild(top: ChildPolicy, own: ChildPolicy | undefined): ChildPolicy {
  return own === undefined ? top : { ...top, ...own };
}
