import assert from "node:assert/strict";
import { parse as jsoncParse, type ParseError } from "jsonc-parser";
import { compactSpan } from "../src/cli/_compact_json.ts";
import { stdinBytes } from "../src/cli/_call_input.ts";
import { parseJsonc } from "../src/json_text.ts";
import { phrase } from "../src/locale/messages.ts";
import { Fuzz } from "./_fuzz.ts";

/** Set BASIS_FUZZ_SEED to replay a failure; the seed is in every assertion message. */
const SEED = Number(Deno.env.get("BASIS_FUZZ_SEED") ?? 0xBEEF);
const CASES = 20_000;

const CHARS = [
  "a",
  '"',
  "\\",
  "\n",
  "\u0001",
  "\u001f",
  "\u007f",
  "é",
  "😀",
  "\u2028",
  "/",
  " ",
  "0",
];
const NUMBERS = [
  "0",
  "-0",
  "1",
  "1.0",
  "1e2",
  "1E2",
  "1e+21",
  "1e21",
  "-1.5",
  "0.1",
  "1e400",
  "5e-7",
];
const KEYS = ["a", "b", "0", "10", "__proto__", "", "x y", "a"];

/** A JSON text in many spellings: escapes, number forms, keys that repeat or are integers. */
function jsonText(fuzz: Fuzz, depth = 0): string {
  const kind = fuzz.int(depth > 3 ? 4 : 6);
  if (kind === 0) return fuzz.pick(NUMBERS);
  if (kind === 1) return fuzz.pick(["true", "false", "null"]);
  if (kind < 4) {
    let text = "";
    for (let i = fuzz.int(6); i > 0; i--) text += fuzz.pick(CHARS);
    return spell(fuzz, JSON.stringify(text));
  }
  const items = Array.from({ length: fuzz.int(4) }, () => jsonText(fuzz, depth + 1));
  if (kind === 4) return `[${items.join(space(fuzz, ","))}]`;
  const members = items.map((item) =>
    `${spell(fuzz, JSON.stringify(fuzz.pick(KEYS)))}${space(fuzz, ":")}${item}`
  );
  return `{${members.join(space(fuzz, ","))}}`;
}

function space(fuzz: Fuzz, punctuation: string): string {
  return fuzz.chance(0.05) ? `${punctuation} ` : punctuation;
}

/** Writes a string token differently from `JSON.stringify`, now and then, keeping its value. */
function spell(fuzz: Fuzz, token: string): string {
  if (fuzz.chance(0.1)) return token.replaceAll("a", "\\u0061");
  if (fuzz.chance(0.1)) return token.replaceAll("\\n", "\\u000a");
  if (fuzz.chance(0.1)) return token.replaceAll("\\u001f", "\\u001F");
  if (fuzz.chance(0.1)) return token.replaceAll("/", "\\/");
  if (fuzz.chance(0.1)) return token.replaceAll("😀", "\\ud83d\\ude00");
  return token;
}

Deno.test("compactSpan() finds exactly the text JSON.stringify would write", () => {
  const fuzz = new Fuzz(SEED);
  let compact = 0;
  for (let i = 0; i < CASES; i++) {
    const text = `${fuzz.chance(0.1) ? "\n " : ""}${jsonText(fuzz)}${fuzz.chance(0.2) ? "\n" : ""}`;
    const value = JSON.parse(text);
    const span = compactSpan(text, { maxTokens: Infinity });
    if (span === undefined) continue;
    compact++;
    assert.equal(
      text.slice(span.start, span.end),
      JSON.stringify(value),
      `seed ${SEED}, case ${i}: ${JSON.stringify(text)}`,
    );
  }
  assert.ok(compact > CASES / 4, `only ${compact} compact cases`);
});

Deno.test("compactSpan() refuses what JSON.stringify writes differently", () => {
  for (
    const text of [
      '{"a": 1}',
      '{"a":1,"a":2}',
      '{"b":1,"1":2}',
      '["\\/"]',
      '["\\u0041"]',
      '["\\u001F"]',
      '["\\ud83d\\ude00"]',
      "[1.0]",
      "[-0]",
      "[1E2]",
      "[1e21]",
      "[ 1]",
    ]
  ) {
    assert.equal(compactSpan(text, { maxTokens: Infinity }), undefined, text);
  }
  assert.deepEqual(compactSpan(' {"a":"\\u001f\\n\\"\\\\"} \n'), { start: 1, end: 21 });
  // Many small tokens: not worth checking.
  assert.equal(compactSpan(JSON.stringify(Array.from({ length: 100 }, (_, i) => i))), undefined);
});

Deno.test("stdinBytes() passes a large compact input on as the bytes it came in", () => {
  const text = JSON.stringify({ text: "é".repeat(100_000), n: [1, 2.5, null] });
  const bytes = new TextEncoder().encode(`${text}\n`);
  const input = { text: `${text}\n`, bytes };
  const out = stdinBytes(JSON.parse(text), input);
  assert.equal(out.buffer, bytes.buffer, "not a copy");
  assert.equal(new TextDecoder().decode(out), text);
  const pretty = JSON.stringify(JSON.parse(text), null, 1);
  const encoded = stdinBytes(JSON.parse(pretty), { text: pretty, bytes: undefined });
  assert.equal(new TextDecoder().decode(encoded), text);
});

Deno.test("parseJsonc() reads what the JSONC parser reads, and as JSON.parse reads JSON", async () => {
  const fuzz = new Fuzz(SEED + 1);
  const pieces = ["/* c */", "// c\n", ",", " ", "\n", "/*", "//", '"', "\\", "]", "}", "'"];
  let accepted = 0;
  for (let i = 0; i < CASES; i++) {
    let text = JSON.stringify(JSON.parse(jsonText(fuzz)), null, fuzz.chance(0.5) ? 1 : undefined);
    for (let n = fuzz.int(4); n > 0; n--) {
      const at = fuzz.int(text.length + 1);
      text = text.slice(0, at) + fuzz.pick(pieces) + text.slice(at);
    }
    const label = `seed ${SEED + 1}, case ${i}: ${JSON.stringify(text)}`;
    const parsed = await parseJsonc(text, phrase("manifest.empty_file"));
    const errors: ParseError[] = [];
    const expected = jsoncParse(text, errors, { allowTrailingComma: true });
    assert.equal(parsed.ok, errors.length === 0 && text.trim() !== "", label);
    if (!parsed.ok) continue;
    accepted++;
    assert.equal(JSON.stringify(parsed.value), JSON.stringify(expected), label);
    try {
      assert.equal(JSON.stringify(parsed.value), JSON.stringify(JSON.parse(text)), label);
    } catch (error) {
      if (!(error instanceof SyntaxError)) throw error;
    }
  }
  assert.ok(accepted > CASES / 4, `only ${accepted} accepted cases`);
});
