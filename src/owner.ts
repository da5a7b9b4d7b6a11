/**
 * Whether a file or directory can be trusted to hold what only this user may decide (remembered
 * rules, validator code that is run): owned by this user, and writable by no one else.
 *
 * @module
 */

import { attempt } from "./quietly.ts";

/** Why a file or directory cannot be trusted, as data for the caller to word. */
export type Untrusted =
  | { readonly kind: "loose_mode"; readonly mode: string }
  | { readonly kind: "other_owner"; readonly uid: number; readonly own: number }
  | { readonly kind: "owner_unknown" };

let cachedUid: number | null | undefined;

/**
 * This process's uid.
 *
 * @returns It, or `undefined` when Deno may not tell it (no `--allow-sys=uid`) or on Windows.
 * @throws Never.
 */
export function ownUid(): number | undefined {
  if (cachedUid === undefined) cachedUid = attempt(() => Deno.uid(), null);
  return cachedUid ?? undefined;
}

/**
 * Why a file or directory must not be trusted: group or others may write it, another user owns
 * it, or (when this process may not learn its own uid) its owner cannot be checked.
 *
 * @param info What `stat` said of it.
 * @returns The reason, or `undefined` when it is safe. Always `undefined` on Windows, which has
 *   neither owners nor mode bits here.
 * @throws Never.
 * @example A group-writable file
 * ```ts
 * import { untrusted } from "./owner.ts";
 * const info = { mode: 0o100664, uid: null } as Deno.FileInfo;
 * console.assert(Deno.build.os === "windows" || untrusted(info)?.kind === "loose_mode");
 * ```
 */
export function untrusted(info: Deno.FileInfo): Untrusted | undefined {
  if (Deno.build.os === "windows") return undefined;
  if (info.mode !== null && (info.mode & 0o022) !== 0) {
    return { kind: "loose_mode", mode: (info.mode & 0o7777).toString(8).padStart(4, "0") };
  }
  const own = ownUid();
  if (own === undefined) return { kind: "owner_unknown" };
  if (info.uid !== null && info.uid !== own) return { kind: "other_owner", uid: info.uid, own };
  return undefined;
}
