/**
 * The OpenAI Agents SDK's own code for the tests: `@openai/agents-openai` (with its core) installed
 * with npm into a cache directory the repository ignores (`.cache/openai-agents-…/`, or
 * `$BASIS_TEST_OPENAI_AGENTS_DIR`), run with the Node.js Gemini CLI's core runs with. Installed
 * once; run this file to install it ahead of the tests (CI does):
 * `deno run -A tests/_openai_agents.ts`.
 *
 * @module
 */

import { ROOT } from "./_cli.ts";
import { type NodePackage, nodePackage } from "./_gemini_core.ts";

/** The version of the Agents SDK the tests drive. */
export const OPENAI_AGENTS_VERSION = "0.20.0";

const DIR = Deno.env.get("BASIS_TEST_OPENAI_AGENTS_DIR") ??
  `${ROOT}.cache/openai-agents-${OPENAI_AGENTS_VERSION}`;

/**
 * Installs the Agents SDK's OpenAI models when they are not there yet, and says how to run them.
 *
 * @returns The Node.js to run it with and its `node_modules`, or why it cannot be had.
 */
export function openaiAgents(): Promise<NodePackage> {
  return nodePackage(
    DIR,
    `@openai/agents-openai@${OPENAI_AGENTS_VERSION}`,
    "@openai/agents-openai/dist/openaiResponsesModel.mjs",
  );
}

if (import.meta.main) {
  const agents = await openaiAgents();
  console.log(
    agents.ok
      ? `@openai/agents-openai@${OPENAI_AGENTS_VERSION} is installed in ${DIR}`
      : `@openai/agents-openai is not available: ${agents.reason}`,
  );
}
