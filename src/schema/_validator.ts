/**
 * Finds the validator for a schema: this process's memory, then the disk cache, then ajv (imported
 * only then, from `_compile.ts`). Each schema is compiled at most once per process, and only when
 * first asked for; what a compile produces is kept on disk as ajv standalone code, which later
 * processes run through a small `require` shim without ajv's compiler.
 *
 * The disk cache is `<cacheDir>/validators/<key>.js`, written atomically. A cached validator is code
 * this process runs, so it is used only when (1) the directory and the file are this user's and
 * writable by no one else, (2) the file is a regular file (looked at before it is opened: a FIFO
 * would block the call; a link is not followed), and (3) its header holds the SHA-256 of the code
 * that follows, and the code has that digest: a file changed in any way is refused and compiled
 * again. The digest guards against a file changed by accident (a torn write, an edit); a planted
 * file needs write access to a directory only this user can write, which calls never have (the
 * sandbox keeps the cache read-only to them), and whoever has it could as well change `rules.json`.
 * Every cache failure means "no cache", never a failed call.
 *
 * @module
 */

import { type Phrase, phrase } from "../locale/messages.ts";
import { untrusted } from "../owner.ts";
import { joinPath } from "../paths.ts";
import { readRegularFile } from "../read_regular_file.ts";
import { attempt } from "../quietly.ts";
import { escapeToken, showValue } from "../text.ts";
import { BUILT_IN, type BuiltIn } from "./_built_in.ts";

/**
 * One failure as ajv reports it: the JSON pointer to the failing value (`instancePath`, already
 * escaped by ajv; `""` for the root), where in the schema the failing keyword is, the keyword, its
 * detail (`params`: `missingProperty`, `allowedValues`, …), ajv's English text, and for a failure
 * about a property name (`propertyNames`) that name.
 */
export type AjvError = Record<"instancePath" | "schemaPath" | "keyword", string> & AjvDetail;
type AjvDetail = { params: Record<string, unknown>; message?: string; propertyName?: string };

/** A validate function, whether compiled now or loaded from standalone code. */
export type Validator = ((data: unknown) => boolean | Promise<unknown>) & {
  /** The failures of the last call (synchronous validators). */
  errors?: AjvError[] | null;
};

/** A usable validator, or why the schema cannot be compiled (a phrase, for any locale). */
export type Entry = { validate: Validator } | { problem: Phrase };

/** The drafts the gate can compile. */
export type Draft = "draft-06" | "draft-07" | "2019-09" | "2020-12";

/**
 * How a validator is compiled: for a tool's schema (the first failure; patterns on the linear-time
 * engine, since the schema is the repository's), or for a shipped config schema (patterns on
 * JavaScript's own engine: they are written to run in linear time, and a call need not load
 * RE2), reporting the first failure or (`config-all`) every one.
 */
export type Mode = "tool" | "config" | "config-all";

/**
 * How often each path of the gate ran in this process (tests and benches read it): ajv's compiler
 * set up (at most once per draft and error mode), schemas compiled with ajv, validators instantiated
 * from a cache file, cache files written, and cache files that existed but could not be used
 * (corrupt, unsafe, failed to load).
 */
export const stats = { compilerLoads: 0, compiles: 0, diskHits: 0, diskWrites: 0, diskRejects: 0 };

/** The ajv version compiled code comes from; must match `deno.json` (a test checks). */
export const AJV_VERSION = "8.20.0";
/** The ajv-formats version format checks come from; must match `deno.json` (a test checks). */
export const AJV_FORMATS_VERSION = "3.0.1";
/** The re2js version patterns run on; must match `deno.json` (a test checks). */
export const RE2JS_VERSION = "2.10.0";
/** Bumped whenever the cache file layout or the runtime shim changes meaning. */
export const CACHE_FORMAT = 2;
/** The name standalone code requires the linear-time regular expression engine by. */
export const REGEXP_MODULE = "basis-tools/linear-regexp";
/** The name standalone code requires the exact `multipleOf` check by. */
export const DECIMAL_MODULE = "basis-tools/decimal";

/**
 * The ajv options every validator is compiled with: unknown keywords ignored, formats checked, first
 * failure only (unless a config's every one is asked for), input never coerced or filled in, only
 * own properties counted, no console output.
 */
export const AJV_OPTIONS = {
  strict: false,
  allErrors: false,
  validateFormats: true,
  useDefaults: false,
  coerceTypes: false,
  removeAdditional: false,
  ownProperties: true,
  messages: true,
  logger: false,
  code: { source: true },
} as const;

/** How ajv-formats is added: every format, full (not fast) checks, no extra keywords. */
export const FORMATS_OPTIONS = { mode: "full", keywords: false } as const;

/** Everything compiled code depends on: versions, options, the engine and keywords replaced. */
const FINGERPRINT = JSON.stringify([
  CACHE_FORMAT,
  AJV_VERSION,
  AJV_FORMATS_VERSION,
  AJV_OPTIONS,
  FORMATS_OPTIONS,
  { regExp: `${REGEXP_MODULE} re2js@${RE2JS_VERSION}`, keywords: [`multipleOf ${DECIMAL_MODULE}`] },
]);

/**
 * Every module standalone code may `require`, by that name, and how it is loaded: each on its own,
 * on first need, so that a validator loads only what it uses (a config's needs one of them; the
 * formats and the regular expression engine are the largest).
 */
const exportsOf = (module: { default: unknown }) => module.default; // CommonJS's module.exports
const MODULES: Readonly<Record<string, () => Promise<unknown>>> = {
  "ajv/dist/runtime/equal": () => import("ajv/dist/runtime/equal.js").then(exportsOf),
  "ajv/dist/runtime/ucs2length": () => import("ajv/dist/runtime/ucs2length.js").then(exportsOf),
  "ajv/dist/runtime/uri": () => import("ajv/dist/runtime/uri.js").then(exportsOf),
  "ajv/dist/runtime/validation_error": () =>
    import("ajv/dist/runtime/validation_error.js").then(exportsOf),
  "ajv-formats/dist/formats": () => import("ajv-formats/dist/formats.js").then(exportsOf),
  [DECIMAL_MODULE]: () => import("./_runtime.ts").then(({ isMultipleOf }) => ({ isMultipleOf })),
  [REGEXP_MODULE]: () => import("./_regexp.ts").then(({ linearRegExp }) => ({ linearRegExp })),
};
const MODULE_NAMES: ReadonlySet<string> = new Set(Object.keys(MODULES));
// `\x22` is a double quote: quotes in the file stay paired for tools that read it as text.
const REQUIRE_CALL = /\brequire\("([^\x22\\]+)"\)/g;
const MAX_CACHED_BYTES = 16 * 1024 * 1024;

const DRAFT_URI =
  /^https?:\/\/json-schema\.org\/(?:draft-(06|07)\/schema|draft\/(2019-09|2020-12)\/schema)#?$/;

/** The `$schema` each draft's meta-schema names itself by (and ajv knows it by). */
const DRAFT_URIS: Readonly<Record<Draft, string>> = {
  "draft-06": "http://json-schema.org/draft-06/schema#",
  "draft-07": "http://json-schema.org/draft-07/schema#",
  "2019-09": "https://json-schema.org/draft/2019-09/schema",
  "2020-12": "https://json-schema.org/draft/2020-12/schema",
};

/**
 * Chooses the draft for a schema: draft-07 when `$schema` is absent, else the draft it names
 * (http or https, with or without the trailing `#`), and the `$schema` ajv knows it by when the
 * schema spells it otherwise; or why not.
 */
function selectDraft(schema: unknown): { draft: Draft; canonical?: string } | Phrase {
  if (typeof schema !== "object" || schema === null || !Object.hasOwn(schema, "$schema")) {
    return { draft: "draft-07" };
  }
  const named = (schema as Record<string, unknown>)["$schema"];
  if (typeof named !== "string") return phrase("schema_problem.draft_not_string");
  const found = DRAFT_URI.exec(named);
  if (!found) return phrase("schema_problem.draft_unknown", { value: showValue(named, 100) });
  const draft = (found[1] === undefined ? found[2] : `draft-${found[1]}`) as Draft;
  const canonical = DRAFT_URIS[draft];
  return canonical === named ? { draft } : { draft, canonical };
}

/**
 * The `$schema` a schema is validated as, spelled as its draft names itself: draft-07's when the
 * schema names none.
 *
 * @param schema The schema.
 * @returns The URI, or `undefined` when its `$schema` names no draft the gate knows.
 * @example No `$schema` is draft-07
 * ```ts
 * import { dialectOf } from "./_validator.ts";
 * console.assert(dialectOf({ type: "object" }) === "http://json-schema.org/draft-07/schema#");
 * ```
 */
export function dialectOf(schema: unknown): string | undefined {
  const choice = selectDraft(schema);
  return "draft" in choice ? DRAFT_URIS[choice.draft] : undefined;
}

/**
 * Walks a JSON value breadth first, without recursion, each object once: `visit` is given every
 * object and array with its JSON pointer, and ends the walk with what it returns (not `undefined`).
 *
 * @param value The value.
 * @param visit What to look for.
 * @returns What `visit` found first, or `undefined`.
 */
export function findInJson<T>(
  value: unknown,
  visit: (item: Readonly<Record<string, unknown>>, pointer: string) => T | undefined,
): T | undefined {
  const pending: [value: unknown, pointer: string][] = [[value, ""]];
  const seen = new Set<object>();
  for (let next = 0; next < pending.length; next++) {
    const [item, pointer] = pending[next]!;
    if (typeof item !== "object" || item === null || seen.has(item)) continue;
    seen.add(item);
    const found = visit(item as Record<string, unknown>, pointer);
    if (found !== undefined) return found;
    for (const [key, child] of Object.entries(item)) {
      pending.push([child, `${pointer}/${escapeToken(key)}`]);
    }
  }
  return undefined;
}

/**
 * What ajv cannot be trusted with in a schema: anything but an object or a boolean, and a
 * `__proto__` key anywhere (ajv compiles it wrongly; standalone code would make it a prototype).
 */
function precheck(schema: unknown): Phrase | undefined {
  if (typeof schema !== "boolean" && (typeof schema !== "object" || Array.isArray(schema))) {
    return phrase("schema_problem.invalid", { detail: phrase("schema_problem.not_schema") });
  }
  return findInJson(
    schema,
    (item, pointer) =>
      Object.hasOwn(item, "__proto__")
        ? phrase("schema_problem.invalid_at", {
          pointer: `${pointer}/__proto__`,
          reason: phrase("schema_problem.proto_key"),
        })
        : undefined,
  );
}

async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/**
 * The cache key of one schema: the hex SHA-256 of the versions, the options, the draft (and the
 * mode, for a config schema) and the schema's JSON text.
 *
 * @param draft The draft the schema is compiled as.
 * @param schemaText `JSON.stringify` of the schema.
 * @param mode How it is compiled.
 * @returns 64 lowercase hex digits.
 * @example Different drafts, different keys
 * ```ts
 * import { cacheKey } from "./_validator.ts";
 * const a = await cacheKey("draft-07", "{}");
 * console.assert(a.length === 64 && a !== await cacheKey("2020-12", "{}"));
 * ```
 */
export function cacheKey(draft: Draft, schemaText: string, mode: Mode = "tool"): Promise<string> {
  return sha256(`${FINGERPRINT}\n${mode === "tool" ? draft : `${draft} ${mode}`}\n${schemaText}`);
}

/**
 * Where the validator for `key` is cached.
 *
 * @param cacheDir The cache directory.
 * @param key The schema's cache key.
 * @returns The file's path.
 */
export function validatorPath(cacheDir: string, key: string): string {
  return joinPath(cacheDir, "validators", `${key}.js`);
}

function header(key: string, digest: string): string {
  return `// basis-tools validator ${CACHE_FORMAT} ${key} ${digest}\n`;
}

/**
 * Reads the cached standalone code for `key`.
 *
 * @param cacheDir The cache directory.
 * @param key The schema's cache key.
 * @returns The code; `undefined` when there is no readable file; `false` when a file exists but
 *   must not be used (unsafe, or its header or digest is wrong).
 */
export async function readCached(
  cacheDir: string,
  key: string,
): Promise<string | false | undefined> {
  const text = attempt(() => {
    // The directory first: once it is known that only this user can write it, nobody else can
    // swap the file between the look at its path and the open. Synchronous on purpose: one small
    // local file on every call, where an async read would be two hops to a worker thread.
    // Where this process may not learn its own uid, only the permission bits are checked.
    const unsafe = (info: Deno.FileInfo) =>
      (untrusted(info)?.kind ?? "owner_unknown") !== "owner_unknown";
    const dir = Deno.lstatSync(joinPath(cacheDir, "validators"));
    if (!dir.isDirectory || unsafe(dir)) return false;
    const path = validatorPath(cacheDir, key);
    const read = readRegularFile(path, { limit: MAX_CACHED_BYTES, follow: false });
    if (read.kind === "missing") return undefined;
    if (read.kind !== "read" || unsafe(read.info)) return false;
    return new TextDecoder().decode(read.bytes);
  });
  if (typeof text !== "string") return text;
  const body = text.slice(text.indexOf("\n") + 1);
  return text.includes("\n") && text.startsWith(header(key, await sha256(body))) ? body : false;
}

/** Writes the code for `key` atomically (owner only); a directory that is not writable is no error. */
async function writeCached(cacheDir: string, key: string, code: string): Promise<void> {
  const path = validatorPath(cacheDir, key);
  const temp = `${path}.${crypto.randomUUID()}.tmp`;
  try {
    await Deno.mkdir(joinPath(cacheDir, "validators"), { recursive: true, mode: 0o700 });
    await Deno.writeTextFile(temp, header(key, await sha256(code)) + code, {
      mode: 0o600,
      createNew: true,
    });
    await Deno.rename(temp, path);
    stats.diskWrites++;
  } catch {
    await Deno.remove(temp).catch(() => {});
  }
}

/**
 * Runs standalone code and returns the validate function it exports. Every module it requires must
 * be one the shim provides; each is imported on first need.
 *
 * @param code Standalone CommonJS code from ajv.
 * @returns The validate function.
 * @throws {Error} When the code needs a module the shim cannot provide, throws while loading, or does
 * not export a function.
 * @example Load a tiny standalone validator
 * ```ts
 * import { instantiate } from "./_validator.ts";
 * const validate = await instantiate('module.exports = (data) => typeof data === "string";');
 * console.assert(validate("x") === true);
 * ```
 */
export function instantiate(code: string): Promise<Validator> {
  const names = [...new Set([...code.matchAll(REQUIRE_CALL)].map((match) => match[1]!))];
  return made({
    requires: names,
    make: new Function("require", "module", "exports", code) as BuiltIn["make"],
  });
}

/** Runs a validator's module function with the modules it requires; returns what it exports. */
async function made({ requires, make }: BuiltIn): Promise<Validator> {
  if (requires.some((name) => !MODULE_NAMES.has(name))) {
    throw new Error("Standalone code requires an unknown module");
  }
  // Each import is the module system's own: loaded once, however many validators require it.
  const modules = await Promise.all(requires.map((name) => MODULES[name]!()));
  const loaded = Object.fromEntries(requires.map((name, i) => [name, modules[i]]));
  const module = { exports: {} as unknown };
  make((name: string) => loaded[name], module, module.exports);
  if (typeof module.exports !== "function") throw new Error("Standalone code exports no function");
  return module.exports as Validator;
}

/**
 * The key a shipped schema's validator is built into the bundle under (`build/_validators.ts`):
 * the mode, the draft and the schema's JSON text.
 *
 * @param mode How it is compiled.
 * @param draft The draft it is compiled as.
 * @param schemaText `JSON.stringify` of the schema.
 * @returns The key.
 */
export function builtInKey(mode: Mode, draft: Draft, schemaText: string): string {
  return `${mode}\n${draft}\n${schemaText}`;
}

const byKey = new Map<string, Promise<Entry>>();
/** Validators by schema object, one map a mode. */
let bySchema = new Map<Mode, WeakMap<object, Promise<Entry>>>();

/**
 * Forgets every validator held in memory, so the next lookup goes to disk (tests and benches only).
 */
export function forgetValidators(): void {
  byKey.clear();
  bySchema = new Map();
}

/**
 * The validator for a schema, from memory, the disk cache or a fresh compile (which fills both).
 *
 * @param schema The schema as declared; the same object is answered from memory without hashing.
 * @param cacheDir The cache directory, or `undefined` for memory only.
 * @param mode How it is compiled. @default "tool"
 * @returns The validator, or why the schema cannot be compiled.
 * @throws {Error} Only when ajv itself cannot be imported, never for a bad schema.
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
  mode: Mode = "tool",
): Promise<Entry> {
  if (typeof schema !== "object" || schema === null) return lookUp(schema, cacheDir, mode);
  const memory = bySchema.get(mode) ?? new WeakMap();
  bySchema.set(mode, memory);
  let found = memory.get(schema);
  if (found === undefined) {
    memory.set(schema, found = lookUp(schema, cacheDir, mode));
    found.catch(() => memory.delete(schema));
  }
  return found;
}

async function lookUp(schema: unknown, cacheDir: string | undefined, mode: Mode): Promise<Entry> {
  const refused = precheck(schema);
  if (refused !== undefined) return { problem: refused };
  const choice = selectDraft(schema);
  if (!("draft" in choice)) return { problem: choice };
  const text = attempt(() => JSON.stringify(schema));
  const detail = phrase("schema_problem.not_json");
  if (text === undefined) return { problem: phrase("schema_problem.invalid", { detail }) };
  // A shipped schema's validator comes with the bundle: nothing to hash, read or compile.
  const builtKey = builtInKey(mode, choice.draft, text);
  const built = BUILT_IN.get(builtKey);
  const key = built === undefined ? await cacheKey(choice.draft, text, mode) : builtKey;
  let found = byKey.get(key);
  if (found === undefined) {
    const entry = built === undefined
      ? load(key, choice, schema, cacheDir, mode)
      : built().then(made).then((validate) => ({ validate }));
    byKey.set(key, found = entry);
    found.catch(() => byKey.delete(key));
  }
  return found;
}

async function load(
  key: string,
  choice: { draft: Draft; canonical?: string },
  schema: unknown,
  cacheDir: string | undefined,
  mode: Mode,
): Promise<Entry> {
  const cached = cacheDir === undefined ? undefined : await readCached(cacheDir, key);
  if (typeof cached === "string") {
    try {
      const validate = await instantiate(cached);
      stats.diskHits++;
      return { validate };
    } catch {
      stats.diskRejects++;
    }
  } else if (cached === false) stats.diskRejects++;
  const { compileSchema } = await import("./_compile.ts");
  const target = choice.canonical === undefined
    ? schema
    : { ...(schema as Record<string, unknown>), $schema: choice.canonical };
  const compiled = compileSchema(choice.draft, target, mode);
  if ("key" in compiled) return { problem: compiled };
  const { validate, code } = compiled;
  const known = [...code?.matchAll(REQUIRE_CALL) ?? []].every((match) =>
    MODULE_NAMES.has(match[1]!)
  );
  if (cacheDir !== undefined && code !== undefined && known) await writeCached(cacheDir, key, code);
  return { validate };
}
