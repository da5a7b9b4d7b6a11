import assert from "node:assert/strict";
import { BasisError } from "../src/errors.ts";
import {
  addRule,
  checkRules,
  decideByRules,
  loadRules,
  matchPattern,
  removeRule,
  type Rule,
  RulesFileError,
  rulesFilePath,
  validateRulesDocument,
} from "../src/approval/rules/mod.ts";
import { denoRun } from "./_deno_run.ts";

const CHILD = new URL("./fixtures/rules/rules_child.ts", import.meta.url).pathname;
const WINDOWS = Deno.build.os === "windows";

// --- matching -----------------------------------------------------------------------------------

Deno.test("matchPattern() lets ? stand for exactly one Unicode character", () => {
  for (const text of ["abc", "a/c", "aéc", "a😀c", 'a"c', "a*c", "a?c"]) {
    assert.ok(matchPattern("a?c", text), text);
  }
  for (const text of ["ac", "abbc", "a😀😀c", "abcd", "xabc"]) {
    assert.ok(!matchPattern("a?c", text), text);
  }
  // An astral character is one character, not two UTF-16 units; a decomposed é is two.
  assert.ok(!matchPattern("a??c", "a😀c"));
  assert.ok(matchPattern("a??c", "ae\u0301c"));
  assert.ok(matchPattern("?", "😀"));
  assert.ok(!matchPattern("?", ""));
});

Deno.test("matchPattern() is anchored at both ends", () => {
  assert.ok(!matchPattern("cargo", "cargo test"));
  assert.ok(matchPattern("cargo*", "cargo test"));
  assert.ok(matchPattern("*test", "cargo test"));
  assert.ok(!matchPattern("test", "cargo test"));
  assert.ok(matchPattern("*go te*", "cargo test"));
});

Deno.test("matchPattern() with the empty pattern matches only the empty text", () => {
  assert.ok(matchPattern("", ""));
  assert.ok(!matchPattern("", "a"));
  assert.ok(!matchPattern("", " "));
});

Deno.test("matchPattern() lets * and ** match any run, including none, slashes and quotes", () => {
  for (const pattern of ["*", "**", "***"]) {
    for (const text of ["", "a", '{"a":"/b/c"}', "😀\n\t"]) assert.ok(matchPattern(pattern, text));
  }
  assert.ok(matchPattern("*a*b", "xaybzb"));
  assert.ok(!matchPattern("*a*b", "xaybz"));
  assert.ok(matchPattern("a**b", "ab"));
  assert.ok(matchPattern("a*/*c", "a/b/c"));
  assert.ok(matchPattern("*?", "x"));
  assert.ok(!matchPattern("*??", "x"));
});

Deno.test("matchPattern() finds a key anywhere in a spawn preview", () => {
  const preview = '{"mode":"command","body":"ls","cwd":"/w","target":"mac"}';
  assert.ok(matchPattern('**"target":"mac"**', preview));
  assert.ok(!matchPattern('**"target":"linux"**', preview));
  assert.ok(matchPattern('{"mode":"command","body":*,"cwd":"/w","target":"mac"}', preview));
});

Deno.test("matchPattern() treats everything but * and ? literally", () => {
  assert.ok(matchPattern('{"a":[1,2]}', '{"a":[1,2]}'));
  assert.ok(!matchPattern("[abc]", "a"));
  assert.ok(matchPattern("[abc]", "[abc]"));
  assert.ok(!matchPattern(".+", "ab"));
  assert.ok(!matchPattern("a{1,2}", "aa"));
  assert.ok(matchPattern("(a|b)$^", "(a|b)$^"));
  // No escapes: a backslash is a literal character and the * after it is still a wildcard.
  assert.ok(matchPattern("a\\*", "a\\xyz"));
  assert.ok(!matchPattern("a\\*", "a*"));
  assert.ok(!matchPattern("A", "a"));
});

Deno.test("matchPattern() answers a catastrophic pattern in linear-ish time", () => {
  const text = "a".repeat(10_000);
  const started = performance.now();
  assert.ok(!matchPattern("*a*a*a*a*a*a*b", text));
  assert.ok(matchPattern("*a*a*a*a*a*a*b", `${text}b`));
  assert.ok(!matchPattern("*a*a*a*a*a*a*b", `${text}b${text}`));
  assert.ok(!matchPattern(`${"*a".repeat(50)}*b`, text));
  const elapsed = performance.now() - started;
  assert.ok(elapsed < 250, `took ${elapsed.toFixed(1)} ms`);
});

Deno.test("matchPattern() agrees with an equivalent regular expression on random cases", () => {
  const alphabet = ["a", "b", "/", '"', "é", "😀"];
  const patternAlphabet = [...alphabet, "*", "?"];
  let seed = 42;
  const random = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };
  const pick = (chars: string[], max: number) =>
    Array.from({ length: random(max + 1) }, () => chars[random(chars.length)]).join("");
  for (let i = 0; i < 3000; i++) {
    const pattern = pick(patternAlphabet, 6);
    const text = pick(alphabet, 8);
    const source = [...pattern].map((c) =>
      c === "*" ? ".*" : c === "?" ? "." : c.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")
    ).join("");
    const expected = new RegExp(`^${source}$`, "su").test(text);
    assert.equal(matchPattern(pattern, text), expected, `${pattern} vs ${text}`);
  }
});

// --- precedence ---------------------------------------------------------------------------------

const PREVIEW = '{"tool":"sh","command":["rm","-rf","x"],"cwd":"/w","input":{}}';

function rule(id: string, fields: Partial<Rule>): Rule {
  return { id, tool: "sh", decision: "allow", scope: "global", ...fields };
}

/** The id of the rule that answers PREVIEW for tool "sh" in workspace "/w", unless told otherwise. */
function decide(rules: Rule[], where: { root?: string; tool?: string } = { root: "/w" }) {
  const { root, tool = "sh" } = where;
  return decideByRules(rules, { tool, previewText: PREVIEW, root })?.rule.id;
}

Deno.test("decideByRules() prefers a rule with a pattern over one without", () => {
  const bareDeny = rule("r-1", { decision: "deny" });
  const patternAllow = rule("r-2", { pattern: '*"rm"*' });
  assert.equal(decide([bareDeny, patternAllow]), "r-2");
  assert.equal(decide([patternAllow, bareDeny]), "r-2");
});

Deno.test("decideByRules() prefers deny over allow among equals", () => {
  const allow = rule("r-1", { pattern: "*" });
  const deny = rule("r-9", { pattern: '*"-rf"*', decision: "deny" });
  assert.equal(decide([allow, deny]), "r-9");
  assert.equal(decide([rule("r-1", {}), rule("r-2", { decision: "deny" })]), "r-2");
  // A global deny beats a workspace allow of the same kind.
  const workspaceAllow = rule("r-0", { pattern: "*", scope: { workspace: "/w" } });
  assert.equal(decide([workspaceAllow, deny]), "r-9");
});

Deno.test("decideByRules() breaks remaining ties by workspace scope, then by id", () => {
  const global = rule("r-a", { pattern: "*" });
  const local = rule("r-z", { pattern: "*", scope: { workspace: "/w" } });
  assert.equal(decide([global, local]), "r-z");
  assert.equal(decide([rule("r-b", { pattern: "*" }), rule("r-a", { pattern: "*" })]), "r-a");
  const all = [
    rule("r-5", {}),
    rule("r-4", { pattern: "*", scope: { workspace: "/w" } }),
    rule("r-3", { pattern: "*", decision: "deny" }),
    rule("r-2", { pattern: "*" }),
    rule("r-1", { decision: "deny" }),
  ];
  for (let i = 0; i < 10; i++) {
    const shuffled = [...all].sort(() => Math.random() - 0.5);
    assert.equal(decide(shuffled), "r-3");
  }
});

Deno.test("decideByRules() applies only this tool's rules, global or for this workspace", () => {
  const other = rule("r-1", { scope: { workspace: "/elsewhere" } });
  assert.equal(decide([other]), undefined);
  const global = rule("r-2", {});
  assert.equal(decide([other, global]), "r-2");
  assert.equal(decide([global], { root: "/anywhere/else" }), "r-2");
  assert.equal(decide([global], {}), "r-2");
  const here = rule("r-3", { scope: { workspace: "/w" } });
  assert.equal(decide([here], {}), undefined);
  assert.equal(decide([here], { root: "/w/sub" }), undefined);
  assert.equal(decide([here], { root: "/w" }), "r-3");
  assert.equal(decide([global], { root: "/w", tool: "bash" }), undefined);
});

Deno.test("decideByRules() skips a pattern that does not match and falls back to a bare rule", () => {
  const narrow = rule("r-1", { pattern: '*"ls"*', decision: "deny" });
  const bare = rule("r-2", {});
  assert.equal(decide([narrow, bare]), "r-2");
  assert.equal(decide([narrow]), undefined);
  assert.equal(decide([]), undefined);
  const found = decideByRules([bare], { tool: "sh", previewText: PREVIEW, root: "/w" });
  assert.deepEqual(found, { rule: bare, decision: "allow" });
});

// --- examples -----------------------------------------------------------------------------------

Deno.test("checkRules() reports each failing example with the rule's id", () => {
  const rules = [
    rule("r-ok", { pattern: "cargo*", match: ["cargo test"], not_match: ["npm test"] }),
    rule("r-narrow", { pattern: "cargo", match: ["cargo test"] }),
    rule("r-broad", { pattern: "*", not_match: ["rm"], decision: "deny" }),
    rule("r-bare", { not_match: ["x"] }),
  ];
  const problems = checkRules(rules);
  assert.deepEqual(problems.map((p) => [p.id, p.ignored]), [
    ["r-narrow", true],
    ["r-broad", false],
    ["r-bare", true],
  ]);
  assert.match(problems[0]!.reason, /^pattern does not match example match\[0\] "cargo test"$/);
  assert.match(problems[1]!.reason, /^pattern matches example not_match\[0\] "rm"$/);
  assert.match(problems[2]!.reason, /rule has no pattern/);
});

// --- storage ------------------------------------------------------------------------------------

async function scratch(): Promise<string> {
  return await Deno.makeTempDir({ prefix: "basis-rules-" });
}

async function entries(dir: string): Promise<string[]> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(dir)) names.push(entry.name);
  return names.sort();
}

async function child(args: string[], flags = ["-A"]): Promise<Record<string, unknown>> {
  const { code, stdout, stderr } = await denoRun(CHILD, flags, { args });
  assert.equal(code, 0, `child failed: ${stderr}`);
  return JSON.parse(stdout);
}

async function rejects(promise: Promise<unknown>, code: string, message: RegExp) {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof BasisError, String(error));
    assert.equal(error.code, code);
    assert.match(error.message, message);
    assert.ok(!error.message.includes("\n"), "one line");
    return true;
  });
}

async function writeRules(dir: string, content: unknown, mode = 0o600): Promise<string> {
  const file = rulesFilePath(dir);
  const text = typeof content === "string" ? content : JSON.stringify(content);
  await Deno.writeTextFile(file, text, { mode });
  if (!WINDOWS) await Deno.chmod(file, mode);
  return file;
}

const STORED = {
  id: "r-aaaaaaaa",
  tool: "sh",
  decision: "allow",
  scope: "global",
} as const;

Deno.test("loadRules() with no file gives no rules", async () => {
  const dir = await scratch();
  const loaded = await loadRules(`${dir}/missing`);
  assert.deepEqual(loaded, {
    file: `${dir}/missing/rules.json`,
    rules: [],
    ignored: [],
    problems: [],
  });
  await Deno.remove(dir, { recursive: true });
});

Deno.test("addRule() creates the directory and writes the file atomically, leaving no temp file", async () => {
  const dir = await scratch();
  const config = `${dir}/config/basis`;
  const added = await addRule(config, {
    tool: "cargo",
    pattern: '*"cargo","test"*',
    decision: "allow",
    reason: "tests are safe",
    scope: { workspace: "/home/u/app/../app/" },
    match: ['{"tool":"cargo","command":["cargo","test"]}'],
  });
  assert.match(added.id, /^r-[a-z2-7]{8}$/);
  assert.deepEqual(added.scope, { workspace: "/home/u/app" });
  assert.ok(!Number.isNaN(Date.parse(added.created ?? "")));
  assert.deepEqual(Object.keys(added), [
    "id",
    "tool",
    "pattern",
    "decision",
    "reason",
    "scope",
    "match",
    "created",
  ]);
  assert.deepEqual(await entries(config), ["rules.json", "rules.json.lock"]);
  const text = await Deno.readTextFile(rulesFilePath(config));
  assert.deepEqual(JSON.parse(text), { version: 1, rules: [added] });
  if (!WINDOWS) {
    assert.equal((await Deno.stat(config)).mode! & 0o777, 0o700);
    assert.equal((await Deno.stat(rulesFilePath(config))).mode! & 0o777, 0o600);
  }
  const second = await addRule(config, { tool: "ls", decision: "deny", scope: "global" });
  const loaded = await loadRules(config);
  assert.deepEqual(loaded.rules, [added, second]);
  assert.deepEqual(await entries(config), ["rules.json", "rules.json.lock"]);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("addRule() refuses a malformed rule or one whose examples fail", async () => {
  const dir = await scratch();
  await rejects(
    addRule(dir, { tool: "sh", decision: "allow", scope: { workspace: "relative/root" } }),
    "usage",
    /^Cannot add rule for tool "sh": scope: workspace: must be an absolute, normalised path$/,
  );
  await rejects(
    addRule(dir, { tool: "sh", decision: "maybe" as "allow", scope: "global" }),
    "usage",
    /decision: must be "allow" or "deny"/,
  );
  await rejects(
    addRule(dir, {
      tool: "sh",
      pattern: "cargo",
      decision: "deny",
      scope: "global",
      match: ["cargo test"],
    }),
    "usage",
    /^Cannot add rule for tool "sh": pattern does not match example match\[0\] "cargo test"$/,
  );
  assert.deepEqual(await entries(dir), []);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("addRule() from 20 processes at once keeps all 20 rules in a valid file", async () => {
  const dir = await scratch();
  const config = `${dir}/basis`;
  const results = await Promise.all(
    Array.from({ length: 20 }, (_, n) =>
      child([
        "add",
        config,
        JSON.stringify({ tool: `tool-${n}`, decision: "allow", scope: "global" }),
      ])),
  );
  for (const result of results) assert.ok(result.ok, JSON.stringify(result));
  const loaded = await loadRules(config);
  assert.equal(loaded.rules.length, 20);
  assert.deepEqual(
    loaded.rules.map((r) => r.tool).sort(),
    Array.from({ length: 20 }, (_, n) => `tool-${n}`).sort(),
  );
  assert.equal(new Set(loaded.rules.map((r) => r.id)).size, 20);
  assert.deepEqual(await entries(config), ["rules.json", "rules.json.lock"]);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("addRule() called 20 times at once in one process keeps all 20 rules", async () => {
  const dir = await scratch();
  await Promise.all(
    Array.from(
      { length: 20 },
      (_, n) => addRule(dir, { tool: `tool-${n}`, decision: "deny", scope: "global" }),
    ),
  );
  assert.equal((await loadRules(dir)).rules.length, 20);
  assert.deepEqual(await entries(dir), ["rules.json", "rules.json.lock"]);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("removeRule() removes by id and reports an unknown id clearly", async () => {
  const dir = await scratch();
  await rejects(removeRule(`${dir}/none`, "r-nothing1"), "usage", /no rule has that id/);
  const keep = await addRule(dir, { tool: "a", decision: "allow", scope: "global" });
  const drop = await addRule(dir, { tool: "b", decision: "deny", scope: "global" });
  assert.deepEqual(await removeRule(dir, drop.id), drop);
  assert.deepEqual((await loadRules(dir)).rules, [keep]);
  const file = rulesFilePath(dir);
  await rejects(
    removeRule(dir, drop.id),
    "usage",
    new RegExp(`^Cannot remove rule "${drop.id}": no rule has that id in "${file}"$`),
  );
  assert.deepEqual(await entries(dir), ["rules.json", "rules.json.lock"]);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("loadRules() refuses corrupt JSON with the file and line:column", async () => {
  const dir = await scratch();
  const file = await writeRules(
    dir,
    '{\n  "version": 1,\n  "rules": [\n    {"id": "x",}\n  ]\n}\n',
  );
  await assert.rejects(loadRules(dir), (error: unknown) => {
    assert.ok(error instanceof RulesFileError);
    assert.equal(error.code, "denied");
    assert.equal(error.file, file);
    assert.equal(
      error.message,
      `Cannot load rules "${file}": invalid JSON: unexpected "}", expected a property name in double quotes at 4:16`,
    );
    return true;
  });
  await writeRules(dir, "");
  await rejects(loadRules(dir), "denied", /: empty file$/);
  await writeRules(dir, '{"version": 1, "rules": []} // note');
  await rejects(loadRules(dir), "denied", /: invalid JSON: comments are not allowed at 1:29$/);
  await Deno.writeFile(rulesFilePath(dir), new Uint8Array([0x7b, 0xff, 0x7d]));
  await rejects(loadRules(dir), "denied", /: not valid UTF-8$/);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("loadRules() refuses a file of the wrong shape", async () => {
  const dir = await scratch();
  const cases: [unknown, RegExp][] = [
    [[], /: must be an object/],
    [{ version: 1 }, /: rules: must be an array$/],
    [{ version: 1, rules: [], extra: 1 }, /: unknown field "extra"$/],
    [
      { version: 1, rules: [{ ...STORED, patern: "*ls*" }] },
      /rules\[0\] "r-aaaaaaaa": unknown field "patern"$/,
    ],
    [
      { version: 1, rules: [{ ...STORED, decision: "yes" }] },
      /decision: must be "allow" or "deny"$/,
    ],
    [
      { version: 1, rules: [{ ...STORED, scope: { workspace: "w" } }] },
      /scope: workspace: must be/,
    ],
    [{ version: 1, rules: [{ ...STORED, scope: "local" }] }, /scope: must be "global" or/],
    [{ version: 1, rules: [{ ...STORED, match: "x" }] }, /match: must be an array of strings$/],
    [
      { version: 1, rules: [STORED, STORED] },
      /rules\[1\] "r-aaaaaaaa": id: used by an earlier rule$/,
    ],
    [{ version: 1, rules: [{ ...STORED, id: "" }] }, /rules\[0\] "": id: must be/],
    [
      { version: 1, rules: [{ ...STORED, reason: "a\nb" }] },
      /reason: must be a string of one line$/,
    ],
    [
      JSON.parse(
        '{"version":1,"rules":[{"__proto__":{"decision":"allow"},"id":"r-1","tool":"t","scope":"global"}]}',
      ),
      /unknown field "__proto__"/,
    ],
  ];
  for (const [content, message] of cases) {
    await writeRules(dir, content);
    await rejects(loadRules(dir), "denied", message);
  }
  await writeRules(dir, { version: 1, rules: [{ ...STORED, tool: 1, decision: "x" }] });
  await assert.rejects(loadRules(dir), (error: unknown) => {
    assert.ok(error instanceof RulesFileError);
    assert.equal(error.problems.length, 2);
    assert.match(error.message, /tool: must be a non-empty string \(and 1 more problem\)$/);
    return true;
  });
  await Deno.remove(dir, { recursive: true });
});

Deno.test("loadRules() refuses an unknown version, older or newer", async () => {
  const dir = await scratch();
  const cases: [unknown, RegExp][] = [
    [{ version: 2, rules: [] }, /: unsupported version 2: written by a newer basis-tools/],
    [{ version: 0, rules: [] }, /: unsupported version 0 \(expected 1\)$/],
    [{ version: "1", rules: [] }, /: unsupported version of type string \(expected 1\)$/],
    [{ rules: [] }, /: missing "version" \(expected 1\)$/],
  ];
  for (const [content, message] of cases) {
    const file = await writeRules(dir, content);
    await rejects(loadRules(dir), "denied", new RegExp(`^Cannot load rules "${file}"`));
    await rejects(loadRules(dir), "denied", message);
  }
  assert.ok(validateRulesDocument({ version: 1, rules: [STORED] }).ok);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("loadRules() refuses a file it cannot read", async () => {
  const dir = await scratch();
  const file = await writeRules(dir, { version: 1, rules: [STORED] });
  const result = await child(["load", dir], [`--allow-read`, `--deny-read=${file}`]);
  const error = result.error as { code: string; message: string };
  assert.equal(error.code, "denied");
  assert.match(error.message, new RegExp(`^Cannot load rules "${file}": cannot be read`));
  await Deno.remove(dir, { recursive: true });
});

Deno.test(
  "loadRules() refuses a file that group or others can write",
  { ignore: WINDOWS },
  async () => {
    const dir = await scratch();
    await writeRules(dir, { version: 1, rules: [STORED] }, 0o666);
    await rejects(loadRules(dir), "denied", /writable by group or others \(mode 0666\)/);
    await Deno.chmod(rulesFilePath(dir), 0o644);
    assert.equal((await loadRules(dir)).rules.length, 1);
    await Deno.remove(dir, { recursive: true });
  },
);

Deno.test("addRule() and removeRule() leave a corrupt file as it is", async () => {
  const dir = await scratch();
  const file = await writeRules(dir, '{"version": 1, "rules": [');
  await rejects(
    addRule(dir, { tool: "a", decision: "allow", scope: "global" }),
    "denied",
    /invalid JSON/,
  );
  await rejects(removeRule(dir, "r-aaaaaaaa"), "denied", /invalid JSON/);
  assert.equal(await Deno.readTextFile(file), '{"version": 1, "rules": [');
  await Deno.remove(dir, { recursive: true });
});

Deno.test("a failed write never loses the existing rules and leaves no temp file", async () => {
  const dir = await scratch();
  const kept = await addRule(dir, { tool: "a", decision: "allow", scope: "global" });
  const before = await Deno.readTextFile(rulesFilePath(dir));
  // Only the lock file is writable: the temporary file cannot be created.
  const flags = ["--allow-read", `--allow-write=${dir}/rules.json.lock`];
  const rule = JSON.stringify({ tool: "b", decision: "allow", scope: "global" });
  const result = await child(["add", dir, rule], flags);
  const error = result.error as { code: string; message: string };
  assert.equal(error.code, "denied");
  assert.match(error.message, new RegExp(`^Cannot save rules "${dir}/rules.json": `));
  assert.equal(await Deno.readTextFile(rulesFilePath(dir)), before);
  assert.deepEqual((await loadRules(dir)).rules, [kept]);
  assert.deepEqual(await entries(dir), ["rules.json", "rules.json.lock"]);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("a write removes temp files a crashed writer left behind", async () => {
  const dir = await scratch();
  await Deno.writeTextFile(`${dir}/.rules.json.123-abcdefgh.tmp`, "{half");
  await addRule(dir, { tool: "a", decision: "allow", scope: "global" });
  assert.deepEqual(await entries(dir), ["rules.json", "rules.json.lock"]);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("loadRules() ignores an allow rule whose examples fail but keeps such a deny rule", async () => {
  const dir = await scratch();
  const brokenAllow = { ...STORED, id: "r-allow", pattern: "cargo", match: ["cargo test"] };
  const brokenDeny = { ...STORED, id: "r-deny", pattern: "*", decision: "deny", not_match: ["x"] };
  const fine = { ...STORED, id: "r-fine", tool: "ls" };
  await writeRules(dir, { version: 1, rules: [brokenAllow, brokenDeny, fine] });
  const loaded = await loadRules(dir);
  assert.deepEqual(loaded.rules.map((r) => r.id), ["r-deny", "r-fine"]);
  assert.deepEqual(loaded.ignored.map((r) => r.id), ["r-allow"]);
  assert.deepEqual(loaded.problems.map((p) => [p.id, p.ignored]), [
    ["r-allow", true],
    ["r-deny", false],
  ]);
  const query = { tool: "sh", previewText: "cargo", root: "/w" };
  assert.equal(decideByRules(loaded.rules, query)?.decision, "deny");
  await Deno.remove(dir, { recursive: true });
});

Deno.test("a workspace's .basis/rules.json is never read", async () => {
  const dir = await scratch();
  const workspace = `${dir}/repo`;
  const config = `${dir}/config`;
  await Deno.mkdir(`${workspace}/.basis`, { recursive: true });
  const allowAll = [
    { ...STORED, id: "r-evil1", scope: { workspace } },
    { ...STORED, id: "r-evil2", pattern: "*" },
  ];
  await Deno.writeTextFile(
    `${workspace}/.basis/rules.json`,
    JSON.stringify({ version: 1, rules: allowAll }),
  );
  await Deno.mkdir(config);
  const loaded = await loadRules(config);
  assert.deepEqual(loaded.rules, []);
  const previewText = JSON.stringify({ tool: "sh", command: ["sh"], cwd: workspace, input: {} });
  assert.equal(
    decideByRules(loaded.rules, { tool: "sh", previewText, root: workspace }),
    undefined,
  );
  await Deno.remove(dir, { recursive: true });
});
