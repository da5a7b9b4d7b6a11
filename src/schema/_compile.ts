/**
 * Compiles a schema with ajv into a validate function and its standalone code, or explains why it
 * cannot be compiled (a phrase; where ajv explains only in English text, that text is kept inside
 * it). Everything ajv needs to compile is imported here, so that the bundle loads it as one chunk,
 * and only when a schema is not in the validator cache.
 *
 * @module
 */

import Ajv from "ajv";
import Ajv2019 from "ajv/dist/2019.js";
import Ajv2020 from "ajv/dist/2020.js";
import { _, type CodeKeywordDefinition, type KeywordCxt, str } from "ajv";
import { useFunc } from "ajv/dist/compile/util.js";
import addFormats from "ajv-formats";
import standaloneCode from "ajv/dist/standalone/index.js";
import draft06MetaSchema from "ajv/dist/refs/json-schema-draft-06.json" with { type: "json" };
import { type Phrase, phrase } from "../locale/messages.ts";
import { attempt } from "../quietly.ts";
import { escapeToken, oneLine, showValue } from "../text.ts";
import { failureParams } from "./gate.ts";
import { linearRegExp, UnsupportedPattern } from "./_regexp.ts";
import { isMultipleOf } from "./_runtime.ts";
import {
  AJV_OPTIONS,
  type AjvError,
  DECIMAL_MODULE,
  type Draft,
  findInJson,
  FORMATS_OPTIONS,
  type Mode,
  REGEXP_MODULE,
  stats,
  type Validator,
} from "./_validator.ts";

export { default as Ajv } from "ajv";

// Standalone code requires the engine and the check by these names (the `require` shim's).
const regExp = Object.assign(linearRegExp, {
  code: `require(${JSON.stringify(REGEXP_MODULE)}).linearRegExp`,
});
const multipleOf = Object.assign(isMultipleOf, {
  code: `require(${JSON.stringify(DECIMAL_MODULE)}).isMultipleOf`,
});

/**
 * `multipleOf`, checked exactly in decimal (see `_runtime.ts`) rather than by ajv's floating-point
 * division; its failures are ajv's own (`keyword`, `params.multipleOf`, message).
 */
const MULTIPLE_OF: CodeKeywordDefinition = {
  keyword: "multipleOf",
  type: "number",
  schemaType: "number",
  $data: true,
  error: {
    message: ({ schemaCode }) => str`must be multiple of ${schemaCode}`,
    params: ({ schemaCode }) => _`{multipleOf: ${schemaCode}}`,
  },
  code(cxt: KeywordCxt) {
    const { gen, data, schemaCode } = cxt;
    cxt.fail$data(_`!${useFunc(gen, multipleOf)}(${data}, ${schemaCode})`);
  },
};

/** What the gate uses of an ajv instance. */
type AjvInstance = Record<Method, (argument?: unknown) => unknown> & {
  compile(schema: unknown): Validator;
  errors?: AjvError[] | null;
};
type Method = "addKeyword" | "removeKeyword" | "validateSchema" | "removeSchema" | "addMetaSchema";

const standalone = standaloneCode as unknown as (ajv: AjvInstance, validate: Validator) => string;

const CLASSES: Readonly<Record<Draft, unknown>> = {
  "draft-06": Ajv,
  "draft-07": Ajv,
  "2019-09": Ajv2019,
  "2020-12": Ajv2020,
};
const compilers = new Map<string, AjvInstance>();

function compiler(draft: Draft, mode: Mode): AjvInstance {
  const key = `${draft} ${mode}`;
  const found = compilers.get(key);
  if (found !== undefined) return found;
  stats.compilerLoads++;
  // Patterns run on a linear-time engine; standalone code requires it by name.
  const options = structuredClone(AJV_OPTIONS);
  const ajv = new (CLASSES[draft] as new (options: unknown) => AjvInstance)({
    ...options,
    allErrors: mode === "config-all",
    code: mode === "tool" ? { ...options.code, regExp } : options.code,
  });
  ajv.removeKeyword("multipleOf");
  ajv.addKeyword(MULTIPLE_OF);
  (addFormats as unknown as (ajv: AjvInstance, options: unknown) => void)(
    ajv,
    structuredClone(FORMATS_OPTIONS),
  );
  if (draft === "draft-06") ajv.addMetaSchema(draft06MetaSchema);
  compilers.set(key, ajv);
  return ajv;
}

/**
 * Compiles one schema.
 *
 * @param draft The draft to compile with.
 * @param schema The schema, with the canonical `$schema` of its draft if it names one.
 * @param mode How it is compiled (see {@linkcode Mode}).
 * @returns The validate function and its standalone code (when ajv could produce it), or why the
 *   schema cannot be compiled (a phrase that words as one line).
 * @example Compile, or be told why not
 * ```ts
 * import { compileSchema } from "./_compile.ts";
 * import { english } from "../locale/messages.ts";
 * const compiled = compileSchema("draft-07", { type: "integer" }, "tool");
 * console.assert("validate" in compiled && compiled.validate(1) === true);
 * const refused = compileSchema("draft-07", { minimum: "x" }, "tool");
 * console.assert("key" in refused && english(refused) ===
 *   "invalid JSON Schema: /minimum: must be number");
 * ```
 */
export function compileSchema(
  draft: Draft,
  schema: unknown,
  mode: Mode,
): { validate: Validator; code?: string } | Phrase {
  const ajv = compiler(draft, mode);
  stats.compiles++;
  try {
    // ajv always says why its meta-schema refuses a schema (were it silent, compile() would).
    const first = ajv.validateSchema(schema) === true ? undefined : ajv.errors?.[0];
    if (first !== undefined) return phrase("schema_problem.invalid_at", failureParams(first));
    const validate = ajv.compile(schema);
    const code = attempt(() => standalone(ajv, validate));
    return code === undefined ? { validate } : { validate, code };
  } catch (error) {
    return error instanceof UnsupportedPattern
      ? patternProblem(error, schema)
      : compileFailure(error);
  } finally {
    // Forget the user's schemas (and their `$id`s) so the next one compiles on a clean instance.
    ajv.removeSchema();
  }
}

/** Why ajv could not compile a schema its meta-schema accepted; its own words are English text. */
function compileFailure(error: unknown): Phrase {
  const missing = (error as { missingRef?: unknown } | null)?.missingRef;
  if (error instanceof Error && typeof missing === "string") {
    return phrase("schema_problem.unresolved_ref", { ref: showValue(missing, 200) });
  }
  const detail = oneLine(error instanceof Error ? error.message : String(error));
  return phrase("schema_problem.invalid", { detail });
}

/**
 * The problem of a schema holding a pattern the engine refused, naming where the first `pattern`
 * keyword or `patternProperties` key equal to it is (a JSON pointer, found without recursion):
 * `unsupported pattern "(a)\\1" at /properties/id/pattern: backreferences …`.
 */
function patternProblem(error: UnsupportedPattern, schema: unknown): Phrase {
  const { pattern } = error;
  const where = findInJson(schema, (item, pointer) => {
    if (Array.isArray(item)) return undefined;
    if (item.pattern === pattern) return `${pointer}/pattern`;
    const properties = item.patternProperties;
    return typeof properties === "object" && properties !== null &&
        Object.hasOwn(properties, pattern)
      ? `${pointer}/patternProperties/${escapeToken(pattern)}`
      : undefined;
  });
  // RE2's words start with "error parsing regexp: "; the phrase already says RE2 refused it.
  const detail = oneLine((error.detail ?? "").replace("error parsing regexp: ", ""));
  return phrase("schema_problem.pattern_unsupported", {
    pattern: showValue(error.pattern, 200),
    pointer: where === undefined ? phrase("schema.root") : oneLine(where, 200),
    reason: error.feature === "backreference"
      ? phrase("schema_problem.regex_backreference")
      : error.feature === "lookahead"
      ? phrase("schema_problem.regex_lookahead")
      : phrase("schema_problem.regex_engine", { detail }),
  });
}
