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
import type { MessageKey } from "../../locale/en_us.ts";
import { messages, phrase, type PhraseParams } from "../../locale/messages.ts";
import { findWorkspaceRoot } from "../../manifest/load.ts";
import { joinPath, resolvePath } from "../../paths.ts";
import { VERSION } from "../../version.ts";
import { out, outJson } from "../output.ts";
import { workspaceRoot } from "../_roster.ts";
import type { Settings } from "../settings.ts";

const MANIFEST = ".basis/tools.json";
/** Where the example tool's script goes, relative to the workspace root. */
const SCRIPT = ".basis/tools/hello.sh";
/** The example tool's name. */
const TOOL = "hello";

/**
 * The manifest `init` writes: it names the published package's copy of this version's schema.
 *
 * @returns Its text, ending with a newline.
 */
export function initManifest(): string {
  const manifest = {
    $schema: `https://jsr.io/@basis/tools/${VERSION}/schemas/tools.schema.json`,
    schema: 1,
    tools: {
      [TOOL]: {
        description: "Say hello to someone by name",
        input_schema: {
          type: "object",
          properties: { name: { type: "string", description: "Who to greet", minLength: 1 } },
          required: ["name"],
          additionalProperties: false,
        },
        command: [`./${SCRIPT}`, { input: "name" }],
        // The rest of the tool's code: an approval pins these files too.
        files: [".basis/tools/*"],
      },
    },
  };
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

/** The example tool's script (POSIX sh, no dependencies). */
const SCRIPT_TEXT = `#!/bin/sh
# A basis-tools tool. The input arrives as one JSON object on stdin, for example
# {"name":"world"}; {"input": "name"} in .basis/tools.json also passes the name as $1.
# What it prints on stdout is the result; a non-zero exit is a failure, with stderr as the reason.
input=$(cat)
printf 'Hello, %s! (the whole input was %s)\\n' "$1" "$input"
`;

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
  const here = settings.workspace === undefined;
  const root = here ? resolvePath(Deno.cwd()) : await workspaceRoot(settings);
  const [manifest, script] = [joinPath(root, MANIFEST), joinPath(root, SCRIPT)];
  const usage = (key: MessageKey, params: PhraseParams) =>
    BasisError.of("usage", phrase(key, params));
  const cannot = (path: string, error: unknown) =>
    usage("init.cannot_write", { path: JSON.stringify(path), reason: fsReason(error) });
  // Whether anything is at a path (a dangling symbolic link counts: it is meant to be a file);
  // when it cannot be told, nothing is written.
  const exists = (path: string) => {
    try {
      return Deno.lstatSync(path) !== undefined;
    } catch (error) {
      if (error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory) {
        return false;
      }
      throw cannot(path, error);
    }
  };
  // A directory inside a workspace belongs to it: a second manifest here would hide the first.
  const found = here ? await findWorkspaceRoot(root) : root;
  if (found !== root && exists(joinPath(found, MANIFEST))) {
    throw usage("init.inside", { root: JSON.stringify(found) });
  }
  for (const path of [manifest, script]) {
    if (exists(path)) throw usage("init.exists", { path: JSON.stringify(path) });
  }
  let writing = script;
  try {
    await Deno.mkdir(joinPath(root, ".basis/tools"), { recursive: true });
    // createNew: a file made meanwhile is never overwritten either.
    await Deno.writeTextFile(script, SCRIPT_TEXT, { createNew: true, mode: 0o755 });
    // The mode of a new file is cut by the umask: the script must be executable.
    await Deno.chmod(script, 0o755);
    writing = manifest;
    await Deno.writeTextFile(manifest, initManifest(), { createNew: true });
  } catch (error) {
    // Nothing is left half-written (a full disk): the file being written, unless it was another's
    // (createNew refused it), and the script once the manifest failed.
    if (!(error instanceof Deno.errors.AlreadyExists)) await Deno.remove(writing).catch(() => {});
    if (writing === manifest) await Deno.remove(script).catch(() => {});
    throw cannot(writing, error);
  }
  const at = here ? "" : ` -C ${shellQuote(root)}`;
  const commands = {
    call: `basis-tools${at} call ${TOOL} '{"name":"world"}'`,
    rule: `basis-tools${at} rules add --tool ${TOOL}`,
    mcp: `basis-tools -C ${shellQuote(root)} mcp`,
    check: `basis-tools${at} check`,
  };
  if (settings.json) {
    outJson({ created: [manifest, script], tool: TOOL, next: Object.values(commands) });
  } else {
    const { t } = messages(settings.locale);
    out(`${t("init.done", { manifest, script, tool: JSON.stringify(TOOL), ...commands })}\n`);
  }
  return 0;
}
