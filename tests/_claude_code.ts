/**
 * Claude Code for the tests: `@anthropic-ai/claude-code` installed with npm into a cache directory
 * the repository ignores (`.cache/claude-code-<version>/`, or `$BASIS_TEST_CLAUDE_DIR`). Installed
 * once; later runs find it in place. Run this file to install it ahead of the tests (CI does):
 * `deno run -A tests/_claude_code.ts`. Its `mcp add` and `mcp list` (which starts each server and
 * checks that it answers) need no account.
 *
 * @module
 */

import { ROOT } from "./_fixtures.ts";

/** The version of Claude Code the tests drive. */
export const CLAUDE_CODE_VERSION = "2.1.332";

/** Where it is installed. */
const CLAUDE_DIR = Deno.env.get("BASIS_TEST_CLAUDE_DIR") ??
  `${ROOT}.cache/claude-code-${CLAUDE_CODE_VERSION}`;

/** The `claude` program, or why there is none. */
export type ClaudeCode =
  | { readonly ok: true; readonly claude: string }
  | { readonly ok: false; readonly reason: string };

/**
 * Installs Claude Code when it is not there yet.
 *
 * @returns The path of its `claude` program, or why it cannot be had.
 */
export async function claudeCode(): Promise<ClaudeCode> {
  const claude = `${CLAUDE_DIR}/node_modules/.bin/claude`;
  const works = async () => {
    try {
      return (await new Deno.Command(claude, { args: ["--version"], stdin: "null" }).output())
        .success;
    } catch {
      return false;
    }
  };
  if (await works()) return { ok: true, claude };
  await Deno.mkdir(CLAUDE_DIR, { recursive: true });
  let out = "";
  try {
    const installed = await new Deno.Command("npm", {
      args: [
        "install",
        "--prefix",
        CLAUDE_DIR,
        "--no-audit",
        "--no-fund",
        "--loglevel=error",
        `@anthropic-ai/claude-code@${CLAUDE_CODE_VERSION}`,
      ],
      stdin: "null",
    }).output();
    out = new TextDecoder().decode(installed.stderr).slice(-300).replaceAll("\n", " ");
  } catch (error) {
    out = error instanceof Error ? error.message : String(error);
  }
  if (await works()) return { ok: true, claude };
  return {
    ok: false,
    reason: `cannot install @anthropic-ai/claude-code@${CLAUDE_CODE_VERSION} with npm: ${out}`,
  };
}

if (import.meta.main) {
  const found = await claudeCode();
  console.log(
    found.ok
      ? `Claude Code ${CLAUDE_CODE_VERSION} is installed in ${CLAUDE_DIR}`
      : `Claude Code is not available: ${found.reason}`,
  );
}
