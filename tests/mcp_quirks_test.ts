/**
 * What agent hosts do that the protocol does not say, through the MCP seam (the real server, the
 * MCP SDK's client): Gemini CLI's `wait_for_previous` on every call, schemas in the dialect a
 * client assumes (checked again with the Python SDK's client), a float `multipleOf` check, the
 * output a timed-out call printed, and an approval form whose first lines are what runs.
 */

import assert from "node:assert/strict";
import { scratch } from "./_cli.ts";
import { callTool, connectMcp, resultText } from "./_mcp.ts";

const CLOSED = {
  type: "object",
  properties: { text: { type: "string" } },
  required: ["text"],
  additionalProperties: false,
};

Deno.test("mcp: wait_for_previous (Gemini CLI's, on every call) is dropped unless the schema declares it", async () => {
  await using dirs = await scratch({
    schema: 1,
    tools: {
      closed: { description: "Echo", input_schema: CLOSED, command: ["cat"] },
      open: { description: "Echo", input_schema: { type: "object" }, command: ["cat"] },
      own: {
        description: "Echo",
        input_schema: {
          type: "object",
          properties: { wait_for_previous: { type: "boolean" } },
          additionalProperties: false,
        },
        command: ["cat"],
      },
    },
  });
  const asked: string[] = [];
  const session = await connectMcp(dirs, ["mcp"], {
    elicit: (message) => {
      asked.push(message);
      return { action: "accept", content: { decision: "allow_once" } };
    },
  });
  try {
    // The request Gemini CLI 0.61.0 sends: the model's arguments as they are.
    const closed = await callTool(session, "closed", { text: "hi", wait_for_previous: true });
    assert.equal(closed.isError, undefined, resultText(closed));
    assert.equal(resultText(closed), '{"text":"hi"}');
    // What the person approves is what the program gets.
    assert.ok(asked[0] !== undefined && !asked[0].includes("wait_for_previous"), asked[0]);
    const open = await callTool(session, "open", { a: 1, wait_for_previous: false });
    assert.equal(resultText(open), '{"a":1}');
    const own = await callTool(session, "own", { wait_for_previous: true });
    assert.equal(resultText(own), '{"wait_for_previous":true}');
    // Anything else a closed schema does not take is still refused.
    const other = await callTool(session, "closed", { text: "hi", wait_for_next: true });
    assert.equal(other.isError, true);
    assert.match(resultText(other), /\/wait_for_next/);
  } finally {
    await session.close();
  }
});
