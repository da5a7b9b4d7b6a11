/**
 * `basis-tools check`: validate both manifests, compile every tool's schemas and find every
 * program; check the user's `spawn.json` too. Every problem of a declaration is reported, also
 * those that leave only one tool unavailable: CI stays strict (exit 6).
 *
 * What would fail only when a tool is called on this machine — a program that cannot be found on
 * `PATH` or is not executable, a relative program that does not exist, a `cwd` that is no
 * directory — is a warning by default (exit 0: the manifest is right, this machine lacks
 * something; such a tool is still unavailable, as `list` says), and a problem with `--strict`.
 *
 * @module
 */

import { checkAvailability } from "../../contract/availability.ts";
import { formatProblem, ManifestError, type ManifestProblem, problemOf } from "../../errors.ts";
import { out, outJson, problemJson } from "../output.ts";
import { messages, type Phrase, phrase, plural } from "../../locale/messages.ts";
import type { ToolSpec } from "../../manifest/types.ts";
import { canonicalPath, isAbsolutePath, joinPath, parentPath, resolvePath } from "../../paths.ts";
import { workspaceFile } from "../../approval/rules/content.ts";
import { quietly } from "../../quietly.ts";
import { callSecrets, redactorOf, secretEnv } from "../../redact.ts";
import { rosterFor, spawnConfigFor } from "../_roster.ts";
import type { Settings } from "../settings.ts";

/** Programs that run a script named in their arguments (an interpreter, by its usual names). */
const INTERPRETER =
  /^(?:node|deno|bun|tsx|ts-node|python[0-9.]*|pypy[0-9.]*|ruby|perl|php|lua[0-9.]*|Rscript|(?:ba|da|z|k|fi)?sh)$/;

/**
 * Validates the manifests; prints one line per problem, then one per warning.
 *
 * @param settings The run's settings.
 * @param options `strict`: what would fail at call time (a program, a working directory) is a
 *   problem (exit 6) rather than a warning. @default {false}
 * @returns 0 when there is no problem (warnings aside), else 6.
 */
export async function checkCommand(
  settings: Settings,
  options: { strict?: boolean } = {},
): Promise<number> {
  let problems: ManifestProblem[] = [];
  let warnings: ManifestProblem[] = [];
  const hints: ManifestProblem[] = [];
  let tools = 0;
  let files: string[] = [];
  try {
    const loaded = await rosterFor(settings, { whole: true });
    const roster = await checkAvailability(loaded, {
      cacheDir: settings.cacheDir,
      env: settings.env,
    });
    files = roster.sources.filter((source) => source.found).map((source) => source.path);
    tools = roster.tools.size + roster.unavailable.size;
    // The program's problems are found here, on this machine; the rest were in the declaration.
    const found = roster.problems.slice(loaded.problems.length);
    const atCallTime = (problem: ManifestProblem) => problem.field === "command[0]";
    problems = [...loaded.problems, ...found.filter((problem) => !atCallTime(problem))];
    warnings = found.filter(atCallTime);
    // No manifest at all: most likely the wrong directory (a CI job checking it would pass).
    if (files.length === 0) warnings.push(missingManifest(roster.sources.map((s) => s.path)));
    const root = canonicalPath(roster.root);
    for (const spec of roster.tools.values()) {
      const of = (field: string, reason: Phrase, secrets: readonly string[]) =>
        problemOf({ file: spec.file, tool: spec.name, field }, redactorOf(secrets).phrase(reason));
      const cwd = cwdProblem(spec.cwd);
      if (cwd !== undefined) {
        warnings.push(of("cwd", cwd, callSecrets(secretEnv(spec), settings.env)));
      }
      const hint = filesHint(spec, root);
      if (hint !== undefined) hints.push(of("files", hint, callSecrets(secretEnv(spec))));
    }
    const order = roster.sources.map((source) => source.path);
    // File by file, in file order; what the declaration cannot show (a program, a schema that
    // does not compile) after each file's located problems.
    const byPlace = (a: ManifestProblem, b: ManifestProblem) =>
      order.indexOf(a.file) - order.indexOf(b.file) ||
      (a.line ?? Infinity) - (b.line ?? Infinity) ||
      (a.column ?? Infinity) - (b.column ?? Infinity);
    problems.sort(byPlace);
    warnings.sort(byPlace);
  } catch (error) {
    if (!(error instanceof ManifestError)) throw error;
    problems = [...error.problems];
  }
  // The user's spawn configuration is checked too: a broken one would fail every spawn call.
  const spawn = await spawnConfigFor(settings);
  if ("problems" in spawn) problems.push(...spawn.problems);
  if (options.strict === true) problems.push(...warnings.splice(0));
  const words = messages(settings.locale);
  const { t } = words;
  const code = problems.length === 0 ? 0 : 6;
  if (settings.json) {
    // The reason stays English (a stable field); the message is in the locale.
    const shown = (list: readonly ManifestProblem[]) => list.map((one) => problemJson(one, words));
    const [ok, listed] = [code === 0, [problems, warnings, hints].map(shown)];
    outJson({ ok, tools, files, problems: listed[0], warnings: listed[1], hints: listed[2] });
    return code;
  }
  const line = (problem: ManifestProblem) => formatProblem(problem, words);
  const lines = [
    ...problems.map(line),
    ...warnings.map((warning) => t("check.warning", { problem: line(warning) })),
    ...hints.map((hint) => t("check.hint", { problem: line(hint) })),
  ];
  if (code === 0 && files.length === 0) lines.push(t("check.ok_no_manifest"));
  else if (code === 0) {
    const counted = {
      count: tools,
      tools: plural(settings.locale, tools, t("count.tools")),
      where: files.join(", "),
    };
    const warning_word = plural(settings.locale, warnings.length, t("count.warnings"));
    lines.push(
      warnings.length === 0
        ? t("check.ok", counted)
        : t("check.ok_warnings", { ...counted, warnings: warnings.length, warning_word }),
    );
  }
  out(lines.map((line) => `${line}\n`).join(""));
  return code;
}

/** The warning that neither manifest exists, with how to start a workspace or name another. */
function missingManifest([workspace = "", global]: readonly string[]): ManifestProblem {
  const hint = phrase("hint.no_workspace");
  return problemOf(
    { file: workspace },
    global === undefined
      ? phrase("check.missing", { hint })
      : phrase("check.missing_both", { global: JSON.stringify(global), hint }),
  );
}

/** A working directory that does not exist or is no directory: every call would fail to start. */
function cwdProblem(cwd: string): Phrase | undefined {
  const params = { cwd: JSON.stringify(cwd) };
  try {
    const info = Deno.statSync(canonicalPath(cwd));
    return info.isDirectory ? undefined : phrase("start.cwd_not_dir", params);
  } catch (error) {
    return error instanceof Deno.errors.NotFound ? phrase("start.cwd_missing", params) : undefined;
  }
}

/**
 * An interpreter that runs a workspace script, in a tool that does not say in `files` what else
 * the script loads: an approval pins the script, but not the modules it imports.
 */
function filesHint(spec: ToolSpec, root: string): Phrase | undefined {
  const program = spec.program.slice(spec.program.lastIndexOf("/") + 1);
  if (spec.files !== undefined || !INTERPRETER.test(program)) return undefined;
  const inputs = new Set(spec.inputArguments?.map((arg) => arg.index));
  const cwd = canonicalPath(spec.cwd);
  const named = spec.command.slice(1).filter((_, at) => !inputs.has(at + 1));
  const script = named.map((arg) => workspaceFile(arg, cwd, root)).find((path) => path) ??
    named.map((arg) => looseScript(arg, cwd, root)).find((path) => path);
  if (script === undefined) return undefined;
  const shown = script.startsWith(`${root}/`) ? script.slice(root.length + 1) : script;
  const dir = shown.endsWith("/") ? shown.slice(0, -1) : parentPath(`/${shown}`).slice(1) || ".";
  const [quoted, name] = [JSON.stringify(shown), JSON.stringify(program)];
  return phrase("check.files_hint", { script: quoted, program: name, dir });
}

/**
 * A script an interpreter finds by a name that is no file, which no approval can pin: a workspace
 * directory (`node tools/`; given with a trailing `/`), or a name its interpreter completes
 * (`node tools/x` runs `tools/x.js`).
 */
function looseScript(arg: string, cwd: string, root: string): string | undefined {
  if (arg === "" || arg.startsWith("-")) return undefined;
  const path = resolvePath(isAbsolutePath(arg) ? arg : joinPath(cwd, arg));
  if (!path.startsWith(`${root}/`)) return undefined;
  try {
    return quietly(() => Deno.statSync(path)).isDirectory ? `${path}/` : undefined;
  } catch {
    const base = `${path.slice(path.lastIndexOf("/") + 1)}.`;
    try {
      const entries = [...Deno.readDirSync(parentPath(path))];
      return entries.some((entry) => entry.name.startsWith(base)) ? path : undefined;
    } catch {
      return undefined; // No such directory either.
    }
  }
}
