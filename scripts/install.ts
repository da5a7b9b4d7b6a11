/**
 * `deno task install [--root DIR] [--deno PATH]`: installs, from this clone, the commands
 * `basis-tools` and `basis-tools-call` (Gemini CLI's `callCommand`) in DIR/bin, running a copy of
 * the bundle in DIR/lib/basis-tools under the released binary's permissions. DIR defaults to
 * ~/.local: the per-user prefix of the XDG base directories and of systemd's file-hierarchy(7),
 * whose bin/ many distributions put on PATH already; nothing needs root.
 *
 * Each command is a bash script that runs the bundle with an absolute path to Deno, through
 * `exec -a` so that the program knows the name it was started as (`basis-tools-call` is a link to
 * `basis-tools`). The bundle is built beside the installed one and replaces it with a rename once it
 * has answered `--version`: a re-install replaces it cleanly, a failed one leaves it as it was, and
 * later edits of the clone change nothing installed. A run still going (an MCP server) keeps what it
 * has loaded; restart it to use the new install.
 *
 * Deno: `--deno PATH`, else the Deno running this script — by its name on PATH when that is the
 * same file (a package manager's link outlives its versioned directories), and as a hard link (or a
 * copy) inside DIR/lib/basis-tools when it lives in npx's cache, which npm may clear.
 *
 * @module
 */

import { DEFAULT_PERMISSIONS } from "./_permissions.ts";
import { VERSION } from "../src/version.ts";

const ROOT = new URL("..", import.meta.url).pathname;
const USAGE = "deno task install [--root DIR] [--deno PATH]";
/** The first comment line of an installed command: what a re-install may replace. */
const MARK = "# basis-tools, installed by `deno task install`";
/** How the installed commands run the bundle: the released binary's permissions, no config file. */
const RUN_FLAGS: readonly string[] = ["run", "--no-config", "--quiet", ...DEFAULT_PERMISSIONS];

class InstallError extends Error {}

if (import.meta.main) {
  try {
    console.log(await install(options(Deno.args)));
  } catch (error) {
    if (!(error instanceof InstallError)) throw error;
    console.error(`install: Cannot install basis-tools: ${error.message}`);
    Deno.exit(1);
  }
}

/** `--root DIR` and `--deno PATH` (also `--name=value`), as absolute paths. */
function options(args: readonly string[]): { root?: string; deno?: string } {
  const found: { root?: string; deno?: string } = {};
  for (let i = 0; i < args.length; i++) {
    const match = /^--(root|deno)(?:=(.*))?$/.exec(args[i]!);
    if (match === null) throw new InstallError(`unknown argument "${args[i]}" (usage: ${USAGE})`);
    const value = match[2] ?? args[++i];
    if (!value) throw new InstallError(`--${match[1]} needs a value (usage: ${USAGE})`);
    found[match[1] as "root" | "deno"] = absolute(value);
  }
  return found;
}

/** A path as given, `~/` the home directory, relative ones against where `deno task` was run. */
function absolute(path: string): string {
  plain(path);
  const full = path.startsWith("/")
    ? path
    : path === "~" || path.startsWith("~/")
    ? `${home()}${path.slice(1)}`
    : `${Deno.env.get("INIT_CWD") ?? Deno.cwd()}/${path}`;
  const parts: string[] = [];
  for (const part of full.split("/")) {
    if (part === "..") parts.pop();
    else if (part !== "" && part !== ".") parts.push(part);
  }
  return `/${parts.join("/")}`;
}

/** Refuses a path the installed bash script could not hold in a comment line. */
function plain(path: string): string {
  // deno-lint-ignore no-control-regex
  if (/[\x00-\x1f\x7f]/.test(path)) {
    throw new InstallError(`a path holds a control character: ${JSON.stringify(path)}`);
  }
  return path;
}

function home(): string {
  const home = Deno.env.get("HOME");
  if (!home) throw new InstallError("HOME is not set: give --root DIR");
  return home;
}

/** Installs, and returns what to tell the user. */
async function install(given: { root?: string; deno?: string }): Promise<string> {
  if (Deno.build.os === "windows") {
    throw new InstallError("it runs on Linux and macOS; on Windows, use the release binary");
  }
  const root = given.root ?? `${home()}/.local`;
  const [bin, lib] = [`${root}/bin`, `${root}/lib`];
  const target = `${lib}/basis-tools`;
  mayReplace(`${bin}/basis-tools`, "command");
  mayReplace(`${bin}/basis-tools-call`, "link");
  mayReplace(target, "bundle");
  Deno.mkdirSync(bin, { recursive: true });
  Deno.mkdirSync(lib, { recursive: true });
  const staging = Deno.makeTempDirSync({ dir: lib, prefix: ".basis-tools-" });
  // Readable by all, as an installed program is (a temporary directory is its owner's only).
  Deno.chmodSync(staging, 0o755);
  try {
    const built = await run(Deno.execPath(), ["task", "--quiet", "bundle", "--outdir", staging]);
    if (!built.ok) {
      const last = built.text.split("\n").slice(-3).join(" ");
      throw new InstallError(`the bundle step failed (deno task bundle): ${last}`);
    }
    const deno = given.deno === undefined
      ? denoOf(Deno.execPath(), target, staging)
      : { path: given.deno, copied: false };
    const runs = deno.copied ? `${staging}/deno` : deno.path;
    const started = await run(runs, [...RUN_FLAGS, `${staging}/basis-tools.js`, "--version"]);
    if (started.text !== `basis-tools ${VERSION}`) {
      throw new InstallError(`the bundle does not start with ${deno.path}: ${started.text}`);
    }
    replace(target, staging);
    for (const path of [ROOT, deno.path]) plain(path);
    const command = [deno.path, ...RUN_FLAGS, `${target}/basis-tools.js`].map(quote).join(" ");
    const shim = [
      "#!/usr/bin/env bash",
      MARK,
      `# from ${ROOT} (run it there again to update). It runs the bundle in ${target} with the`,
      "# released binary's permissions; exec -a passes on the name it was started as.",
      `exec -a "$0" ${command} "$@"`,
      "",
    ].join("\n");
    atomically(`${bin}/basis-tools`, (temp) => Deno.writeTextFileSync(temp, shim, { mode: 0o755 }));
    atomically(`${bin}/basis-tools-call`, (temp) => Deno.symlinkSync("basis-tools", temp));
    const check = await run(`${bin}/basis-tools`, ["--version"]);
    if (check.text !== `basis-tools ${VERSION}`) {
      throw new InstallError(`${bin}/basis-tools does not start: ${check.text}`);
    }
    return report(root, deno);
  } finally {
    for (const left of [staging, `${staging}.old`]) removeQuietly(left);
  }
}

/**
 * Refuses to replace what this installer did not write: a command without its mark (a compiled
 * binary, another program), a `basis-tools-call` linked elsewhere, a directory holding no bundle.
 */
function mayReplace(path: string, kind: "command" | "link" | "bundle"): void {
  let info: Deno.FileInfo;
  try {
    info = Deno.lstatSync(path);
  } catch {
    return;
  }
  const marked = () =>
    info.isFile && info.size < 4096 && Deno.readTextFileSync(path).split("\n")[1] === MARK;
  const ours = kind === "bundle"
    ? info.isDirectory && exists(`${path}/basis-tools.js`)
    : kind === "link" && info.isSymlink
    ? Deno.readLinkSync(path) === "basis-tools"
    : marked();
  if (!ours) {
    throw new InstallError(
      `"${path}" is there and was not installed by deno task install: move it away, or give --root another DIR`,
    );
  }
}

/** The Deno the installed commands run (see the module's documentation). */
function denoOf(self: string, target: string, staging: string): Runner {
  if (self.includes("/_npx/") || self.startsWith(`${real(target)}/`)) {
    const copy = `${staging}/deno`;
    try {
      Deno.linkSync(self, copy);
    } catch {
      Deno.copyFileSync(self, copy);
      Deno.chmodSync(copy, 0o755);
    }
    const path = `${target}/deno`;
    // Run again with the Deno kept there, it keeps itself, with nothing to say.
    if (!self.includes("/_npx/")) return { path, copied: true };
    return {
      path,
      copied: true,
      note: `Deno ran from npx's cache, which npm may clear: kept as ${path}`,
    };
  }
  const onPath = (Deno.env.get("PATH") ?? "").split(":").filter((dir) => dir.startsWith("/"))
    .map((dir) => `${dir}/deno`).find((path) => real(path) === real(self));
  return { path: onPath ?? self, copied: false };
}

/** The Deno the installed commands run. */
interface Runner {
  path: string;
  /** Whether it is kept inside the installed directory. */
  copied: boolean;
  /** What to tell the user about it. */
  note?: string;
}

/** Puts the new bundle in place of the installed one (a rename each), or back when that fails. */
function replace(target: string, staging: string): void {
  const old = `${staging}.old`;
  const had = exists(target);
  if (had) Deno.renameSync(target, old);
  try {
    Deno.renameSync(staging, target);
  } catch (error) {
    if (had) Deno.renameSync(old, target);
    throw error;
  }
}

/** Writes a file (or a link) under a temporary name beside `path`, then renames it over `path`. */
function atomically(path: string, write: (temp: string) => void): void {
  const slash = path.lastIndexOf("/");
  const temp = `${path.slice(0, slash)}/.${path.slice(slash + 1)}-${crypto.randomUUID()}`;
  try {
    write(temp);
    Deno.renameSync(temp, path);
  } finally {
    removeQuietly(temp);
  }
}

/** Where it installed, with what, and whether its bin/ is on PATH (and first there). */
function report(root: string, deno: Runner): string {
  const bin = `${root}/bin`;
  const dirs = (Deno.env.get("PATH") ?? "").split(":").filter((dir) => dir.startsWith("/"));
  const at = dirs.findIndex((dir) => real(dir) === real(bin));
  const first = dirs.find((dir) => isFile(`${dir}/basis-tools`));
  const path = at === -1
    ? `${bin} is not on PATH: add it (in ~/.profile, for instance: export PATH="${bin}:$PATH"), or run ${bin}/basis-tools`
    : first !== undefined && real(first) !== real(bin)
    ? `${bin} is on PATH, but ${first}/basis-tools comes first there`
    : `${bin} is on PATH: try basis-tools --help`;
  return [
    `Installed basis-tools ${VERSION} in ${root}:`,
    "  bin/basis-tools        the command",
    "  bin/basis-tools-call   Gemini CLI's callCommand (basis-tools call NAME --quiet --result)",
    `  lib/basis-tools/       the bundle, run by ${deno.path} with the released binary's permissions`,
    ...(deno.note === undefined ? [] : [deno.note]),
    path,
  ].join("\n");
}

async function run(command: string, args: string[]): Promise<{ ok: boolean; text: string }> {
  try {
    const output = await new Deno.Command(command, { args, cwd: ROOT, stdin: "null" }).output();
    const text = new TextDecoder().decode(output.stdout) + new TextDecoder().decode(output.stderr);
    return { ok: output.success, text: text.trim() };
  } catch (error) {
    return { ok: false, text: String(error) };
  }
}

/** One word for bash: in single quotes unless it needs none. */
function quote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

function real(path: string): string | undefined {
  try {
    return Deno.realPathSync(path);
  } catch {
    return undefined;
  }
}

function exists(path: string): boolean {
  return real(path) !== undefined;
}

function isFile(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}

function removeQuietly(path: string): void {
  try {
    Deno.removeSync(path, { recursive: true });
  } catch {
    // Already gone.
  }
}
