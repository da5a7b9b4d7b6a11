/**
 * Picks the JSON Schema draft a schema is written in from its `$schema`.
 *
 * @module
 */

import { type Phrase, phrase } from "../locale/messages.ts";
import { showValue } from "../text.ts";

/** The drafts the gate can compile. */
export type Draft = "draft-06" | "draft-07" | "2019-09" | "2020-12";

/** The draft to compile with, and the `$schema` ajv knows that draft by (when it must be rewritten). */
export interface DraftChoice {
  /** The draft. */
  draft: Draft;
  /** The canonical `$schema` to compile with, when the schema spelled it differently. */
  canonical?: string;
}

const CANONICAL: Readonly<Record<Draft, string>> = {
  "draft-06": "http://json-schema.org/draft-06/schema#",
  "draft-07": "http://json-schema.org/draft-07/schema#",
  "2019-09": "https://json-schema.org/draft/2019-09/schema",
  "2020-12": "https://json-schema.org/draft/2020-12/schema",
};

const OLD_STYLE = /^https?:\/\/json-schema\.org\/draft-(06|07)\/schema#?$/;
const NEW_STYLE = /^https?:\/\/json-schema\.org\/draft\/(2019-09|2020-12)\/schema#?$/;

/**
 * Chooses the draft for a schema: draft-07 when `$schema` is absent, else the draft it names
 * (http or https, with or without the trailing `#`).
 *
 * @param schema The tool's input schema, as declared.
 * @returns The choice, or why not (a phrase) when `$schema` names a draft the gate cannot compile.
 *
 * @example Pick 2020-12 and normalise its spelling
 * ```ts
 * import { selectDraft } from "./_draft.ts";
 * const choice = selectDraft({ $schema: "http://json-schema.org/draft/2020-12/schema#" });
 * console.assert("draft" in choice && choice.draft === "2020-12");
 * console.assert("key" in selectDraft({ $schema: "draft-04" }));
 * ```
 */
export function selectDraft(schema: unknown): DraftChoice | Phrase {
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) {
    return { draft: "draft-07" };
  }
  if (!Object.hasOwn(schema, "$schema")) return { draft: "draft-07" };
  const named = (schema as Record<string, unknown>)["$schema"];
  if (typeof named !== "string") return phrase("schema_problem.draft_not_string");
  const old = OLD_STYLE.exec(named);
  const fresh = NEW_STYLE.exec(named);
  const draft = old ? `draft-${old[1]}` as Draft : fresh ? fresh[1] as Draft : undefined;
  if (draft === undefined) {
    return phrase("schema_problem.draft_unknown", { value: showValue(named, 100) });
  }
  const canonical = CANONICAL[draft];
  return canonical === named ? { draft } : { draft, canonical };
}
