/**
 * What the gate checks of an input before its schema, in one walk without recursion, so that no
 * input can exhaust the stack here or in any later step that walks it (redaction, the audit line,
 * the prompt, rules):
 *
 * - it is nested at most {@linkcode MAX_INPUT_DEPTH} arrays and objects deep;
 * - every number is finite: `1e400` parses to `Infinity`, which no program receives as written
 *   (`JSON.stringify` makes it `null`);
 * - it is JSON data: no cycle, no BigInt.
 *
 * It also prepares the input for ajv without modifying it: objects that are not plain (a `null`
 * prototype, as careful JSON parsers produce, or a class instance) make ajv's equality checks
 * (`enum`, `const`, `uniqueItems`) fail, so such inputs are validated as a plain JSON copy.
 *
 * @module
 */

import { type Phrase, phrase } from "../locale/messages.ts";
import { escapeToken } from "../text.ts";

/** The deepest nesting of arrays and objects an input may have (the input itself is level 1). */
export const MAX_INPUT_DEPTH = 256;

/** What is wrong with an input, and where (a JSON pointer; `""` for the input itself). */
export interface InputProblem {
  /** Where, as a JSON pointer. */
  readonly pointer: string;
  /** What is wrong. */
  readonly reason: Phrase;
}

/** The input as ajv should see it, or why it cannot be checked. */
export type Inspected = { readonly value: unknown } | { readonly problem: InputProblem };

/** One open array or object of the walk: its keys (objects) and how far the walk is. */
interface Frame {
  readonly container: object;
  readonly keys: readonly string[] | undefined;
  next: number;
}

function plain(value: object): boolean {
  const prototype = Object.getPrototypeOf(value);
  return Array.isArray(value) ? prototype === Array.prototype : prototype === Object.prototype;
}

/** Why a value that is not a container cannot be checked, if it cannot. */
function leafProblem(value: unknown): Phrase | undefined {
  if (typeof value === "number" && !Number.isFinite(value)) return phrase("schema.not_finite");
  if (typeof value === "bigint") return phrase("schema.not_json");
  return undefined;
}

/** The pointer of the value the walk is at: each open frame's current key, then `last`. */
function pointerOf(frames: readonly Frame[]): string {
  let pointer = "";
  for (const frame of frames) {
    const index = frame.next - 1;
    pointer += `/${frame.keys === undefined ? index : escapeToken(frame.keys[index]!)}`;
  }
  return pointer;
}

/**
 * Checks an input's shape (depth, numbers, cycles) and returns it as ajv should see it: the input
 * itself when every object in it is a plain object or array, else its JSON copy.
 *
 * @param input The input as received.
 * @returns The value to validate, or the first problem found (in document order).
 *
 * @example Too large a number, too deep a nesting
 * ```ts
 * import { inspectInput, MAX_INPUT_DEPTH } from "./_input.ts";
 * const plain = { a: 1 };
 * const inspected = inspectInput(plain);
 * console.assert("value" in inspected && inspected.value === plain);
 * const huge = inspectInput(JSON.parse('{"id": 1e400}'));
 * console.assert("problem" in huge && huge.problem.pointer === "/id");
 * const deep = JSON.parse("[".repeat(MAX_INPUT_DEPTH + 1) + "]".repeat(MAX_INPUT_DEPTH + 1));
 * console.assert("problem" in inspectInput(deep));
 * ```
 */
export function inspectInput(input: unknown): Inspected {
  if (typeof input !== "object" || input === null) {
    const reason = leafProblem(input);
    return reason === undefined ? { value: input } : { problem: { pointer: "", reason } };
  }
  let allPlain = plain(input);
  const frames: Frame[] = [];
  const open = new Set<object>();
  const enter = (container: object) => {
    open.add(container);
    frames.push({
      container,
      keys: Array.isArray(container) ? undefined : Object.keys(container),
      next: 0,
    });
  };
  enter(input);
  while (frames.length > 0) {
    const frame = frames[frames.length - 1]!;
    const { container, keys } = frame;
    const size = keys === undefined ? (container as unknown[]).length : keys.length;
    if (frame.next >= size) {
      open.delete(container);
      frames.pop();
      continue;
    }
    const key = keys === undefined ? frame.next : keys[frame.next]!;
    frame.next++;
    const child = (container as Record<string | number, unknown>)[key];
    if (typeof child !== "object" || child === null) {
      const reason = leafProblem(child);
      if (reason !== undefined) return { problem: { pointer: pointerOf(frames), reason } };
      continue;
    }
    if (open.has(child)) {
      return { problem: { pointer: pointerOf(frames), reason: phrase("schema.not_json") } };
    }
    if (frames.length >= MAX_INPUT_DEPTH) {
      const reason = phrase("schema.too_deep", { limit: MAX_INPUT_DEPTH });
      return { problem: { pointer: pointerOf(frames), reason } };
    }
    allPlain &&= plain(child);
    enter(child);
  }
  if (allPlain) return { value: input };
  try {
    return { value: JSON.parse(JSON.stringify(input)) };
  } catch {
    // A `toJSON` that throws, or gives what cannot be written.
    return { problem: { pointer: "", reason: phrase("schema.not_json") } };
  }
}
