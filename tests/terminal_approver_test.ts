import assert from "node:assert/strict";
import { PassThrough } from "node:stream";
import { promptApproval } from "../src/approval/terminal/prompt_approval.ts";
import type {
  PromptRequest,
  SpawnPromptRequest,
  TerminalAnswer,
  TerminalIo,
  ToolPromptRequest,
} from "../src/approval/terminal/types.ts";
import { cutNote, cutText } from "../src/approval/terminal/_render.ts";
import { hasTmux, inPseudoTerminal } from "./_tmux.ts";
import { assertNoEnglish } from "./_no_english.ts";
import { escape, say, wording } from "./_wording.ts";

/** A prompt's side-effect line: the label, the effect and what it means, in parentheses. */
function effectLine(effect: string, meaning: "prompt.effect_process" | "prompt.effect_external") {
  return new RegExp(`${say("prompt.side_effect")} +${effect} ${escape(`(${say(meaning)})`)}\\n`);
}

const FIXTURE = new URL("./fixtures/approver/prompt_once.ts", import.meta.url).pathname;
const CANARY = "canary-SECRET-7f3a9c";
const DOWN = "\x1b[B";
const UP = "\x1b[A";
const ENTER = "\r";

const TOOL: ToolPromptRequest = {
  tool: "grep_code",
  sideEffect: "process",
  kind: "tool",
  preview: {
    tool: "grep_code",
    program: "/usr/bin/grep",
    command: ["/usr/bin/grep", "-rn", "it's here", "src"],
    cwd: "/work/demo project",
    env: [],
    sandbox: "unconfined",
    input: { pattern: "TODO", paths: ["src", "tests"] },
  },
};

const SPAWN: SpawnPromptRequest = {
  tool: "spawn",
  sideEffect: "external",
  kind: "spawn",
  preview: { mode: "command", body: "git push origin main", cwd: "/work/x", target: "mac" },
};

/** A scripted terminal: keys go in through a PassThrough, the screen is captured from another. */
function scriptedTerminal(overrides: Partial<TerminalIo> = {}) {
  const input = new PassThrough();
  const output = new PassThrough();
  let screen = "";
  const waiters: { text: string; resolve: () => void }[] = [];
  output.on("data", (chunk: Uint8Array | string) => {
    screen += typeof chunk === "string" ? chunk : new TextDecoder().decode(chunk);
    for (const waiter of waiters.filter((w) => screen.includes(w.text))) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve();
    }
  });
  const shown = (text: string) =>
    new Promise<void>((resolve) => {
      if (screen.includes(text)) resolve();
      else waiters.push({ text, resolve });
    });
  const io: TerminalIo = { input, output, isTerminal: () => true, ...overrides };
  return {
    io,
    input,
    output,
    screen: () => screen,
    /** Waits until the choices are drawn, then types the keys, one write each. */
    async press(...keys: string[]) {
      await shown("Allow once");
      for (const key of keys) input.write(key);
    },
  };
}

async function answerWith(request: PromptRequest, ...keys: string[]) {
  const terminal = scriptedTerminal();
  const answer = promptApproval(request, terminal.io);
  await terminal.press(...keys);
  return { answer: await answer, screen: terminal.screen(), terminal };
}

/** The text above the question: what the person reads before choosing. */
function header(screen: string): string {
  return screen.slice(0, screen.indexOf("? Allow this call?"));
}

/** Any raw control character a terminal would act on (newlines aside). */
// deno-lint-ignore no-control-regex -- finding control characters is the point
const RAW_CONTROL = /[\x00-\x09\x0b-\x1f\x7f-\x9f\u202e]/;

for (
  const [keys, expected] of [
    [[ENTER], "allow_once"],
    [[DOWN, ENTER], "always_allow"],
    [[DOWN, DOWN, ENTER], "deny"],
    [[DOWN, DOWN, DOWN, ENTER], "never"],
    [[UP, ENTER], "never"],
  ] as [string[], TerminalAnswer][]
) {
  const names = keys.map((k) => ({ [DOWN]: "Down", [UP]: "Up", [ENTER]: "Enter" })[k]).join("+");
  Deno.test(`promptApproval() answers ${expected} for ${names}`, async () => {
    const { answer } = await answerWith(TOOL, ...keys);
    assert.equal(answer, expected);
  });
}

Deno.test("promptApproval() shows the tool, side effect, quoted argv, cwd and pretty input", async () => {
  const { screen } = await answerWith(TOOL, ENTER);
  const top = header(screen);
  assert.match(top, /tool +grep_code\n/);
  assert.match(top, effectLine("process", "prompt.effect_process"));
  assert.match(top, /command +\/usr\/bin\/grep -rn 'it'\\''s here' src\n/);
  assert.match(top, /cwd +'\/work\/demo project'\n/);
  assert.ok(top.includes('input        {\n                 "pattern": "TODO",\n'), top);
  for (const choice of ["prompt.allow_once", "prompt.always_allow", "prompt.deny"] as const) {
    assert.ok(screen.includes(say(choice)), choice);
  }
  assert.ok(screen.includes(say("prompt.never")));
  assert.ok(screen.includes(`✔ ${say("prompt.question")} ${say("prompt.allowed_once")}`));
});

Deno.test("promptApproval() offers always allow for a tool with arguments from its input as any value of those fields", async () => {
  const request: ToolPromptRequest = {
    ...TOOL,
    fromInput: [{ index: 3, field: "pattern" }, { index: 4, field: "path" }],
  };
  const { screen, answer } = await answerWith(request, DOWN, ENTER);
  assert.equal(answer, "always_allow");
  const anyOf = say("prompt.always_allow_any", { fields: "pattern, path" });
  assert.ok(screen.includes(anyOf), screen);
  assert.ok(!screen.includes(say("prompt.always_allow")), screen);
  const { elicitationForm } = await import("../src/approval/elicitation/elicit_approval.ts");
  const form = elicitationForm(request, []);
  const names = (form.requestedSchema.properties.decision as { enumNames: string[] }).enumNames;
  assert.ok(names.includes(anyOf), names.join());
});

Deno.test("promptApproval() shows a spawn's mode, command text, target and cwd", async () => {
  const { answer, screen } = await answerWith(SPAWN, DOWN, ENTER);
  assert.equal(answer, "always_allow");
  const top = header(screen);
  assert.match(top, /tool +spawn\n/);
  assert.match(top, effectLine("external", "prompt.effect_external"));
  assert.match(top, /mode +command\n/);
  assert.match(top, /command +git push origin main\n/);
  assert.match(top, /target +mac\n/);
  assert.match(top, /cwd +\/work\/x\n/);
  const agent = await answerWith({ ...SPAWN, preview: { ...SPAWN.preview, mode: "agent" } }, ENTER);
  assert.match(header(agent.screen), /task +git push origin main\n/);
});

Deno.test("promptApproval() denies on Escape at once, without waiting for more keys", async () => {
  const { answer, screen } = await answerWith(TOOL, "\x1b");
  assert.equal(answer, "deny");
  assert.ok(screen.includes(`✖ ${say("prompt.question")} ${say("prompt.denied")}`));
});

Deno.test("promptApproval() denies on Escape even when it arrives with other bytes", async () => {
  const { answer } = await answerWith(TOOL, DOWN + "\x1b");
  assert.equal(answer, "deny");
});

Deno.test("promptApproval() denies on Ctrl-C", async () => {
  const { answer } = await answerWith(TOOL, "\x03");
  assert.equal(answer, "deny");
});

Deno.test("promptApproval() denies on Ctrl-D and when the input ends", async () => {
  assert.equal((await answerWith(TOOL, "\x04")).answer, "deny");
  const terminal = scriptedTerminal();
  const answer = promptApproval(TOOL, terminal.io);
  await terminal.press();
  terminal.input.end();
  assert.equal(await answer, "deny");
});

Deno.test("promptApproval() denies when the caller's signal aborts", async () => {
  const controller = new AbortController();
  const terminal = scriptedTerminal({ signal: controller.signal });
  const answer = promptApproval(TOOL, terminal.io);
  await terminal.press();
  controller.abort();
  assert.equal(await answer, "deny");
  const early = scriptedTerminal({ signal: AbortSignal.abort() });
  assert.equal(await promptApproval(TOOL, early.io), "deny");
  assert.equal(early.screen(), "");
});

Deno.test("promptApproval() answers no_answer at once and draws nothing without a terminal", async () => {
  const terminal = scriptedTerminal({ isTerminal: () => false });
  assert.equal(await promptApproval(TOOL, terminal.io), "no_answer");
  assert.equal(terminal.screen(), "");
  assert.equal(terminal.input.listenerCount("data"), 0);
});

Deno.test("promptApproval() leaves the caller's output open for what follows", async () => {
  const { terminal } = await answerWith(TOOL, ENTER);
  assert.equal(terminal.output.writableEnded, false);
  assert.equal(terminal.input.listenerCount("keypress"), 0);
});

Deno.test("promptApproval() cuts long input after 40 lines and says how much was cut", async () => {
  const items = Array.from({ length: 1300 }, (_, i) => i);
  const request = { ...TOOL, preview: { ...TOOL.preview, input: { items } } };
  const { screen } = await answerWith(request, ENTER);
  const top = header(screen);
  assert.ok(top.includes('"items": [\n'));
  assert.ok(top.includes("    37,\n"));
  assert.ok(!top.includes("    38,\n"));
  const total = JSON.stringify({ items }, null, 2).split("\n").length;
  assert.ok(top.includes(`… ${(total - 40).toLocaleString("en-US")} more lines (`), top);
});

Deno.test("promptApproval() cuts one huge line at 4 KiB", async () => {
  const request = { ...TOOL, preview: { ...TOOL.preview, input: "é".repeat(10_000) } };
  const { screen } = await answerWith(request, ENTER);
  const top = header(screen);
  assert.ok(top.length < 5000, String(top.length));
  assert.match(top, /é…\n +… 1 more line \(\d{1,3},\d{3} bytes\)\n/);
});

Deno.test("promptApproval() never writes a secret, even when a preview holds one", async () => {
  const request: ToolPromptRequest = {
    ...TOOL,
    preview: {
      tool: "t",
      program: "/usr/bin/curl",
      command: ["curl", "-H", `Authorization: Bearer ${CANARY}`],
      env: [],
      cwd: `/tmp/${CANARY}`,
      sandbox: "unconfined",
      input: { token: CANARY, nested: [`a${CANARY}"b`] },
    },
  };
  const terminal = scriptedTerminal({ secrets: [CANARY] });
  const answer = promptApproval(request, terminal.io);
  await terminal.press(ENTER);
  await answer;
  assert.equal(terminal.screen().includes(CANARY), false);
  assert.ok(terminal.screen().includes("[redacted]"));
  const spawn = scriptedTerminal({ secrets: [CANARY] });
  const spawned = promptApproval(
    { ...SPAWN, preview: { ...SPAWN.preview, body: `echo ${CANARY}` } },
    spawn.io,
  );
  await spawn.press(ENTER);
  await spawned;
  assert.equal(spawn.screen().includes(CANARY), false);
});

Deno.test("promptApproval() shows control characters as escapes, never raw", async () => {
  const evil = "\x1b]0;owned\x07\x1b[2J\u202e";
  const request: ToolPromptRequest = {
    ...TOOL,
    preview: {
      tool: "t",
      program: `/bin/echo${evil}`,
      command: ["echo", `a\n${evil}`],
      cwd: `/w${evil}`,
      env: [],
      sandbox: "unconfined",
      input: { s: evil },
    },
  };
  const { screen } = await answerWith(request, ENTER);
  const top = header(screen);
  assert.equal(RAW_CONTROL.test(top), false, JSON.stringify(top));
  assert.ok(top.includes("echo $'a\\n\\u001b]0;owned\\u0007\\u001b[2J\\u202e'"), top);
  const spawn = await answerWith(
    { ...SPAWN, preview: { ...SPAWN.preview, body: `ls\n${evil}` } },
    ENTER,
  );
  assert.equal(RAW_CONTROL.test(header(spawn.screen)), false);
});

Deno.test("promptApproval() colours only when asked or when the output is a terminal", async () => {
  const plain = await answerWith(TOOL, ENTER);
  assert.equal(header(plain.screen).includes("\x1b"), false);
  const terminal = scriptedTerminal({ color: true });
  const answer = promptApproval(TOOL, terminal.io);
  await terminal.press(ENTER);
  await answer;
  assert.ok(terminal.screen().startsWith("\x1b[1mbasis-tools asks"));
});

Deno.test("the prompt shows the program that will run, beside the argv as written", async () => {
  const request = {
    ...TOOL,
    preview: { ...TOOL.preview, program: "/work/demo project/bin/grep", command: ["grep", "-rn"] },
  };
  const { screen } = await answerWith(request, ENTER);
  assert.match(header(screen), /program +'\/work\/demo project\/bin\/grep'\n/);
  assert.match(header(screen), /command +grep -rn\n/);
});

Deno.test("the prompt shows the input the program receives: every number as the caller wrote it", async () => {
  const stdin = new TextEncoder().encode('{"id":12345678901234567890,"price":1.50}');
  const request = {
    ...TOOL,
    stdin,
    preview: { ...TOOL.preview, input: JSON.parse(new TextDecoder().decode(stdin)) },
  };
  const { screen } = await answerWith(request, ENTER);
  assert.match(header(screen), /"id": 12345678901234567890,\n/);
  assert.match(header(screen), /"price": 1\.50\n/);
  assert.ok(!header(screen).includes("12345678901234567000"));
});

Deno.test("a rule that says ask offers only allow once and deny, and says why", async () => {
  const request = { ...TOOL, askedByRule: "r-ask12345" };
  const terminal = scriptedTerminal();
  const answer = promptApproval(request, terminal.io);
  await terminal.press();
  const screen = terminal.screen();
  assert.match(screen, wording("prompt.asked_by_rule", { rule: "r-ask12345" }));
  assert.ok(!screen.includes("Always allow"), screen);
  assert.ok(!screen.includes("Never"), screen);
  await terminal.press(DOWN, ENTER);
  assert.equal(await answer, "deny");
});

Deno.test("cutText() keeps whole lines within the budgets and counts the rest", () => {
  assert.deepEqual(cutText("a\nb\nc", 40, 4096), { shown: "a\nb\nc", cutLines: 0, cutBytes: 0 });
  const cut = cutText("a\nb\nc\nd", 2, 4096);
  assert.deepEqual(cut, { shown: "a\nb", cutLines: 2, cutBytes: 4 });
  assert.equal(cutNote(cut), "… 2 more lines (4 bytes)");
  const bytes = cutText("aaaa\nbbbb\ncccc", 40, 9);
  assert.deepEqual(bytes, { shown: "aaaa\nbbbb", cutLines: 1, cutBytes: 5 });
  const split = cutText("ééé", 40, 5);
  assert.deepEqual(split, { shown: "éé…", cutLines: 1, cutBytes: 2 });
  assert.equal(cutNote(split), "… 1 more line (2 bytes)");
  assert.equal(cutNote(cutText("x".repeat(10_000), 1, 10)), "… 1 more line (9,990 bytes)");
});

Deno.test("the prompt library is only imported dynamically", async () => {
  const info = await new Deno.Command(Deno.execPath(), {
    args: [
      "info",
      "--json",
      new URL("../src/approval/terminal/prompt_approval.ts", import.meta.url).pathname,
    ],
    stdout: "piped",
    stderr: "null",
  }).output();
  const graph = JSON.parse(new TextDecoder().decode(info.stdout)) as {
    modules: { dependencies?: { specifier: string; isDynamic?: boolean }[] }[];
  };
  const uses = graph.modules.flatMap((m) => m.dependencies ?? []).filter((d) =>
    d.specifier === "@inquirer/select" || d.specifier === "node:process"
  );
  assert.equal(uses.length, 2);
  assert.ok(uses.every((d) => d.isDynamic === true));
});

Deno.test("promptApproval() answers no_answer when stdin is not a terminal", async () => {
  const result = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", FIXTURE],
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(result.code, 0);
  assert.equal(new TextDecoder().decode(result.stdout), "ANSWER=no_answer\n");
  assert.equal(new TextDecoder().decode(result.stderr), "");
});

/** Runs the fixture in a real pseudo-terminal and returns the screen once it has exited. */
async function inFixtureTerminal(keys: string[], request?: PromptRequest): Promise<string> {
  const argv = [Deno.execPath(), "run", "-A", "--quiet", FIXTURE];
  if (request) argv.push(JSON.stringify(request));
  return (await inPseudoTerminal(argv, { keys })).screen;
}

Deno.test({
  name: "promptApproval() works in a real pseudo-terminal (tmux)",
  ignore: !hasTmux(),
  async fn(t) {
    const cases: [string[], TerminalAnswer][] = [
      [["Enter"], "allow_once"],
      [["Down", "Enter"], "always_allow"],
      [["Escape"], "deny"],
      [["C-c"], "deny"],
    ];
    for (const [keys, expected] of cases) {
      await t.step(`${keys.join("+")} answers ${expected}`, async () => {
        const screen = await inFixtureTerminal(keys);
        assert.ok(screen.includes(say("prompt.title_tool")), screen);
        assert.match(screen, /tool +grep_code\n/);
        assert.match(
          screen,
          /command +\/usr\/bin\/grep -rn '--include=\*\.ts' 'it'\\''s here' src\n/,
        );
        assert.match(screen, /cwd +'\/work\/demo project'\n/);
        assert.match(screen, /input +\{\n +"pattern": "TODO",\n +"paths": \[\n/);
        assert.match(screen, new RegExp(`\nANSWER=${expected}\n`), screen);
        const verdict = expected === "deny" ? "✖ Allow this call? Denied" : "✔ Allow this call?";
        assert.ok(screen.includes(verdict), screen);
      });
    }
    await t.step("a spawn shows its command text and target", async () => {
      const screen = await inFixtureTerminal(["Down", "Down", "Down", "Enter"], SPAWN);
      assert.match(screen, /command +git push origin main\n/);
      assert.match(screen, /target +mac\n/);
      assert.match(screen, /\nANSWER=never\n/);
    });
  },
});

Deno.test("promptApproval() asks concurrent questions on one terminal one at a time", async () => {
  const terminal = scriptedTerminal();
  const first = promptApproval(TOOL, terminal.io);
  const second = promptApproval(SPAWN, terminal.io);
  await terminal.press(DOWN, ENTER);
  assert.equal(await first, "always_allow");
  const afterFirst = terminal.screen().length;
  await new Promise<void>((resolve) => {
    const check = () =>
      terminal.screen().slice(afterFirst).includes("Allow once") ? resolve() : void 0;
    terminal.output.on("data", check);
    check();
  });
  assert.equal(terminal.screen().indexOf("git push"), terminal.screen().lastIndexOf("git push"));
  assert.ok(terminal.screen().indexOf("git push") > terminal.screen().indexOf("Always allowed"));
  terminal.input.write("\x03");
  assert.equal(await second, "deny");
});

// --- Wording in en-US and uk-UA ---

Deno.test("the terminal prompt asks in uk-UA: texts translated, names, argv and input as they are", async () => {
  const { PassThrough } = await import("node:stream");
  const { promptApproval } = await import("../src/approval/terminal/prompt_approval.ts");
  const request = {
    tool: "grep_code",
    sideEffect: "process",
    kind: "tool",
    preview: {
      tool: "grep_code",
      program: "/usr/bin/grep",
      command: ["/usr/bin/grep", "-rn", "TODO"],
      cwd: "/work/demo",
      env: [],
      sandbox: "unconfined",
      input: { lines: Array.from({ length: 60 }, (_, i) => `line ${i}`) },
    },
  } as const;
  const spawn = {
    tool: "spawn",
    sideEffect: "local state",
    kind: "spawn",
    preview: { mode: "agent", body: "sum up the README", cwd: "/work/x", target: "local" },
  } as const;
  async function ask(
    locale: "en-US" | "uk-UA" | undefined,
    keys: string[],
    which: typeof request | typeof spawn = request,
  ) {
    const input = new PassThrough();
    const output = new PassThrough();
    let screen = "";
    let ready: () => void = () => {};
    const drawn = new Promise<void>((resolve) => ready = resolve);
    const choice = locale === "uk-UA" ? "Дозволити один раз" : "Allow once";
    output.on("data", (chunk: Uint8Array) => {
      screen += new TextDecoder().decode(chunk);
      if (screen.includes(choice)) ready();
    });
    const answer = promptApproval(which, {
      input,
      output,
      isTerminal: () => true,
      color: false,
      ...(locale === undefined ? {} : { locale }),
    });
    await drawn;
    for (const key of keys) input.write(key);
    return { answer: await answer, screen };
  }
  const en = await ask("en-US", ["\r"]);
  const uk = await ask("uk-UA", ["\r"]);
  assert.equal(uk.answer, "allow_once");
  assert.equal((await ask(undefined, ["\r"])).screen, en.screen);
  assert.match(en.screen, /basis-tools asks before running a tool/);
  assert.match(uk.screen, /^basis-tools питає дозволу, перш ніж запустити інструмент\n/);
  for (
    const text of [
      "Дозволити цей виклик?",
      "Дозволити один раз",
      "Дозволяти завжди (запам’ятати саме цю команду)",
      "Відхилити",
      "Ніколи (запам’ятати відмову)",
      "Дозволено один раз",
      "↑↓ перейти",
      "⏎ вибрати",
      "esc відхилити",
      "запускає програму на цьому комп’ютері",
      "… і ще 24 рядки (335 байтів)",
      "/usr/bin/grep -rn TODO",
      "grep_code",
      '"line 0"',
    ]
  ) {
    assert.ok(uk.screen.includes(text), `${text} in:\n${uk.screen}`);
  }
  assertNoEnglish(uk.screen, en.screen, [
    /\b(?:basis-tools|grep_code|process|TODO|line \d+|lines)\b/g,
    /\/[\w/]+/g,
    /\besc\b/g,
  ]);

  const always = await ask("uk-UA", ["\x1b[B", "\r"]);
  assert.equal(always.answer, "always_allow");
  assert.ok(always.screen.includes("✔ Дозволити цей виклик? Дозволено завжди\x1b"), always.screen);
  const refused = await ask("uk-UA", ["\x03"]);
  assert.equal(refused.answer, "deny");
  assert.match(refused.screen, /✖ Дозволити цей виклик\? Відхилено\n/);
  const agent = await ask("uk-UA", ["\r"], spawn);
  assert.match(agent.screen, /^basis-tools питає дозволу, перш ніж виконати команду\n/);
  assert.match(agent.screen, /^ {2}завдання +sum up the README$/m);
  assert.match(agent.screen, /передає завдання субагентові/);
});
