/**
 * The content blocks a tool declaring `"output": "content"` printed: the one place they are read,
 * hidden and checked, for every path that serves them (the CLI, the library, MCP of either
 * revision and transport), and worded as text for a reader of text. Private to the contract.
 *
 * @module
 */

import { BasisError } from "../errors.ts";
import { type Messages, type Phrase, phrase } from "../locale/messages.ts";
import { REDACTED, type Redactor } from "../redact.ts";
import { formatSize } from "../run/size.ts";
import { refusal, validateContent } from "../schema/gate.ts";
import type { ContentBlock } from "./types.ts";

/** What {@linkcode readContent} found: the blocks and the text they read as, or why not. */
export type ReadContent =
  & {
    /**
     * The output as JSON with its secrets hidden, when hiding one changed it: what its stdout is
     * shown as (the runner hid only secrets written as they are, not JSON-escaped).
     */
    readonly shown?: string;
  }
  & ({
    /** The blocks, every secret hidden. */
    readonly blocks: readonly ContentBlock[];
    /** Each text block's text, and a line for each other block (`[image image/png, 1.2 KiB]`). */
    readonly text: string;
  } | {
    /** Why the output is refused: not JSON, or the first bad block by its JSON pointer. */
    readonly refused: Phrase;
  });

/**
 * Reads a tool's stdout as content blocks. Every secret is hidden in the parsed value before it is
 * checked (so one written JSON-escaped is caught, and one inside base64 makes it invalid), and the
 * bytes of each `data` and `blob` are searched for one too: a block holding one is refused.
 *
 * @param stdout What the program printed (the runner hid the secrets written as they are).
 * @param tool The tool's name.
 * @param options The call's redactor, the messages to word the text in, the validator cache.
 * @returns The blocks and their text, or the refusal; `undefined` when there are none (blank
 *   stdout, or `[]`).
 */
export async function readContent(
  stdout: string,
  tool: string,
  options: { redactor: Redactor; words: Messages; cacheDir?: string | undefined },
): Promise<ReadContent | undefined> {
  const { redactor, words } = options;
  if (stdout.trim() === "") return undefined;
  let [parsed, hidden]: unknown[] = [];
  const prepare = (value: unknown) => (parsed = value, hidden = redactor.value(value));
  const shown = () =>
    redactor.active && JSON.stringify(hidden) !== JSON.stringify(parsed)
      ? { shown: JSON.stringify(hidden) }
      : {};
  const gate = { prepare, ...(options.cacheDir && { cacheDir: options.cacheDir }) };
  let blocks: ContentBlock[];
  try {
    blocks = await validateContent({ name: tool }, stdout, gate) as ContentBlock[];
  } catch (error) {
    if (!(error instanceof BasisError) || error.code !== "invalid_output") throw error;
    return { refused: error.phrase!, ...shown() };
  }
  if (blocks.length === 0) return undefined;
  const lines: string[] = [];
  for (const [index, block] of blocks.entries()) {
    const bytes = decoded(block);
    // A secret in the bytes: there is no text to hide it in, so the block is not served at all.
    const text = bytes && redactor.active ? new TextDecoder().decode(bytes) : "";
    if (redactor.text(text) !== text) {
      const resource = block.type === "resource";
      const pointer = `/${index}/${resource ? "resource/blob" : "data"}`;
      const failure = { pointer, reason: phrase("output.content_secret") };
      // Nor is it shown as the program printed it.
      const copy = structuredClone(blocks) as unknown as Record<string, Record<string, unknown>>[];
      const holder = resource ? copy[index]!.resource! : copy[index]!;
      holder[resource ? "blob" : "data"] = REDACTED;
      return {
        refused: refusal(tool, failure, "output.content_refused"),
        shown: JSON.stringify(copy),
      };
    }
    lines.push(blockLine(block, bytes, words));
  }
  return { blocks, text: lines.join("\n"), ...shown() };
}

/** The bytes of a block's base64 (`data`, a resource's `blob`), checked as base64 already. */
function decoded(block: ContentBlock): Uint8Array | undefined {
  const base64 = block.type === "image" || block.type === "audio"
    ? block.data
    : block.type === "resource" && "blob" in block.resource
    ? block.resource.blob
    : undefined;
  return base64 === undefined ? undefined : Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
}

/** A block as text: a text block's text; one line naming any other (its URI, type and size). */
function blockLine(block: ContentBlock, bytes: Uint8Array | undefined, words: Messages): string {
  switch (block.type) {
    case "text":
      return block.text;
    case "image":
    case "audio":
      return words.t(`content.${block.type}`, {
        media: block.mimeType,
        size: formatSize(bytes!.length, words),
      });
    case "resource": {
      const { uri, mimeType } = block.resource;
      const length = bytes?.length ??
        new TextEncoder().encode((block.resource as { text: string }).text).length;
      const size = formatSize(length, words);
      return mimeType === undefined
        ? words.t("content.resource", { uri, size })
        : words.t("content.resource_typed", { uri, media: mimeType, size });
    }
    case "resource_link":
      return words.t("content.link", { uri: block.uri });
  }
}
