import assert from "node:assert/strict";
import { createLocator, duplicateKeysOf, parseJsonc } from "../src/json_text.ts";
import { phrase } from "../src/locale/messages.ts";

/** The keys given twice in a text (which must parse). */
async function findDuplicateKeys(text: string) {
  const parsed = await parseJsonc(text, phrase("manifest.empty_file"));
  assert.ok(parsed.ok, text);
  return parsed.duplicates;
}

Deno.test("parseJsonc() finds no duplicate in text that says each key once per object", async () => {
  for (
    const text of [
      '{"a": 1, "b": {"a": 2}, "c": [{"a": 3}, {"a": 4}]}',
      '{"a": 1, /* "a": 2 */ "b": {"a": 2}, "c": [{"a": 3}, {"a": 4},],}',
      "[1, 2, 3]",
      '"a"',
      // A value equal to a key is no key.
      '{"a": "a", "b": "a"}',
      '{"a": "a", // "b": "a"\n "b": "a"}',
    ]
  ) {
    assert.deepEqual(await findDuplicateKeys(text), [], text);
  }
});

Deno.test("parseJsonc() names the object's path, the key given twice, and both positions", async () => {
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
  const expected = [
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
  ];
  assert.deepEqual(await findDuplicateKeys(text), expected);
  assert.deepEqual(await duplicateKeysOf(text, JSON.parse(text)), expected);
});

Deno.test("parseJsonc() compares keys decoded, and reports each later one against the first", async () => {
  const found = await findDuplicateKeys('{"a": 1, "\\u0061": 2, "a": 3}');
  assert.deepEqual(found.map((d) => [d.key, d.position.column, d.first.column]), [
    ["a", 10, 2],
    ["a", 23, 2],
  ]);
  // A key with an escaped quote or backslash ends where the string does.
  const quoted = await findDuplicateKeys('{"a\\"b": 1, "a\\\\": 2, "a\\"b": 3}');
  assert.deepEqual(quoted.map((d) => d.key), ['a"b']);
});

Deno.test("parseJsonc() skips JSONC comments and strings that look like structure", async () => {
  const text = [
    '// a comment with a "quote" and a {',
    "{",
    '  "a": "} {\\"a\\": 1", /* "a": 2, } */',
    '  "b": 1, // "a": 3',
    '  "a": 4,',
    "}",
  ].join("\r\n");
  const found = await findDuplicateKeys(text);
  assert.deepEqual(found, [
    { path: [], key: "a", position: { line: 5, column: 3 }, first: { line: 3, column: 3 } },
  ]);
});

Deno.test("duplicateKeysOf() counts when it can and reads the text when it must", async () => {
  const strict = (text: string) => duplicateKeysOf(text, JSON.parse(text));
  assert.equal((await strict('{"a": "x\\": y", "b": {"c": [{"d": 1}]}}')).length, 0);
  assert.equal((await strict('{"a\\\\": 1, "a\\\\": 2}')).length, 1);
  assert.equal((await strict('{"t": {"a": {}, "a": {}}}'))[0]?.key, "a");
});

Deno.test("parseJsonc() reads __proto__ as an own key, as JSON.parse does", async () => {
  const text = '{"__proto__": {"polluted": 1}, "a": /* x */ 1}';
  const parsed = await parseJsonc(text, phrase("manifest.empty_file"));
  assert.ok(parsed.ok);
  const value = parsed.value as Record<string, unknown>;
  assert.deepEqual(Object.keys(value), ["__proto__", "a"]);
  assert.equal(Object.getPrototypeOf(value), Object.prototype);
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
});

Deno.test("createLocator() finds keys and values, the last of a key given twice", async () => {
  const text = '{\n  "a": [1, {"b": 2}],\n  "a": {"c": 3}, // x\n  "d": 4\n}';
  const locate = await createLocator(text);
  assert.deepEqual(locate({ path: ["a"], at: "key" }), { line: 3, column: 3 });
  assert.deepEqual(locate({ path: ["a", "c"], at: "value" }), { line: 3, column: 14 });
  assert.deepEqual(locate({ path: ["d"], at: "value" }), { line: 4, column: 8 });
  // Past what the document holds: the deepest node reached.
  assert.deepEqual(locate({ path: ["a", "x", "y"], at: "value" }), { line: 3, column: 8 });
  assert.deepEqual(locate({ path: [], at: "value" }), { line: 1, column: 1 });
  assert.equal((await createLocator("{ broken"))({ path: [], at: "value" }), undefined);
});
