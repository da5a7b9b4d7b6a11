/**
 * Saying once that tools run unconfined (the policy is `auto` and no sandbox works here): a line
 * on stderr the first time, and again only when the reason changes. What was said is kept in the
 * state directory (`sandbox-note`), so that a CLI call after another, or a host calling
 * `basis-tools call` in a loop, is not told every time. Under `--quiet` the note is held with the
 * call's other notes (shown only when the call fails) and not taken as said.
 *
 * @module
 */

import { english, messages } from "../locale/messages.ts";
import { auditLogPath } from "../audit/audit_path.ts";
import { joinPath, parentPath, resolvePath } from "../paths.ts";
import type { SandboxOptions, SandboxPolicy } from "../sandbox/types.ts";
import { readRegularFile } from "../read_regular_file.ts";
import { err } from "./output.ts";
import type { Settings } from "./settings.ts";

/** The file in the state directory that remembers the last note given. */
export const SANDBOX_NOTE_FILE = "sandbox-note";

/** Where a call's notes go: whether they are held until it fails (`--quiet`), and how one is said. */
export interface NoteSink {
  /** Whether notes are held until the call fails (`--quiet`). */
  readonly quiet: boolean;
  /** Says (or holds) one note, without the `basis-tools: ` prefix. */
  note(text: string): void;
}

/**
 * The sandbox options of one CLI run: the policy, basis-tools' own directories (which no call may
 * write), and the note said once.
 *
 * @param settings The run's settings.
 * @param policy The user's policy.
 * @param notes The call's notes the note goes with; without, it is said once per process (the MCP
 *   server logs it once per start).
 * @returns The options for the tool builders.
 */
export function cliSandbox(
  settings: Settings,
  policy: SandboxPolicy,
  notes?: NoteSink,
): SandboxOptions {
  let said = false;
  const { stateDir, envLookup: env, cacheDir } = settings;
  const audit = auditLogPath({ path: settings.auditLog, env });
  const inState = audit === undefined || audit.startsWith(`${resolvePath(stateDir)}/`);
  return {
    policy,
    env,
    cacheDir,
    stateDir,
    ...(inState ? {} : { auditLog: audit }),
    onUnconfined: (reason) => {
      if (said) return;
      said = true;
      const text = english(reason);
      let file: string | undefined = joinPath(stateDir, SANDBOX_NOTE_FILE);
      try {
        // Only a regular file is read, or written below: opening a FIFO would block the call.
        const read = readRegularFile(file, { limit: 4096, follow: false });
        if (read.kind === "not_regular") file = undefined;
        if (notes && read.kind === "read" && new TextDecoder().decode(read.bytes) === text) return;
      } catch {
        // Never said (or cannot be read): say it.
      }
      const words = messages(settings.locale);
      const policyFile = JSON.stringify(policy.file);
      const note = words.t("sandbox.note", { reason: words.say(reason), file: policyFile });
      if (notes === undefined) return err(`basis-tools: ${note}\n`);
      notes.note(note);
      // Held under --quiet: said for real only when a call shows it.
      if (file === undefined || notes.quiet) return;
      try {
        Deno.mkdirSync(parentPath(file), { recursive: true, mode: 0o700 });
        Deno.writeTextFileSync(file, text, { mode: 0o600 });
      } catch {
        // Said again next time.
      }
    },
  };
}
