/**
 * `deno task bundle`: builds the CLI as it ships, `dist/basis-tools.js`, with the chunks it loads on
 * demand beside it (each command, ajv's compiler, the JSONC parser, the terminal prompt), minified.
 * Chunks are imported relatively, so the directory can move as a whole; `deno compile` of the entry
 * takes them all in.
 *
 * One step follows Deno's bundler. esbuild gives CommonJS code (here: npm packages of the terminal
 * prompt) a lazy `require` for Node built-ins; Deno's bundler replaces it with a static import of
 * `node:module`, in the chunk of helpers that every run loads. That import loads Deno's Node
 * compatibility layer: about 12 ms on every command, `--help` included. The step makes that
 * `require` lazy again: the same `createRequire`, made on the first call.
 *
 * A second step keeps start-up small. Deno reads and hashes, when a program starts, every module a
 * literal `import("./x.js")` names, used or not: every chunk, for every command. The step writes
 * each such import with a specifier Deno does not walk (`new URL("./x.js", import.meta.url)`), so a
 * run reads only the chunks it imports. Such an import is a read Deno checks (`permissions` grants
 * the bundle's directory); `deno compile` embeds the chunks when each is named with `--include`
 * (scripts/compile.ts does; `--literal` keeps the literal imports instead).
 *
 * The bundle is built from a copy of the source in which `src/schema/_built_in.ts` holds the
 * shipped schemas' validators, compiled by this step (`_validators.ts`): no run compiles, hashes or
 * reads one from the cache for a config file.
 *
 * A third step makes V8 compile each chunk's functions with the chunk (`_eager.ts`), so that Deno's
 * code cache holds them and a run does not compile, function by function, what it calls (`--lazy`
 * leaves them to V8: the bench compares the two).
 *
 * Usage: deno task bundle [--literal] [--lazy] [--outdir DIR]
 *
 * @module
 */

import { eagerFunctions } from "./_eager.ts";
import { builtInModules } from "./_validators.ts";
import { exists } from "../src/quietly.ts";

const ROOT = new URL("..", import.meta.url).pathname;
const OUTDIR_AT = Deno.args.indexOf("--outdir");
const DIST = OUTDIR_AT === -1 ? `${ROOT}dist` : Deno.args[OUTDIR_AT + 1] ?? fail("--outdir DIR");
const ENTRY = `${DIST}/basis-tools.js`;
const LITERAL = Deno.args.includes("--literal");
const LAZY = Deno.args.includes("--lazy");
/** A literal dynamic import of a chunk, as the bundler writes it (minified). */
const LITERAL_IMPORT = /\bimport\("(\.\/[\w.-]+\.js)"\)/g;

/** Deno's replacement of esbuild's `require` shim (minified output). */
const EAGER_REQUIRE =
  /import\s*\{\s*createRequire as __deno_internal_createRequire\s*\}\s*from\s*"node:module";\s*var ([\w$]+)\s*=\s*__deno_internal_createRequire\(import\.meta\.url\);/g;

function lazyRequire(name: string): string {
  return `var ${name}=(()=>{let r;return(i)=>(r??=globalThis.process.getBuiltinModule(` +
    `"node:module").createRequire(import.meta.url))(i)})();`;
}

function fail(message: string): never {
  console.error(`bundle: ${message}`);
  Deno.exit(1);
}

// Built beside dist/ and moved in, so that a process starting meanwhile finds a whole bundle.
Deno.mkdirSync(DIST, { recursive: true });
const staging = Deno.makeTempDirSync({ dir: DIST, prefix: ".bundle-" });
const source = Deno.makeTempDirSync({ dir: DIST, prefix: ".source-" });
try {
  for (const part of ["src", "schemas", "deno.json", "deno.lock"]) {
    // Without a lock file (a checkout that has none), the bundle resolves as `deno run` would.
    if (part !== "deno.lock" || exists(`${ROOT}${part}`)) {
      copy(`${ROOT}${part}`, `${source}/${part}`);
    }
  }
  const built = builtInModules(
    `${ROOT}schemas`,
    Deno.readTextFileSync(`${ROOT}src/schema/_built_in.ts`),
  );
  for (const [name, text] of built) Deno.writeTextFileSync(`${source}/src/schema/${name}`, text);
  const bundle = await new Deno.Command(Deno.execPath(), {
    args: [
      "bundle",
      "--quiet",
      "--platform=deno",
      "--code-splitting",
      "--minify",
      "--outdir",
      staging,
      `${source}/src/main.ts`,
    ],
    cwd: source,
  }).output();
  if (!bundle.success) {
    Deno.removeSync(staging, { recursive: true });
    Deno.removeSync(source, { recursive: true });
    console.error(new TextDecoder().decode(bundle.stderr));
    fail("deno bundle failed");
  }
  Deno.renameSync(`${staging}/main.js`, `${staging}/basis-tools.js`);
  const eager = makeRequireLazy(staging);
  if (!LITERAL) unwalkedImports(staging);
  if (!LAZY) compileEagerly(staging);
  if (eager > 0) {
    // Still correct, only slower: say so rather than fail a build over start-up time.
    console.error(
      `bundle: warning: ${eager} chunk(s) still import "node:module" statically (about 12 ms a run)`,
    );
  }
  // Chunks first (their names change with their content), the entry last, then what is stale.
  const fresh = new Set<string>();
  for (const entry of Deno.readDirSync(staging)) fresh.add(entry.name);
  for (const name of fresh) {
    if (name !== "basis-tools.js") Deno.renameSync(`${staging}/${name}`, `${DIST}/${name}`);
  }
  Deno.renameSync(`${staging}/basis-tools.js`, ENTRY);
  for (const entry of Deno.readDirSync(DIST)) {
    if (entry.isFile && entry.name.endsWith(".js") && !fresh.has(entry.name)) {
      Deno.removeSync(`${DIST}/${entry.name}`);
    }
  }
} finally {
  Deno.removeSync(staging, { recursive: true });
  Deno.removeSync(source, { recursive: true });
}

/** Copies a file, or a directory with everything in it. */
function copy(from: string, to: string): void {
  if (!Deno.statSync(from).isDirectory) return Deno.copyFileSync(from, to);
  Deno.mkdirSync(to);
  for (const entry of Deno.readDirSync(from)) copy(`${from}/${entry.name}`, `${to}/${entry.name}`);
}

/** Makes the `require` of every chunk in `dir` lazy; returns how many chunks still load it eagerly. */
function makeRequireLazy(dir: string): number {
  let eager = 0;
  for (const entry of Deno.readDirSync(dir)) {
    if (!entry.isFile || !entry.name.endsWith(".js")) continue;
    const path = `${dir}/${entry.name}`;
    const code = Deno.readTextFileSync(path);
    const lazy = code.replaceAll(EAGER_REQUIRE, (_, name: string) => lazyRequire(name));
    if (lazy !== code) Deno.writeTextFileSync(path, lazy);
    if (/from\s*"node:module"/.test(lazy)) eager++;
  }
  return eager;
}

/** Rewrites every chunk so that V8 compiles its functions with it. */
function compileEagerly(dir: string): void {
  for (const entry of Deno.readDirSync(dir)) {
    if (!entry.isFile || !entry.name.endsWith(".js")) continue;
    const path = `${dir}/${entry.name}`;
    Deno.writeTextFileSync(path, eagerFunctions(Deno.readTextFileSync(path)));
  }
}

/** Writes every chunk's literal `import("./x.js")` with a specifier Deno does not walk at start-up. */
function unwalkedImports(dir: string): void {
  for (const entry of Deno.readDirSync(dir)) {
    if (!entry.isFile || !entry.name.endsWith(".js")) continue;
    const path = `${dir}/${entry.name}`;
    const code = Deno.readTextFileSync(path);
    const unwalked = code.replaceAll(
      LITERAL_IMPORT,
      (_, specifier: string) => `import(new URL("${specifier}",import.meta.url).href)`,
    );
    if (unwalked !== code) Deno.writeTextFileSync(path, unwalked);
  }
}
