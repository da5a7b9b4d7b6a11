/**
 * The schema gate: full JSON Schema validation of a tool's input (ajv; draft-07 by default, 2019-09
 * and 2020-12 by `$schema`), and of config values against the shipped schemas, with compiled
 * validators cached on disk so a call does not pay for compiling.
 *
 * @example Validate an input
 * ```ts ignore
 * import { validateInput } from "./mod.ts";
 * await validateInput({ name: "echo", inputSchema: { type: "object" } }, {});
 * ```
 *
 * @module
 */

export {
  MAX_INPUT_DEPTH,
  type OutputSchemaTool,
  type SchemaGateOptions,
  type SchemaIssue,
  schemaIssues,
  type SchemaIssuesOptions,
  schemaProblem,
  type SchemaTool,
  validateInput,
  validateOutput,
} from "./gate.ts";
