/**
 * Redaction itself (`src/redact.ts`): what counts as a secret, how text
 * and streams are cleaned, and that a stream split anywhere gives what the text gives.
 *
 * @module
 */

import { deepStrictEqual, equal, ok } from "node:assert/strict";
import {
  callSecrets,
  isSecret,
  MIN_SECRET_LENGTH,
  REDACTED,
  Redactor,
  redactorOf,
} from "../src/redact.ts";
import { english, phrase } from "../src/locale/messages.ts";

const encoder = new TextEncoder();

/** Runs bytes through a redactor in the given pieces and joins what it gave out. */
function streamed(secrets: readonly string[], pieces: readonly Uint8Array[]): Uint8Array {
  const redactor = new Redactor(secrets).stream();
  const out: number[] = [];
  for (const piece of pieces) out.push(...redactor.push(piece));
  out.push(...redactor.flush());
  return new Uint8Array(out);
}

/** A small deterministic generator (mulberry32), so a failure can be replayed. */
function random(seed: number): (below: number) => number {
  let state = seed;
  return (below) => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * below);
  };
}

Deno.test("Redactor.text() hides every occurrence, and overlapping or adjacent secrets leave no fragment", () => {
  equal(
    redactorOf(["abc123"]).text("token=abc123 and abc123"),
    `token=${REDACTED} and ${REDACTED}`,
  );
  // Two secrets that overlap: neither leaves its tail ("xyz") or head behind.
  equal(redactorOf(["abcd1234", "1234xyz"]).text("<abcd1234xyz>"), `<${REDACTED}>`);
  // One inside another, and two side by side: one token a run.
  equal(redactorOf(["secret", "tsec"]).text("a-secretsecret-b"), `a-${REDACTED}-b`);
  equal(redactorOf(["aaaa"]).text("aaaaaa"), REDACTED);
  equal(redactorOf(["abc123"]).text("nothing here"), "nothing here");
});

Deno.test(`values under ${MIN_SECRET_LENGTH} characters, blank values and parts of [redacted] are not secrets`, () => {
  // Short values would mangle any text they occur in (a "1" in every number): they are shown.
  equal(MIN_SECRET_LENGTH, 4);
  for (const value of ["", "1", "on", "dev", "日本語", "    ", "\t\n  ", "dact", "[redacted]"]) {
    ok(!isSecret(value), JSON.stringify(value));
  }
  for (const value of ["abcd", "1234", "日本語だ", " ab "]) ok(isSecret(value), value);
  equal(redactorOf(["dev", "on", "1"]).text("dev on 1 of 3"), "dev on 1 of 3");
  deepStrictEqual(callSecrets({ A: "dev", B: "s3cr3t", C: "  " }, { D: "s3cr3t", E: "k-1234" }), [
    "s3cr3t",
    "k-1234",
  ]);
  // The stream redactor applies the same rule.
  equal(new TextDecoder().decode(streamed(["dev"], [encoder.encode("dev")])), "dev");
  const chunk = encoder.encode("abc    ");
  equal(new Redactor(["abc", "    "]).stream().push(chunk), chunk);
});

Deno.test("Redactor.phrase() hides secrets in every text placeholder, nested phrases' too", () => {
  const said = phrase("run.not_started", {
    label: phrase("label.tool", { tool: '"t"' }),
    reason: phrase("start.missing", { program: '"/opt/s3cr3t-dir/run"' }),
  });
  equal(
    english(redactorOf(["s3cr3t-dir"]).phrase(said)),
    'Tool "t" could not start: program "/opt/[redacted]/run" does not exist',
  );
});

Deno.test("StreamRedactor catches a secret split across chunks at every position", () => {
  const secret = "s3cr3t-value";
  const text = encoder.encode(`token=${secret}\n`);
  const expected = encoder.encode(`token=${REDACTED}\n`);
  for (let a = 0; a <= text.length; a++) {
    for (let b = a; b <= text.length; b++) {
      const pieces = [text.subarray(0, a), text.subarray(a, b), text.subarray(b)];
      deepStrictEqual(streamed([secret], pieces), expected, `split at ${a} and ${b}`);
    }
  }
});

Deno.test("StreamRedactor gives what Redactor.text() gives however the stream is split", () => {
  const next = random(20261201);
  const alphabet = ["a", "b", "c", "é", "€"];
  const pick = (count: number) =>
    Array.from({ length: count }, () => alphabet[next(alphabet.length)]).join("");
  for (let round = 0; round < 3000; round++) {
    const secrets = Array.from({ length: 1 + next(3) }, () => pick(4 + next(4)));
    const text = pick(next(80));
    const bytes = encoder.encode(text);
    const pieces: Uint8Array[] = [];
    for (let at = 0; at < bytes.length;) {
      const size = 1 + next(9);
      pieces.push(bytes.subarray(at, at + size));
      at += size;
    }
    const got = new TextDecoder().decode(streamed(secrets, pieces));
    equal(
      got,
      redactorOf(secrets).text(text),
      `round ${round}: ${JSON.stringify({ secrets, text })}`,
    );
  }
});

Deno.test("StreamRedactor holds back only a tail that may begin a secret, and at most its length less one", () => {
  const secret = "s3cr3t-value";
  const redactor = new Redactor([secret]).stream();
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  // Nothing that could begin the secret: it all goes out at once (a prompt is never delayed).
  equal(decode(redactor.push(encoder.encode("ready\n"))), "ready\n");
  // A tail that may begin it waits for the next read…
  equal(decode(redactor.push(encoder.encode("key=s3cr"))), "key=");
  // …and goes out as it is once the next read shows it was not the secret.
  equal(decode(redactor.push(encoder.encode("eam\n"))), "s3cream\n");
  // The longest tail held: the secret less its last byte.
  equal(decode(redactor.push(encoder.encode(secret.slice(0, -1)))), "");
  equal(decode(redactor.flush()), secret.slice(0, -1));
});

Deno.test("StreamRedactor passes bytes that are not UTF-8 through untouched but for the secrets", () => {
  const bytes = new Uint8Array([0xff, 0xfe, ...encoder.encode("k3y-9876"), 0xc3, 0x0a, 0xe2]);
  deepStrictEqual(
    streamed(["k3y-9876"], [bytes.subarray(0, 5), bytes.subarray(5)]),
    new Uint8Array([0xff, 0xfe, ...encoder.encode(REDACTED), 0xc3, 0x0a, 0xe2]),
  );
  // Without secrets each chunk comes back as it is, not a copy.
  const chunk = encoder.encode("plain");
  equal(new Redactor([]).stream().push(chunk), chunk);
});

Deno.test("Redactor.text() hides exactly the characters of every occurrence of any of many secrets (a brute-force reference)", () => {
  const next = random(7);
  const alphabet = ["a", "b", "ab", "é", "€", "x"];
  const pick = (count: number) =>
    Array.from({ length: count }, () => alphabet[next(alphabet.length)]).join("");
  for (let round = 0; round < 2000; round++) {
    const secrets = Array.from({ length: 1 + next(40) }, () => pick(2 + next(5)));
    const text = pick(next(120));
    // The reference: mark each character of each occurrence, then one token per marked run.
    const hidden = new Array<boolean>(text.length).fill(false);
    for (const secret of secrets.filter(isSecret)) {
      for (let at = text.indexOf(secret); at >= 0; at = text.indexOf(secret, at + 1)) {
        hidden.fill(true, at, at + secret.length);
      }
    }
    let expected = "";
    for (let i = 0; i < text.length; i++) {
      if (!hidden[i]) expected += text[i];
      else if (i === 0 || !hidden[i - 1]) expected += REDACTED;
    }
    equal(redactorOf(secrets).text(text), expected, JSON.stringify({ secrets, text }));
  }
});
