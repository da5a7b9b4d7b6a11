import assert from "node:assert/strict";
import { english, phrase } from "../src/locale/messages.ts";
import { parseSpawnInput } from "../src/spawn/grammar.ts";
import type { SpawnCall } from "../src/spawn/types.ts";
import type { Phrase } from "../src/locale/messages.ts";
import { opening, wording } from "./_wording.ts";

function call(input: unknown): SpawnCall {
  const parsed = parseSpawnInput(input);
  assert.ok(
    parsed.ok,
    `expected a call for ${JSON.stringify(input)}, got ${JSON.stringify(parsed)}`,
  );
  return parsed.call;
}

function refusal(input: unknown): string {
  const parsed = parseSpawnInput(input);
  assert.ok(
    !parsed.ok,
    `expected a refusal for ${JSON.stringify(input)}, got ${JSON.stringify(parsed)}`,
  );
  const message = english(parsed.phrase);
  assert.ok(!message.includes("\n"), "a refusal is one line");
  assert.equal(parsed.phrase.key, "input.refused");
  assert.match(message, opening("input.refused", { tool: '"spawn"' }));
  return message;
}

/**
 * Why the input is refused: the reason's phrase key without `spawn.input.`, and its parameters
 * (the refusal's line is checked by {@linkcode refusal}).
 */
function problem(input: unknown): { kind: string } & Record<string, unknown> {
  refusal(input);
  const parsed = parseSpawnInput(input);
  assert.ok(!parsed.ok);
  const reason = parsed.phrase.params?.reason as Phrase;
  return { kind: reason.key.replace("spawn.input.", ""), ...reason.params };
}

Deno.test("parseSpawnInput() refuses input without a string `input`, naming it", () => {
  for (const input of [{}, { input: 7 }, { command: "ls" }, { input: null }, { input: ["!ls"] }]) {
    assert.match(refusal(input), /\/input: /);
  }
  assert.deepEqual(problem({}), { kind: "missing" });
  assert.deepEqual(problem({ input: 7 }), { kind: "not_string", found: phrase("found.number") });
  assert.match(
    refusal({ input: 7 }),
    wording("input.refused", {
      pointer: "/input",
      reason: phrase("spawn.input.not_string", { found: phrase("found.number") }),
    }),
  );
  assert.deepEqual(problem({ command: "ls" }), { kind: "missing" });
});

Deno.test("parseSpawnInput() refuses input that is not an object, and unknown properties", () => {
  for (const input of [null, [], "!ls", 7]) assert.match(refusal(input), /"input"/);
  assert.deepEqual(problem({ input: "!ls", extra: 1 }), { kind: "extra" });
  assert.match(refusal({ input: "!ls", extra: 1 }), /\/extra: /);
});

Deno.test("parseSpawnInput() trims ASCII and Unicode white space once", () => {
  assert.deepEqual(call({ input: "  \t\n!ls -la\r\n " }), { mode: "command", body: "ls -la" });
  // No-break space, em space, ideographic space, line separator, BOM, NEL.
  const unicode = "\u00a0\u2003\u3000\u2028\ufeff\u0085";
  assert.deepEqual(call({ input: `${unicode}!ls${unicode}` }), { mode: "command", body: "ls" });
  assert.deepEqual(call({ input: `${unicode}write a poem${unicode}` }), {
    mode: "agent",
    body: "write a poem",
  });
  // Inside the body, white space is kept as written.
  assert.deepEqual(call({ input: "  sum up\n\nthe log  " }), {
    mode: "agent",
    body: "sum up\n\nthe log",
  });
});

Deno.test("parseSpawnInput() without a leading ! is a task; empty is refused", () => {
  assert.deepEqual(call({ input: "summarise README.md" }), {
    mode: "agent",
    body: "summarise README.md",
  });
  assert.deepEqual(call({ input: "a ! later is fine" }), {
    mode: "agent",
    body: "a ! later is fine",
  });
  for (const input of ["", "   ", "\n\t", "\u3000"]) {
    assert.deepEqual(problem({ input }), { kind: "empty" });
  }
});

Deno.test("parseSpawnInput() !! consumes exactly one ! and is a task", () => {
  assert.deepEqual(call({ input: "!!rest" }), { mode: "agent", body: "!rest" });
  assert.deepEqual(call({ input: "!!!x" }), { mode: "agent", body: "!!x" });
  assert.deepEqual(call({ input: "!!" }), { mode: "agent", body: "!" });
  assert.deepEqual(call({ input: "!!@mac ls" }), { mode: "agent", body: "!@mac ls" });
  assert.deepEqual(call({ input: " !! x " }), { mode: "agent", body: "! x" });
});

Deno.test("parseSpawnInput() !@name body is a command on a target", () => {
  assert.deepEqual(call({ input: "!@mac ls -la" }), {
    mode: "command",
    body: "ls -la",
    target: "mac",
  });
  assert.deepEqual(call({ input: "!@build-box_2 make  all" }), {
    mode: "command",
    body: "make  all",
    target: "build-box_2",
  });
  // Split at the first white space of any kind; the body is trimmed.
  assert.deepEqual(call({ input: "!@mac\tls" }), { mode: "command", body: "ls", target: "mac" });
  assert.deepEqual(call({ input: "!@mac \u3000 ls" }), {
    mode: "command",
    body: "ls",
    target: "mac",
  });
  // Case-sensitive: only "local" is reserved.
  assert.deepEqual(call({ input: "!@LOCAL ls" }), { mode: "command", body: "ls", target: "LOCAL" });
  assert.deepEqual(call({ input: "!@Local ls" }), { mode: "command", body: "ls", target: "Local" });
});

Deno.test("parseSpawnInput() !@ without a name teaches !@<target> <command>", () => {
  for (const input of ["!@", "!@ mac ls", "!@\tmac ls", " !@ "]) {
    assert.deepEqual(problem({ input }), { kind: "no_target" }, input);
  }
});

Deno.test("parseSpawnInput() refuses a target name with other characters", () => {
  for (const input of ["!@ma/c ls", '!@"mac" ls', "!@mac: ls", "!@ma.c ls", "!@mäc ls", "!@ma/c"]) {
    assert.equal(problem({ input }).kind, "bad_target", input);
  }
  assert.deepEqual(problem({ input: "!@ma/c ls" }), { kind: "bad_target", name: '"ma/c"' });
  assert.match(refusal({ input: "!@ma/c ls" }), /"ma\/c"/);
});

Deno.test("parseSpawnInput() refuses !@local: a plain !cmd already runs here", () => {
  assert.deepEqual(problem({ input: "!@local ls" }), { kind: "local_target" });
  // Checked before the missing command.
  assert.deepEqual(problem({ input: "!@local" }), { kind: "local_target" });
});

Deno.test("parseSpawnInput() refuses a target without a command", () => {
  for (const input of ["!@mac", "!@mac   ", "!@mac \n\t"]) {
    assert.deepEqual(problem({ input }), { kind: "target_no_command", name: "mac" }, input);
  }
});

Deno.test("parseSpawnInput() checks !@ in order: name, characters, local, command", () => {
  // A bad character wins over a missing command; a missing name wins over everything.
  assert.equal(problem({ input: "!@ma/c" }).kind, "bad_target");
  assert.equal(problem({ input: "!@ local" }).kind, "no_target");
  assert.equal(problem({ input: "!@local" }).kind, "local_target");
});

Deno.test("parseSpawnInput() !body is a local command, trimmed; not targeted after a space", () => {
  assert.deepEqual(call({ input: "!ls" }), { mode: "command", body: "ls" });
  assert.deepEqual(call({ input: "! ls" }), { mode: "command", body: "ls" });
  assert.deepEqual(call({ input: "!  @mac ls" }), { mode: "command", body: "@mac ls" });
  assert.deepEqual(call({ input: "!cargo test -- --nocapture" }), {
    mode: "command",
    body: "cargo test -- --nocapture",
  });
  const multiline = call({ input: "!\n  set -e\n  make\n" });
  assert.deepEqual(multiline, { mode: "command", body: "set -e\n  make" });
});

Deno.test("parseSpawnInput() refuses ! without a command, with an example", () => {
  for (const input of ["!", "!   ", " ! \n", "!\u3000"]) {
    assert.deepEqual(problem({ input }), { kind: "no_command" }, JSON.stringify(input));
  }
});

Deno.test("parseSpawnInput() leaves the target out of a local command entirely", () => {
  const parsed = call({ input: "!ls" });
  assert.ok(!("target" in parsed));
});
