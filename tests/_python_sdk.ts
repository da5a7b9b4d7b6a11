/**
 * The Python SDK's client (`mcp` 2.3.0, which speaks both the 2025 protocol and 2026-07-28) for the
 * tests that drive the server with it: the first `python3` that imports it (`BASIS_TEST_PYTHON`,
 * then each `python3` along `PATH`: `npx` puts the system's first, a pyenv one may come later),
 * else the first into which pip installs it, else the reason it cannot be had (those tests are
 * skipped, saying it).
 *
 * @module
 */

async function run(python: string, args: string[]): Promise<boolean> {
  try {
    return (await new Deno.Command(python, { args, stdout: "null", stderr: "null" }).output())
      .success;
  } catch {
    return false; // not there
  }
}

/** Every `python3` to try, in order, each once. */
function candidates(): string[] {
  const path = (Deno.env.get("PATH") ?? "").split(":").filter((dir) => dir.startsWith("/"));
  const found = [Deno.env.get("BASIS_TEST_PYTHON"), "python3", ...path.map((d) => `${d}/python3`)];
  return [...new Set(found.filter((python): python is string => python !== undefined))];
}

/** The `python3` that imports `mcp`, installing `mcp==2.3.0` first when none does. */
export const PYTHON: { ok: true; python: string } | { ok: false; reason: string } = await (
  async () => {
    const all = candidates();
    for (const python of all) {
      if (await run(python, ["-c", "import mcp"])) return { ok: true as const, python };
    }
    for (const python of all) {
      await run(python, ["-m", "pip", "install", "--quiet", "mcp==2.3.0"]);
      if (await run(python, ["-c", "import mcp"])) return { ok: true as const, python };
    }
    return { ok: false as const, reason: "python3 with mcp==2.3.0 is not available" };
  }
)();

/** The `python3` to drive the Python SDK with (`python3` when none can be had: tests skip). */
export const PYTHON_BIN: string = PYTHON.ok ? PYTHON.python : "python3";

/** What a test's name says when the Python SDK cannot be had. */
export const pythonSkip: string = PYTHON.ok ? "" : ` (skipped: ${PYTHON.reason})`;
