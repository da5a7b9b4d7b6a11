/**
 * The approval form an MCP client shows (`elicitation/create`), and the server's other words about
 * approval, in the locale of `basis-tools mcp --locale`: the real server, driven by the SDK's client.
 *
 * @module
 */

import assert from "node:assert/strict";
// @ts-types="@modelcontextprotocol/sdk/types"
import type { ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import { type Scratch, scratch } from "./_cli.ts";
import { callTool, connectMcp, type McpSession, resultText } from "./_mcp.ts";
import { assertNoEnglish, CYRILLIC } from "./_no_english.ts";
import { ECHO_MANIFEST } from "./_fixtures.ts";

const ECHO = ECHO_MANIFEST;

/** What the client was asked. */
interface Asked {
  message: string;
  schema: {
    properties: Record<string, { title: string; description: string; enum: string[] }>;
    required: string[];
  };
  /** The decision field's `enumNames`. */
  titles: string[];
}

/**
 * Starts `basis-tools mcp --locale LOCALE` and connects a client to it; with `elicit`, the client
 * declares form elicitation and answers with it.
 */
function serve(
  dirs: Scratch,
  locale: string,
  elicit?: (asked: Asked) => ElicitResult,
): Promise<McpSession> {
  const args = ["mcp", "--locale", locale];
  if (elicit === undefined) return connectMcp(dirs, args);
  return connectMcp(dirs, args, {
    elicit: (message, requested) => {
      const schema = requested as Asked["schema"];
      const field = schema.properties.decision as unknown as { enumNames: string[] };
      return elicit({ message, schema, titles: field.enumNames });
    },
  });
}

/** Asks once in a locale, allowing the call; returns what was asked. */
async function askOnce(dirs: Scratch, locale: string): Promise<Asked> {
  const asked: Asked[] = [];
  const session = await serve(dirs, locale, (form) => {
    asked.push(form);
    return { action: "accept", content: { decision: "allow_once" } };
  });
  try {
    const result = await callTool(session, "echo", { text: "hi" });
    assert.equal(resultText(result), '{"text":"hi"}');
  } finally {
    await session.close();
  }
  assert.equal(asked.length, 1);
  return asked[0] as Asked;
}

Deno.test("mcp: the approval form follows --locale uk-UA; its answers stay allow_once|always_allow|deny", async () => {
  await using dirs = await scratch(ECHO);
  const en = await askOnce(dirs, "en-US");
  const uk = await askOnce(dirs, "uk-UA");
  const enField = en.schema.properties.decision!;
  const ukField = uk.schema.properties.decision!;

  // English exactly as it was.
  assert.match(en.message, /^basis-tools asks before running a tool\n/);
  assert.match(en.message, /\n\nAllow this call\?$/);
  assert.equal(enField.title, "Allow this call?");
  assert.equal(
    enField.description,
    "Always allow remembers a rule for this exact command (any input); deny refuses this call",
  );
  assert.deepEqual(en.titles, [
    "Allow once",
    "Always allow (remember this exact command)",
    "Deny",
  ]);

  // Ukrainian: the terminal prompt's own words.
  assert.match(uk.message, /^basis-tools питає дозволу, перш ніж запустити інструмент\n/);
  assert.match(uk.message, /^ {2}інструмент +echo$/m);
  assert.match(uk.message, /^ {2}команда +cat$/m);
  assert.match(uk.message, /^ {2}вхідні дані +\{\n +"text": "hi"\n +\}$/m);
  assert.match(uk.message, /\n\nДозволити цей виклик\?$/);
  assert.equal(ukField.title, "Дозволити цей виклик?");
  assert.match(ukField.description, CYRILLIC);
  assert.deepEqual(uk.titles, [
    "Дозволити один раз",
    "Дозволяти завжди (запам’ятати саме цю команду)",
    "Відхилити",
  ]);
  const said = (asked: Asked, field: typeof enField) =>
    [asked.message, field.title, field.description, ...asked.titles].join("\n");
  assertNoEnglish(said(uk, ukField), said(en, enField), [
    /\b(?:basis-tools|echo|cat|process)\b/g,
  ]);

  // What is answered never changes with the locale.
  for (const asked of [en, uk]) {
    assert.deepEqual(asked.schema.properties.decision!.enum, [
      "allow_once",
      "always_allow",
      "deny",
    ]);
    assert.deepEqual(asked.schema.required, ["decision"]);
  }
});

Deno.test("mcp: without elicitation a call is denied in uk-UA, saying how to add a rule", async () => {
  await using dirs = await scratch(ECHO);
  const root = await Deno.realPath(dirs.root);
  const denied = async (locale: string) => {
    const session = await serve(dirs, locale);
    try {
      const result = await callTool(session, "echo", { text: "hi" });
      assert.equal(result.isError, true);
      return resultText(result);
    } finally {
      await session.close();
    }
  };
  assert.equal(
    await denied("en-US"),
    'Call of tool "echo" denied: no remembered rule allows it and this MCP client cannot ask ' +
      "for approval (it does not support elicitation); allow it with " +
      `\`basis-tools -C ${root} rules add --tool echo\`, or start the MCP server with ` +
      "--approve always",
  );
  const uk = await denied("uk-UA");
  assert.equal(
    uk,
    'Виклик інструмента "echo" відхилено: жодне збережене правило його не дозволяє, а цей ' +
      "клієнт MCP не вміє запитувати підтвердження (він не підтримує elicitation); дозвольте " +
      `його командою \`basis-tools -C ${root} rules add --tool echo\` або запустіть сервер MCP ` +
      "з --approve always",
  );
});

Deno.test("mcp: when the client fails to answer the form, the server says so in uk-UA and denies", async () => {
  await using dirs = await scratch(ECHO);
  const failed = async (locale: string) => {
    const session = await serve(dirs, locale, () => {
      throw new Error("the person closed the window");
    });
    try {
      const result = await callTool(session, "echo", { text: "hi" });
      assert.equal(result.isError, true);
      // The log line and the reply race each other: wait for the line (a few ms at most).
      await session.stderrContains('"echo"');
      return { result: resultText(result), stderr: session.stderr() };
    } finally {
      await session.close();
    }
  };
  const en = await failed("en-US");
  assert.match(
    en.stderr,
    /^basis-tools: Cannot ask the MCP client about a call of tool "echo": .*the person closed the window.*; the call is denied$/m,
  );
  // It says what denied the call: the client could not ask (not "at the prompt").
  assert.equal(
    en.result,
    `Call of tool "echo" denied: the MCP client could not ask for approval (see the server's log)`,
  );
  const uk = await failed("uk-UA");
  assert.match(
    uk.stderr,
    /^basis-tools: Не вдалося запитати клієнта MCP про виклик інструмента "echo": .*the person closed the window.*; виклик відхилено$/m,
  );
  assert.equal(
    uk.result,
    'Виклик інструмента "echo" відхилено: клієнт MCP не зміг спитати дозволу (див. журнал сервера)',
  );
});
