/**
 * `basis-tools init`: start a workspace — `.basis/tools.json` naming its JSON Schema (so editors
 * check and complete it) and one small example tool — then say what to do next. It never
 * overwrites anything: when the manifest or the script is already there, nothing is written.
 *
 * @module
 */

import { shellQuote } from "../../approval/shell_quote.ts";
import { BasisError } from "../../errors.ts";
import { fsReason } from "../../fs_reason.ts";
import { phrase } from "../../locale/messages.ts";
import { findWorkspaceRoot } from "../../manifest/load.ts";
import { joinPath, resolvePath } from "../../paths.ts";
import { cliMessages } from "../_cli_messages.ts";
import { out, outJson } from "../output.ts";
import { workspaceRoot } from "../_workspace_root.ts";
import type { Settings } from "../settings.ts";
import { EXIT } from "../exit_codes.ts";
import { INIT_SCRIPT, INIT_TOOL, initManifest, initScript } from "./_init_files.ts";

const MANIFEST = ".basis/tools.json";

/**
 * Writes the manifest and the example tool, and prints the next steps.
 *
 * @param settings The run's settings (`-C DIR`: where; else the current directory).
 * @returns 0.
 * @throws {BasisError} `usage` (exit 2) when a manifest is already there (here, or in the
 *   workspace this directory belongs to), when the script is already there, or when a file cannot
 *   be written; nothing is written then.
 */
export async function initCommand(settings: Settings): Promise<number> {
  const root = settings.workspace === undefined
    ? resolvePath(Deno.cwd())
    : await workspaceRoot(settings);
  const manifest = joinPath(root, MANIFEST);
  const script = joinPath(root, INIT_SCRIPT);
  if (settings.workspace === undefined) {
    // A directory inside a workspace belongs to it: a second manifest here would hide the first.
    const found = await findWorkspaceRoot(root);
    if (exists(joinPath(found, MANIFEST)) && found !== root) {
      throw BasisError.of("usage", phrase("init.inside", { root: JSON.stringify(found) }));
    }
  }
  for (const path of [manifest, script]) {
    if (exists(path)) {
      throw BasisError.of("usage", phrase("init.exists", { path: JSON.stringify(path) }));
    }
  }
  let writing = script;
  try {
    await Deno.mkdir(joinPath(root, ".basis/tools"), { recursive: true });
    // createNew: a file made meanwhile is never overwritten either.
    await Deno.writeTextFile(script, initScript(), { createNew: true, mode: 0o755 });
    // The mode of a new file is cut by the umask: the script must be executable.
    await Deno.chmod(script, 0o755);
    writing = manifest;
    await Deno.writeTextFile(manifest, initManifest(), { createNew: true });
  } catch (error) {
    // Nothing is left half-written (a full disk): the file being written, unless it was another's
    // (createNew refused it), and the script once the manifest failed.
    if (!(error instanceof Deno.errors.AlreadyExists)) await Deno.remove(writing).catch(() => {});
    if (writing === manifest) await Deno.remove(script).catch(() => {});
    throw BasisError.of(
      "usage",
      phrase("init.cannot_write", { path: JSON.stringify(writing), reason: fsReason(error) }),
    );
  }
  const here = settings.workspace === undefined ? "" : ` -C ${shellQuote(root)}`;
  const commands = {
    call: `basis-tools${here} call ${INIT_TOOL} '{"name":"world"}'`,
    rule: `basis-tools${here} rules add --tool ${INIT_TOOL}`,
    mcp: `basis-tools -C ${shellQuote(root)} mcp`,
    check: `basis-tools${here} check`,
  };
  if (settings.json) {
    outJson({ created: [manifest, script], tool: INIT_TOOL, next: Object.values(commands) });
    return EXIT.ok;
  }
  const { t } = await cliMessages(settings.locale);
  out(`${t("init.done", { manifest, script, tool: JSON.stringify(INIT_TOOL), ...commands })}\n`);
  return EXIT.ok;
}

/**
 * Whether anything is at a path (a dangling symbolic link counts: it is meant to be a file); when
 * it cannot be told, nothing is written.
 */
function exists(path: string): boolean {
  try {
    Deno.lstatSync(path);
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory) {
      return false;
    }
    throw BasisError.of(
      "usage",
      phrase("init.cannot_write", { path: JSON.stringify(path), reason: fsReason(error) }),
    );
  }
}
