/**
 * macOS: a Seatbelt profile for `sandbox-exec -p PROFILE -- PROGRAM ARGS…`. Untested here (no
 * macOS in CI): written from Apple's sandbox profile language as Chromium, Codex and others use
 * it. Writes only where granted, no network unless granted, hidden paths unreadable. There is no
 * PID namespace: descendants are stopped through the process group, as without a sandbox. Private
 * to the sandbox seam.
 *
 * @module
 */

/** Where `sandbox-exec` is on every macOS since 10.5. */
export const SANDBOX_EXEC = "/usr/bin/sandbox-exec";

/** What one call may touch, paths absolute and canonical (`/private/tmp`, not `/tmp`). */
export type SeatbeltLayout = Paths & { readonly network: boolean };
/** `protect`: paths kept read-only whatever is granted (the config directory). */
type Paths = Readonly<Record<"write" | "read" | "hidden" | "protect", readonly string[]>>;

/**
 * The profile: allow by default, then deny writes but to the granted paths (and the devices every
 * program writes) and never to the protected ones, deny the network unless granted, deny reading
 * the hidden paths unless granted.
 * Later rules win in Seatbelt, so the allowances come after the denials.
 *
 * @param layout What the call may touch.
 * @returns The profile's text.
 */
export function seatbeltProfile(layout: SeatbeltLayout): string {
  const lines = ["(version 1)", "(allow default)", "(deny file-write*)"];
  const writable = [...layout.write, "/private/var/folders"].map(subpath);
  lines.push(
    `(allow file-write* ${writable.join(" ")} (literal "/dev/null") (literal "/dev/zero")` +
      ` (literal "/dev/tty") (regex #"^/dev/fd/") (regex #"^/dev/ttys"))`,
  );
  if (layout.protect.length > 0) {
    lines.push(`(deny file-write* ${layout.protect.map(subpath).join(" ")})`);
  }
  if (!layout.network) {
    lines.push("(deny network-outbound (remote ip) (remote unix-socket))", "(deny network-bind)");
  }
  if (layout.hidden.length > 0) {
    lines.push(`(deny file-read* ${layout.hidden.map(subpath).join(" ")})`);
    if (layout.read.length) lines.push(`(allow file-read* ${layout.read.map(subpath).join(" ")})`);
  }
  return lines.join("\n");
}

function subpath(path: string): string {
  return `(subpath ${quote(path)})`;
}

/** A string in the profile language: backslashes and double quotes escaped. */
function quote(text: string): string {
  return `"${text.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"`;
}
