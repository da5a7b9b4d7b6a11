/**
 * Everything ajv needs to compile a schema, in one module so that the bundle loads it as one chunk
 * (see `_ajv_runtime.ts`). Imported only when a schema is not in the validator cache.
 *
 * @module
 */

export { default as Ajv } from "ajv";
export { default as Ajv2019 } from "ajv/dist/2019.js";
export { default as Ajv2020 } from "ajv/dist/2020.js";
export { default as addFormats } from "ajv-formats";
export { default as standaloneCode } from "ajv/dist/standalone/index.js";
export { linearRegExp } from "./_regexp.ts";
export { MULTIPLE_OF } from "./_keywords.ts";
export { default as draft06MetaSchema } from "ajv/dist/refs/json-schema-draft-06.json" with {
  type: "json",
};
