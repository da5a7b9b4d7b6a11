/**
 * Turns ajv standalone code back into a validate function without ajv's compiler: the code runs in a
 * `Function` with a `require` that knows only the few small runtime modules standalone code uses.
 *
 * @module
 */

import { DECIMAL_MODULE, REGEXP_MODULE } from "./_key.ts";
import type { Validator } from "./_types.ts";

/**
 * Every module standalone code may `require`: all but the regular expression engine are imported
 * together, on first need; the engine on its own, when code with a pattern first needs it.
 */
const MODULE_NAMES: ReadonlySet<string> = new Set([
  "ajv/dist/runtime/equal",
  "ajv/dist/runtime/ucs2length",
  "ajv/dist/runtime/uri",
  "ajv/dist/runtime/validation_error",
  "ajv-formats/dist/formats",
  DECIMAL_MODULE,
  REGEXP_MODULE,
]);

let modules: Promise<Readonly<Record<string, unknown>>> | undefined;
let engine: Promise<Readonly<Record<string, unknown>>> | undefined;

const REQUIRE_CALL = /\brequire\("([^"\\]+)"\)/g;

/**
 * Lists the modules a piece of standalone code requires.
 *
 * @param code Standalone CommonJS code from ajv.
 * @returns The module names, or `undefined` when one of them is not a module the shim can provide.
 *
 * @example Known and unknown modules
 * ```ts
 * import { requiredModules } from "./_runtime.ts";
 * const code = 'const e = require("ajv/dist/runtime/equal").default;';
 * console.assert(requiredModules(code)?.[0] === "ajv/dist/runtime/equal");
 * console.assert(requiredModules('require("fs")') === undefined);
 * ```
 */
export function requiredModules(code: string): string[] | undefined {
  const names = new Set<string>();
  for (const match of code.matchAll(REQUIRE_CALL)) {
    const name = match[1] as string;
    if (!MODULE_NAMES.has(name)) return undefined;
    names.add(name);
  }
  return [...names];
}

/**
 * Runs standalone code and returns the validate function it exports.
 *
 * @param code Standalone CommonJS code from ajv (as written by {@linkcode requiredModules}'s caller).
 * @param nativePatterns Run its patterns on JavaScript's own engine: only for the shipped config
 *   schemas, whose patterns are written to run in linear time on a backtracking engine too.
 * @returns The validate function.
 * @throws {Error} When the code needs a module the shim cannot provide, throws while loading, or does
 * not export a function.
 *
 * @example Load a tiny standalone validator
 * ```ts
 * import { instantiate } from "./_runtime.ts";
 * const validate = await instantiate('module.exports = (data) => typeof data === "string";');
 * console.assert(validate("x") === true);
 * ```
 */
export async function instantiate(code: string, nativePatterns = false): Promise<Validator> {
  const names = requiredModules(code);
  if (names === undefined) throw new Error("Standalone code requires an unknown module");
  const loaded = await loadModules(names, nativePatterns);
  const require = (name: string): unknown => {
    if (!Object.hasOwn(loaded, name)) {
      throw new Error(`Standalone code requires unknown module "${name}"`);
    }
    return loaded[name];
  };
  const module = { exports: {} as unknown };
  const run = new Function("require", "module", "exports", code);
  run(require, module, module.exports);
  const validate = module.exports;
  if (typeof validate !== "function") throw new Error("Standalone code exports no function");
  return validate as Validator;
}

/** The modules `names` lists, each group imported once per process. */
async function loadModules(
  names: readonly string[],
  nativePatterns: boolean,
): Promise<Readonly<Record<string, unknown>>> {
  const needsEngine = names.includes(REGEXP_MODULE) && !nativePatterns;
  const needsRest = names.some((name) => name !== REGEXP_MODULE);
  if (needsRest && modules === undefined) {
    modules = import("./_ajv_runtime.ts").then((module) => module.RUNTIME_MODULES);
    modules.catch(() => {
      modules = undefined;
    });
  }
  if (needsEngine && engine === undefined) {
    engine = import("./_regexp.ts").then((module) => ({
      [REGEXP_MODULE]: { linearRegExp: module.linearRegExp },
    }));
    engine.catch(() => {
      engine = undefined;
    });
  }
  const [rest, regexp] = await Promise.all([
    needsRest ? modules : undefined,
    needsEngine ? engine : undefined,
  ]);
  if (!nativePatterns) return { ...rest, ...regexp };
  return {
    ...rest,
    [REGEXP_MODULE]: { linearRegExp: (source: string, flags: string) => new RegExp(source, flags) },
  };
}
