/**
 * Finds the file a program name refers to, the way the runner will start it: an absolute path as is,
 * a relative path with a separator against the working directory, a bare name on the effective
 * `PATH` (with `PATHEXT` on Windows), in the environment the child will get. Without the runner
 * itself, for what only looks programs up (`list`, `check`).
 *
 * @module
 */

import { type Phrase, phrase } from "../locale/messages.ts";
import { canonicalFilePath, isAbsolutePath, joinPath, readEnv } from "../paths.ts";
import type { RunRequest } from "./types.ts";
import { isMissing, quietly } from "../quietly.ts";

const IS_WINDOWS = Deno.build.os === "windows";

/** The outcome of resolving a program. */
export type Resolution =
  | {
    ok: true;
    /** The file to start: always a path (absolute, or relative with a separator as given). */
    path: string;
    /** Every path inspected on the way, in order, `path` last when it was found by a search. */
    looked: readonly string[];
  }
  | {
    ok: false;
    failure: "not_found" | "not_executable";
    /** The file that cannot run; the program itself when there is none. */
    path: string;
    /** Why, in one line naming the program, as a phrase (`english()` words it in English). */
    reason: Phrase;
  };

/**
 * Where resolution looks: the child's working directory (for relative paths with a separator), its
 * effective `PATH`, and its effective `PATHEXT` (Windows only).
 */
export type ResolveContext = { cwd: string; path: string | undefined; pathExt: string | undefined };

/** What stands at a path; `unknown`: it cannot be looked at, `refused`: Deno's sandbox refused. */
type Kind = "executable" | "missing" | "directory" | "not_executable" | "batch" | "unknown";
type Look = Kind | "refused";

/**
 * Resolves a program name to the file that would run.
 *
 * @param program The program as requested.
 * @param context The working directory and search path.
 * @returns The file, or why there is none, as a phrase and in English, naming the program.
 *
 * @example Find a bare name on PATH
 * ```ts ignore
 * import { resolveProgram } from "./resolve_program.ts";
 * const found = resolveProgram("sh", { cwd: "/", path: "/usr/bin:/bin", pathExt: undefined });
 * if (found.ok) console.log(found.path); // "/usr/bin/sh"
 * ```
 */
export function resolveProgram(program: string, context: ResolveContext): Resolution {
  const notFound = (reason: Phrase): Resolution => ({
    ok: false,
    failure: "not_found",
    path: program,
    reason,
  });
  if (program.trim() === "") return notFound(phrase("start.blank"));
  if (program.includes("/") || (IS_WINDOWS && program.includes("\\"))) {
    const path = isAbsolutePath(program) ? program : joinPath(context.cwd, program);
    return judge(program, path, inspect(path), [path]);
  }
  const dirs = (context.path ?? "").split(IS_WINDOWS ? ";" : ":")
    // Empty and relative entries would search the working directory: a repository could plant a
    // program there, so they are skipped.
    .filter((dir) => dir !== "" && isAbsolutePath(dir));
  const looked: string[] = [];
  let unusable: { path: string; kind: Kind } | undefined;
  const unreadable = new Set<string>();
  let refused = false;
  for (const dir of dirs) {
    for (const name of IS_WINDOWS ? windowsNames(program, context.pathExt) : [program]) {
      const path = joinPath(dir, name);
      looked.push(path);
      const kind = inspect(path);
      // A place that cannot be looked at (no permission, a name too long, Deno's sandbox) is
      // skipped, never answered with the bare name: whatever searched for it next (setsid's
      // execvp) would search PATH's relative entries too, and the program approved would not be
      // the program run.
      if (kind === "unknown" || kind === "refused") {
        refused ||= kind === "refused";
        unreadable.add(dir);
      } else if (kind === "executable" || kind === "batch") {
        return judge(program, path, kind, looked);
      } else if (kind === "not_executable") {
        unusable ??= { path, kind };
      }
    }
  }
  if (unusable) return judge(program, unusable.path, unusable.kind, looked);
  if (!unreadable.size) return notFound(phrase("start.not_on_path", { program: quote(program) }));
  // Whole: a directory may be a secret, and only a whole secret is redacted.
  const shown = [...unreadable].map((dir) => JSON.stringify(dir));
  const key = refused ? "start.lookup_refused" : "start.not_on_path_unreadable";
  return notFound(phrase(key, { program: quote(program), dirs: shown.join(", ") }));
}

/** The failure and the reason of each kind of file that cannot run. */
const UNUSABLE = {
  missing: ["not_found", "start.missing"],
  directory: ["not_executable", "start.directory"],
  batch: ["not_executable", "start.batch"],
  not_executable: ["not_executable", "start.not_executable"],
} as const;

function judge(program: string, path: string, kind: Look, looked: readonly string[]): Resolution {
  if (kind === "executable" || kind === "unknown" || kind === "refused") {
    return { ok: true, path, looked };
  }
  const [failure, key] = UNUSABLE[kind];
  const shown = program === path ? quote(program) : `${quote(program)} (${path})`;
  return { ok: false, failure, path, reason: phrase(key, { program: shown }) };
}

/** Synchronous on purpose: a handful of local stats is microseconds, an async stat a thread hop. */
function inspect(path: string): Look {
  let info: Deno.FileInfo;
  try {
    info = quietly(() => Deno.statSync(path));
  } catch (error) {
    if (isMissing(error)) return "missing";
    return error instanceof Deno.errors.NotCapable ? "refused" : "unknown";
  }
  if (info.isDirectory) return "directory";
  if (!info.isFile) return "not_executable";
  if (IS_WINDOWS) return /\.(cmd|bat)$/i.test(path) ? "batch" : "executable";
  if (info.mode !== null && (info.mode & 0o111) === 0) return "not_executable";
  return "executable";
}

function windowsNames(program: string, pathExt: string | undefined): string[] {
  const exts = (pathExt || ".COM;.EXE;.BAT;.CMD").split(";").filter((ext) => ext !== "");
  const hasExt = exts.some((ext) => program.toUpperCase().endsWith(ext.toUpperCase()));
  return hasExt ? [program] : exts.map((ext) => program + ext.toLowerCase());
}

/**
 * Finds the program a request will start, exactly as {@linkcode runProgram} does: with the
 * environment the program gets (the inherited one unless `clearEnv`, then each layer, later wins),
 * its directory's symbolic links resolved. Approval shows and pins this path, and the runner is
 * given it, so what is approved is what runs.
 *
 * @param request The program, its working directory and environment layers.
 * @param memo Lookups already made in one pass over many tools, by what a lookup depends on.
 * @returns The absolute path found, or why there is none.
 * @throws Never.
 * @example Find a bare name
 * ```ts ignore
 * import { resolveRunProgram } from "./resolve_program.ts";
 * const found = resolveRunProgram({ program: "cat", args: [], cwd: "/", stdin: new Uint8Array(), timeoutMs: 1000 });
 * if (found.ok) console.log(found.path); // "/usr/bin/cat"
 * ```
 */
export function resolveRunProgram(request: RunRequest, memo?: Map<string, Resolution>): Resolution {
  // One pass over many tools (list, check) looks each program up once: the same name, directory
  // and search path find the same file. Where no layer sets the search path, it is the inherited
  // one for every tool of the pass: known without merging the layers.
  const inherited = memo !== undefined && request.clearEnv !== true && !IS_WINDOWS &&
    (request.env ?? []).every((layer) => !Object.hasOwn(layer, "PATH"));
  const quick = inherited ? `${request.program}\0${request.cwd}` : undefined;
  const early = quick && memo?.get(quick);
  if (early) return early;
  const context = searchOf(request, mergeEnvLayers(request.env ?? []));
  const key = memo && JSON.stringify([request.program, context.cwd, context.path, context.pathExt]);
  const known = key && memo?.get(key);
  if (known) {
    if (quick) memo?.set(quick, known);
    return known;
  }
  const found = resolveProgram(request.program, context);
  // Every spelling of the program's directory is one path (a link to the repository, /bin on a
  // merged /usr): what a rule pins does not depend on how a PATH entry was written.
  const resolved = found.ok && isAbsolutePath(found.path)
    ? { ...found, path: canonicalFilePath(found.path) }
    : found;
  if (key) memo?.set(key, resolved);
  if (quick) memo?.set(quick, resolved);
  return resolved;
}

/** Where a program is searched: in the child's variables (the layers alone under `clearEnv`). */
function searchOf(request: RunRequest, env: Record<string, string>): ResolveContext {
  const lookup = (name: string) =>
    request.clearEnv === true
      ? (Object.hasOwn(env, name) ? env[name] : undefined)
      : effectiveVar(env, name);
  return { cwd: request.cwd, path: lookup("PATH"), pathExt: lookup("PATHEXT") };
}

/** The program a request names, looked up in its child's environment (merged layers). */
export function resolveIn(request: RunRequest, env: Record<string, string>): Resolution {
  return resolveProgram(request.program, searchOf(request, env));
}

// Environment layering for a child: the inherited environment, then each layer in order, later
// wins. Only the layers are passed to Deno (which adds them over the inherited environment), so the
// runner needs no permission to read the whole environment.

/**
 * Merges environment layers, later wins, into a null-prototype object.
 *
 * @param layers The layers, in order.
 * @returns The variables the layers set.
 */
export function mergeEnvLayers(layers: readonly Record<string, string>[]): Record<string, string> {
  const merged: Record<string, string> = Object.create(null);
  for (const layer of layers) {
    for (const [name, value] of Object.entries(layer)) {
      if (IS_WINDOWS) {
        // Windows names are case-insensitive: the later spelling replaces the earlier one.
        for (const known of Object.keys(merged)) {
          if (known.toUpperCase() === name.toUpperCase()) delete merged[known];
        }
      }
      merged[name] = value;
    }
  }
  return merged;
}

/**
 * One variable as the child will see it: the layers' value, else the inherited one.
 *
 * @param merged The merged layers.
 * @param name The variable's name.
 * @returns Its effective value, or `undefined` when unset or not readable.
 */
export function effectiveVar(merged: Record<string, string>, name: string): string | undefined {
  if (IS_WINDOWS) {
    for (const [key, value] of Object.entries(merged)) {
      if (key.toUpperCase() === name.toUpperCase()) return value;
    }
  } else if (Object.hasOwn(merged, name)) {
    return merged[name];
  }
  return readEnv(name);
}

/**
 * A program or directory as the reasons name it: between double quotes, as it is.
 *
 * @param value The program or directory.
 * @returns The quoted value.
 */
export function quote(value: string): string {
  return `"${value}"`;
}
