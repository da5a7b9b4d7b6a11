/**
 * The schema tests' one question to the gate: why a tool's input schema cannot be compiled.
 *
 * @module
 */

import { english } from "../src/locale/messages.ts";
import { schemaProblem } from "../src/schema/gate.ts";

/** Why a schema cannot be compiled, in English (`undefined` when it compiles). */
export async function checkSchema(
  schemaTool: { name: string; inputSchema: Record<string, unknown> },
  opts?: { cacheDir?: string },
): Promise<string | undefined> {
  const problem = await schemaProblem(schemaTool, opts);
  return problem === undefined ? undefined : english(problem);
}
