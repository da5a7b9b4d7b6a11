/**
 * The permissions the released binary runs with (`deno task compile`), and the benchmarks run the
 * bundle with: the network of this machine's loopback only (what `mcp --http` listens on by
 * default, IPv4 and by name; any other address, `[::1]` too, needs a wider `--allow-net`), no FFI, never a prompt.
 * `--allow-sys=uid` lets basis-tools check that the rules file and cached validators are this
 * user's own (without it, an existing config directory cannot be trusted and every call that reads
 * rules fails).
 *
 * @module
 */

/**
 * `--no-prompt --allow-read --allow-write --allow-env --allow-run --allow-sys=uid
 * --allow-net=127.0.0.1,localhost`.
 */
export const DEFAULT_PERMISSIONS: readonly string[] = [
  "--no-prompt",
  "--allow-read",
  "--allow-write",
  "--allow-env",
  "--allow-run",
  "--allow-sys=uid",
  "--allow-net=127.0.0.1,localhost",
];
