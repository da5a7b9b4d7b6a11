/**
 * Prepares an input for ajv without modifying it: objects that are not plain (a `null` prototype, as
 * careful JSON parsers produce, or a class instance) make ajv's equality checks (`enum`, `const`,
 * `uniqueItems`) fail, so such inputs are validated as a plain JSON copy.
 *
 * @module
 */

function isPlain(value: object): boolean {
  const prototype = Object.getPrototypeOf(value);
  return Array.isArray(value) ? prototype === Array.prototype : prototype === Object.prototype;
}

/**
 * Returns the input itself when every object in it is a plain object or array, else a JSON copy.
 *
 * @param input The input as received.
 * @returns A value ajv compares correctly, equal in JSON to the input.
 * @throws {RangeError} When the input is nested too deeply to copy.
 */
export function plainInput(input: unknown): unknown {
  const pending: unknown[] = [input];
  const seen = new Set<object>();
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value !== "object" || value === null || seen.has(value)) continue;
    seen.add(value);
    if (!isPlain(value)) return JSON.parse(JSON.stringify(input));
    for (const key in value) pending.push((value as Record<string, unknown>)[key]);
  }
  return input;
}
