/**
 * The shapes of derived permissions.
 *
 * @module
 */

import type { Phrase } from "../locale/messages.ts";

/** A program some part of the run may start, before it is located. */
export interface ProgramRequest {
  /**
   * Who starts it, as a warning names it: `tool "fmt"`, `spawn commands`; a phrase to have
   * warnings worded in any locale.
   */
  readonly user: string | Phrase;
  /** The program: an absolute path, or a bare name looked up on `PATH` at call time. */
  readonly program: string;
  /** The arguments it is declared with (to spot code passed inline). */
  readonly args: readonly string[];
  /** The `PATH` it is looked up on, when not the one every call sees. */
  readonly path?: string;
  /** How to do without it, for a warning (`run with --no-shell to leave it out`). */
  readonly hint?: string | Phrase;
  /** It runs inside the OS sandbox: a warning says what still confines it. @default false */
  readonly sandboxed?: boolean;
}

/** Where one requested program was found. */
export interface ProgramGrant {
  /** Who starts it, in English. */
  readonly user: string;
  /** The program as declared. */
  readonly program: string;
  /** The absolute file granted with `--allow-run`, or `undefined` when it cannot run. */
  readonly path: string | undefined;
}

/** Why a grant needs a second look. */
export type WarningKind =
  /** A program that runs any code or program it is given defeats confinement. */
  | "confinement"
  /** A program that cannot be found or cannot run; it is left out. */
  | "unresolved"
  /** A path Deno's flags cannot express (it holds a comma); left out of the flags. */
  | "unexpressible"
  /** The environment makes Deno refuse every program under a scoped `--allow-run`. */
  | "environment";

/** One warning, one line. */
export interface PermissionWarning {
  /** What the warning is about. */
  readonly kind: WarningKind;
  /** One line, sentence case, no trailing period (`english()` words it in English). */
  readonly phrase: Phrase;
}

/** The least-privilege permissions of one workspace. */
export interface DerivedPermissions {
  /** Absolute paths for `--allow-read`, sorted, none inside another. */
  readonly read: readonly string[];
  /** Absolute paths for `--allow-write`, sorted, none inside another. */
  readonly write: readonly string[];
  /** Variable names for `--allow-env`, sorted. */
  readonly env: readonly string[];
  /** Absolute program paths for `--allow-run`, sorted. */
  readonly run: readonly string[];
  /** System information for `--allow-sys` (Windows: `osRelease`, for the prompt's colours). */
  readonly sys: readonly string[];
  /** Every requested program and where it was found. */
  readonly programs: readonly ProgramGrant[];
  /** Grants that defeat confinement, programs left out, and the like. */
  readonly warnings: readonly PermissionWarning[];
}
