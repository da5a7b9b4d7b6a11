/**
 * Programs whose grant defeats confinement. Deno's `--allow-run` allows a program with any
 * arguments, so a program that runs code or other programs named in its arguments gives the
 * confined process everything that code could do. Private to the permissions seam.
 *
 * @module
 */

import type { MessageKey } from "../locale/en_us.ts";
import { type Phrase, phrase } from "../locale/messages.ts";

/** Why a kind of program defeats confinement, as the key of a clause. */
const WHY = {
  shell: "permissions.why_shell",
  launcher: "permissions.why_launcher",
  interpreter: "permissions.why_interpreter",
} as const satisfies Record<string, MessageKey>;

type Kind = keyof typeof WHY;

const KINDS: ReadonlyMap<string, Kind> = new Map<string, Kind>([
  ...[
    "sh",
    "ash",
    "bash",
    "dash",
    "zsh",
    "ksh",
    "mksh",
    "yash",
    "fish",
    "csh",
    "tcsh",
    "nu",
    "elvish",
    "xonsh",
    "busybox",
    "pwsh",
    "powershell",
    "cmd",
  ].map((name) => [name, "shell"] as const),
  ...[
    "env",
    "xargs",
    "find",
    "nice",
    "nohup",
    "timeout",
    "setsid",
    "stdbuf",
    "time",
    "watch",
    "flock",
    "chroot",
    "unshare",
    "nsenter",
    "sudo",
    "doas",
    "su",
    "runuser",
    "strace",
    "ssh",
    "git",
    "make",
    "npm",
    "npx",
    "pnpm",
    "yarn",
    "bunx",
    "uvx",
  ].map((name) => [name, "launcher"] as const),
  ...[
    "deno",
    "node",
    "nodejs",
    "bun",
    "python",
    "pypy",
    "perl",
    "ruby",
    "php",
    "lua",
    "luajit",
    "tclsh",
    "wish",
    "rscript",
    "osascript",
    "awk",
    "gawk",
    "mawk",
    "nawk",
    "julia",
    "java",
    "jshell",
    "expect",
  ].map((name) => [name, "interpreter"] as const),
]);

/** Arguments that hand an interpreter or a shell code to run inline. */
const INLINE_CODE = new Set(["-c", "-e", "-E", "--eval", "-p", "--print", "-r", "--command"]);

/** One program that defeats confinement, and why. */
export interface Risk {
  /** The kind of program. */
  readonly kind: Kind;
  /** Why, as a clause: "a shell runs any command it is given". */
  readonly why: Phrase;
}

/**
 * Tells whether granting a program defeats confinement, by its name and the name of the file it
 * links to (`/usr/bin/sh` → `dash`, `python3` → `python3.12`). Version suffixes are ignored
 * (`python3.12` is `python`).
 *
 * @param path The program's absolute path.
 * @returns The risk, or `undefined` for an ordinary program.
 */
export function riskOf(path: string): Risk | undefined {
  const names = [baseName(path)];
  try {
    names.push(baseName(Deno.realPathSync(path)));
  } catch {
    // Not allowed to look, or gone: the name as written is all there is.
  }
  for (const name of names) {
    const kind = KINDS.get(normalise(name));
    if (kind !== undefined) return { kind, why: phrase(WHY[kind]) };
  }
  return undefined;
}

/**
 * The first argument that passes code inline (`-c`, `-e`, `--eval`, …), if any.
 *
 * @param args The arguments after the program.
 * @returns The argument, or `undefined`.
 */
export function inlineCodeFlag(args: readonly string[]): string | undefined {
  return args.find((arg) => INLINE_CODE.has(arg));
}

function baseName(path: string): string {
  return path.slice(Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\")) + 1);
}

/** `Python3.12.EXE` → `python`; `perl5.36.0` → `perl`; `lua5.4` → `lua`; `node18` → `node`. */
function normalise(name: string): string {
  return name.toLowerCase().replace(/\.(exe|com)$/, "").replace(/[-_]?[0-9][0-9.]*$/, "");
}
