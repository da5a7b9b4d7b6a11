/**
 * How the spawn tool presents itself to a model: its input schema (with `reach` when named agents
 * or a reach policy make it mean something) and its description, which mentions `!@` only when
 * targets are configured and `@<agent>` only when named agents are.
 *
 * @module
 */

import { english, type Messages, phrase } from "../locale/messages.ts";
import { namedAgents, reachPolicy, type SpawnConfig } from "./config.ts";
import { REACH_VALUES } from "./reach.ts";

/** The spawn tool's input schema without `reach`: one required string property, `input`. */
export const SPAWN_INPUT_SCHEMA: Readonly<Record<string, unknown>> = Object.freeze({
  type: "object",
  properties: Object.freeze({
    input: Object.freeze({
      type: "string",
      description: '"!<command>" runs a shell command; any other text is a task for a subagent',
    }),
  }),
  required: Object.freeze(["input"]),
  additionalProperties: false,
});

/**
 * The spawn tool's input schema for a configuration: `input`, and the optional `reach` with the
 * values the user's policy allows when named agents exist (a task may address one) or the user's
 * reach policy is not the default. Otherwise the schema is exactly
 * {@linkcode SPAWN_INPUT_SCHEMA} (a call may still give `reach`; it is checked the same way).
 *
 * @param config The user's spawn configuration.
 * @returns A new schema object the caller owns.
 *
 * @example Named agents bring `reach`
 * ```ts
 * import { spawnInputSchema } from "./tool_definition.ts";
 * const config = {
 *   file: "/c/spawn.json", agent: undefined, targets: new Map(), maxDepth: 2,
 *   agents: new Map([["reviewer", { argv: ["claude", "-p"], child: {} }]]),
 * };
 * const schema = spawnInputSchema(config) as { properties: Record<string, { enum?: string[] }> };
 * console.assert(schema.properties.reach?.enum?.join() === "local,named,any");
 * ```
 */
export function spawnInputSchema(config: SpawnConfig): Record<string, unknown> {
  const schema = structuredClone(SPAWN_INPUT_SCHEMA) as Record<string, unknown>;
  const policy = reachPolicy(config);
  // The default policy: every value allowed, `any` when a call says nothing.
  const plain = policy.default === "any" && policy.allow.length === REACH_VALUES.length;
  if (plain && namedAgents(config).size === 0) return schema;
  const properties = schema.properties as Record<string, unknown>;
  properties.reach = {
    type: "string",
    enum: [...policy.allow],
    description: english(phrase("spawn.schema.reach", { default: JSON.stringify(policy.default) })),
  };
  return schema;
}

/**
 * The spawn tool's description or system prompt under a config: the catalogue's text, then the
 * targets and the named agents it offers, each list sorted.
 *
 * @param config The spawn config.
 * @param words The catalogue of the locale.
 * @param kind Which text.
 * @returns The text.
 */
export function spawnText(
  config: SpawnConfig,
  words: Messages,
  kind: "description" | "system_prompt",
): string {
  const [targets, agents] = [[...config.targets.keys()], [...namedAgents(config).keys()]]
    .map((names) => names.sort().join(", ")) as [string, string];
  return [
    words.t(`spawn.${kind}`),
    ...(targets === "" ? [] : [words.t(`spawn.${kind}_targets`, { names: targets })]),
    ...(agents === "" ? [] : [words.t(`spawn.${kind}_agents`, { names: agents })]),
  ].join(" ");
}
