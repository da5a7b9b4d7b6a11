/**
 * Compiles a schema with ajv (imported lazily, on the first compile) into a validate function and its
 * standalone code, or explains why it cannot be compiled (a phrase; where ajv explains only in
 * English text, that text is kept inside it).
 *
 * @module
 */

import type { Draft, DraftChoice } from "./_draft.ts";
import { AJV_OPTIONS, FORMATS_OPTIONS } from "./_key.ts";
import { type Phrase, phrase } from "../locale/messages.ts";
import { failureParams } from "./_message.ts";
import { patternProblem } from "./_pattern_problem.ts";
import { UnsupportedPattern } from "./_regexp_syntax.ts";
import { stats } from "./_stats.ts";
import { oneLine, showValue } from "../text.ts";
import type { AjvError, Validator } from "./_types.ts";

/** A compiled schema: the function, and its standalone code when ajv could produce it. */
export interface Compiled {
  /** The validate function ajv compiled. */
  validate: Validator;
  /** Standalone CommonJS code for the same function, for the disk cache. */
  code?: string;
}

interface AjvInstance {
  compile(schema: unknown): Validator;
  addKeyword(definition: unknown): unknown;
  removeKeyword(keyword: string): unknown;
  validateSchema(schema: unknown): unknown;
  errors?: AjvError[] | null;
  removeSchema(): unknown;
  addMetaSchema(schema: unknown): unknown;
}

type AjvClass = new (options: unknown) => AjvInstance;

interface Compiler {
  ajv: AjvInstance;
  standalone: (ajv: AjvInstance, validate: Validator) => string;
}

const compilers = new Map<string, Promise<Compiler>>();

async function loadCompiler(draft: Draft, allErrors: boolean): Promise<Compiler> {
  stats.compilerLoads++;
  const ajvModules = await import("./_ajv_compiler.ts");
  const classes: Readonly<Record<Draft, unknown>> = {
    "draft-06": ajvModules.Ajv,
    "draft-07": ajvModules.Ajv,
    "2019-09": ajvModules.Ajv2019,
    "2020-12": ajvModules.Ajv2020,
  };
  const Ajv = classes[draft] as AjvClass;
  // Patterns run on a linear-time engine; standalone code requires it by name (`_runtime.ts`).
  const options = structuredClone(AJV_OPTIONS);
  const code = { ...options.code, regExp: ajvModules.linearRegExp };
  const ajv = new Ajv({ ...options, allErrors, code });
  ajv.removeKeyword("multipleOf");
  ajv.addKeyword(ajvModules.MULTIPLE_OF);
  (ajvModules.addFormats as unknown as (ajv: AjvInstance, options: unknown) => void)(
    ajv,
    structuredClone(FORMATS_OPTIONS),
  );
  if (draft === "draft-06") ajv.addMetaSchema(ajvModules.draft06MetaSchema);
  return { ajv, standalone: ajvModules.standaloneCode as unknown as Compiler["standalone"] };
}

function compiler(draft: Draft, allErrors: boolean): Promise<Compiler> {
  const key = `${draft} ${allErrors}`;
  let found = compilers.get(key);
  if (found === undefined) {
    found = loadCompiler(draft, allErrors);
    compilers.set(key, found);
    found.catch(() => compilers.delete(key));
  }
  return found;
}

/**
 * Compiles one schema.
 *
 * @param choice The draft to compile with (and the canonical `$schema` to put in place, if any).
 * @param schema The schema as declared; never modified.
 * @param allErrors Whether the validator reports every failure (not only the first).
 * @returns The compiled schema, or why it cannot be compiled (a phrase that words as one line).
 * @throws {Error} Only when ajv itself cannot be imported (a broken install), never for a bad schema.
 *
 * @example Compile, or be told why not
 * ```ts
 * import { compileSchema } from "./_compile.ts";
 * import { english } from "../locale/messages.ts";
 * const compiled = await compileSchema({ draft: "draft-07" }, { type: "integer" });
 * console.assert("validate" in compiled && compiled.validate(1) === true);
 * const refused = await compileSchema({ draft: "draft-07" }, { minimum: "x" });
 * console.assert("key" in refused && english(refused) ===
 *   "invalid JSON Schema: /minimum: must be number");
 * ```
 */
export async function compileSchema(
  choice: DraftChoice,
  schema: unknown,
  allErrors = false,
): Promise<Compiled | Phrase> {
  const { ajv, standalone } = await compiler(choice.draft, allErrors);
  stats.compiles++;
  const target = choice.canonical === undefined
    ? schema
    : { ...(schema as Record<string, unknown>), $schema: choice.canonical };
  try {
    if (ajv.validateSchema(target) !== true) {
      const first = ajv.errors?.[0];
      return first === undefined
        ? phrase("schema_problem.invalid", { detail: phrase("schema_problem.meta_rejected") })
        : phrase("schema_problem.invalid_at", failureParams(first));
    }
    const validate = ajv.compile(target);
    try {
      return { validate, code: standalone(ajv, validate) };
    } catch {
      return { validate };
    }
  } catch (error) {
    return error instanceof UnsupportedPattern
      ? patternProblem(error, target)
      : compileFailure(error);
  } finally {
    // Forget the user's schemas (and their `$id`s) so the next one compiles on a clean instance.
    ajv.removeSchema();
  }
}

/** Why ajv could not compile a schema its meta-schema accepted; its own words are English text. */
function compileFailure(error: unknown): Phrase {
  if (error instanceof Error) {
    const missing = (error as Error & { missingRef?: unknown }).missingRef;
    if (typeof missing === "string") {
      return phrase("schema_problem.unresolved_ref", { ref: showValue(missing, 200) });
    }
  }
  const detail = oneLine(error instanceof Error ? error.message : String(error));
  return phrase("schema_problem.invalid", { detail });
}
