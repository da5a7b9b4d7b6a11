/**
 * The `basis-tools` command-line entry point.
 *
 * @module
 */

import { runCli } from "./cli/run_cli.ts";

if (import.meta.main) {
  Deno.exit(await runCli(Deno.args));
}
