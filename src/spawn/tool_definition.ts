/**
 * How the spawn tool presents itself to a model: its input schema (with `reach` when named agents
 * or a reach policy make it mean something) and its description; both mention `!@` only when
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
 * The spawn tool's input schema for a configuration: `input`, whose description names the
 * targets and the named agents there are, and the optional `reach` with the values the user's
 * policy allows when named agents exist (a task may address one) or the user's reach policy is
 * not the default. Otherwise the schema is exactly {@linkcode SPAWN_INPUT_SCHEMA} (a call may
 * still give `reach`; it is checked the same way).
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
  const properties = schema.properties as Record<string, Record<string, unknown>>;
  const [targets, agents] = offered(config);
  // What the tool's description teaches, the field's teaches too: a model may read only one.
  const input = targets === ""
    ? properties.input!.description as string
    : english(phrase("spawn.schema.input_targets", { names: targets }));
  properties.input!.description = agents === ""
    ? input
    : english(phrase("spawn.schema.input_agents", { input, names: agents }));
  const policy = reachPolicy(config);
  // The default policy: every value allowed, `any` when a call says nothing.
  const plain = policy.default === "any" && policy.allow.length === REACH_VALUES.length;
  if (plain && agents === "") return schema;
  properties.reach = {
    type: "string",
    enum: [...policy.allow],
    description: english(phrase("spawn.schema.reach", { default: JSON.stringify(policy.default) })),
  };
  return schema;
}

/** The targets and the named agents a config offers, each list sorted and joined ("" for none). */
function offered(config: SpawnConfig): [targets: string, agents: string] {
  const names = (keys: Iterable<string>) => [...keys].sort().join(", ");
  return [names(config.targets.keys()), names(namedAgents(config).keys())];
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
  const [targets, agents] = offered(config);
  return [
    words.t(`spawn.${kind}`),
    ...(targets === "" ? [] : [words.t(`spawn.${kind}_targets`, { names: targets })]),
    ...(agents === "" ? [] : [words.t(`spawn.${kind}_agents`, { names: agents })]),
  ].join(" ");
}
