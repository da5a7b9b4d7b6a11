import assert from "node:assert/strict";
import { duplicateKeysOf, findDuplicateKeys } from "../src/json_duplicate_keys.ts";

Deno.test("findDuplicateKeys() finds nothing in text that says each key once per object", () => {
  assert.deepEqual(findDuplicateKeys('{"a": 1, "b": {"a": 2}, "c": [{"a": 3}, {"a": 4}]}'), []);
  assert.deepEqual(findDuplicateKeys("[1, 2, 3]"), []);
  assert.deepEqual(findDuplicateKeys('"a"'), []);
  assert.deepEqual(findDuplicateKeys(""), []);
  // A value equal to a key is no key.
  assert.deepEqual(findDuplicateKeys('{"a": "a", "b": "a"}'), []);
});

Deno.test("findDuplicateKeys() names the object's path, the key, and both positions", () => {
  const text = [
    "{",
    '  "schema": 1,',
    '  "tools": {',
    '    "t": {"command": ["a"], "command": ["b"]},',
    '    "u": {"env": {"A": "1", "A": "2"}},',
    '    "t": {}',
    "  },",
    '  "list": [{"x": 1}, {"y": 1, "y": 2}]',
    "}",
  ].join("\n");
  assert.deepEqual(findDuplicateKeys(text), [
    {
      path: ["tools", "t"],
      key: "command",
      position: { line: 4, column: 29 },
      first: { line: 4, column: 11 },
    },
    {
      path: ["tools", "u", "env"],
      key: "A",
      position: { line: 5, column: 29 },
      first: { line: 5, column: 19 },
    },
    { path: ["tools"], key: "t", position: { line: 6, column: 5 }, first: { line: 4, column: 5 } },
    {
      path: ["list", 1],
      key: "y",
      position: { line: 8, column: 31 },
      first: { line: 8, column: 23 },
    },
  ]);
});

Deno.test("findDuplicateKeys() compares keys decoded, and reports each later one against the first", () => {
  const found = findDuplicateKeys('{"a": 1, "\\u0061": 2, "a": 3}');
  assert.deepEqual(found.map((d) => [d.key, d.position.column, d.first.column]), [
    ["a", 10, 2],
    ["a", 23, 2],
  ]);
  // A key with an escaped quote or backslash ends where the string does.
  assert.deepEqual(findDuplicateKeys('{"a\\"b": 1, "a\\\\": 2, "a\\"b": 3}').map((d) => d.key), [
    'a"b',
  ]);
});

Deno.test("findDuplicateKeys() skips JSONC comments and strings that look like structure", () => {
  const text = [
    '// a comment with a "quote" and a {',
    "{",
    '  "a": "} {\\"a\\": 1", /* "a": 2, } */',
    '  "b": 1, // "a": 3',
    '  "a": 4,',
    "}",
  ].join("\r\n");
  const found = findDuplicateKeys(text);
  assert.deepEqual(found, [
    { path: [], key: "a", position: { line: 5, column: 3 }, first: { line: 3, column: 3 } },
  ]);
});

Deno.test("findDuplicateKeys() never throws on text that is not JSON", () => {
  for (const text of ['{"a": 1, "a', "}}]]{", '{"a": {"b": 1, "b"', "/", "/*", '"\\', "{,,,}"]) {
    assert.ok(Array.isArray(findDuplicateKeys(text)), text);
  }
});

Deno.test("duplicateKeysOf() counts when it can and scans when it must: escaped quotes, comments, JSONC", () => {
  const strict = (text: string) => duplicateKeysOf(text, JSON.parse(text), true);
  assert.equal(strict('{"a": "x\\": y", "b": {"c": [{"d": 1}]}}').length, 0);
  assert.equal(strict('{"a\\\\": 1, "a\\\\": 2}').length, 1);
  assert.equal(strict('{"t": {"a": {}, "a": {}}}')[0]?.key, "a");
  // A comment can hide a key from a count: JSONC is always scanned.
  const jsonc = '{"a": 1, "a" /* x */ : 2}';
  assert.equal(duplicateKeysOf(jsonc, { a: 2 }, false).length, 1);
});
