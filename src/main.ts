/**
 * The `basis-tools` command-line entry point.
 *
 * @module
 */

import { runCli } from "./cli/run_cli.ts";

// Commands are imported on demand (see src/cli/run_cli.ts). Besides keeping start-up small, that
// import turns Deno's event loop, which is when Deno stores the compiled bundle (its V8 code cache):
// a run that reaches Deno.exit without a turn leaves it unstored, and the next run compiles the
// bundle again (about 5 ms).
if (import.meta.main) {
  Deno.exit(await runCli(Deno.args));
}
