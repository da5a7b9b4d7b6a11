/**
 * Prepares an input for ajv without modifying it: objects that are not plain (a `null` prototype, as
 * careful JSON parsers produce, or a class instance) make ajv's equality checks (`enum`, `const`,
 * `uniqueItems`) fail, so such inputs are validated as a plain JSON copy.
 *
 * @module
 */

/** Deeper than this, an input is copied rather than scanned (which also ends any cycle). */
const SCAN_DEPTH = 256;

function allPlain(value: unknown, depth: number): boolean {
  if (typeof value !== "object" || value === null) return true;
  if (depth > SCAN_DEPTH) return false;
  if (Array.isArray(value)) {
    if (Object.getPrototypeOf(value) !== Array.prototype) return false;
    for (const item of value) if (!allPlain(item, depth + 1)) return false;
    return true;
  }
  if (Object.getPrototypeOf(value) !== Object.prototype) return false;
  for (const key in value) {
    if (!allPlain((value as Record<string, unknown>)[key], depth + 1)) return false;
  }
  return true;
}

/**
 * Returns the input itself when every object in it is a plain object or array, else a JSON copy.
 *
 * @param input The input as received.
 * @returns A value ajv compares correctly, equal in JSON to the input.
 * @throws {RangeError} When the input is nested too deeply to copy.
 * @throws {TypeError} When the input is not JSON data (a cycle, a BigInt).
 *
 * @example Plain inputs pass through; null-prototype ones are copied
 * ```ts
 * import { plainInput } from "./_input.ts";
 * const plain = { a: 1 };
 * console.assert(plainInput(plain) === plain);
 * const bare = Object.assign(Object.create(null), { a: 1 });
 * console.assert(Object.getPrototypeOf(plainInput(bare)) === Object.prototype);
 * ```
 */
export function plainInput(input: unknown): unknown {
  return allPlain(input, 0) ? input : JSON.parse(JSON.stringify(input));
}
