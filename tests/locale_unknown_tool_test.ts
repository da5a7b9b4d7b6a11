/**
 * An unknown tool named on the command line (`show`, `call`), worded in the run's locale in text
 * and `--json`; English exactly as it was.
 *
 * @module
 */

import assert from "node:assert/strict";
import { findTool } from "../src/cli/_roster.ts";
import { BasisError, errorLines } from "../src/errors.ts";
import { messages } from "../src/locale/messages.ts";
import type { Roster, ToolSpec } from "../src/manifest/types.ts";
import { cli, scratch } from "./_cli.ts";
import { assertNoEnglish, CYRILLIC } from "./_no_english.ts";

const UK = messages("uk-UA");

/** Three tools one edit away from "eco". */
const NEAR_TOOLS = {
  schema: 1,
  tools: Object.fromEntries(
    ["ecco", "echo", "ecoh"].map((name) => [
      name,
      { description: `The ${name} tool`, input_schema: { type: "object" }, command: ["cat"] },
    ]),
  ),
};

Deno.test("show NAME with an unknown tool speaks en-US and uk-UA, in text and --json", async () => {
  await using dirs = await scratch(NEAR_TOOLS);
  const en = await cli(dirs, ["show", "nope"]);
  assert.equal(en.code, 2);
  assert.equal(en.stdout, "");
  assert.equal(en.stderr, 'basis-tools: Cannot find tool "nope"; see basis-tools list\n');
  const uk = await cli(dirs, ["show", "nope", "--locale", "uk-UA"]);
  assert.equal(uk.code, 2);
  assert.equal(uk.stdout, "");
  assert.equal(
    uk.stderr,
    'basis-tools: Не вдалося знайти інструмент "nope"; див. basis-tools list\n',
  );
  assertNoEnglish(uk.stderr, en.stderr, [/\bbasis-tools list\b/g]);

  const enJson = await cli(dirs, ["show", "nope", "--json"]);
  assert.equal(enJson.code, 2);
  assert.deepEqual(JSON.parse(enJson.stdout), {
    ok: false,
    error: { kind: "unknown_tool", message: 'Cannot find tool "nope"; see basis-tools list' },
  });
  const ukJson = await cli(dirs, ["show", "nope", "--json", "--locale", "uk-UA"]);
  assert.equal(ukJson.code, 2);
  assert.deepEqual(JSON.parse(ukJson.stdout), {
    ok: false,
    error: {
      kind: "unknown_tool",
      message: 'Не вдалося знайти інструмент "nope"; див. basis-tools list',
    },
  });

  // Near names: every one, listed.
  const near = await cli(dirs, ["show", "eco"]);
  assert.equal(
    near.stderr,
    'basis-tools: Cannot find tool "eco"; did you mean "ecco", "echo" or "ecoh"?\n',
  );
  const nearUk = await cli(dirs, ["show", "eco", "--locale", "uk-UA"]);
  assert.equal(
    nearUk.stderr,
    'basis-tools: Не вдалося знайти інструмент "eco"; можливо, ви мали на увазі ' +
      '"ecco", "echo" або "ecoh"?\n',
  );
});

Deno.test("call with an unknown tool speaks uk-UA in text and --json, and so does an empty roster", async () => {
  await using dirs = await scratch(NEAR_TOOLS);
  await using empty = await scratch({ schema: 1, tools: {} });
  const text = await cli(dirs, ["call", "ecoh1", "{}", "--locale", "uk-UA"]);
  assert.equal(text.code, 2);
  assert.equal(
    text.stderr,
    'basis-tools: Не вдалося знайти інструмент "ecoh1"; можливо, ви мали на увазі ' +
      '"ecoh" або "echo"?\n',
  );
  const json = await cli(dirs, ["call", "nope", "{}", "--json", "--locale", "uk-UA"]);
  assert.equal(json.code, 2);
  const parsed = JSON.parse(json.stdout);
  assert.equal(parsed.tool, "nope");
  assert.deepEqual(parsed.error, {
    kind: "unknown_tool",
    message: 'Не вдалося знайти інструмент "nope"; див. basis-tools list',
  });

  const none = await cli(empty, ["show", "nope"]);
  assert.equal(
    none.stderr,
    'basis-tools: Cannot find tool "nope"; no tools are declared (see basis-tools check)\n',
  );
  const noneUk = await cli(empty, ["show", "nope", "--locale", "uk-UA"]);
  assert.equal(noneUk.code, 2);
  assert.match(noneUk.stderr, /^basis-tools: Не вдалося знайти інструмент "nope"; /);
  assertNoEnglish(noneUk.stderr, none.stderr, [/\bbasis-tools( check)?\b/g]);
});

Deno.test("findTool() throws an unknown_tool error whose English is its message and whose phrase words it", () => {
  const spec = { name: "echo" } as ToolSpec;
  const roster = { tools: new Map([["echo", spec]]), unavailable: new Map() } as unknown as Roster;
  assert.equal(findTool(roster, "echo"), spec);
  let thrown: unknown;
  try {
    findTool(roster, "ecoh");
  } catch (error) {
    thrown = error;
  }
  assert.ok(thrown instanceof BasisError && thrown.phrase !== undefined, String(thrown));
  assert.equal(thrown.code, "unknown_tool");
  assert.equal(thrown.message, 'Cannot find tool "ecoh"; did you mean "echo"?');
  assert.deepEqual(errorLines(thrown), [thrown.message]);
  const [uk] = errorLines(thrown, UK);
  assert.match(uk ?? "", CYRILLIC);
  assert.match(uk ?? "", /"ecoh".*"echo"/);
});
