/**
 * A bundle step: the shipped schemas' validators, compiled now, as the text of the module
 * `src/schema/_built_in.ts` the bundle is built with, and of one module for each validator (loaded
 * when its file is first checked). A run then checks its config files without
 * hashing a schema, reading a cached validator or compiling one (and Deno's code cache holds them).
 * Each is compiled exactly as at run time (`compileSchema()`), for every mode the code asks for.
 *
 * @module
 */

import { compileSchema } from "../src/schema/_compile.ts";
import { builtInKey, type Mode } from "../src/schema/_validator.ts";

/** The schemas, and the modes they are checked in (`schemaIssues()` with `allErrors`). */
const SHIPPED: readonly [file: string, modes: readonly Mode[]][] = [
  ["tools.schema.json", ["config-all"]],
  ["rules.schema.json", ["config-all"]],
  ["spawn.schema.json", ["config-all"]],
  ["sandbox.schema.json", ["config-all"]],
];

const DRAFT_07 = "http://json-schema.org/draft-07/schema#";
const REQUIRE_CALL = /\brequire\("([^"\\]+)"\)/g;

/**
 * The modules' texts.
 *
 * @param schemas The directory of the schemas.
 * @param source `_built_in.ts` as written (its declarations are kept; its empty map is filled).
 * @returns `_built_in.ts`, and each validator's module by its name beside it.
 * @throws {Error} When a schema is not draft-07 or cannot be compiled to standalone code.
 */
export function builtInModules(schemas: string, source: string): Map<string, string> {
  const modules = new Map<string, string>();
  const entries: string[] = [];
  for (const [file, modes] of SHIPPED) {
    const schema = JSON.parse(Deno.readTextFileSync(`${schemas}/${file}`));
    if (schema.$schema !== DRAFT_07) throw new Error(`${file}: not a draft-07 schema`);
    for (const mode of modes) {
      const compiled = compileSchema("draft-07", schema, mode);
      if (!("validate" in compiled) || compiled.code === undefined) {
        throw new Error(`${file}: no standalone code`);
      }
      const requires = [...new Set([...compiled.code.matchAll(REQUIRE_CALL)].map((m) => m[1]))];
      const key = JSON.stringify(builtInKey(mode, "draft-07", JSON.stringify(schema)));
      const name = `_built_in_${file.replace(/\..*/, "")}_${mode.replace("-", "_")}.ts`;
      modules.set(
        name,
        `export default { requires: ${JSON.stringify(requires)}, ` +
          `make: function (require, module, exports) {\n${compiled.code}\n} };\n`,
      );
      entries.push(`[${key}, () => import("./${name}").then((module) => module.default)]`);
    }
  }
  const empty = "= new Map();";
  if (!source.includes(empty)) throw new Error("_built_in.ts: no empty map to fill");
  modules.set(
    "_built_in.ts",
    source.replace(
      empty,
      `= new Map<string, () => Promise<BuiltIn>>([\n${entries.join(",\n")}\n]);`,
    ),
  );
  return modules;
}
