/**
 * Writing derived permissions out: Deno flags, JSON, a `deno.json` permission set, or a whole
 * `deno compile` command.
 *
 * @module
 */

import { quoteArgv } from "../approval/shell_quote.ts";
import { english } from "../locale/messages.ts";
import type { DerivedPermissions } from "./derive.ts";

/** The output formats of `basis-tools permissions`. */
export const PERMISSION_FORMATS = ["flags", "json", "deno-json", "compile"] as const;

/** One output format. */
export type PermissionFormat = typeof PERMISSION_FORMATS[number];

/** Options of {@linkcode formatPermissions}; only `compile` uses them. */
export interface FormatOptions {
  /** The module `deno compile` builds from. @default "dist/basis-tools.js" */
  entry?: string;
  /** Deno flags that go with the entry (`--no-config` for the bundle). @default ["--no-config"] */
  entryFlags?: readonly string[];
  /** The binary to write. @default "basis-tools" */
  output?: string;
  /** Arguments baked into the binary, placed before the user's (`-C ROOT`). @default [] */
  args?: readonly string[];
  /**
   * The bundle's chunks, embedded with `--include`: it imports them on demand by a specifier
   * `deno compile` cannot see. @default []
   */
  include?: readonly string[];
}

/**
 * The Deno permission flags, in a fixed order: `--no-prompt`, then read, write, env, run and sys.
 * A permission with nothing to grant has no flag (it stays denied). Paths holding a comma cannot be
 * written in a flag and are left out (the derivation warns about them).
 *
 * @param derived The derived permissions.
 * @returns The flags, one argument each.
 *
 * @example Flags for one program
 * ```ts
 * import { permissionFlags } from "./format.ts";
 * const flags = permissionFlags({
 *   read: ["/w"], write: [], env: ["HOME"], run: ["/usr/bin/jq"], sys: [], programs: [],
 *   warnings: [],
 * });
 * console.assert(flags.join(" ") === "--no-prompt --allow-read=/w --allow-env=HOME --allow-run=/usr/bin/jq");
 * ```
 */
export function permissionFlags(derived: DerivedPermissions): string[] {
  const flags = ["--no-prompt"];
  for (const name of ["read", "write", "env", "run", "sys"] as const) {
    const expressible = derived[name].filter((value) => !value.includes(","));
    if (expressible.length > 0) flags.push(`--allow-${name}=${expressible.join(",")}`);
  }
  return flags;
}

/**
 * Formats derived permissions: `flags` is one shell line to paste, `json` the lists with the
 * flags and warnings (in English), `deno-json` a `permissions` object for `deno.json` (used with
 * `deno run -P`), `compile` a `deno compile` command for a binary confined to the workspace.
 *
 * @param derived The derived permissions.
 * @param format The output format.
 * @param options The entry, output and baked-in arguments for `compile`.
 * @returns The text, ending with a newline.
 *
 * @example A deno.json permission set
 * ```ts
 * import { formatPermissions } from "./format.ts";
 * const text = formatPermissions(
 *   { read: ["/w"], write: ["/s"], env: ["HOME"], run: ["/bin/kill"], sys: [], programs: [], warnings: [] },
 *   "deno-json",
 * );
 * console.assert(JSON.parse(text).permissions.default.run[0] === "/bin/kill");
 * ```
 */
export function formatPermissions(
  derived: DerivedPermissions,
  format: PermissionFormat,
  options: FormatOptions = {},
): string {
  const flags = permissionFlags(derived);
  const { read, write, env, run, sys } = derived;
  switch (format) {
    case "flags":
      return `${quoteArgv(flags)}\n`;
    case "json": {
      const programs = derived.programs.map((grant) => ({ ...grant, path: grant.path ?? null }));
      // In English, whatever the locale: JSON is for programs.
      const warnings = derived.warnings.map((w) => ({ kind: w.kind, message: english(w.phrase) }));
      const json = { flags, read, write, env, run, sys, programs, warnings };
      return `${JSON.stringify(json, null, 2)}\n`;
    }
    case "deno-json": {
      const set = { read, write, env, run, ...(sys.length > 0 ? { sys } : {}) };
      return `${JSON.stringify({ permissions: { default: set } }, null, 2)}\n`;
    }
    case "compile":
      return `${
        quoteArgv([
          "deno",
          "compile",
          ...(options.entryFlags ?? ["--no-config"]),
          ...flags,
          ...(options.include ?? []).flatMap((chunk) => ["--include", chunk]),
          "--output",
          options.output ?? "basis-tools",
          options.entry ?? "dist/basis-tools.js",
          ...(options.args ?? []),
        ])
      }\n`;
  }
}
