/**
 * The OS sandbox of each tool call: the user's policy (`sandbox.json`), the grants a call has
 * (shown at approval, pinned by rules), and the wrapper the runner starts the program through
 * (bubblewrap on Linux, `sandbox-exec` on macOS).
 *
 * @module
 */

export * from "./types.ts";
export * from "./policy.ts";
export * from "./plan.ts";
