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
 * The name this program was started as: its argv[0] where the system tells it (Linux), else the
 * path of the executable (a copy or a hard link keeps its own name there). `deno` for a script.
 */
function invokedAs(): string {
  const cmdline = "/proc/self/cmdline";
  // Asked first, so that a narrow --allow-read never makes Deno prompt for it.
  if (
    Deno.build.os === "linux" &&
    Deno.permissions.querySync({ name: "read", path: cmdline }).state === "granted"
  ) {
    try {
      const text = Deno.readTextFileSync(cmdline);
      return text.slice(0, text.indexOf("\0"));
    } catch {
      // The executable's path says as much.
    }
  }
  try {
    return Deno.execPath();
  } catch {
    return "";
  }
}
