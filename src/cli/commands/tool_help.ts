/**
 * `basis-tools call NAME --help`: what one tool does, what it runs and may touch (its sandbox
 * grants), and the fields of its input, read from its input schema — each top-level property's
 * name, type (its allowed values, its format), whether it is required, its default, its
 * description and its constraints (pattern, lengths, bounds) — with an example call built from
 * them. On a terminal, lines are wrapped at spaces to its width; in a pipe they are whole.
 *
 * @module
 */

import { cellText, shellQuote, visibleLines } from "../../approval/shell_quote.ts";
import { commandText, envText, sandboxText } from "./show.ts";
import type { MessageKey } from "../../locale/en_us.ts";
import { type Messages, messages } from "../../locale/messages.ts";
import { callSecrets, redactorOf, secretEnv } from "../../redact.ts";
import { SPAWN_TOOL } from "../../spawn/types.ts";
import { findTool, rosterFor } from "../_roster.ts";
import { toolContext } from "../_tools.ts";
import { spawnTool } from "../../contract/spawn_tool.ts";
import { loadSpawnConfig } from "../../spawn/config.ts";
import { formatTable, terminalColumns, wrapToWidth } from "../_table.ts";
import { out, outJson } from "../output.ts";
import type { Settings } from "../settings.ts";

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A property's type in a few words: `string`, `integer|null`, `array of string`, `"a" | "b"`. */
function typeText(property: unknown): string {
  if (property === true) return "any";
  if (!isObject(property)) return "-";
  if (Object.hasOwn(property, "const")) return `= ${JSON.stringify(property.const)}`;
  const { type, items, format, enum: values } = property;
  if (Array.isArray(values)) {
    const shown = values.slice(0, 6).map((value) => JSON.stringify(value)).join(" | ");
    return values.length > 6 ? `${shown} | …` : shown;
  }
  let text = typeof type === "string"
    ? type
    : Array.isArray(type)
    ? type.join("|")
    : isObject(property.properties)
    ? "object"
    : typeof property.$ref === "string"
    ? property.$ref
    : "any";
  if (text === "array" && isObject(items) && typeof items.type === "string") {
    text = `array of ${items.type}`;
  }
  return typeof format === "string" ? `${text} (${format})` : text;
}

/**
 * The constraints help words, by keyword, in the words the schema gate refuses a value with: the
 * message, the placeholder the keyword's value fills, and the comparison it stands for.
 */
const CONSTRAINTS: Readonly<Record<string, readonly [MessageKey, string, string?]>> = {
  pattern: ["schema.pattern", "pattern"],
  minLength: ["schema.min_length", "limit"],
  maxLength: ["schema.max_length", "limit"],
  minimum: ["schema.compare", "limit", ">="],
  exclusiveMinimum: ["schema.compare", "limit", ">"],
  maximum: ["schema.compare", "limit", "<="],
  exclusiveMaximum: ["schema.compare", "limit", "<"],
  multipleOf: ["schema.multiple_of", "value"],
  minItems: ["schema.min_items", "limit"],
  maxItems: ["schema.max_items", "limit"],
};

/** What a property asks of its value beyond its type, in the run's words (`must match …`). */
function constraintsText(property: unknown, { t }: Messages): string[] {
  if (!isObject(property)) return [];
  return Object.entries(CONSTRAINTS).flatMap(([keyword, [key, name, comparison = ""]]) => {
    const value = property[keyword];
    return typeof value === "string" || typeof value === "number"
      ? [t(key, { [name]: value, comparison })]
      : [];
  });
}

/** A value of a field for the example: its default, its first allowed value, or one of its type. */
function sample(property: unknown): unknown {
  if (!isObject(property)) return "…";
  if (Object.hasOwn(property, "default")) return property.default;
  if (Object.hasOwn(property, "const")) return property.const;
  if (Array.isArray(property.enum) && property.enum.length > 0) return property.enum[0];
  const type = Array.isArray(property.type) ? property.type[0] : property.type;
  if (type === "integer" || type === "number") {
    return typeof property.minimum === "number" ? property.minimum : 1;
  }
  const samples: Json = { boolean: true, array: [], object: {}, null: null };
  return typeof type === "string" && Object.hasOwn(samples, type) ? samples[type] : "…";
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
  const spec = name === SPAWN_TOOL ? undefined : findTool(await rosterFor(settings), name);
  const tool = spec === undefined
    ? spawnTool(await loadSpawnConfig(settings.configDir), toolContext(settings))
    : undefined;
  // An env value (or an --env one) may be written anywhere in a declaration: hidden, as by show.
  const redactor = redactorOf(callSecrets(spec === undefined ? {} : secretEnv(spec), settings.env));
  const hide = (text: string) => redactor.text(text);
  const description = spec?.description ?? tool!.description();
  const schema: Readonly<Json> = spec?.inputSchema ?? tool!.inputSchema();
  const effect = spec?.sideEffect ?? tool!.sideEffects.join(", ");
  const timeoutMs = spec?.timeoutMs;
  const command = spec && commandText(spec, hide);
  const env = (spec && envText(spec, hide)) || undefined;
  // The top-level fields, in the order `properties` lists them.
  const properties = isObject(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? schema.required : [];
  const fields = Object.entries(properties).map(([name, property]) => ({
    name,
    type: typeText(property),
    required: required.includes(name),
    ...(isObject(property) && Object.hasOwn(property, "default")
      ? { default: property.default }
      : {}),
    ...(isObject(property) && typeof property.description === "string"
      ? { description: property.description }
      : {}),
  }));
  const example = Object.fromEntries(
    fields.filter((field) => field.required).map(({ name }) => [name, sample(properties[name])]),
  );
  const input = shellQuote(JSON.stringify(redactor.value(example)));
  const call = `basis-tools call ${shellQuote(name)} ${input}`;
  if (settings.json) {
    const shown = { name, description, side_effect: effect, timeout_ms: timeoutMs, command, env };
    outJson(redactor.value({ ...shown, fields, example: call, input_schema: schema }));
    return 0;
  }
  const words = messages(settings.locale);
  const { t } = words;
  const width = terminalColumns();
  const lines = [
    `${name} — ${cellText(hide(description))}`,
    "",
    t("help.tool_usage", { name, example: call }),
    ...(command === undefined ? [] : [t("help.tool_command", { command })]),
    ...(env ? [t("help.tool_env", { env })] : []),
    timeoutMs === undefined
      ? t("help.tool_effect", { effect })
      : t("help.tool_effect_timeout", { effect, ms: timeoutMs }),
    ...(spec === undefined ? [] : [t("help.tool_sandbox", { sandbox: sandboxText(spec, words) })]),
    "",
  ];
  if (fields.length === 0) {
    lines.push(t(schema.additionalProperties === false ? "help.tool_empty" : "help.tool_any"));
  } else {
    const rows = fields.map((field) =>
      [
        field.name,
        field.type,
        field.required ? t("help.tool_yes") : t("help.tool_no"),
        Object.hasOwn(field, "default") ? JSON.stringify(field.default) : "-",
        [field.description ?? "", ...constraintsText(properties[field.name], words)]
          .filter((text) => text !== "").join("; "),
      ].map(hide)
    );
    const heading = [t("help.tool_heading_field"), t("help.tool_heading_type")];
    const more = [t("help.tool_heading_required"), t("help.tool_heading_default")];
    const head = [...heading, ...more, t("help.tool_heading_description")];
    const table = formatTable([head, ...rows], width, { indent: "  ", wrap: true });
    lines.push(t("help.tool_fields"), ...table);
    if (schema.additionalProperties !== false) lines.push(t("help.tool_other_fields"));
  }
  for (const { field, index, flag, prefix } of spec?.inputArguments ?? []) {
    lines.push(
      flag !== undefined
        ? t("help.tool_flag", { field, index, flag })
        : prefix !== undefined
        ? t("help.tool_prefix", { field, index, prefix })
        : t("help.tool_argument", { field, index }),
    );
  }
  // Cells were hidden before they were cut; the rest (the example, the command, field names) here.
  // Nothing the manifest wrote reaches the terminal as a control character (escapes instead). On a
  // terminal each line is wrapped at spaces to its width (the table's already fit).
  const text = visibleLines(hide(lines.join("\n"))).split("\n");
  const shown = width === undefined ? text : text.flatMap((line) => wrapToWidth(line, width, "  "));
  out(`${shown.join("\n")}\n`);
  return 0;
}
