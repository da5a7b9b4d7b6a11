/**
 * The `basis-tools` command-line entry point.
 *
 * @module
 */

import { argvFor, runCli } from "./cli/run_cli.ts";

// Commands are imported on demand (see src/cli/run_cli.ts). Besides keeping start-up small, that
// import turns Deno's event loop, which is when Deno stores the compiled bundle (its V8 code cache):
// a run that reaches Deno.exit without a turn leaves it unstored, and the next run compiles the
// bundle again (about 5 ms).
if (import.meta.main) {
  const { argv, mode } = argvFor(invokedAs(), Deno.args);
  Deno.exit(await runCli(argv, undefined, mode));
}

/**
 * The name this program was started as: its argv[0] (`deno` for a script; the link's or the copy's
 * name for the compiled binary; what `exec -a` gave, as the installed shim does), else the path of
 * the executable. Needs no permission: `/proc/self/cmdline` is refused without --allow-all, and
 * `Deno.execPath()` resolves a link to its target.
 */
function invokedAs(): string {
  // Deno 2.9 keeps argv[0] for its Node layer, which loads (about 20 ms) when `process` is first
  // used: read from there first, `process.argv0` (the same value, public) when that is gone.
  const deno = Deno as unknown as Record<symbol, { __nodeBootstrapArgs?: { argv0?: unknown } }>;
  const kept = deno[(Deno as unknown as { internal: symbol }).internal]?.__nodeBootstrapArgs?.argv0;
  const argv0 = typeof kept === "string" ? kept : globalThis.process?.argv0;
  if (argv0) return argv0;
  try {
    return Deno.execPath();
  } catch {
    return "";
  }
}
