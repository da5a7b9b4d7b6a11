/**
 * The commands `basis-tools` and `basis-tools-call` in a directory of their own, as a user has them
 * on PATH: the compiled binary (when `BASIS_TEST_BINARY` names one) with `basis-tools-call` a link
 * to it; otherwise a bash script like the one `deno task install` writes, running the CLI (the
 * bundle when the suite runs against it, else the source) under the released binary's permissions
 * and passing on the name it was started as with `exec -a`.
 *
 * @module
 */

import { DEFAULT_PERMISSIONS } from "../scripts/_permissions.ts";
import { cliEnv, type Scratch } from "./_cli.ts";
import { ROOT } from "./_fixtures.ts";

/** What the suite runs the CLI from (tests/_cli.ts). */
export const ENTRY: string = Deno.env.get("BASIS_TEST_BUNDLE") ?? `${ROOT}src/main.ts`;
/**
 * Deno's cache, for a run with a HOME of its own (where Deno would look for a cache of its own,
 * and download into it the npm packages the source needs).
 */
export const DENO_DIR: string = await (async () => {
  const info = await new Deno.Command(Deno.execPath(), { args: ["info", "--json"] }).output();
  return (JSON.parse(new TextDecoder().decode(info.stdout)) as { denoDir: string }).denoDir;
})();
/** The compiled binary, when the suite runs against one. */
export const BINARY: string | undefined = Deno.env.get("BASIS_TEST_BINARY");

/**
 * The arguments of `deno` that run {@linkcode ENTRY} as the installed command does: the released
 * binary's permissions, and no config file (the bundle needs none; the source, the repository's).
 */
export const RUN_ARGS: readonly string[] = [
  "run",
  "--quiet",
  ENTRY.endsWith(".js") ? "--no-config" : `--config=${ROOT}deno.json`,
  ...DEFAULT_PERMISSIONS,
  ENTRY,
];

/**
 * Writes `basis-tools` and `basis-tools-call` (a link to it) into a directory.
 *
 * @param bin The directory (made when missing).
 * @returns The directory.
 */
export async function writeCommands(bin: string): Promise<string> {
  await Deno.mkdir(bin, { recursive: true });
  const program = `${bin}/basis-tools`;
  if (BINARY !== undefined) await Deno.symlink(BINARY, program);
  else {
    const words = [Deno.execPath(), ...RUN_ARGS].map((word) => `'${word}'`).join(" ");
    await Deno.writeTextFile(program, `#!/usr/bin/env bash\nexec -a "$0" ${words} "$@"\n`);
    await Deno.chmod(program, 0o755);
  }
  await Deno.symlink("basis-tools", `${bin}/basis-tools-call`);
  return bin;
}

/**
 * The environment an agent host or a shell starts the commands in: the scratch workspace's user
 * directories and English (as {@linkcode cliEnv}), this machine's PATH after `bin`, Deno's cache,
 * and calls approved by the policy (a host runs them without a terminal to ask on).
 *
 * @param dirs The scratch workspace.
 * @param bin The directory of the commands, first on PATH, or `undefined` for none.
 * @param env Variables laid over the rest.
 * @returns The variables.
 */
export function commandsEnv(
  dirs: Scratch,
  bin: string | undefined,
  env: Record<string, string> = {},
): Record<string, string> {
  const path = Deno.env.get("PATH") ?? "/usr/bin:/bin";
  return cliEnv(dirs, {
    PATH: bin === undefined ? path : `${bin}:${path}`,
    HOME: Deno.env.get("HOME") ?? "/tmp",
    DENO_DIR,
    BASIS_APPROVE: "always",
    ...env,
  });
}
