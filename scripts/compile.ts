/**
 * `deno task compile`: builds the single binary `dist/basis-tools` from the bundle (the same module
 * graph the tests and benchmarks run), with `--no-prompt` and the default permission set.
 *
 * `deno compile` needs Deno's `denort` runtime. It honours `DENORT_BIN` (a local copy); otherwise it
 * downloads one from dl.deno.land, and when that is unreachable this script says so in one line.
 *
 * Usage: deno task compile [--target TRIPLE] [-- extra deno compile flags]
 *
 * @module
 */

import { DEFAULT_PERMISSIONS } from "./_permissions.ts";

const ROOT = new URL("..", import.meta.url).pathname;
/** Colour codes in Deno's own error output. */
const ANSI_ESCAPE = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, "g");

const args = [...Deno.args];
const extraAt = args.indexOf("--");
const extra = extraAt === -1 ? [] : args.splice(extraAt).slice(1);
const targetAt = args.indexOf("--target");
const target = targetAt === -1 ? undefined : args[targetAt + 1];
const output = `${ROOT}dist/basis-tools${target?.includes("windows") ? ".exe" : ""}`;

const denort = Deno.env.get("DENORT_BIN");
if (denort !== undefined) {
  try {
    Deno.statSync(denort);
  } catch {
    fail(`DENORT_BIN names "${denort}", which does not exist`);
  }
}

const bundle = await new Deno.Command(Deno.execPath(), {
  args: ["task", "--quiet", "bundle", "--literal"],
  cwd: ROOT,
}).output();
if (!bundle.success) fail("the bundle step failed (deno task bundle)");

// The bundle may be split into chunks loaded on demand. Built with --literal, its imports of them
// are literal, which `deno compile` embeds on its own; naming each one keeps that true whatever
// the bundler emits.
const entry = `${ROOT}dist/basis-tools.js`;
const chunks = [...Deno.readDirSync(`${ROOT}dist`)]
  .filter((file) => file.isFile && file.name.endsWith(".js") && file.name !== "basis-tools.js")
  .flatMap((file) => ["--include", `${ROOT}dist/${file.name}`]);

const compile = await new Deno.Command(Deno.execPath(), {
  args: [
    "compile",
    ...DEFAULT_PERMISSIONS,
    ...(target ? ["--target", target] : []),
    ...chunks,
    ...extra,
    "--output",
    output,
    entry,
  ],
  cwd: ROOT,
  stdout: "inherit",
  stderr: "piped",
}).output();
if (!compile.success) {
  const stderr = new TextDecoder().decode(compile.stderr);
  if (/dl\.deno\.land|error sending request|dns error/.test(stderr)) {
    const zip = `denort-${target ?? Deno.build.target}.zip`;
    fail(
      `Deno's denort runtime could not be downloaded (dl.deno.land is unreachable); get ${zip} ` +
        `of Deno ${Deno.version.deno} where you can (https://dl.deno.land/release/v${Deno.version.deno}/${zip}, ` +
        `or the assets of that Deno release on GitHub), unzip it, and run again with DENORT_BIN=/path/to/denort`,
    );
  }
  const plain = stderr.replaceAll(ANSI_ESCAPE, "");
  const reason = plain.split("\n").map((line) => line.trim()).filter(Boolean).slice(1, 3);
  fail(`deno compile failed: ${reason.join(" ")}`);
}
console.log(`compiled ${output}`);

function fail(message: string): never {
  console.error(`compile: Cannot build the binary: ${message}`);
  Deno.exit(1);
}
