/**
 * How the spawn tool presents itself to a model: its input schema and its description, which
 * mentions `!@` only when targets are configured.
 *
 * @module
 */

/** The spawn tool's input schema: one required string property, `input`. */
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
 * The spawn tool's description. Targets are listed, sorted, only when there are any; otherwise
 * `!@` is not mentioned at all.
 *
 * @param targets The configured target names, in any order.
 * @returns One paragraph for a model.
 *
 * @example With and without targets
 * ```ts
 * import { spawnDescription } from "./tool_definition.ts";
 * console.assert(!spawnDescription([]).includes("!@"));
 * console.assert(spawnDescription(["mac", "builder"]).includes("builder, mac"));
 * ```
 */
export function spawnDescription(targets: readonly string[]): string {
  const parts = [
    'Run a shell command or delegate a task. "!<command>" runs the command with /bin/sh in the ' +
    'workspace root (for example "!cargo test"); any other text is handed to a subagent as its ' +
    'task. Start with "!!" for a task that itself begins with "!".',
  ];
  if (targets.length > 0) {
    const names = [...targets].sort().join(", ");
    parts.push(`"!@<target> <command>" runs the command on a configured target: ${names}.`);
  }
  return parts.join(" ");
}
