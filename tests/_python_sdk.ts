/**
 * The Python SDK's client (`mcp` 2.3.0, which speaks both the 2025 protocol and 2026-07-28) for the
 * tests that drive the server with it: found on `python3`, else installed with pip, else the reason
 * it cannot be had (those tests are skipped, saying it).
 *
 * @module
 */

/** Whether `python3` can import `mcp`, installing `mcp==2.3.0` first when it cannot. */
export const PYTHON: { ok: true } | { ok: false; reason: string } = await (async () => {
  const probe = () =>
    new Deno.Command("python3", { args: ["-c", "import mcp"], stdout: "null", stderr: "null" })
      .output().then((output) => output.success, () => false);
  if (await probe()) return { ok: true as const };
  const args = ["-m", "pip", "install", "--quiet", "mcp==2.3.0"];
  await new Deno.Command("python3", { args, stdout: "null", stderr: "null" }).output()
    .catch(() => {});
  return await probe()
    ? { ok: true as const }
    : { ok: false as const, reason: "python3 with mcp==2.3.0 is not available" };
})();

/** What a test's name says when the Python SDK cannot be had. */
export const pythonSkip: string = PYTHON.ok ? "" : ` (skipped: ${PYTHON.reason})`;
