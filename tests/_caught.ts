/**
 * Test helper: the error an action throws, when it is a `BasisError` that carries a phrase.
 *
 * @module
 */

import assert from "node:assert/strict";
import { BasisError } from "../src/errors.ts";

/**
 * Runs `action`, expecting a `BasisError` that carries a phrase.
 *
 * @param action What should throw.
 * @returns The error thrown.
 */
export async function caught(action: () => Promise<unknown>): Promise<BasisError> {
  try {
    await action();
  } catch (error) {
    assert.ok(error instanceof BasisError, String(error));
    assert.ok(error.phrase !== undefined, `no phrase on: ${error.message}`);
    return error;
  }
  assert.fail("expected a BasisError");
}
