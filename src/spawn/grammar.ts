/**
 * Reading the spawn tool's input: the one string — `!cmd` runs a command, `!@name cmd` runs it on
 * a target, `@name task` is a task for a named agent, `!!text`, `@@text` and anything else not
 * starting with `!` is a task for the configured subagent — and the typed `reach` field.
 *
 * @module
 */

import { foundPhrase, jsonKind } from "../json_kind.ts";
import type { MessageKey } from "../locale/en_us.ts";
import { type Phrase, phrase, type PhraseParams } from "../locale/messages.ts";
import { isReach } from "./reach.ts";
import { SPAWN_TOOL, type SpawnCall, type SpawnParse } from "./types.ts";

/** Target names: letters, digits, `_` and `-`. */
const TARGET_NAME = /^[A-Za-z0-9_-]+$/;
/** Unicode white space (which includes ASCII spaces, tabs and newlines) and the BOM. */
const LEADING_SPACE = /^[\p{White_Space}\uFEFF]+/u;
const TRAILING_SPACE = /[\p{White_Space}\uFEFF]+$/u;
const FIRST_SPACE = /[\p{White_Space}\uFEFF]/u;
/** `@name` followed by white space or the end: a task's address. */
const ADDRESS = /^@([A-Za-z0-9_-]+)(?=[\p{White_Space}\uFEFF]|$)/u;

function trim(text: string): string {
  return text.replace(LEADING_SPACE, "").replace(TRAILING_SPACE, "");
}

function accept(call: SpawnCall): SpawnParse {
  return { ok: true, call };
}

/**
 * A refusal: `Input refused by tool "spawn": <pointer>: <reason>`, the reason worded by `key`.
 * The one place a spawn input's refusal is said, in any locale.
 */
function refuse(
  key: MessageKey,
  params?: PhraseParams,
  pointer: string | Phrase = "/input",
): SpawnParse {
  const reason = phrase(key, params);
  return {
    ok: false,
    phrase: phrase("input.refused", { tool: JSON.stringify(SPAWN_TOOL), pointer, reason }),
  };
}

/**
 * Reads the spawn tool's input. The checks, in order:
 *
 * 1. the input must be an object with a string `input`, and optionally `reach` (nothing else);
 *    `reach` is `"local"`, `"named"` or `"any"` (`null` is the same as leaving it out);
 * 2. the string is trimmed once (ASCII and Unicode white space);
 * 3. no leading `!` → agent mode with the trimmed text (empty → refused), where
 *    - `@@rest` → a task `@rest` for the configured subagent (exactly one `@` consumed);
 *    - `@name task` (`[A-Za-z0-9_-]+`, then white space) → a task for the named agent `name`:
 *      `@local` and a name with no task are refused;
 *    - any other text (`@types/node is old`, `@ all`) is a task as written;
 * 4. `!!rest` → agent mode with `!rest` (exactly one `!` consumed);
 * 5. `!@name body` → a command on target `name` (`[A-Za-z0-9_-]+`, up to the first white
 *    space): a missing name, a bad character, `local`, then a missing command are refused, in
 *    that order;
 * 6. otherwise `!body` → a local command, body trimmed (empty → refused).
 *
 * Pure: it reads no configuration, so an unknown target or agent, and a reach outside the
 * user's policy, are the caller's to refuse.
 *
 * @param input The tool's input, as parsed from JSON.
 * @returns The call, or the refusal as data and as a phrase naming the field (`/input`).
 *
 * @example A command, a targeted command and a task
 * ```ts
 * import { parseSpawnInput } from "./grammar.ts";
 * const command = parseSpawnInput({ input: " !cargo test\n" });
 * console.assert(command.ok && command.call.mode === "command" && command.call.body === "cargo test");
 * const targeted = parseSpawnInput({ input: "!@builder make" });
 * console.assert(targeted.ok && targeted.call.mode === "command" && targeted.call.target === "builder");
 * const task = parseSpawnInput({ input: "!!important: summarise the log" });
 * console.assert(task.ok && task.call.mode === "agent" && task.call.body === "!important: summarise the log");
 * ```
 */
export function parseSpawnInput(input: unknown): SpawnParse {
  if (jsonKind(input) !== "object") {
    return refuse(
      "spawn.input.must_be_object",
      { found: foundPhrase(input) },
      phrase("schema.root"),
    );
  }
  const { input: value, reach, ...rest } = input as Record<string, unknown>;
  if (!Object.hasOwn(input as object, "input")) return refuse("spawn.input.missing");
  if (typeof value !== "string") {
    return refuse("spawn.input.not_string", { found: foundPhrase(value) });
  }
  const extra = Object.keys(rest)[0];
  if (extra !== undefined) return refuse("spawn.input.extra", undefined, `/${extra}`);
  if (reach !== undefined && reach !== null && !isReach(reach)) {
    return refuse("spawn.input.bad_reach", { found: foundPhrase(reach) }, "/reach");
  }
  const parsed = parseString(trim(value));
  return parsed.ok && isReach(reach) ? accept({ ...parsed.call, reach }) : parsed;
}

/** The trimmed spawn string, with the rules of {@linkcode parseSpawnInput} from step 3 on. */
function parseString(text: string): SpawnParse {
  if (!text.startsWith("!")) return text === "" ? refuse("spawn.input.empty") : task(text);
  if (text.startsWith("!!")) return accept({ mode: "agent", body: text.slice(1) });
  if (text.startsWith("!@")) return targeted(text.slice(2));
  const body = trim(text.slice(1));
  return body === "" ? refuse("spawn.input.no_command") : accept({ mode: "command", body });
}

/** `!@` and what follows it. */
function targeted(rest: string): SpawnParse {
  const space = FIRST_SPACE.exec(rest);
  const name = space === null ? rest : rest.slice(0, space.index);
  if (name === "") return refuse("spawn.input.no_target");
  if (!TARGET_NAME.test(name)) {
    return refuse("spawn.input.bad_target", { name: JSON.stringify(name) });
  }
  if (name === "local") return refuse("spawn.input.local_target");
  const body = space === null ? "" : trim(rest.slice(space.index));
  if (body === "") return refuse("spawn.input.target_no_command", { name });
  return accept({ mode: "command", body, target: name });
}

/** A task: `@@text`, `@name task`, or text as written. */
function task(text: string): SpawnParse {
  if (text.startsWith("@@")) return accept({ mode: "agent", body: text.slice(1) });
  const address = ADDRESS.exec(text);
  if (address === null) return accept({ mode: "agent", body: text });
  const name = address[1] as string;
  if (name === "local") return refuse("spawn.input.local_agent");
  const body = trim(text.slice(address[0].length));
  if (body === "") return refuse("spawn.input.agent_no_task", { name });
  return accept({ mode: "agent", body, target: name });
}
