/**
 * Scratch directories that are removed however a test ends: `await using dir = await tempDir()`
 * removes the directory when the block is left, whether the test passed, failed or threw.
 *
 * @module
 */

/** A temporary directory, removed (with all it holds) when disposed. */
export interface TempDir extends AsyncDisposable {
  /** The directory's path. */
  readonly path: string;
}

/**
 * Creates a temporary directory that is removed when the `await using` block that holds it ends.
 *
 * @example Usage
 * ```ts ignore
 * await using dir = await tempDir({ prefix: "basis-audit-" });
 * await Deno.writeTextFile(`${dir.path}/x`, "");
 * ```
 *
 * @param options Where and how to name it (`Deno.makeTempDir`'s options). @default prefix "basis-test-"
 * @param options.realPath Resolve symlinks in the path (on systems where the temp dir is a link).
 * @returns The directory.
 */
export async function tempDir(
  options: Deno.MakeTempOptions & { realPath?: boolean } = {},
): Promise<TempDir> {
  const { realPath, ...make } = options;
  const made = await Deno.makeTempDir({ prefix: "basis-test-", ...make });
  const path = realPath ? await Deno.realPath(made) : made;
  return { path, [Symbol.asyncDispose]: () => removeAll(path) };
}

/**
 * Removes a directory tree; a tree already gone (a test removed it itself) is not an error.
 *
 * @param path The directory.
 */
export async function removeAll(path: string): Promise<void> {
  try {
    await Deno.remove(path, { recursive: true });
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
}

/**
 * Creates a temporary directory that lives as long as the test module (a cache several tests
 * share): it is removed when the module's tests are done, whether they passed or not.
 *
 * @param prefix The start of its name.
 * @returns The directory's path.
 */
export function moduleTempDir(prefix: string): string {
  const path = Deno.makeTempDirSync({ prefix });
  removeAtExit(path);
  return path;
}

/**
 * Removes a path (a tree) when the test module ends, passed or failed: for what a test makes
 * outside a {@linkcode tempDir} (a symlink beside it) or a helper hands out without a block.
 *
 * @param path The file or directory.
 */
export function removeAtExit(path: string): void {
  globalThis.addEventListener("unload", () => {
    try {
      Deno.removeSync(path, { recursive: true });
    } catch {
      // Already gone.
    }
  });
}
