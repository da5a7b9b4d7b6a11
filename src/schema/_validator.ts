/**
 * Finds the validator for a schema: this process's memory, then the disk cache, then ajv. Each schema
 * is compiled at most once per process, and only when first asked for.
 *
 * @module
 */

import { type Phrase, phrase } from "../locale/messages.ts";
import { type Cached, readCached, writeCached } from "./_cache.ts";
import { compileSchema } from "./_compile.ts";
import { type DraftChoice, selectDraft } from "./_draft.ts";
import { cacheKey } from "./_key.ts";
import { instantiate, requiredModules } from "./_runtime.ts";
import { precheckSchema } from "./_shape.ts";
import { stats } from "./_stats.ts";
import type { Validator } from "./_types.ts";

/** A usable validator, or why the schema cannot be compiled (a phrase, for any locale). */
export type Entry = { validate: Validator } | { problem: Phrase };

const byKey = new Map<string, Promise<Entry>>();
/** Validators by schema object: reporting the first failure, and every failure. */
let bySchema = [new WeakMap<object, Promise<Entry>>(), new WeakMap<object, Promise<Entry>>()];

/**
 * Forgets every validator held in memory, so the next lookup goes to disk (tests and benches only).
 *
 * @example Force the next lookup to the disk cache
 * ```ts
 * import { forgetValidators } from "./_validator.ts";
 * forgetValidators();
 * ```
 */
export function forgetValidators(): void {
  byKey.clear();
  bySchema = [new WeakMap(), new WeakMap()];
}

/**
 * The validator for a schema, from memory, the disk cache or a fresh compile (which fills both).
 *
 * @param schema The schema as declared; the same object is answered from memory without hashing.
 * @param cacheDir The cache directory, or `undefined` for memory only.
 * @param allErrors Whether the validator reports every failure (not only the first).
 * @returns The validator, or why the schema cannot be compiled.
 * @throws {Error} Only when ajv itself cannot be imported, never for a bad schema.
 *
 * @example Memory only (no cache directory)
 * ```ts
 * import { obtainValidator } from "./_validator.ts";
 * const entry = await obtainValidator({ type: "string" }, undefined);
 * console.assert("validate" in entry && entry.validate("x") === true);
 * ```
 */
export function obtainValidator(
  schema: unknown,
  cacheDir: string | undefined,
  allErrors = false,
): Promise<Entry> {
  if (typeof schema !== "object" || schema === null) return lookUp(schema, cacheDir, allErrors);
  const memory = bySchema[Number(allErrors)]!;
  let found = memory.get(schema);
  if (found === undefined) {
    found = lookUp(schema, cacheDir, allErrors);
    memory.set(schema, found);
    found.catch(() => memory.delete(schema));
  }
  return found;
}

async function lookUp(
  schema: unknown,
  cacheDir: string | undefined,
  allErrors: boolean,
): Promise<Entry> {
  const refused = precheckSchema(schema);
  if (refused !== undefined) return { problem: refused };
  const choice = selectDraft(schema);
  if (!("draft" in choice)) return { problem: choice };
  let text: string;
  try {
    text = JSON.stringify(schema);
  } catch {
    const detail = phrase("schema_problem.not_json");
    return { problem: phrase("schema_problem.invalid", { detail }) };
  }
  const key = await cacheKey(choice.draft, text, allErrors);
  let found = byKey.get(key);
  if (found === undefined) {
    found = load(key, choice, schema, cacheDir, allErrors);
    byKey.set(key, found);
    found.catch(() => byKey.delete(key));
  }
  return found;
}

async function load(
  key: string,
  choice: DraftChoice,
  schema: unknown,
  cacheDir: string | undefined,
  allErrors: boolean,
): Promise<Entry> {
  if (cacheDir !== undefined) {
    const read = await readCached(cacheDir, key);
    if (read.kind === "hit" && "problem" in read) {
      stats.diskHits++;
      return { problem: read.problem };
    }
    if (read.kind === "hit") {
      try {
        // Every failure is asked for by the config readers only, of the shipped schemas.
        const validate = await instantiate(read.code, allErrors);
        stats.diskHits++;
        return { validate };
      } catch {
        stats.diskRejects++;
      }
    } else if (read.kind === "rejected") {
      stats.diskRejects++;
    }
  }
  const compiled = await compileSchema(choice, schema, allErrors);
  if (!("validate" in compiled)) {
    if (cacheDir !== undefined) await save(cacheDir, key, { problem: compiled });
    return { problem: compiled };
  }
  const { validate, code } = compiled;
  if (cacheDir !== undefined && code !== undefined && requiredModules(code) !== undefined) {
    await save(cacheDir, key, { code });
  }
  return { validate };
}

async function save(cacheDir: string, key: string, cached: Cached): Promise<void> {
  if (await writeCached(cacheDir, key, cached)) stats.diskWrites++;
}
