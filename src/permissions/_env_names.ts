/**
 * The environment variables basis-tools itself reads, for `--allow-env`. A test scans `src/` for
 * every variable name the code looks up and fails when one is missing here.
 *
 * @module
 */

const IS_WINDOWS = Deno.build.os === "windows";

/** Read on every platform: the user directories, the `BASIS_*` settings, `PATH`, colour. */
const COMMON: readonly string[] = [
  // src/paths.ts: config, cache and state directories.
  "BASIS_CONFIG_DIR",
  "BASIS_CACHE_DIR",
  "BASIS_STATE_DIR",
  "XDG_CONFIG_HOME",
  "XDG_CACHE_HOME",
  "XDG_STATE_HOME",
  "HOME",
  // src/cli/settings.ts and src/audit/audit_path.ts.
  "BASIS_APPROVE",
  "BASIS_LOCALE",
  "BASIS_AUDIT_LOG",
  "BASIS_NO_SHELL",
  // src/cli/settings.ts: the roster a parent's child policy gave this run.
  "BASIS_ROSTER",
  // src/run: where bare program names are found.
  "PATH",
  // src/sandbox/plan.ts: the host sockets a call must not reach (TMUX is below).
  "SSH_AUTH_SOCK",
  "DBUS_SESSION_BUS_ADDRESS",
  "XDG_RUNTIME_DIR",
  // src/approval/terminal: colour.
  "NO_COLOR",
  // The terminal prompt library (@inquirer) reads these through `process.env`, which throws
  // under a scoped --allow-env when a name is not granted.
  "TERM",
  "INQUIRER_KEYBINDINGS",
  "CLI_WIDTH",
  // Its styleText() asks Deno's Node layer for the terminal's colour depth (getColorDepth in
  // ext/node/polyfills/internal/tty.js), which reads these.
  "FORCE_COLOR",
  "NODE_DISABLE_COLORS",
  "TMUX",
  "TF_BUILD",
  "AGENT_NAME",
  "CI",
  "CI_NAME",
  "APPVEYOR",
  "BUILDKITE",
  "CIRCLECI",
  "DRONE",
  "GITEA_ACTIONS",
  "GITHUB_ACTIONS",
  "GITLAB_CI",
  "TRAVIS",
  "TEAMCITY_VERSION",
  "TERM_PROGRAM",
  "TERM_PROGRAM_VERSION",
  "COLORTERM",
];

/** Read on Windows only (the home fallback, `PATHEXT`, the prompt's Unicode detection). */
const WINDOWS_ONLY: readonly string[] = [
  "USERPROFILE",
  "PATHEXT",
  "WT_SESSION",
  "TERMINUS_SUBLIME",
  "ConEmuTask",
  "TERMINAL_EMULATOR",
];

/**
 * The names basis-tools reads on this platform, whatever the manifests say.
 *
 * @returns The names, unsorted.
 */
export function runtimeEnvNames(): readonly string[] {
  return IS_WINDOWS ? [...COMMON, ...WINDOWS_ONLY] : COMMON;
}

/**
 * Every name basis-tools may read on some platform (for the test that scans the source).
 *
 * @returns The names.
 */
export function allRuntimeEnvNames(): readonly string[] {
  return [...COMMON, ...WINDOWS_ONLY];
}
