/**
 * The small modules ajv's standalone code may `require`, in one module so that the bundle loads them
 * as one chunk: Deno reads every chunk a dynamic import may load on every start, whether it is
 * loaded or not, so fewer chunks make every command start sooner. The regular expression engine is
 * not one of them: it is larger, and only patterns need it (`_runtime.ts` loads it on its own).
 *
 * @module
 */

import equal from "ajv/dist/runtime/equal.js";
import ucs2length from "ajv/dist/runtime/ucs2length.js";
import uri from "ajv/dist/runtime/uri.js";
import validationError from "ajv/dist/runtime/validation_error.js";
import formats from "ajv-formats/dist/formats.js";
import { isMultipleOf } from "./_decimal.ts";
import { DECIMAL_MODULE } from "./_key.ts";

/** Each module by the name standalone code requires it by (CommonJS `module.exports`). */
export const RUNTIME_MODULES: Readonly<Record<string, unknown>> = {
  "ajv/dist/runtime/equal": equal,
  "ajv/dist/runtime/ucs2length": ucs2length,
  "ajv/dist/runtime/uri": uri,
  "ajv/dist/runtime/validation_error": validationError,
  "ajv-formats/dist/formats": formats,
  [DECIMAL_MODULE]: { isMultipleOf },
};
