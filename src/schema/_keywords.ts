/**
 * Keywords the gate defines in place of ajv's own. Compile time only: imported with ajv's compiler.
 *
 * @module
 */

import { _, str } from "ajv";
import type { CodeKeywordDefinition, KeywordCxt } from "ajv";
import { useFunc } from "ajv/dist/compile/util.js";
import { isMultipleOf } from "./_decimal.ts";

/**
 * `multipleOf`, checked exactly in decimal (see `_decimal.ts`) rather than by ajv's floating-point
 * division; its failures are ajv's own (`keyword`, `params.multipleOf`, message).
 */
export const MULTIPLE_OF: CodeKeywordDefinition = {
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
    cxt.fail$data(_`!${useFunc(gen, isMultipleOf)}(${data}, ${schemaCode})`);
  },
};
