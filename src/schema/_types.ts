/**
 * The shapes the gate shares between its files: ajv's error objects and validate functions, described
 * here so that nothing outside `_compile.ts` needs ajv's types or code.
 *
 * @module
 */

/** One failure as ajv reports it. */
export interface AjvError {
  /** JSON pointer to the failing value (already escaped by ajv); `""` for the root. */
  instancePath: string;
  /** Where in the schema the failing keyword is. */
  schemaPath: string;
  /** The failing keyword. */
  keyword: string;
  /** Keyword-specific detail (`missingProperty`, `allowedValues`, …). */
  params: Record<string, unknown>;
  /** ajv's English text. */
  message?: string;
  /** Set when the failure is about a property name (`propertyNames`). */
  propertyName?: string;
}

/** A validate function, whether compiled now or loaded from standalone code. */
export type Validator = ((data: unknown) => boolean | Promise<unknown>) & {
  /** The failures of the last call (synchronous validators). */
  errors?: AjvError[] | null;
  /** Set when the schema was `$async`: the function returns a promise. */
  $async?: boolean;
};
