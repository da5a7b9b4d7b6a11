/**
 * The spawn tool's refusals in the tool's locale: input the grammar refused, and calls refused
 * before approval. Private to the contract.
 *
 * @module
 */

import type { Messages } from "../locale/messages.ts";
import type { SpawnRefusal } from "../spawn/guard.ts";
import { SPAWN_TOOL, type SpawnInputProblem } from "../spawn/types.ts";
import { foundPhrase } from "../json_kind.ts";
import { quote } from "./_words.ts";

/**
 * The refusal of a spawn input, in the locale: `Input refused by tool "spawn": /input: …`.
 *
 * @param words The locale's messages.
 * @param problem What the grammar found.
 * @param input The input, for naming what was found.
 * @returns One line.
 */
export function spawnInputRefusal(
  words: Messages,
  problem: SpawnInputProblem,
  input: unknown,
): string {
  const refused = (pointer: string, reason: string) =>
    words.t("input.refused", { tool: quote(SPAWN_TOOL), pointer, reason });
  const value = (input as { input?: unknown } | null)?.input;
  switch (problem.kind) {
    case "not_object":
      return refused(
        words.t("schema.root"),
        words.t("spawn.input.must_be_object", { found: words.say(foundPhrase(input)) }),
      );
    case "missing":
      return refused("/input", words.t("spawn.input.missing"));
    case "not_string":
      return refused(
        "/input",
        words.t("spawn.input.not_string", { found: words.say(foundPhrase(value)) }),
      );
    case "extra_property":
      return refused(`/${problem.property}`, words.t("spawn.input.extra"));
    case "empty":
      return refused("/input", words.t("spawn.input.empty"));
    case "no_command":
      return refused("/input", words.t("spawn.input.no_command"));
    case "no_target":
      return refused("/input", words.t("spawn.input.no_target"));
    case "bad_target":
      return refused("/input", words.t("spawn.input.bad_target", { name: quote(problem.name) }));
    case "local_target":
      return refused("/input", words.t("spawn.input.local_target"));
    case "target_no_command":
      return refused("/input", words.t("spawn.input.target_no_command", { name: problem.name }));
    case "bad_reach":
      return refused(
        "/reach",
        words.t("spawn.input.bad_reach", {
          found: words.say(foundPhrase((input as { reach?: unknown }).reach)),
        }),
      );
    case "local_agent":
      return refused("/input", words.t("spawn.input.local_agent"));
    case "agent_no_task":
      return refused("/input", words.t("spawn.input.agent_no_task", { name: problem.name }));
  }
}

/**
 * A spawn call refused before approval, in the locale.
 *
 * @param words The locale's messages.
 * @param refusal The guard's refusal.
 * @returns One line.
 */
export function spawnRefusalText(words: Messages, refusal: SpawnRefusal): string {
  return words.say(refusal.phrase);
}
