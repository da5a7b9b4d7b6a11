/**
 * `basis-tools call NAME --help`: what one tool does and the fields of its input, read from its
 * input schema — each top-level property's name, type, whether it is required, its default and
 * its description — with an example call built from them.
 *
 * @module
 */

import { cellText, displayArg, shellQuote, visibleLines } from "../../approval/shell_quote.ts";
import { callSecrets, redact, redactValue } from "../../redact.ts";
import type { InputArgument } from "../../manifest/types.ts";
import { SPAWN_INPUT_SCHEMA } from "../../spawn/tool_definition.ts";
import { SPAWN_TOOL } from "../../spawn/types.ts";
import { cliMessages } from "../_cli_messages.ts";
import { findTool, rosterFor, usableSpawnConfig } from "../_roster.ts";
import { spawnToolFor } from "../_tools.ts";
import { formatTable } from "../_table.ts";
import { out, outJson } from "../output.ts";
import type { Settings } from "../settings.ts";
import { EXIT } from "../exit_codes.ts";

/** One field of a tool's input, as help shows it. */
export interface InputField {
  readonly name: string;
  /** `string`, `integer|null`, `one of "a", "b"`, `array of string`, …; `any` when unsaid. */
  readonly type: string;
  readonly required: boolean;
  /** The schema's `default`, when it has one. */
  readonly default?: unknown;
  readonly description?: string;
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The top-level fields of an input schema, in the order `properties` lists them.
 *
 * @param schema The tool's input schema.
 * @returns The fields.
 */
export function inputFields(schema: Readonly<Json>): InputField[] {
  const properties = isObject(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? schema.required : [];
  return Object.keys(properties).map((name) => {
    const property = properties[name];
    const field: InputField = {
      name,
      type: typeText(property),
      required: required.includes(name),
      ...(isObject(property) && Object.hasOwn(property, "default")
        ? { default: property.default }
        : {}),
      ...(isObject(property) && typeof property.description === "string"
        ? { description: property.description }
        : {}),
    };
    return field;
  });
}

/** A property's type in a few words. */
function typeText(property: unknown): string {
  if (property === true) return "any";
  if (!isObject(property)) return "-";
  if (Object.hasOwn(property, "const")) return `= ${JSON.stringify(property.const)}`;
  if (Array.isArray(property.enum)) {
    const values = property.enum.slice(0, 6).map((value) => JSON.stringify(value));
    return `${values.join(" | ")}${property.enum.length > 6 ? " | …" : ""}`;
  }
  const type = property.type;
  let text = typeof type === "string"
    ? type
    : Array.isArray(type)
    ? type.join("|")
    : isObject(property.properties)
    ? "object"
    : typeof property.$ref === "string"
    ? property.$ref
    : "any";
  if (text === "array" && isObject(property.items) && typeof property.items.type === "string") {
    text = `array of ${property.items.type}`;
  }
  if (typeof property.format === "string") text += ` (${property.format})`;
  return text;
}

/** A value of a field for the example: its default, its first allowed value, or one of its type. */
function sample(schema: Readonly<Json>, name: string): unknown {
  const properties = isObject(schema.properties) ? schema.properties : {};
  const property = properties[name];
  if (!isObject(property)) return "…";
  if (Object.hasOwn(property, "default")) return property.default;
  if (Object.hasOwn(property, "const")) return property.const;
  if (Array.isArray(property.enum) && property.enum.length > 0) return property.enum[0];
  const type = Array.isArray(property.type) ? property.type[0] : property.type;
  switch (type) {
    case "integer":
    case "number":
      return typeof property.minimum === "number" ? property.minimum : 1;
    case "boolean":
      return true;
    case "array":
      return [];
    case "object":
      return {};
    case "null":
      return null;
    default:
      return "…";
  }
}

/**
 * Prints one tool's help.
 *
 * @param settings The run's settings.
 * @param name The tool's name (`spawn` for the built-in tool).
 * @returns 0.
 * @throws {BasisError} `unknown_tool` (exit 2, with "did you mean"), or the problems of a tool
 *   that cannot be used (exit 6).
 */
export async function toolHelpCommand(settings: Settings, name: string): Promise<number> {
  let description: string;
  let schema: Readonly<Json>;
  let effect: string;
  let timeoutMs: number | undefined;
  let command: string | undefined;
  let args: readonly InputArgument[] = [];
  // An env value (or an --env one) may be written anywhere in a declaration: hidden, as by show.
  let secrets = callSecrets(settings.env);
  const hide = (text: string) => redact(text, secrets);
  if (name === SPAWN_TOOL) {
    const tool = await spawnToolFor(settings, await usableSpawnConfig(settings));
    description = tool.description();
    schema = SPAWN_INPUT_SCHEMA;
    effect = tool.sideEffects.join(", ");
  } else {
    const spec = findTool(await rosterFor(settings), name);
    secrets = callSecrets(spec.env, settings.env);
    description = spec.description;
    schema = spec.inputSchema;
    effect = spec.sideEffect;
    timeoutMs = spec.timeoutMs;
    args = spec.inputArguments ?? [];
    const fromInput = new Set(args.map((arg) => arg.index));
    command = spec.command.map((arg, i) => fromInput.has(i) ? arg : displayArg(hide(arg))).join(
      " ",
    );
  }
  const fields = inputFields(schema);
  const example = Object.fromEntries(
    fields.filter((field) => field.required).map((
      field,
    ) => [field.name, sample(schema, field.name)]),
  );
  const shown = JSON.stringify(redactValue(example, secrets));
  const call = `basis-tools call ${shellQuote(name)} ${shellQuote(shown)}`;
  if (settings.json) {
    outJson(redactValue({
      name,
      description,
      side_effect: effect,
      ...(timeoutMs === undefined ? {} : { timeout_ms: timeoutMs }),
      ...(command === undefined ? {} : { command }),
      fields,
      example: call,
      input_schema: schema,
    }, secrets));
    return EXIT.ok;
  }
  const { t } = await cliMessages(settings.locale);
  const lines = [
    `${name} — ${cellText(hide(description))}`,
    "",
    t("help.tool_usage", { name, example: call }),
  ];
  if (command !== undefined) lines.push(t("help.tool_command", { command }));
  lines.push(
    timeoutMs === undefined
      ? t("help.tool_effect", { effect })
      : t("help.tool_effect_timeout", { effect, ms: timeoutMs }),
    "",
  );
  if (fields.length === 0) {
    lines.push(t(schema.additionalProperties === false ? "help.tool_empty" : "help.tool_any"));
  } else {
    lines.push(t("help.tool_fields"));
    const yes = t("help.tool_yes");
    const no = t("help.tool_no");
    const rows = fields.map((field) =>
      [
        field.name,
        field.type,
        field.required ? yes : no,
        Object.hasOwn(field, "default") ? JSON.stringify(field.default) : "-",
        field.description ?? "",
      ].map(hide)
    );
    const heading = [
      t("help.tool_heading_field"),
      t("help.tool_heading_type"),
      t("help.tool_heading_required"),
      t("help.tool_heading_default"),
      t("help.tool_heading_description"),
    ];
    lines.push(...formatTable([heading, ...rows], undefined, "  "));
    if (schema.additionalProperties !== false) lines.push(t("help.tool_other_fields"));
  }
  for (const arg of args) {
    lines.push(t("help.tool_argument", { field: arg.field, index: arg.index }));
  }
  // Cells were hidden before they were cut; the rest (the example, the command, field names) here.
  // Nothing the manifest wrote reaches the terminal as a control character (escapes instead).
  out(visibleLines(hide(`${lines.join("\n")}\n`)));
  return EXIT.ok;
}
