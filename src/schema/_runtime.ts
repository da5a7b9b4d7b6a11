/**
 * Turns ajv standalone code back into a validate function without ajv's compiler: the code runs in a
 * `Function` with a `require` that knows only the few small runtime modules standalone code uses.
 *
 * @module
 */

import type { Validator } from "./_types.ts";

type Loader = () => Promise<{ default: unknown }>;

/** Every module standalone code may `require`, imported only when a validator names it. */
const LOADERS: Readonly<Record<string, Loader>> = {
  "ajv/dist/runtime/equal": () => import("ajv/dist/runtime/equal.js"),
  "ajv/dist/runtime/ucs2length": () => import("ajv/dist/runtime/ucs2length.js"),
  "ajv/dist/runtime/uri": () => import("ajv/dist/runtime/uri.js"),
  "ajv/dist/runtime/validation_error": () => import("ajv/dist/runtime/validation_error.js"),
  "ajv-formats/dist/formats": () => import("ajv-formats/dist/formats.js"),
};

const loaded = new Map<string, unknown>();

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
    if (!Object.hasOwn(LOADERS, name)) return undefined;
    names.add(name);
  }
  return [...names];
}

/**
 * Runs standalone code and returns the validate function it exports.
 *
 * @param code Standalone CommonJS code from ajv (as written by {@linkcode requiredModules}'s caller).
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
export async function instantiate(code: string): Promise<Validator> {
  const names = requiredModules(code);
  if (names === undefined) throw new Error("Standalone code requires an unknown module");
  for (const name of names) {
    if (loaded.has(name)) continue;
    const namespace = await (LOADERS[name] as Loader)();
    // Deno and `deno bundle` both expose CommonJS `module.exports` as the default export.
    loaded.set(name, namespace.default);
  }
  const require = (name: string): unknown => {
    if (!loaded.has(name)) throw new Error(`Standalone code requires unknown module "${name}"`);
    return loaded.get(name);
  };
  const module = { exports: {} as unknown };
  const run = new Function("require", "module", "exports", code);
  run(require, module, module.exports);
  const validate = module.exports;
  if (typeof validate !== "function") throw new Error("Standalone code exports no function");
  return validate as Validator;
}
