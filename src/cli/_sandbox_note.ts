/**
 * Saying once that tools run unconfined (the policy is `auto` and no sandbox works here): a line
 * on stderr the first time, and again only when the reason changes. What was said is kept in the
 * state directory (`sandbox-note`), so that a CLI call after another, or a host calling
 * `basis-tools call` in a loop, is not told every time.
 *
 * @module
 */

import { english, messages, type Phrase } from "../locale/messages.ts";
import { joinPath, parentPath, stateDir } from "../paths.ts";
import type { SandboxOptions, SandboxPolicy } from "../sandbox/types.ts";
import { err } from "./output.ts";
import type { Settings } from "./settings.ts";

/** The file in the state directory that remembers the last note given. */
export const SANDBOX_NOTE_FILE = "sandbox-note";

/**
 * The sandbox options of one CLI run: the policy, and the note said once.
 *
 * @param settings The run's settings.
 * @param policy The user's policy.
 * @param perProcess Say it once per process only (the MCP server logs it once per start).
 * @returns The options for the tool builders.
 */
export function cliSandbox(
  settings: Settings,
  policy: SandboxPolicy,
  perProcess = false,
): SandboxOptions {
  let said = false;
  return {
    policy,
    env: settings.envLookup,
    cacheDir: settings.cacheDir,
    onUnconfined: (reason) => {
      if (said) return;
      said = true;
      sayOnce(settings, policy, reason, perProcess);
    },
  };
}

function sayOnce(
  settings: Settings,
  policy: SandboxPolicy,
  reason: Phrase,
  perProcess: boolean,
): void {
  const text = english(reason);
  let file: string | undefined;
  try {
    file = joinPath(stateDir(settings.envLookup), SANDBOX_NOTE_FILE);
    if (!perProcess && Deno.readTextFileSync(file) === text) return;
  } catch {
    // Never said (or cannot be read): say it.
  }
  const words = messages(settings.locale);
  const policyFile = JSON.stringify(policy.file);
  err(`basis-tools: ${words.t("sandbox.note", { reason: words.say(reason), file: policyFile })}\n`);
  if (file === undefined || perProcess) return;
  try {
    Deno.mkdirSync(parentPath(file), { recursive: true, mode: 0o700 });
    Deno.writeTextFileSync(file, text, { mode: 0o600 });
  } catch {
    // Said again next time.
  }
}
