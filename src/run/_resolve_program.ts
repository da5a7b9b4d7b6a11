/**
 * Finds the file a program name refers to, the way the runner will start it: an absolute path as is,
 * a relative path with a separator against the working directory, a bare name on the effective
 * `PATH` (with `PATHEXT` on Windows). Private to the runner.
 *
 * @module
 */

import { isAbsolutePath, joinPath } from "../paths.ts";

const IS_WINDOWS = Deno.build.os === "windows";

/** The outcome of resolving a program. */
export type Resolution =
  | {
    ok: true;
    /** The file to start; the bare name itself when only Deno may search `PATH` (reads refused). */
    path: string;
    /** Every path inspected on the way, in order, `path` last when it was found by a search. */
    looked: readonly string[];
  }
  | { ok: false; failure: "not_found" | "not_executable"; path: string; message: string };

/** Where resolution looks. */
export interface ResolveContext {
  /** The child's working directory (for relative paths with a separator). */
  cwd: string;
  /** The child's effective `PATH`. */
  path: string | undefined;
  /** The child's effective `PATHEXT` (Windows only). */
  pathExt: string | undefined;
}

type Kind = "executable" | "missing" | "directory" | "not_executable" | "batch" | "unknown";

/**
 * Resolves a program name to the file that would run.
 *
 * @param program The program as requested.
 * @param context The working directory and search path.
 * @returns The file, or why there is none, in one line naming the program.
 *
 * @example Find a bare name on PATH
 * ```ts ignore
 * import { resolveProgram } from "./_resolve_program.ts";
 * const found = resolveProgram("sh", { cwd: "/", path: "/usr/bin:/bin", pathExt: undefined });
 * if (found.ok) console.log(found.path); // "/usr/bin/sh"
 * ```
 */
export function resolveProgram(program: string, context: ResolveContext): Resolution {
  if (program.trim() === "") {
    return { ok: false, failure: "not_found", path: program, message: "the program name is blank" };
  }
  const looked: string[] = [];
  const result = hasSeparator(program)
    ? judgeAt(program, isAbsolutePath(program) ? program : joinPath(context.cwd, program), looked)
    : searchPath(program, context, looked);
  return result.ok ? { ...result, looked } : result;
}

type Judged = { ok: true; path: string } | Exclude<Resolution, { ok: true }>;

function judgeAt(program: string, path: string, looked: string[]): Judged {
  looked.push(path);
  return judge(program, path, inspect(path));
}

function searchPath(program: string, context: ResolveContext, looked: string[]): Judged {
  const dirs = (context.path ?? "").split(IS_WINDOWS ? ";" : ":")
    // Empty and relative entries would search the working directory: a repository could plant a
    // program there, so they are skipped.
    .filter((dir) => dir !== "" && isAbsolutePath(dir));
  const names = IS_WINDOWS ? windowsNames(program, context.pathExt) : [program];
  let unusable: { path: string; kind: Kind } | undefined;
  for (const dir of dirs) {
    for (const name of names) {
      const path = joinPath(dir, name);
      looked.push(path);
      const kind = inspect(path);
      if (kind === "unknown") return { ok: true, path: program };
      if (kind === "executable" || kind === "batch") return judge(program, path, kind);
      if (kind === "not_executable" && !unusable) unusable = { path, kind };
    }
  }
  if (unusable) return judge(program, unusable.path, unusable.kind);
  return {
    ok: false,
    failure: "not_found",
    path: program,
    message: `program "${program}" was not found on PATH`,
  };
}

function judge(program: string, path: string, kind: Kind): Judged {
  const shown = program === path ? `"${program}"` : `"${program}" (${path})`;
  switch (kind) {
    case "executable":
    case "unknown":
      return { ok: true, path };
    case "missing":
      return { ok: false, failure: "not_found", path, message: `program ${shown} does not exist` };
    case "directory":
      return {
        ok: false,
        failure: "not_executable",
        path,
        message: `program ${shown} is a directory`,
      };
    case "batch":
      return {
        ok: false,
        failure: "not_executable",
        path,
        message: `program ${shown} is a batch file, which only runs through a shell; ` +
          "basis-tools never uses a shell, so point the tool at an .exe",
      };
    case "not_executable":
      return {
        ok: false,
        failure: "not_executable",
        path,
        message: `program ${shown} is not executable (no execute permission)`,
      };
  }
}

/** Synchronous on purpose: a handful of local stats is microseconds, an async stat a thread hop. */
function inspect(path: string): Kind {
  let info: Deno.FileInfo;
  try {
    info = Deno.statSync(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory) {
      return "missing";
    }
    return "unknown";
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

function hasSeparator(program: string): boolean {
  return program.includes("/") || (IS_WINDOWS && program.includes("\\"));
}
