import assert from "node:assert/strict";
import { BasisError } from "../src/errors.ts";
import { english, loadLocale, messages, phrase } from "../src/locale/messages.ts";
import { addRule, loadRules, removeRule, rulesFilePath } from "../src/approval/rules/store.ts";
import { checkRules } from "../src/approval/rules/check.ts";
import { commandPieces, isSimpleCommand, matchGlob } from "../src/approval/rules/glob.ts";
import { decideCall } from "../src/approval/rules/decide.ts";
import { pinConditions } from "../src/approval/rules/pin.ts";
import type { Rule, RuleInput } from "../src/approval/rules/types.ts";
import { RulesFileError } from "../src/approval/rules/errors.ts";
import { validateRulesDocument } from "../src/approval/rules/validate.ts";
import type { RuleQuery, ToolConditions } from "../src/approval/rules/types.ts";
import type { ToolPreview } from "../src/approval/preview.ts";
import { isSecret } from "../src/redact.ts";
import { cli, type CliOptions, type Scratch, scratch, scratch as cliScratch } from "./_cli.ts";
import { denoRun } from "./_deno_run.ts";
import { Fuzz } from "./_fuzz.ts";
import { tempDir } from "./_scratch.ts";
import { DeclaredToolBuilder, ToolError } from "../src/mod.ts";
import { toolSpec, UNCONFINED_SANDBOX } from "./_fixtures.ts";
import { errorLine, escape, opening, say, wording } from "./_wording.ts";
import type { RuleConditions } from "../src/approval/rules/types.ts";
import type { Pinned } from "../src/approval/rules/pin.ts";
import { sealSecrets } from "../src/approval/rules/_seal.ts";

/** What is stored for what "always allow" pins: its conditions, each secret sealed by digest. */
async function storedWhen(pinned: Pinned, secrets: readonly string[]): Promise<RuleConditions> {
  const when = await pinConditions(pinned);
  const input = { tool: "t", decision: "allow", scope: "global", when } as RuleInput;
  return (await sealSecrets(input, secrets)).when;
}

const CHILD = new URL("./fixtures/rules/rules_child.ts", import.meta.url).pathname;
const WINDOWS = Deno.build.os === "windows";

// --- globs: one field at a time -------------------------------------------------------------------

Deno.test("matchGlob() lets ? stand for exactly one Unicode character", () => {
  for (const text of ["abc", "a/c", "aéc", "a😀c", 'a"c', "a*c", "a?c"]) {
    assert.ok(matchGlob("a?c", text), text);
  }
  for (const text of ["ac", "abbc", "a😀😀c", "abcd", "xabc"]) {
    assert.ok(!matchGlob("a?c", text), text);
  }
  assert.ok(!matchGlob("a??c", "a😀c"));
  assert.ok(matchGlob("a??c", "ae\u0301c"));
  assert.ok(matchGlob("?", "😀"));
  assert.ok(!matchGlob("?", ""));
});

Deno.test("matchGlob() is anchored at both ends, * matching any run within the field", () => {
  assert.ok(!matchGlob("cargo", "cargo test"));
  assert.ok(matchGlob("cargo*", "cargo test"));
  assert.ok(matchGlob("*test", "cargo test"));
  assert.ok(matchGlob("*go te*", "cargo test"));
  assert.ok(matchGlob("", ""));
  assert.ok(!matchGlob("", "a"));
  for (const glob of ["*", "**"]) assert.ok(matchGlob(glob, "") && matchGlob(glob, "a/b c"));
  assert.ok(matchGlob("*a*b", "xaybzb"));
  assert.ok(!matchGlob("*a*b", "xaybz"));
  assert.ok(matchGlob("*😀", "x😀"));
});

Deno.test("matchGlob() escapes with a backslash, and a lone trailing backslash matches nothing", () => {
  assert.ok(matchGlob("a\\*", "a*"));
  assert.ok(!matchGlob("a\\*", "ab"));
  assert.ok(matchGlob("a\\?", "a?"));
  assert.ok(!matchGlob("a\\?", "ab"));
  assert.ok(matchGlob("a\\\\*", "a\\xyz"));
  assert.ok(!matchGlob("a\\", "a\\"));
  assert.ok(matchGlob("[abc]{1}.+", "[abc]{1}.+"));
});

Deno.test("matchGlob() answers a catastrophic glob in linear-ish time", () => {
  const text = "a".repeat(10_000);
  assert.ok(!matchGlob("*a*a*a*a*a*a*b", text));
  assert.ok(matchGlob("*a*a*a*a*a*a*b", `${text}b`));
  assert.ok(!matchGlob(`${"*a".repeat(50)}*b`, text));
});

Deno.test("matchGlob() agrees with an equivalent regular expression on random cases", () => {
  const random = new Fuzz(42);
  const alphabet = ["a", "b", "/", '"', "é", "😀"];
  const globAlphabet = [...alphabet, "*", "?", "\\*", "\\?", "\\\\"];
  const pick = (chars: string[], max: number) =>
    Array.from({ length: random.int(max + 1) }, () => chars[random.int(chars.length)]).join("");
  for (let i = 0; i < 3000; i++) {
    const glob = pick(globAlphabet, 6);
    const text = pick([...alphabet, "*", "?", "\\"], 8);
    let source = "";
    for (let at = 0; at < glob.length; at++) {
      const c = glob[at] as string;
      if (c === "\\") source += `\\${glob[++at]}`.replace(/^\\([^*?\\])/, "$1");
      else if (c === "*") source += ".*";
      else if (c === "?") source += ".";
      else source += c.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
    }
    const expected = new RegExp(`^${source}$`, "su").test(text);
    assert.equal(matchGlob(glob, text), expected, `${glob} vs ${text}`);
  }
});

// --- shell text -----------------------------------------------------------------------------------

Deno.test("isSimpleCommand() refuses every kind of control syntax, quoted or not", () => {
  for (const body of ["cargo test", "ls -la src/", "git log --oneline -n 5", "echo 'hi there'"]) {
    assert.ok(isSimpleCommand(body), body);
  }
  const compound = [
    "a; b",
    "a & b",
    "a && b",
    "a | b",
    "a || b",
    "a `b`",
    "a $(b)",
    "a $HOME",
    "a > f",
    "a < f",
    "a\nb",
    "a\rb",
    "(a)",
    "echo 'x;y'",
    "a \\\nb",
    "a\u0000b",
  ];
  for (const body of compound) assert.ok(!isSimpleCommand(body), JSON.stringify(body));
});

Deno.test("commandPieces() cuts a command line at its control operators", () => {
  assert.deepEqual(commandPieces("ls; rm -rf x && echo $(cat y)|wc"), [
    "ls",
    "rm -rf x",
    "echo",
    "cat y",
    "wc",
  ]);
});

// --- which rule answers -------------------------------------------------------------------------

const PREVIEW: ToolPreview = {
  tool: "sh",
  program: "/bin/rm",
  command: ["rm", "-rf", "x"],
  cwd: "/w",
  env: [],
  sandbox: "unconfined",
  input: { path: "x", n: 1, nested: { deep: ["a", "b"] } },
};

function rule(id: string, fields: Partial<Rule> = {}): Rule {
  return {
    id,
    tool: "sh",
    decision: "allow",
    scope: "global",
    when: { program: "/bin/rm" },
    ...fields,
  };
}

function query(
  preview: ToolPreview = PREVIEW,
  where: { root?: string | undefined; fromWorkspace?: boolean; env?: Record<string, string> } = {},
): RuleQuery {
  const env = where.env ?? {};
  return {
    tool: preview.tool,
    kind: "tool",
    preview: { ...preview, env: Object.keys(env).sort() },
    sideEffect: "process",
    env,
    root: "root" in where ? where.root : "/w",
    source: where.fromWorkspace ? "workspace" : "global",
  };
}

async function winner(rules: Rule[], q: RuleQuery = query()): Promise<string | undefined> {
  return (await decideCall(rules, q)).match?.id;
}

Deno.test("decideCall(): deny beats ask beats allow, however narrow the weaker rule", async () => {
  const narrowAllow = rule("r-1", {
    when: {
      program: "/bin/rm",
      argv: ["rm", "-rf", "x"],
      cwd: "/w",
      input: { "/n": { equals: 1 } },
    },
  });
  const broadAsk = rule("r-2", { decision: "ask" });
  const broadDeny = rule("r-3", { decision: "deny", when: {} });
  assert.equal(await winner([narrowAllow]), "r-1");
  assert.equal(await winner([narrowAllow, broadAsk]), "r-2");
  assert.equal(await winner([broadAsk, narrowAllow, broadDeny]), "r-3");
  for (let i = 0; i < 10; i++) {
    const shuffled = [narrowAllow, broadAsk, broadDeny].sort(() => Math.random() - 0.5);
    assert.equal(await winner(shuffled), "r-3");
  }
});

Deno.test("decideCall(): among equals a workspace rule is named first, then the smaller id", async () => {
  const global = rule("r-a");
  const local = rule("r-z", { scope: { workspace: "/w" } });
  assert.equal(await winner([global, local]), "r-z");
  assert.equal(await winner([rule("r-b"), rule("r-a")]), "r-a");
});

Deno.test("decideCall() applies only this tool's rules, global or for this exact root", async () => {
  const other = rule("r-1", { scope: { workspace: "/elsewhere" } });
  assert.equal(await winner([other]), undefined);
  const here = rule("r-3", { scope: { workspace: "/w" } });
  assert.equal(await winner([here], query(PREVIEW, { root: "/w/sub" })), undefined);
  assert.equal(await winner([here], query(PREVIEW, { root: undefined })), undefined);
  assert.equal(await winner([rule("r-2")], query(PREVIEW, { root: "/anywhere" })), "r-2");
  assert.equal(await winner([rule("r-4", { tool: "bash" })]), undefined);
});

Deno.test("decideCall() checks each condition on its own field", async () => {
  const cases: [ToolConditions, boolean][] = [
    [{ program: "/bin/rm" }, true],
    [{ program: "/usr/bin/rm" }, false],
    [{ program: "/bin/rm", argv: ["rm", "-rf", "x"] }, true],
    [{ program: "/bin/rm", argv: ["rm", "-rf"] }, false],
    [{ program: "/bin/rm", argv: ["rm", "-rf", "x", "y"] }, false],
    [{ program: "/bin/rm", argv: ["rm", { rest: true }] }, true],
    [{ program: "/bin/rm", argv: ["rm", "-rf", "x", { rest: true }] }, true],
    [{ program: "/bin/rm", argv: ["rm", "-rf", "x", "y", { rest: true }] }, false],
    [{ program: "/bin/rm", argv: [{ glob: "r*" }, { glob: "-*" }, { glob: "?" }] }, true],
    // A glob never reaches into the next argument.
    [{ program: "/bin/rm", argv: [{ glob: "rm*" }, "x"] }, false],
    [{ program: "/bin/rm", argv: [{ glob: "*" }, { rest: true }] }, true],
    [{ program: "/bin/rm", cwd: "/w" }, true],
    [{ program: "/bin/rm", cwd: { glob: "/*" } }, true],
    [{ program: "/bin/rm", cwd: "/w/" }, false],
    [{ program: "/bin/rm", input: { "/path": { equals: "x" } } }, true],
    [{ program: "/bin/rm", input: { "/path": { glob: "?" } } }, true],
    [{ program: "/bin/rm", input: { "/n": { equals: 1 } } }, true],
    [{ program: "/bin/rm", input: { "/n": { glob: "1" } } }, false],
    [{ program: "/bin/rm", input: { "/nested/deep/1": { equals: "b" } } }, true],
    [{ program: "/bin/rm", input: { "/nested": { equals: { deep: ["a", "b"] } } } }, true],
    [{ program: "/bin/rm", input: { "/nested": { equals: { deep: ["b", "a"] } } } }, false],
    [{ program: "/bin/rm", input: { "/missing": { equals: null } } }, false],
    [{ program: "/bin/rm", input: { "": { equals: PREVIEW.input } } }, true],
  ];
  for (const [when, expected] of cases) {
    assert.equal(await winner([rule("r-1", { when })]) === "r-1", expected, JSON.stringify(when));
  }
});

Deno.test("decideCall(): a global allow covers a workspace tool only when it says which arguments", async () => {
  const workspace = query(PREVIEW, { fromWorkspace: true });
  assert.equal(await winner([rule("r-1")], workspace), undefined);
  assert.equal(await winner([rule("r-1")], query(PREVIEW, { fromWorkspace: false })), "r-1");
  const pinned = rule("r-2", { when: { program: "/bin/rm", argv: ["rm", "-rf", "x"] } });
  assert.equal(await winner([pinned], workspace), "r-2");
  const other = rule("r-3", { when: { program: "/bin/rm", argv: ["rm", "-i"] } });
  assert.equal(await winner([other], workspace), undefined);
  // A workspace-scoped rule, or a deny, applies as usual.
  assert.equal(await winner([rule("r-4", { scope: { workspace: "/w" } })], workspace), "r-4");
  assert.equal(await winner([rule("r-5", { decision: "deny" })], workspace), "r-5");
});

Deno.test("decideCall(): the manifest's env is part of what an allow rule covers", async () => {
  const env = { GIT_CONFIG_COUNT: "1", GIT_CONFIG_KEY_0: "core.fsmonitor" };
  const withEnv = query(PREVIEW, { env });
  // No env condition: an allow holds only where the manifest sets nothing; a deny or ask anywhere.
  assert.equal(await winner([rule("r-1")], withEnv), undefined);
  assert.equal(await winner([rule("r-1")], query()), "r-1");
  assert.equal(await winner([rule("r-2", { decision: "deny" })], withEnv), "r-2");
  assert.equal(await winner([rule("r-3", { decision: "ask" })], withEnv), "r-3");
  assert.equal(
    await winner([rule("r-4", { when: { program: "/bin/rm", env: "any" } })], withEnv),
    "r-4",
  );
  // Pinned: that env only, names and values.
  const when = await pinConditions({ kind: "tool", preview: PREVIEW, env }) as ToolConditions;
  assert.ok(typeof when.env === "object" && !JSON.stringify(when).includes("fsmonitor"));
  const pinned = rule("r-5", { when });
  assert.equal(await winner([pinned], withEnv), "r-5");
  for (
    const other of [
      {},
      { ...env, GIT_CONFIG_KEY_0: "core.pager" },
      { ...env, LD_PRELOAD: "./evil.so" },
      { GIT_CONFIG_COUNT: "1" },
    ]
  ) {
    assert.equal(
      await winner([pinned], query(PREVIEW, { env: other })),
      undefined,
      JSON.stringify(other),
    );
  }
});

function spawnQuery(body: string, mode: "command" | "agent" = "command"): RuleQuery {
  return {
    tool: "spawn",
    kind: "spawn",
    sideEffect: "process",
    preview: { mode, body, cwd: "/w", target: "local" },
    root: "/w",
  };
}

Deno.test("decideCall(): a spawn glob allows only simple commands; exact bodies and denials always apply", async () => {
  const glob = rule("r-g", { tool: "spawn", when: { body: { glob: "cargo test*" } } });
  assert.equal(await winner([glob], spawnQuery("cargo test --release")), "r-g");
  assert.equal(await winner([glob], spawnQuery("cargo test; rm -rf ~")), undefined);
  assert.equal(await winner([glob], spawnQuery("cargo test $(curl evil)")), undefined);
  assert.equal(await winner([glob], spawnQuery("cargo test\nrm -rf ~")), undefined);
  // A glob is bound to commands: a task is matched only by a glob that says mode "agent" (and
  // there, tasks not being shell text, whatever it holds).
  assert.equal(await winner([glob], spawnQuery("cargo test; twice", "agent")), undefined);
  const task = rule("r-a", {
    tool: "spawn",
    when: { mode: "agent", body: { glob: "cargo test*" } },
  });
  assert.equal(await winner([task], spawnQuery("cargo test; twice", "agent")), "r-a");
  assert.equal(await winner([task], spawnQuery("cargo test --release")), undefined);
  const exact = rule("r-e", { tool: "spawn", when: { body: "make && make install" } });
  assert.equal(await winner([exact], spawnQuery("make && make install")), "r-e");
  assert.equal(await winner([exact], spawnQuery("make && make install ")), undefined);
  const deny = rule("r-d", { tool: "spawn", decision: "deny", when: { body: { glob: "rm *" } } });
  assert.equal(await winner([exact, deny], spawnQuery("ls; rm -rf ~")), "r-d");
  assert.equal(await winner([deny], spawnQuery("echo ok && rm -rf /")), "r-d");
  const target = rule("r-t", { tool: "spawn", when: { body: "ls", target: "mac" } });
  assert.equal(await winner([target], spawnQuery("ls")), undefined);
  const mode = rule("r-m", { tool: "spawn", when: { body: "ls", mode: "agent" } });
  assert.equal(await winner([mode], spawnQuery("ls")), undefined);
});

// --- "always allow": the property -----------------------------------------------------------------

function randomPreview(random: Fuzz): ToolPreview {
  const chars = ["a", "b", "*", "?", "\\", '"', ",", " ", "/", "é", "😀", "]", "["];
  const word = (min = 0) =>
    Array.from({ length: min + random.int(6) }, () => chars[random.int(chars.length)]).join("");
  return {
    tool: "t",
    program: `/${word(1)}`,
    command: Array.from({ length: 1 + random.int(4) }, () => word()),
    cwd: `/${word()}`,
    env: [],
    sandbox: "unconfined",
    input: { q: word(), n: random.int(10) },
  };
}

/** Previews that differ from `p` in exactly one pinned way. */
function mutations(p: ToolPreview, random: Fuzz): ToolPreview[] {
  const change = (text: string) => text + ["x", "*", "?", "\\", '","'][random.int(5)];
  const at = random.int(p.command.length);
  const argv = [...p.command];
  argv[at] = change(argv[at] as string);
  return [
    { ...p, program: change(p.program) },
    { ...p, command: argv },
    { ...p, command: [...p.command, ""] },
    { ...p, command: [...p.command, "--data-binary", "@/etc/passwd"] },
    { ...p, command: p.command.slice(0, -1) },
    { ...p, command: [p.command.join('","')] },
    { ...p, cwd: change(p.cwd) },
  ].filter((q) => JSON.stringify(q) !== JSON.stringify(p));
}

Deno.test("pinConditions(): the rule always allow makes matches its preview and nothing that differs", async () => {
  const random = new Fuzz(Number(Deno.env.get("BASIS_FUZZ_SEED") ?? 7));
  for (let i = 0; i < 300; i++) {
    const p = randomPreview(random);
    const secrets = random.int(3) === 0 ? [p.command[0] as string].filter(isSecret) : [];
    const env = random.int(2) === 0 ? {} : { A: String(random.int(100)), B: "x" };
    const when = await storedWhen({ kind: "tool", preview: p, env }, secrets);
    const pinned = rule("r-p", { tool: "t", when, scope: { workspace: "/w" } });
    assert.equal(await winner([pinned], query(p, { fromWorkspace: true, env })), "r-p");
    assert.equal(
      await winner([pinned], query(p, { fromWorkspace: true, env: { ...env, C: "1" } })),
      undefined,
      "a manifest env that differs asks again",
    );
    // Any input: the rule has no input condition.
    const other = { ...p, input: { evil: ["sh", "-c", "x"] } };
    assert.equal(await winner([pinned], query(other, { fromWorkspace: true, env })), "r-p");
    for (const q of mutations(p, random)) {
      assert.equal(
        await winner([pinned], query(q, { fromWorkspace: true, env })),
        undefined,
        JSON.stringify(q),
      );
    }
    // What is stored in clear holds no secret (a digest's hex digits may spell anything).
    const stored = when as ToolConditions;
    const clear = [stored.program, ...(stored.argv ?? []), stored.cwd]
      .filter((value): value is string => typeof value === "string");
    for (const secret of secrets) {
      assert.ok(!clear.some((text) => text.includes(secret)), JSON.stringify([secret, clear]));
    }
  }
});

Deno.test("a secret pinned is stored by digest, and the digest matches that value only", async () => {
  const secret = "Authorization: Bearer s3cr3t-token";
  const p: ToolPreview = {
    tool: "curl",
    program: "/usr/bin/curl",
    command: ["curl", "-H", secret, "https://api.example.com"],
    cwd: "/w",
    env: [],
    sandbox: "unconfined",
    input: {},
  };
  const when = await storedWhen({ kind: "tool", preview: p }, ["s3cr3t-token"]) as ToolConditions;
  const stored = JSON.stringify(when);
  assert.ok(!stored.includes("s3cr3t"));
  assert.ok(typeof when.argv?.[2] === "object" && "sha256" in (when.argv[2] as object));
  const pinned = rule("r-s", { tool: "curl", when });
  assert.equal(await winner([pinned], query(p)), "r-s");
  const changed = { ...p, command: ["curl", "-H", `${secret}x`, "https://api.example.com"] };
  assert.equal(await winner([pinned], query(changed)), undefined);
  const appended = { ...p, command: [...p.command, "--data-binary", "@/etc/passwd"] };
  assert.equal(await winner([pinned], query(appended)), undefined);
  // A secret equal to the program: pinned by digest, still only that program.
  const asProgram = await storedWhen(
    { kind: "tool", preview: { ...p, program: "/opt/tok3n" } },
    ["/opt/tok3n"],
  ) as ToolConditions;
  assert.ok(typeof asProgram.program === "object");
  const byProgram = rule("r-q", { tool: "curl", when: asProgram });
  assert.equal(await winner([byProgram], query({ ...p, program: "/opt/tok3n" })), "r-q");
  assert.equal(await winner([byProgram], query({ ...p, program: "/bin/sh" })), undefined);
});

Deno.test("no rule matches by input content alone unless it has an input condition", async () => {
  const random = new Fuzz(11);
  for (let i = 0; i < 200; i++) {
    const p = randomPreview(random);
    const when = await pinConditions({ kind: "tool", preview: p });
    const pinned = rule("r-p", { tool: "t", when });
    // The input holds the pinned preview itself, serialized and as fields: still no match for a
    // call whose own fields differ.
    const attack: ToolPreview = {
      ...p,
      program: "/bin/sh",
      command: ["sh", "-c", "touch /tmp/pwned"],
      input: { ...p, text: JSON.stringify(p) },
    };
    assert.equal(await winner([pinned], query(attack)), undefined);
  }
});

// --- examples -------------------------------------------------------------------------------------

Deno.test("checkRules() reports each failing example with the rule's id", async () => {
  const cargo = { program: "/usr/bin/cargo", argv: ["cargo", "test", { rest: true }] } as const;
  const example = (argv: string[]) => ({ program: "/usr/bin/cargo", command: argv, cwd: "/w" });
  const rules = [
    rule("r-ok", {
      tool: "cargo",
      when: cargo,
      match: [example(["cargo", "test", "-q"])],
      not_match: [example(["cargo", "build"])],
    }),
    rule("r-narrow", { tool: "cargo", when: cargo, match: [example(["cargo", "build"])] }),
    rule("r-broad", {
      tool: "cargo",
      decision: "deny",
      when: {},
      not_match: [example(["cargo", "test"])],
    }),
    rule("r-shape", { tool: "cargo", when: cargo, match: ["cargo test"] }),
  ];
  const problems = await checkRules(rules);
  assert.deepEqual(problems.map((p) => [p.id, p.ignored]), [
    ["r-narrow", true],
    ["r-broad", false],
    ["r-shape", true],
  ]);
  assert.match(english(problems[0]!.phrase), opening("rules_file.example_unmatched", { index: 0 }));
  assert.match(english(problems[1]!.phrase), opening("rules_file.example_matched", { index: 0 }));
  assert.match(
    english(problems[2]!.phrase),
    new RegExp(`^example match\\[0\\]: ${wording("rules_file.example_tool_shape").source}`),
  );
});

// --- storage ------------------------------------------------------------------------------------

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
  when: { program: "/bin/sh" },
} as const;

Deno.test("loadRules() with no file gives no rules", async () => {
  await using dir = await tempDir({ prefix: "basis-rules-" });
  const loaded = await loadRules(`${dir.path}/missing`);
  assert.deepEqual(loaded, {
    file: `${dir.path}/missing/rules.json`,
    rules: [],
    ignored: [],
    problems: [],
  });
});

Deno.test("addRule() creates the directory and writes the file atomically, leaving no temp file", async () => {
  await using dir = await tempDir({ prefix: "basis-rules-" });
  const config = `${dir.path}/config/basis`;
  const added = await addRule(config, {
    tool: "cargo",
    decision: "allow",
    scope: { workspace: "/home/u/app/../app/" },
    when: { program: "/usr/bin/cargo", argv: ["cargo", "test", { rest: true }] },
    reason: "tests are safe",
    match: [{ program: "/usr/bin/cargo", command: ["cargo", "test"], cwd: "/home/u/app" }],
  });
  assert.match(added.id, /^r-[a-z2-7]{8}$/);
  assert.deepEqual(added.scope, { workspace: "/home/u/app" });
  assert.ok(!Number.isNaN(Date.parse(added.created ?? "")));
  assert.deepEqual(Object.keys(added), [
    "id",
    "tool",
    "decision",
    "scope",
    "when",
    "reason",
    "match",
    "created",
  ]);
  assert.deepEqual(await entries(config), ["rules.json", "rules.json.lock"]);
  const text = await Deno.readTextFile(rulesFilePath(config));
  assert.deepEqual(JSON.parse(text), { version: 2, rules: [added] });
  if (!WINDOWS) {
    assert.equal((await Deno.stat(config)).mode! & 0o777, 0o700);
    assert.equal((await Deno.stat(rulesFilePath(config))).mode! & 0o777, 0o600);
  }
  const second = await addRule(config, {
    tool: "ls",
    decision: "deny",
    scope: "global",
    when: { program: "/bin/x" },
  });
  const loaded = await loadRules(config);
  assert.deepEqual(loaded.rules, [added, second]);
  assert.deepEqual(await entries(config), ["rules.json", "rules.json.lock"]);
});

Deno.test("addRule() refuses a malformed rule or one whose examples fail", async () => {
  await using dir = await tempDir({ prefix: "basis-rules-" });
  await rejects(
    addRule(dir.path, {
      tool: "sh",
      decision: "allow",
      scope: { workspace: "relative/root" },
      when: {},
    }),
    "usage",
    /^Cannot add rule for tool "sh": scope\.workspace: must be an absolute, normalised path$/,
  );
  await rejects(
    addRule(dir.path, { tool: "sh", decision: "maybe" as "allow", scope: "global", when: {} }),
    "usage",
    /decision: must be one of: "allow", "deny", "ask"/,
  );
  await rejects(
    addRule(dir.path, {
      tool: "sh",
      decision: "deny",
      scope: "global",
      when: { program: "/bin/rm" },
      match: [{ program: "/bin/ls", command: ["ls"], cwd: "/" }],
    }),
    "usage",
    /^Cannot add rule for tool "sh": rule does not match example match\[0\] /,
  );
  // A name never approves on its own.
  await rejects(
    addRule(dir.path, { tool: "sh", decision: "allow", scope: "global", when: {} }),
    "usage",
    /when: an allow rule for a declared tool must pin the program/,
  );
  await rejects(
    addRule(dir.path, {
      tool: "spawn",
      decision: "allow",
      scope: "global",
      when: { mode: "command" },
    }),
    "usage",
    /when: an allow rule for spawn must say which command or task \(body\)/,
  );
  assert.deepEqual(await entries(dir.path), []);
});

Deno.test("addRule() from 20 processes at once keeps all 20 rules in a valid file", async () => {
  await using dir = await tempDir({ prefix: "basis-rules-" });
  const config = `${dir.path}/basis`;
  const results = await Promise.all(
    Array.from({ length: 20 }, (_, n) =>
      child([
        "add",
        config,
        JSON.stringify({
          tool: `tool-${n}`,
          decision: "allow",
          scope: "global",
          when: { program: "/bin/x" },
        }),
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
});

Deno.test("addRule() called 20 times at once in one process keeps all 20 rules", async () => {
  await using dir = await tempDir({ prefix: "basis-rules-" });
  await Promise.all(
    Array.from(
      { length: 20 },
      (_, n) =>
        addRule(dir.path, { tool: `tool-${n}`, decision: "deny", scope: "global", when: {} }),
    ),
  );
  assert.equal((await loadRules(dir.path)).rules.length, 20);
  assert.deepEqual(await entries(dir.path), ["rules.json", "rules.json.lock"]);
});

Deno.test("removeRule() removes by id and reports an unknown id clearly", async () => {
  await using dir = await tempDir({ prefix: "basis-rules-" });
  await rejects(removeRule(`${dir.path}/none`, "r-nothing1"), "usage", /no rule has that id/);
  const keep = await addRule(dir.path, {
    tool: "a",
    decision: "allow",
    scope: "global",
    when: { program: "/bin/x" },
  });
  const drop = await addRule(dir.path, {
    tool: "b",
    decision: "deny",
    scope: "global",
    when: { program: "/bin/x" },
  });
  assert.deepEqual(await removeRule(dir.path, drop.id), drop);
  assert.deepEqual((await loadRules(dir.path)).rules, [keep]);
  const file = rulesFilePath(dir.path);
  await rejects(
    removeRule(dir.path, drop.id),
    "usage",
    new RegExp(`^Cannot remove rule "${drop.id}": no rule has that id in "${file}"$`),
  );
  assert.deepEqual(await entries(dir.path), ["rules.json", "rules.json.lock"]);
});

Deno.test("loadRules() refuses corrupt JSON with the file and line:column", async () => {
  await using dir = await tempDir({ prefix: "basis-rules-" });
  const file = await writeRules(
    dir.path,
    '{\n  "version": 2,\n  "rules": [\n    {"id": "x",}\n  ]\n}\n',
  );
  await assert.rejects(loadRules(dir.path), (error: unknown) => {
    assert.ok(error instanceof RulesFileError);
    assert.equal(error.code, "denied");
    assert.equal(error.file, file);
    assert.equal(
      error.message,
      say("denied.rules_file", {
        file: JSON.stringify(file),
        problem: phrase("json.invalid_detail", {
          detail: phrase("json.at", {
            detail: phrase("json.unexpected_expected", {
              found: '"}"',
              expected: phrase("json.property_name"),
            }),
            line: 4,
            column: 16,
          }),
        }),
      }),
    );
    return true;
  });
  await writeRules(dir.path, "");
  await rejects(loadRules(dir.path), "denied", /: empty file$/);
  await writeRules(dir.path, '{"version": 2, "rules": []} // note');
  await rejects(loadRules(dir.path), "denied", /: invalid JSON: comments are not allowed at 1:29$/);
  await Deno.writeFile(rulesFilePath(dir.path), new Uint8Array([0x7b, 0xff, 0x7d]));
  await rejects(loadRules(dir.path), "denied", /: not valid UTF-8$/);
});

Deno.test("loadRules() refuses a key given twice, naming where both are", async () => {
  await using dir = await tempDir({ prefix: "basis-rules-" });
  const rule =
    '{"id":"r-1","tool":"t","decision":"deny","decision":"allow","scope":"global","when":{}}';
  await writeRules(dir.path, `{"version":2,\n"rules":[${rule}]}`);
  await rejects(
    loadRules(dir.path),
    "denied",
    /: rules\[0\]\.decision: given twice, at 2:51 \(first at 2:33\); a key may appear only once in an object$/,
  );
  await writeRules(dir.path, '{"version":2,"rules":[],"rules":[]}');
  await rejects(loadRules(dir.path), "denied", /: rules: given twice, at 1:25 \(first at 1:14\)/);
});

Deno.test("a rules.json that is a link to nothing denies every call; it never reads as no rules", async () => {
  await using dir = await tempDir({ prefix: "basis-rules-" });
  await Deno.symlink(`${dir.path}/unmounted/rules.json`, rulesFilePath(dir.path));
  await rejects(
    loadRules(dir.path),
    "denied",
    /: a symbolic link to ".*unmounted\/rules\.json", which does not exist: the rules meant to be here cannot be read$/,
  );
});

Deno.test("a rule value nested deeper than a call's input may be is refused, never a crash", async () => {
  await using dir = await tempDir({ prefix: "basis-rules-" });
  const deep = JSON.parse("[".repeat(20_000) + "]".repeat(20_000));
  const when = { program: "/bin/sh", input: { "/a": { equals: deep } } };
  await rejects(
    addRule(dir.path, { tool: "sh", decision: "allow", scope: "global", when }),
    "usage",
    /when: is nested more than 256 levels deep$/,
  );
  await rejects(
    addRule(dir.path, {
      tool: "sh",
      decision: "allow",
      scope: "global",
      when: { program: "/bin/sh" },
      match: [deep],
    }),
    "usage",
    /match: is nested more than 256 levels deep$/,
  );
  await writeRules(dir.path, { version: 2, rules: [{ ...STORED, when }] });
  await rejects(loadRules(dir.path), "denied", /nested more than 256 levels deep$/);
});

Deno.test("loadRules() refuses a file of the wrong shape", async () => {
  await using dir = await tempDir({ prefix: "basis-rules-" });
  const cases: [unknown, RegExp][] = [
    [[], /: must be object$/],
    [{ version: 2 }, /: rules: required property is missing$/],
    [{ version: 2, rules: {} }, /: rules: must be array$/],
    [
      { version: 2, rules: [], extra: 1 },
      /: extra: unknown key \(expected one of: version, rules\)$/,
    ],
    [
      { version: 2, rules: [{ ...STORED, pattern: "*ls*" }] },
      /rules\[0\] "r-aaaaaaaa": pattern: unknown key \(expected one of: id, tool, /,
    ],
    [
      { version: 2, rules: [{ ...STORED, decision: "yes" }] },
      /decision: must be one of: "allow", "deny", "ask"$/,
    ],
    [
      { version: 2, rules: [{ ...STORED, when: { program: "/bin/sh", argument: ["sh"] } }] },
      /when\.argument: property is not allowed$/,
    ],
    [
      { version: 2, rules: [{ ...STORED, when: { program: "sh" } }] },
      /when.program: must be an absolute path/,
    ],
    [
      { version: 2, rules: [{ ...STORED, when: { program: { sha256: "ab", salt: "cd" } } }] },
      /when\.program\.sha256: must be a SHA-256: 64 lowercase hex digits/,
    ],
    [
      {
        version: 2,
        rules: [{ ...STORED, when: { program: "/bin/sh", argv: [{ rest: true }, "x"] } }],
      },
      /when.argv\[0\]: \{"rest": true\} may only come last$/,
    ],
    [
      { version: 2, rules: [{ ...STORED, when: { program: "/bin/sh", argv: [{ glob: "a\\" }] } }] },
      /when.argv\[0\].glob: ends with a lone/,
    ],
    [
      {
        version: 2,
        rules: [{ ...STORED, when: { program: "/bin/sh", input: { q: { equals: 1 } } } }],
      },
      /when\.input\["q"\]: must be a JSON pointer/,
    ],
    [
      {
        version: 2,
        rules: [{ ...STORED, when: { program: "/bin/sh", input: { "/q": { is: 1 } } } }],
      },
      /when\.input\["\/q"\]\.is: property is not allowed$/,
    ],
    [
      {
        version: 2,
        rules: [{ ...STORED, tool: "spawn", when: { body: "ls", program: "/bin/ls" } }],
      },
      /when\.program: property is not allowed/,
    ],
    [{ version: 2, rules: [{ ...STORED, when: undefined }] }, /when: required property is missing/],
    [
      { version: 2, rules: [{ ...STORED, scope: { workspace: "w" } }] },
      /scope\.workspace: must be/,
    ],
    [{ version: 2, rules: [{ ...STORED, scope: "local" }] }, /scope: must be equal to "global"/],
    [
      { version: 2, rules: [{ ...STORED, match: "x" }] },
      /match: must be array$/,
    ],
    [
      { version: 2, rules: [STORED, STORED] },
      /rules\[1\] "r-aaaaaaaa": id: used by an earlier rule$/,
    ],
    [{ version: 2, rules: [{ ...STORED, id: "" }] }, /rules\[0\] "": id: must be/],
    [
      { version: 2, rules: [{ ...STORED, reason: "a\nb" }] },
      /reason: must be one line$/,
    ],
  ];
  for (const [content, message] of cases) {
    await writeRules(dir.path, content);
    await rejects(loadRules(dir.path), "denied", message);
  }
  // A "__proto__" key is a key like any other: it gives the rule no decision, and is refused.
  await writeRules(
    dir.path,
    '{"version":2,"rules":[{"__proto__":{"decision":"allow"},"id":"r-1","tool":"t","scope":"global","when":{}}]}',
  );
  await assert.rejects(loadRules(dir.path), (error: unknown) => {
    assert.ok(error instanceof RulesFileError);
    assert.deepEqual(error.problems.map(english), [
      'rules[0] "r-1": decision: required property is missing',
      'rules[0] "r-1": __proto__: unknown key (expected one of: id, tool, decision, scope, when, reason, match, not_match, created)',
    ]);
    return true;
  });
  await writeRules(dir.path, { version: 2, rules: [{ ...STORED, tool: 1, decision: "x" }] });
  await assert.rejects(loadRules(dir.path), (error: unknown) => {
    assert.ok(error instanceof RulesFileError);
    assert.equal(error.problems.length, 2);
    assert.match(
      error.message,
      new RegExp(`tool: ${escape(say("schema.type", { types: "string" }))} \\(and 1 more .*\\)$`),
    );
    assert.match(error.message, wording("denied.rules_file_more", { count: 1 }));
    return true;
  });
});

Deno.test("loadRules() refuses an unknown version, older or newer", async () => {
  await using dir = await tempDir({ prefix: "basis-rules-" });
  const cases: [unknown, RegExp][] = [
    [{ version: 3, rules: [] }, /: unsupported version 3: written by a newer basis-tools/],
    [
      { version: 1, rules: [] },
      /: version 1 is no longer read: its patterns matched text across fields/,
    ],
    [{ version: 0, rules: [] }, /: version: must be equal to 2$/],
    [{ version: "2", rules: [] }, /: version: must be equal to 2$/],
    [{ rules: [] }, /: version: required property is missing$/],
  ];
  for (const [content, message] of cases) {
    const file = await writeRules(dir.path, content);
    await rejects(loadRules(dir.path), "denied", new RegExp(`^Cannot load rules "${file}"`));
    await rejects(loadRules(dir.path), "denied", message);
  }
  assert.ok((await validateRulesDocument({ version: 2, rules: [STORED] })).ok);
});

Deno.test("loadRules() refuses a file it cannot read", async () => {
  await using dir = await tempDir({ prefix: "basis-rules-" });
  const file = await writeRules(dir.path, { version: 2, rules: [STORED] });
  const result = await child(["load", dir.path], [
    `--allow-read`,
    `--deny-read=${file}`,
    "--allow-sys=uid",
  ]);
  const error = result.error as { code: string; message: string };
  assert.equal(error.code, "denied");
  assert.equal(
    error.message,
    say("denied.rules_file", {
      file: JSON.stringify(file),
      problem: phrase("rules_file.read_sandbox"),
    }),
  );
});

Deno.test(
  "loadRules() refuses a file that group or others can write",
  { ignore: WINDOWS },
  async () => {
    await using dir = await tempDir({ prefix: "basis-rules-" });
    await writeRules(dir.path, { version: 2, rules: [STORED] }, 0o666);
    await rejects(loadRules(dir.path), "denied", /writable by group or others \(mode 0666\)/);
    await Deno.chmod(rulesFilePath(dir.path), 0o644);
    assert.equal((await loadRules(dir.path)).rules.length, 1);
  },
);

Deno.test("addRule() and removeRule() leave a corrupt file as it is", async () => {
  await using dir = await tempDir({ prefix: "basis-rules-" });
  const file = await writeRules(dir.path, '{"version": 1, "rules": [');
  await rejects(
    addRule(dir.path, {
      tool: "a",
      decision: "allow",
      scope: "global",
      when: { program: "/bin/x" },
    }),
    "denied",
    /invalid JSON/,
  );
  await rejects(removeRule(dir.path, "r-aaaaaaaa"), "denied", /invalid JSON/);
  assert.equal(await Deno.readTextFile(file), '{"version": 1, "rules": [');
});

Deno.test("a failed write never loses the existing rules and leaves no temp file", async () => {
  await using dir = await tempDir({ prefix: "basis-rules-" });
  const kept = await addRule(dir.path, {
    tool: "a",
    decision: "allow",
    scope: "global",
    when: { program: "/bin/x" },
  });
  const before = await Deno.readTextFile(rulesFilePath(dir.path));
  // Only the lock file is writable: the temporary file cannot be created.
  const flags = ["--allow-read", `--allow-write=${dir.path}/rules.json.lock`, "--allow-sys=uid"];
  const rule = JSON.stringify({
    tool: "b",
    decision: "allow",
    scope: "global",
    when: { program: "/bin/x" },
  });
  const result = await child(["add", dir.path, rule], flags);
  const error = result.error as { code: string; message: string };
  assert.equal(error.code, "denied");
  assert.match(
    error.message,
    opening("rules.cannot_save", { file: JSON.stringify(`${dir.path}/rules.json`) }),
  );
  assert.equal(await Deno.readTextFile(rulesFilePath(dir.path)), before);
  assert.deepEqual((await loadRules(dir.path)).rules, [kept]);
  assert.deepEqual(await entries(dir.path), ["rules.json", "rules.json.lock"]);
});

Deno.test("rules add gives up on a lock held by another process, saying which lock (exit 5)", async () => {
  await using dirs = await cliScratch();
  const lock = `${dirs.configDir}/rules.json.lock`;
  const holder = await Deno.open(lock, { read: true, write: true, create: true, mode: 0o600 });
  holder.lockSync(true);
  try {
    const result = await cli(dirs, ["rules", "add", "--tool", "spawn", "--body", "ls"]);
    assert.equal(result.code, 5, result.stderr);
    assert.match(
      result.stderr,
      errorLine("rules.lock_busy", {
        file: JSON.stringify(`${dirs.configDir}/rules.json`),
        lock: JSON.stringify(`${dirs.configDir}/rules.json.lock`),
      }),
    );
  } finally {
    holder.close();
  }
  assert.equal((await cli(dirs, ["rules", "add", "--tool", "spawn", "--body", "ls"])).code, 0);
});

Deno.test("a write removes temp files a crashed writer left behind", async () => {
  await using dir = await tempDir({ prefix: "basis-rules-" });
  await Deno.writeTextFile(`${dir.path}/.rules.json.123-abcdefgh.tmp`, "{half");
  await addRule(dir.path, {
    tool: "a",
    decision: "allow",
    scope: "global",
    when: { program: "/bin/x" },
  });
  assert.deepEqual(await entries(dir.path), ["rules.json", "rules.json.lock"]);
});

Deno.test("loadRules() ignores an allow rule whose examples fail but keeps such a deny rule", async () => {
  await using dir = await tempDir({ prefix: "basis-rules-" });
  const sh = { program: "/bin/sh", command: ["sh"], cwd: "/w", sandbox: "unconfined" as const };
  const brokenAllow = { ...STORED, id: "r-allow", match: [{ ...sh, program: "/bin/bash" }] };
  const brokenDeny = { ...STORED, id: "r-deny", decision: "deny", not_match: [sh] };
  const fine = { ...STORED, id: "r-fine", tool: "ls" };
  await writeRules(dir.path, { version: 2, rules: [brokenAllow, brokenDeny, fine] });
  const loaded = await loadRules(dir.path);
  assert.deepEqual(loaded.rules.map((r) => r.id), ["r-deny", "r-fine"]);
  assert.deepEqual(loaded.ignored.map((r) => r.id), ["r-allow"]);
  assert.deepEqual(loaded.problems.map((p) => [p.id, p.ignored]), [
    ["r-allow", true],
    ["r-deny", false],
  ]);
  const preview = { tool: "sh", ...sh, env: [], input: {} };
  const query = {
    tool: "sh",
    kind: "tool",
    preview,
    sideEffect: "process",
    root: "/w",
    source: "global",
  } as const;
  assert.equal((await decideCall(loaded.rules, query)).match?.decision, "deny");
});

Deno.test("a workspace's .basis/rules.json is never read", async () => {
  await using dir = await tempDir({ prefix: "basis-rules-" });
  const workspace = `${dir.path}/repo`;
  const config = `${dir.path}/config`;
  await Deno.mkdir(`${workspace}/.basis`, { recursive: true });
  const allowAll = [
    { ...STORED, id: "r-evil1", scope: { workspace } },
    { ...STORED, id: "r-evil2", when: { program: "/bin/sh", argv: [{ rest: true }] } },
  ];
  await Deno.writeTextFile(
    `${workspace}/.basis/rules.json`,
    JSON.stringify({ version: 2, rules: allowAll }),
  );
  await Deno.mkdir(config);
  const loaded = await loadRules(config);
  assert.deepEqual(loaded.rules, []);
  const preview = {
    tool: "sh",
    program: "/bin/sh",
    command: ["sh"],
    cwd: workspace,
    env: [],
    sandbox: "unconfined" as const,
    input: {},
  };
  const query = {
    tool: "sh",
    kind: "tool",
    preview,
    sideEffect: "process",
    root: workspace,
    source: "workspace",
  } as const;
  assert.equal((await decideCall(loaded.rules, query)).match, undefined);
});

// --- Wording in en-US and uk-UA ---
// The rules file and the rules command in uk-UA: every problem of a rules file, every error of
// `rules add|remove|list|check`, and the denial the tool contract gives when the rules file is
// unusable. Each is triggered for real (a file written to a temporary config directory, the real
// CLI run as a subprocess) and checked twice: English exactly as it always was, Ukrainian with no
// English sentence left.

await loadLocale("uk-UA");
const UK = messages("uk-UA");
const CYRILLIC = /[а-яієїґ]/i;
const UK_LOAD = "Не вдалося завантажити правила";

/**
 * What a Ukrainian message may keep as it is: quoted values (paths, ids, field names, JSON
 * shapes), places in the file (`rules[2]`, `match[0]`), the field a problem is about, option
 * names, and names that are never translated.
 */
const KEPT: readonly RegExp[] = [
  /"(?:[^"\\]|\\.)*"/g,
  /'[^']*'/g,
  /\b(?:rules|match|not_match)\[\d+\]/g,
  /поле [a-z_.]+(?:\[(?:\d+|"[^"]*")\]|\.[a-z_0-9]+)*/g,
  /\bworkspace(?= має)/g,
  /типу [a-z]+(?: або [a-z]+)*/g,
  /один із: [a-z_, ]+/g,
  /--[a-z-]+/g,
  /(?:^|\s)\/[^\s:"]+/g,
  /\b(?:JSON|UTF-8|ISO 8601|SHA-256|Deno|basis-tools|chmod|r-[a-z0-9]+|true|false|null)\b/g,
  /\{[^{}]*\}/g,
  /відомі: [a-z_, ]+/g,
  /\bPOINTER\b/g,
  /\b(?:when|program|body|allow|ask|deny|spawn|command|agent)\b/g,
];

/**
 * Asserts that a Ukrainian text is Ukrainian: Cyrillic, unlike the English, and with no Latin word
 * left once what is never translated is taken out.
 */
function assertUkrainian(uk: string, en: string): void {
  assert.notEqual(uk, en);
  assert.match(uk, CYRILLIC, uk);
  let rest = uk;
  for (const kept of KEPT) rest = rest.replaceAll(kept, " ");
  const found = rest.match(/[A-Za-z]{2,}/);
  assert.equal(found, null, `English ${found?.[0]} left in: ${uk}`);
}

/** A temporary config directory holding a rules file with this content and mode. */
async function configWith(
  content: string | Uint8Array,
  mode = 0o600,
): Promise<{ dir: string; file: string } & AsyncDisposable> {
  const temp = await tempDir({ prefix: "basis-locale-rules-" });
  const dir = temp.path;
  const file = rulesFilePath(dir);
  if (typeof content === "string") await Deno.writeTextFile(file, content);
  else await Deno.writeFile(file, content);
  if (!WINDOWS) await Deno.chmod(file, mode);
  return { dir, file, [Symbol.asyncDispose]: temp[Symbol.asyncDispose] };
}

/** The error loading the rules of `dir` raises. */
async function loadError(dir: string): Promise<RulesFileError> {
  try {
    await loadRules(dir);
  } catch (error) {
    assert.ok(error instanceof RulesFileError, String(error));
    return error;
  }
  assert.fail("expected the rules file to be refused");
}

const RULE = {
  id: "r-aaaaaaaa",
  tool: "sh",
  decision: "allow",
  scope: "global",
  when: { program: "/bin/sh" },
} as const;
const SPAWN_RULE = { ...RULE, tool: "spawn", when: { body: "ls" } } as const;
const json = (value: unknown) => JSON.stringify(value);

/** Rules files with one problem each, and that problem in English. */
const ONE_PROBLEM: [string | Uint8Array, string][] = [
  ["", "empty file"],
  [" \n", "empty file"],
  [new Uint8Array([0x7b, 0xff, 0x7d]), "not valid UTF-8"],
  ["{", 'invalid JSON: unexpected end of file, expected "}" at 1:2'],
  ['{"version": 2, "rules": []} // c', "invalid JSON: comments are not allowed at 1:29"],
  ['{"a" 1}', 'invalid JSON: unexpected number, expected ":" at 1:6'],
  ['{"a":1 "b":2}', 'invalid JSON: unexpected string, expected "," at 1:8'],
  [
    '{\n  "version": 2,\n  "rules": [\n    {"id": "x",}\n  ]\n}\n',
    'invalid JSON: unexpected "}", expected a property name in double quotes at 4:16',
  ],
  ["[1,]", 'invalid JSON: unexpected "]", expected a value at 1:4'],
  ['"\\q"', "invalid JSON: invalid escape sequence in a string at 1:1"],
  ['"\\u12"', 'invalid JSON: invalid "\\u" escape in a string at 1:1'],
  ['"a\tb"', "invalid JSON: control character in a string (escape it) at 1:1"],
  ['"abc', "invalid JSON: unterminated string at 1:1"],
  ['{"version":2,"rules":[]} x', 'invalid JSON: unexpected "x" at 1:26'],
  ['{"a":1}}', 'invalid JSON: unexpected "}", expected end of file at 1:8'],
  ["1e", "invalid JSON: invalid number at 1:1"],
  [
    "[]",
    "must be object",
  ],
  [
    json({ rules: [] }),
    "version: required property is missing",
  ],
  [
    json({ version: 3, rules: [] }),
    "unsupported version 3: written by a newer basis-tools (this one reads version 2)",
  ],
  [
    json({ version: 1, rules: [] }),
    'version 1 is no longer read: its patterns matched text across fields, so its rules cannot be carried over safely; move the file away and add the rules again with "basis-tools rules add" (without conditions it pins a tool\'s current command)',
  ],
  [
    json({ version: 0, rules: [] }),
    "version: must be equal to 2",
  ],
  [
    json({ version: 1.5, rules: [] }),
    "version: must be equal to 2",
  ],
  [
    json({ version: "2", rules: [] }),
    "version: must be equal to 2",
  ],
  [
    json({ version: null, rules: [] }),
    "version: must be equal to 2",
  ],
  [
    json({ version: 2 }),
    "rules: required property is missing",
  ],
  [
    json({ version: 2, rules: [], extra: 1 }),
    "extra: unknown key (expected one of: version, rules)",
  ],
  [
    json({ version: 2, rules: [5] }),
    "rules[0]: must be object",
  ],
  [
    json({ version: 2, rules: [{ ...RULE, pattern: "*" }] }),
    'rules[0] "r-aaaaaaaa": pattern: unknown key (expected one of: id, tool, decision, scope, when, reason, match, not_match, created)',
  ],
  [
    json({ version: 2, rules: [{ ...RULE, id: "" }] }),
    "rules[0] \"\": id: must be 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit",
  ],
  [
    json({ version: 2, rules: [RULE, RULE] }),
    'rules[1] "r-aaaaaaaa": id: used by an earlier rule',
  ],
  [
    json({ version: 2, rules: [{ ...RULE, tool: "" }] }),
    'rules[0] "r-aaaaaaaa": tool: must not be empty',
  ],
  [
    json({ version: 2, rules: [{ ...RULE, decision: "yes" }] }),
    'rules[0] "r-aaaaaaaa": decision: must be one of: "allow", "deny", "ask"',
  ],
  [
    json({ version: 2, rules: [{ ...RULE, reason: "a\nb" }] }),
    'rules[0] "r-aaaaaaaa": reason: must be one line',
  ],
  [
    json({ version: 2, rules: [{ ...RULE, scope: "local" }] }),
    'rules[0] "r-aaaaaaaa": scope: must be equal to "global"',
  ],
  [
    json({ version: 2, rules: [{ ...RULE, scope: { workspace: "w" } }] }),
    'rules[0] "r-aaaaaaaa": scope.workspace: must be an absolute, normalised path',
  ],
  [
    json({ version: 2, rules: [{ ...RULE, match: "x" }] }),
    'rules[0] "r-aaaaaaaa": match: must be array',
  ],
  [
    json({ version: 2, rules: [{ ...RULE, not_match: {} }] }),
    'rules[0] "r-aaaaaaaa": not_match: must be array',
  ],
  [
    json({ version: 2, rules: [{ ...RULE, created: "yesterday" }] }),
    'rules[0] "r-aaaaaaaa": created: must be an ISO 8601 timestamp',
  ],
  [
    json({ version: 2, rules: [{ ...RULE, when: undefined }] }),
    'rules[0] "r-aaaaaaaa": when: required property is missing',
  ],
  [
    json({ version: 2, rules: [{ ...RULE, when: [] }] }),
    'rules[0] "r-aaaaaaaa": when: must be object',
  ],
  [
    json({ version: 2, rules: [{ ...RULE, when: {} }] }),
    'rules[0] "r-aaaaaaaa": when: an allow rule for a declared tool must pin the program it runs (program): a name never approves on its own',
  ],
  [
    json({ version: 2, rules: [{ ...SPAWN_RULE, decision: "allow", when: {} }] }),
    'rules[0] "r-aaaaaaaa": when: an allow rule for spawn must say which command or task (body)',
  ],
  [
    json({ version: 2, rules: [{ ...RULE, when: { program: "/bin/sh", args: [] } }] }),
    'rules[0] "r-aaaaaaaa": when.args: property is not allowed',
  ],
  [
    json({ version: 2, rules: [{ ...SPAWN_RULE, when: { body: "ls", argv: [] } }] }),
    'rules[0] "r-aaaaaaaa": when.argv: property is not allowed',
  ],
  [
    json({ version: 2, rules: [{ ...RULE, when: { program: "sh" } }] }),
    'rules[0] "r-aaaaaaaa": when.program: must be an absolute path',
  ],
  [
    json({
      version: 2,
      rules: [{ ...RULE, when: { program: { sha256: "x", salt: "b".repeat(32) } } }],
    }),
    'rules[0] "r-aaaaaaaa": when.program.sha256: must be a SHA-256: 64 lowercase hex digits',
  ],
  [
    json({ version: 2, rules: [{ ...RULE, when: { program: "/bin/sh", argv: "sh" } }] }),
    'rules[0] "r-aaaaaaaa": when.argv: must be array',
  ],
  [
    json({
      version: 2,
      rules: [{ ...RULE, when: { program: "/bin/sh", argv: [{ rest: true }, "x"] } }],
    }),
    'rules[0] "r-aaaaaaaa": when.argv[0]: {"rest": true} may only come last',
  ],
  [
    json({ version: 2, rules: [{ ...RULE, when: { program: "/bin/sh", argv: [{ rest: 1 }] } }] }),
    'rules[0] "r-aaaaaaaa": when.argv[0].rest: must be equal to true',
  ],
  [
    json({ version: 2, rules: [{ ...RULE, when: { program: "/bin/sh", argv: [{ glob: 1 }] } }] }),
    'rules[0] "r-aaaaaaaa": when.argv[0].glob: must be string',
  ],
  [
    json({
      version: 2,
      rules: [{ ...RULE, when: { program: "/bin/sh", argv: [{ glob: "a\\" }] } }],
    }),
    'rules[0] "r-aaaaaaaa": when.argv[0].glob: ends with a lone \\ (write \\\\ for a backslash)',
  ],
  [
    json({ version: 2, rules: [{ ...RULE, when: { program: "/bin/sh", cwd: 1 } }] }),
    'rules[0] "r-aaaaaaaa": when.cwd: must be string or object',
  ],
  [
    json({
      version: 2,
      rules: [{ ...RULE, when: { program: "/bin/sh", cwd: { glob: "/w", x: 1 } } }],
    }),
    'rules[0] "r-aaaaaaaa": when.cwd.x: property is not allowed',
  ],
  [
    json({ version: 2, rules: [{ ...RULE, when: { program: "/bin/sh", input: [] } }] }),
    'rules[0] "r-aaaaaaaa": when.input: must be object',
  ],
  [
    json({
      version: 2,
      rules: [{ ...RULE, when: { program: "/bin/sh", input: { a: { equals: 1 } } } }],
    }),
    'rules[0] "r-aaaaaaaa": when.input["a"]: must be a JSON pointer (empty, or starting with /)',
  ],
  [
    json({ version: 2, rules: [{ ...RULE, when: { program: "/bin/sh", input: { "/a": 1 } } }] }),
    'rules[0] "r-aaaaaaaa": when.input["/a"]: must be object',
  ],
  [
    json({ version: 2, rules: [{ ...SPAWN_RULE, when: { body: "ls", mode: "shell" } }] }),
    'rules[0] "r-aaaaaaaa": when.mode: must be one of: "command", "agent"',
  ],
  [
    json({ version: 2, rules: [{ ...SPAWN_RULE, when: { body: "ls", target: "" } }] }),
    'rules[0] "r-aaaaaaaa": when.target: must not be empty',
  ],
];

Deno.test("every problem of a rules file is worded in both locales", async () => {
  for (const [content, problem] of ONE_PROBLEM) {
    await using config = await configWith(content);
    const error = await loadError(config.dir);
    const en = `Cannot load rules ${json(config.file)}: ${problem}`;
    assert.equal(error.message, en);
    assert.equal(error.code, "denied");
    assert.deepEqual(error.problems.map(english), [problem]);
    const uk = error.wordedIn(UK);
    assert.ok(uk.startsWith(`${UK_LOAD} ${json(config.file)}: `), uk);
    assertUkrainian(uk, en);
  }
});

Deno.test("a rules file with many problems counts the rest in both locales", async () => {
  const broken = { ...RULE, tool: 1, decision: "x" };
  await using two = await configWith(json({ version: 2, rules: [broken] }));
  const error = await loadError(two.dir);
  assert.equal(
    error.message,
    `Cannot load rules ${
      json(two.file)
    }: rules[0] "r-aaaaaaaa": tool: must be string (and 1 more problem)`,
  );
  assert.equal(
    error.wordedIn(UK),
    `${UK_LOAD} ${
      json(two.file)
    }: правило rules[0] "r-aaaaaaaa": поле tool: має бути типу string (і ще 1 проблема)`,
  );

  await using many = await configWith(json({ version: 2, rules: [broken, 5, {}], x: 1 }));
  const more = await loadError(many.dir);
  assert.equal(more.problems.length, 9);
  assert.equal(
    more.message,
    `Cannot load rules ${
      json(many.file)
    }: x: unknown key (expected one of: version, rules) (and 8 more problems)`,
  );
  assert.equal(
    more.wordedIn(UK),
    `${UK_LOAD} ${
      json(many.file)
    }: поле x: невідомий ключ (очікується один із: version, rules) (і ще 8 проблем)`,
  );
  for (const problem of more.problems) assertUkrainian(UK.say(problem), english(problem));
  // A rule without an id is located by its index alone.
  assert.equal(
    english(more.problems[4]!),
    "rules[2]: id: required property is missing",
  );
  assert.match(UK.say(more.problems[4]!), /^правило rules\[2\]: поле id: відсутня обов’язкова/);
});

Deno.test(
  "a rules file that group or others can write, or that is not a file, is refused in both locales",
  { ignore: WINDOWS },
  async () => {
    await using loose = await configWith(json({ version: 2, rules: [] }), 0o620);
    const error = await loadError(loose.dir);
    assert.equal(
      error.message,
      `Cannot load rules ${
        json(loose.file)
      }: writable by group or others (mode 0620), so anyone could approve tools: run chmod 600 on it`,
    );
    assertUkrainian(error.wordedIn(UK), error.message);
    assert.match(error.wordedIn(UK), /\(режим 0620\).+chmod 600/);

    await using dir = await tempDir({ prefix: "basis-locale-rules-" });
    await Deno.mkdir(rulesFilePath(dir.path));
    const notFile = await loadError(dir.path);
    assert.equal(
      notFile.message,
      `Cannot load rules ${json(rulesFilePath(dir.path))}: not a regular file`,
    );
    assertUkrainian(notFile.wordedIn(UK), notFile.message);
  },
);

Deno.test(
  "a rules file the user may not read is refused in both locales",
  { ignore: WINDOWS || Deno.uid() === 0 },
  async () => {
    await using config = await configWith(json({ version: 2, rules: [] }), 0o000);
    const error = await loadError(config.dir);
    assert.equal(
      error.message,
      `Cannot load rules ${json(config.file)}: cannot be read: permission denied`,
    );
    assertUkrainian(error.wordedIn(UK), error.message);
  },
);

Deno.test("addRule() words a rule that has no tool name in both locales", async () => {
  await using dir = await tempDir({ prefix: "basis-locale-rules-" });
  const input = { tool: 7, decision: "allow", scope: "global", when: {} } as unknown as RuleInput;
  const error = await addRule(dir.path, input).then(() => undefined, (error: unknown) => error);
  assert.ok(error instanceof BasisError && error.code === "usage", String(error));
  assert.equal(error.message, "Cannot add rule for a tool: tool: must be string");
  assert.equal(
    error.wordedIn(UK),
    "Не вдалося додати правило для інструмента: поле tool: має бути типу string",
  );
});

// --- through the CLI ----------------------------------------------------------------------------

/** Runs the CLI in English and in Ukrainian, at once. */
async function both(dirs: Scratch, args: string[], options: CliOptions = {}) {
  const [en, uk] = await Promise.all([
    cli(dirs, args, options),
    cli(dirs, [...args, "--locale", "uk-UA"], options),
  ]);
  assert.equal(uk.code, en.code, args.join(" "));
  return { en, uk };
}

Deno.test("rules list, check and remove word an unusable rules file in uk-UA; --json stays English", async () => {
  await using dirs = await scratch();
  const file = `${dirs.configDir}/rules.json`;
  await Deno.writeTextFile(file, "{\n", { mode: 0o600 });
  const problem = 'invalid JSON: unexpected end of file, expected "}" at 2:1';

  const list = await both(dirs, ["rules", "list"]);
  assert.equal(list.en.code, 5);
  assert.equal(list.en.stderr, `basis-tools: Cannot load rules ${json(file)}: ${problem}\n`);
  assert.equal(
    list.uk.stderr,
    `basis-tools: ${UK_LOAD} ${
      json(file)
    }: некоректний JSON: тут не очікувалося: кінець файлу; очікується "}" (рядок 2, стовпець 1)\n`,
  );
  // The locale may come from the environment too.
  const fromEnv = await cli(dirs, ["rules", "list"], { env: { BASIS_LOCALE: "uk-UA" } });
  assert.equal(fromEnv.stderr, list.uk.stderr);

  const check = await both(dirs, ["rules", "check"]);
  assert.equal(check.en.code, 6);
  assert.equal(check.en.stdout, `${file}: ${problem}\n`);
  assert.ok(check.uk.stdout.startsWith(`${file}: некоректний JSON: `), check.uk.stdout);
  assertUkrainian(check.uk.stdout, check.en.stdout);
  const checkJson = await both(dirs, ["rules", "check", "--json"]);
  assert.equal(checkJson.uk.stdout, checkJson.en.stdout);
  assert.deepEqual(JSON.parse(checkJson.en.stdout).problems, [problem]);

  const remove = await both(dirs, ["rules", "remove", "zz"]);
  assert.equal(remove.en.code, 5);
  assert.equal(remove.en.stderr, list.en.stderr);
  assert.equal(remove.uk.stderr, list.uk.stderr);

  const add = await both(dirs, ["rules", "add", "--tool", "spawn", "--body", "ls", "--global"]);
  assert.equal(add.en.stderr, list.en.stderr);
  assert.equal(add.uk.stderr, list.uk.stderr);
  assert.equal(
    await Deno.readTextFile(file),
    "{\n",
    "a file that cannot be trusted is left as it is",
  );
});

Deno.test("rules check words failing examples in uk-UA; --json stays English", async () => {
  await using dirs = await scratch();
  const file = `${dirs.configDir}/rules.json`;
  const sh = { program: "/bin/sh", command: ["sh"], cwd: "/w" };
  const rules = [
    { ...RULE, id: "r-narrow", match: [{ ...sh, program: "/bin/bash" }] },
    { ...RULE, id: "r-broad", decision: "deny", when: {}, not_match: [sh] },
    { ...RULE, id: "r-shape", match: ["sh"] },
  ];
  await Deno.writeTextFile(file, json({ version: 2, rules }), { mode: 0o600 });
  const shown = (value: unknown) => json(`${json(value).slice(0, 40)}…`);
  const lines = [
    `r-narrow: rule does not match example match[0] ${
      shown({ ...sh, program: "/bin/bash" })
    } (rule ignored)`,
    `r-broad: rule matches example not_match[0] ${shown(sh)}`,
    'r-shape: example match[0]: not a preview of this tool: "program", "command" and "cwd" are required, "tool", "env" (an object of names and values), "sandbox" and "input" optional (rule ignored)',
  ];
  const check = await both(dirs, ["rules", "check"]);
  assert.equal(check.en.code, 6);
  assert.equal(check.en.stdout, lines.map((line) => `${file}: ${line}\n`).join(""));
  assert.match(
    check.uk.stdout,
    /r-narrow: правило не збігається з прикладом match\[0\] .+ \(правило ігнорується\)\n/,
  );
  assert.match(check.uk.stdout, /r-broad: правило збігається з прикладом not_match\[0\] /);
  assert.match(
    check.uk.stdout,
    /r-shape: приклад match\[0\]: не є попереднім переглядом цього інструмента/,
  );
  assertUkrainian(check.uk.stdout, check.en.stdout);
  const checkJson = await both(dirs, ["rules", "check", "--json"]);
  assert.equal(checkJson.uk.stdout, checkJson.en.stdout);
  assert.deepEqual(JSON.parse(checkJson.en.stdout).problems, lines);
});

Deno.test("rules add and remove errors speak uk-UA; the English is as it always was", async () => {
  await using dirs = await scratch({
    schema: 1,
    tools: { x: { description: "x", input_schema: {}, command: ["cat"] } },
  });
  const file = `${dirs.configDir}/rules.json`;
  await Deno.writeTextFile(file, json({ version: 2, rules: [] }), { mode: 0o600 });
  const example = json({ program: "/bin/no", command: ["cat"], cwd: "/" });
  const cases: [string[], string][] = [
    [["remove", "zz"], `Cannot remove rule "zz": no rule has that id in ${json(file)}`],
    [
      ["add", "--tool", "x", "--match", example, "--global"],
      `Cannot add rule for tool "x": rule does not match example match[0] ${
        json(example.slice(0, 40) + "…")
      }`,
    ],
    [
      ["add", "--tool", "x", "--deny", "--when", "{}", "--not-match", example, "--global"],
      `Cannot add rule for tool "x": rule matches example not_match[0] ${
        json(example.slice(0, 40) + "…")
      }`,
    ],
    [
      ["add", "--tool", "x", "--argv", "[", "--global"],
      'Cannot add rule for tool "x": "--argv" is not JSON: unexpected end of file, expected "]" at 1:2',
    ],
    [
      ["add", "--tool", "x", "--argv", '["cat",{"rest":1}]', "--global"],
      'Cannot add rule for tool "x": when.argv[1].rest: must be equal to true',
    ],
    [
      ["add", "--tool", "x", "--input", "novalue", "--global"],
      'Cannot add rule for tool "x": --input takes POINTER=JSON, for example /branch="main"',
    ],
    [
      ["add", "--tool", "x", "--input", "q=1", "--global"],
      'Cannot add rule for tool "x": when.input["q"]: must be a JSON pointer (empty, or starting with /)',
    ],
    [
      ["add", "--tool", "x", "--deny", "--ask", "--global"],
      'Cannot add rule for tool "x": give at most one of --deny and --ask',
    ],
    [
      ["add", "--tool", "spawn", "--mode", "shell", "--global"],
      'Cannot add rule for tool "spawn": when.mode: must be one of: "command", "agent"',
    ],
    [
      ["add", "--tool", "x", "--reason", "a\nb", "--global"],
      'Cannot add rule for tool "x": reason: must be one line',
    ],
  ];
  await Promise.all(cases.map(async ([args, message]) => {
    const run = await both(dirs, ["rules", ...args]);
    assert.equal(run.en.code, 2, args.join(" "));
    assert.equal(run.en.stderr, `basis-tools: ${message}\n`);
    assert.match(run.uk.stderr, /^basis-tools: Не вдалося (?:видалити|додати) правило /);
    assertUkrainian(run.uk.stderr.slice("basis-tools: ".length), run.en.stderr);
  }));
  // Nothing was written.
  assert.equal(await Deno.readTextFile(file), json({ version: 2, rules: [] }));
});

Deno.test("a rules file Deno may not read or write is reported in uk-UA", async () => {
  await using dirs = await scratch();
  const file = `${dirs.configDir}/rules.json`;
  await Deno.writeTextFile(file, json({ version: 2, rules: [] }), { mode: 0o600 });

  const read = await both(dirs, ["rules", "list"], { permissions: ["-A", `--deny-read=${file}`] });
  assert.equal(read.en.code, 5);
  assert.equal(
    read.en.stderr,
    `basis-tools: Cannot load rules ${
      json(file)
    }: cannot be read: Deno's --allow-read refuses it\n`,
  );
  assert.equal(read.uk.code, 5);
  assertUkrainian(read.uk.stderr, read.en.stderr);

  const write = await both(dirs, ["rules", "add", "--tool", "spawn", "--body", "ls", "--global"], {
    permissions: ["-A", `--deny-write=${dirs.configDir}`],
  });
  const lock = json(`${file}.lock`);
  assert.equal(write.en.code, 5);
  assert.equal(
    write.en.stderr,
    `basis-tools: Cannot save rules ${
      json(file)
    }: Requires write access to ${lock}, run again with the --allow-write flag\n`,
  );
  assert.equal(write.uk.code, 5);
  assert.equal(
    write.uk.stderr,
    `basis-tools: Не вдалося зберегти правила ${
      json(file)
    }: потрібен дозвіл на запис у ${lock}: запустіть програму знову з прапорцем --allow-write\n`,
  );
  assertUkrainian(write.uk.stderr, write.en.stderr);
  assert.equal(await Deno.readTextFile(file), json({ version: 2, rules: [] }));
});

// --- through the tool contract ------------------------------------------------------------------

Deno.test("a declared tool whose rules file is corrupt is denied in its locale", async () => {
  await using config = await configWith('{"version": 2, "rules": [');
  const denial = async (locale: string): Promise<ToolError> => {
    const tool = new DeclaredToolBuilder(toolSpec("echo", ["cat"]), {
      approval: { policy: "always", configDir: config.dir },
      cacheDir: `${config.dir}/cache`,
      spillDir: false,
      locale,
      sandbox: UNCONFINED_SANDBOX,
    }).build();
    try {
      await (await tool.execution({})).execute();
    } catch (error) {
      assert.ok(error instanceof ToolError, String(error));
      return error;
    }
    assert.fail("a corrupt rules file must deny the call");
  };
  const [en, uk] = [await denial("en-US"), await denial("uk-UA")];
  for (const error of [en, uk]) {
    assert.equal(error.code, "denied");
    assert.ok(error.isUserFacing());
    assert.equal(error.tool, "echo");
  }
  assert.equal(
    en.message,
    `Cannot load rules ${
      json(config.file)
    }: invalid JSON: unexpected end of file, expected "]" at 1:26`,
  );
  assert.equal(
    uk.message,
    `${UK_LOAD} ${
      json(config.file)
    }: некоректний JSON: тут не очікувалося: кінець файлу; очікується "]" (рядок 1, стовпець 26)`,
  );
  assertUkrainian(uk.message, en.message);
});
