/**
 * Running a module in its own Deno under the permission flags a test gives (a narrower sandbox, or
 * `-A`), with the repository's config so that a script outside it (a temporary file, a `data:` URL,
 * stdin) resolves the same imports as `src/`.
 *
 * @module
 */

/** The repository's Deno config. */
const CONFIG = new URL("../deno.json", import.meta.url).pathname;

/** What one run printed and how it ended. */
export interface ProcessResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Options of {@linkcode denoRun}. */
export interface DenoRunOptions {
  /** Arguments after the module. @default [] */
  args?: string[];
  /** Working directory. @default this process's */
  cwd?: string;
  /** Extra environment variables. @default {} */
  env?: Record<string, string>;
  /** Bytes or text for stdin; when absent stdin is closed. */
  stdin?: string | Uint8Array;
}

/**
 * The arguments of `deno` that run a module: never prompting for a permission, quiet, with the
 * given flags.
 *
 * @param module The module to run: a path, a URL, or `-` for stdin.
 * @param flags Deno's flags: permissions (`-A`, `--allow-read=…`, `--deny-write=…`), `--config`.
 * @param args The module's arguments.
 * @returns The arguments, starting with `run`.
 */
export function denoRunArgs(module: string, flags: string[], args: string[] = []): string[] {
  return ["run", "--no-prompt", "--quiet", ...flags, module, ...args];
}

/**
 * Runs a module in its own Deno with the given permission flags and the repository's config, and
 * collects what it printed.
 *
 * @example Usage
 * ```ts ignore
 * const { code, stdout } = await denoRun("-", ["--allow-read"], { stdin: 'console.log("hi")' });
 * ```
 *
 * @param module The module to run: a path, a URL, or `-` for stdin.
 * @param flags Deno's permission flags.
 * @param options Arguments, working directory, extra env, stdin.
 * @returns Exit code, stdout and stderr.
 */
export async function denoRun(
  module: string,
  flags: string[],
  options: DenoRunOptions = {},
): Promise<ProcessResult> {
  const child = new Deno.Command(Deno.execPath(), {
    args: denoRunArgs(module, [`--config=${CONFIG}`, ...flags], options.args),
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    env: options.env ?? {},
    stdin: options.stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  return await finish(child, options.stdin);
}

/**
 * Writes stdin to a child started with piped streams, closes it, and collects the child's output.
 *
 * @param child The child, with stdin piped when `stdin` is given.
 * @param stdin Bytes or text for stdin, or `undefined` when stdin is closed already.
 * @returns Exit code, stdout and stderr.
 */
export async function finish(
  child: Deno.ChildProcess,
  stdin?: string | Uint8Array,
): Promise<ProcessResult> {
  if (stdin !== undefined) {
    const writer = child.stdin.getWriter();
    const bytes = typeof stdin === "string" ? new TextEncoder().encode(stdin) : stdin;
    // A child may end before it reads everything.
    await writer.write(bytes).catch(() => {});
    await writer.close().catch(() => {});
  }
  const output = await child.output();
  return {
    code: output.code,
    stdout: new TextDecoder().decode(output.stdout),
    stderr: new TextDecoder().decode(output.stderr),
  };
}

/**
 * Runs a client driver (Gemini CLI's code under Node, the Python SDK): the JSON of `input` on its
 * stdin, one JSON value on its stdout, exit 0 (else the test fails with its stderr).
 *
 * @param program The program.
 * @param options Its arguments, cwd and environment (`Deno.CommandOptions`, streams piped here).
 * @param input What it reads on stdin, as JSON.
 * @returns What it printed, parsed.
 */
export async function driveJson<T>(
  program: string,
  options: Omit<Deno.CommandOptions, "stdin" | "stdout" | "stderr">,
  input: unknown,
): Promise<T> {
  const child = new Deno.Command(program, {
    ...options,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const result = await finish(child, JSON.stringify(input));
  if (result.code !== 0) throw new Error(`${program} exited ${result.code}: ${result.stderr}`);
  return JSON.parse(result.stdout) as T;
}
