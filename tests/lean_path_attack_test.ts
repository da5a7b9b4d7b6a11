/**
 * Attacks on issue 14's lean execution path: each test holds a problem found in review.
 *
 * @module
 */

import assert from "node:assert/strict";
import { duplicateKeysOf } from "../src/json_text.ts";
import { parseManifestText } from "../src/manifest/parse.ts";

// V8 (Deno 2.9's) JSON.parse misreads an escaped key whose raw text starts with a key an earlier
// object had at the same place: after {"a": 0, "\\": 0}, the key "\u0061" of {"a": 1, "\u0061": 2}
// comes out as "\\", so the value has as many keys as the text, and a count cannot see "a" twice.
const POISONED = String.raw`{"p": {"a": 0, "\\": 0}, "q": {"a": 1, "\u0061": 2}}`;

Deno.test("duplicateKeysOf() finds a key given twice even when JSON.parse misreads an escaped key", async () => {
  const found = await duplicateKeysOf(POISONED, JSON.parse(POISONED));
  assert.deepEqual(found.map((d) => [d.path, d.key]), [[["q"], "a"]]);
});

Deno.test("a manifest naming one schema property twice (once escaped) is refused", async () => {
  const schema = (second: string) =>
    `{"type": "object", "properties": {"a": {"type": "string"}, ${second}: {"type": "string"}}}`;
  const text = `{"schema": 1, "tools": {
    "one": {"description": "x", "input_schema": ${schema(String.raw`"\\"`)}, "command": ["true"]},
    "two": {"description": "y", "input_schema": ${
    schema(String.raw`"\u0061"`)
  }, "command": ["true"]}
  }}`;
  const { problems } = await parseManifestText(text, "/w/.basis/tools.json", {
    root: "/w",
    env: () => undefined,
  });
  assert.deepEqual(problems.map((p) => [p.reason.key, p.line]), [["json.duplicate_key", 3]]);
});

Deno.test("a manifest's escaped key is read as written even where JSON.parse misreads it", async () => {
  // After this, V8's JSON.parse reads the key "\"" of {"a": …, "\"": …} as "\\".
  JSON.parse(String.raw`{"a": 0, "\\": 0}`);
  const text = String.raw`{"schema": 1, "tools": {"t": {"description": "x", "input_schema": {},
    "command": ["true"], "env": {"a": "1", "\"": "2"}}}}`;
  const { tools, problems } = await parseManifestText(text, "/w/.basis/tools.json", {
    root: "/w",
    env: () => undefined,
  });
  assert.deepEqual(problems, []);
  assert.deepEqual(Object.keys(tools[0]!.env), ["a", '"']);
});
