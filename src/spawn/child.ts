/**
 * The child policy: which of a delegated child's inherited facts the user's `spawn.json`
 * overrides — its roster (the tool names the child basis-tools exposes), its model, its system
 * prompt — and how the child is told.
 *
 * A child inherits the environment, so without a policy it has what its parent has (the parent's
 * own `BASIS_ROSTER`, `BASIS_MODEL`, `BASIS_SYSTEM_PROMPT` among it). An override is passed:
 *
 * - roster: `BASIS_ROSTER`, the names joined by commas (a child basis-tools lists, serves and
 *   calls only those; `spawn` is one of them or the child cannot delegate);
 * - model: `BASIS_MODEL`, and `{model}` in the agent's argv;
 * - system prompt: `BASIS_SYSTEM_PROMPT`, and `{system_prompt}` in the agent's argv.
 *
 * @module
 */

/** The variable naming the tools a child basis-tools exposes, joined by commas. */
export const ROSTER_VAR = "BASIS_ROSTER";

/** What the user's config overrides for a delegated child; an absent key is inherited. */
export interface ChildPolicy {
  /** The tool names the child exposes, sorted, each once (may be empty: no tools at all). */
  readonly roster?: readonly string[];
  /** The model the child uses. */
  readonly model?: string;
  /** The system prompt that replaces the child's own. */
  readonly systemPrompt?: string;
}

/**
 * What a preview says the child will be: only what the policy overrides, keys in this order.
 * Absent from the preview when the policy overrides nothing.
 */
export interface ChildPreview {
  /** The tools the child will expose. */
  readonly roster?: readonly string[];
  /** The model it will use. */
  readonly model?: string;
  /** The system prompt that replaces its own. */
  readonly system_prompt?: string;
}

const PLACEHOLDERS = /\{model\}|\{system_prompt\}/g;

/** The tool names a roster may hold: what a manifest may name, and `spawn`. */
export const ROSTER_NAME = /^[A-Za-z0-9_][A-Za-z0-9_-]{0,63}$/;

/**
 * The `child` key of a preview: what the policy overrides, or `undefined` when it overrides
 * nothing.
 *
 * @param policy The child policy that applies to the call.
 * @param own This process's roster, when it is restricted.
 * @returns The description, keys in the pinned order (roster, model, system_prompt).
 *
 * @example Nothing overridden, nothing shown
 * ```ts
 * import { childPreview } from "./child.ts";
 * console.assert(childPreview({}, undefined) === undefined);
 * console.assert(JSON.stringify(childPreview({ model: "m", roster: ["a"] }, undefined)) === '{"roster":["a"],"model":"m"}');
 * ```
 */
export function childPreview(
  policy: ChildPolicy,
  own: readonly string[] | undefined,
): ChildPreview | undefined {
  // The policy's roster, but never more than this process has itself.
  const roster = own === undefined || policy.roster === undefined
    ? policy.roster
    : policy.roster.filter((name) => own.includes(name));
  if (roster === undefined && policy.model === undefined && policy.systemPrompt === undefined) {
    return undefined;
  }
  return {
    ...(roster === undefined ? {} : { roster }),
    ...(policy.model === undefined ? {} : { model: policy.model }),
    ...(policy.systemPrompt === undefined ? {} : { system_prompt: policy.systemPrompt }),
  };
}

/**
 * The variables that tell a child what its policy overrides.
 *
 * @param child The preview's `child` key.
 * @returns `BASIS_ROSTER`, `BASIS_MODEL`, `BASIS_SYSTEM_PROMPT` for what is overridden.
 */
export function childEnv(child: ChildPreview | undefined): Record<string, string> {
  const env: Record<string, string> = {};
  if (child?.roster !== undefined) env[ROSTER_VAR] = child.roster.join(",");
  // Set for the child; never read here.
  if (child?.model !== undefined) env.BASIS_MODEL = child.model;
  if (child?.system_prompt !== undefined) env.BASIS_SYSTEM_PROMPT = child.system_prompt;
  return env;
}

/**
 * An agent's argv with `{model}` and `{system_prompt}` replaced by the child's (the program
 * itself is never changed). The configuration refuses a placeholder the policy does not fill.
 *
 * @param argv The agent's argv.
 * @param child The preview's `child` key.
 * @returns The argv to run.
 *
 * @example
 * ```ts
 * import { fillPlaceholders } from "./child.ts";
 * const argv = fillPlaceholders(["claude", "-p", "--model={model}"], { model: "opus" });
 * console.assert(argv[2] === "--model=opus");
 * ```
 */
export function fillPlaceholders(
  argv: readonly string[],
  child: ChildPreview | undefined,
): readonly string[] {
  const [program, ...args] = argv;
  // One pass, so a model holding "{system_prompt}" is not filled in again.
  const filled = args.map((arg) =>
    arg.replace(PLACEHOLDERS, (found) => {
      const value = found === "{model}" ? child?.model : child?.system_prompt;
      return value ?? found;
    })
  );
  return [program as string, ...filled];
}

/**
 * Reads `BASIS_ROSTER`: the tool names this process may expose.
 *
 * @param value The variable's value, or `undefined` when unset.
 * @returns The names (sorted, each once; empty when the value is blank: no tools), or `undefined`
 *   when unset (no restriction), or `{ bad }` naming the first malformed name.
 *
 * @example
 * ```ts
 * import { parseRoster } from "./child.ts";
 * console.assert(parseRoster(undefined) === undefined);
 * const names = parseRoster("test, lint");
 * console.assert(Array.isArray(names) && names.join() === "lint,test");
 * ```
 */
export function parseRoster(
  value: string | undefined,
): readonly string[] | { readonly bad: string } | undefined {
  if (value === undefined) return undefined;
  if (value.trim() === "") return [];
  const names = value.split(",").map((name) => name.trim());
  const bad = names.find((name) => !ROSTER_NAME.test(name));
  if (bad !== undefined) return { bad };
  return [...new Set(names)].sort();
}

/**
 * Keeps the entries a roster restriction names: what a child basis-tools serves.
 *
 * @param map Tool name → anything (the usable tools, the unavailable ones).
 * @param names The restriction (`BASIS_ROSTER`), or `undefined` for none.
 * @returns The entries named, in their order (the map itself when there is no restriction).
 *
 * @example
 * ```ts
 * import { withinRoster } from "./child.ts";
 * const tools = new Map([["lint", 1], ["deploy", 2]]);
 * console.assert([...withinRoster(tools, ["lint"]).keys()].join() === "lint");
 * ```
 */
export function withinRoster<T>(
  map: ReadonlyMap<string, T>,
  names: readonly string[] | undefined,
): ReadonlyMap<string, T> {
  if (names === undefined) return map;
  return new Map([...map].filter(([name]) => names.includes(name)));
}
