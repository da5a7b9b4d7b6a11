import assert from "node:assert/strict";
import { oneTool, ROOT, scratch } from "./_cli.ts";
import { hasTmux, inPseudoTerminal } from "./_tmux.ts";
import { say, wording } from "./_wording.ts";
import { messages } from "../src/mod.ts";

const ENTRY = Deno.env.get("BASIS_TEST_BUNDLE") ?? `${ROOT}src/main.ts`;

async function workspace() {
  const dirs = await scratch(oneTool("echo", { command: ["cat"] }));
  const env = {
    BASIS_CONFIG_DIR: dirs.configDir,
    BASIS_CACHE_DIR: dirs.cacheDir,
    BASIS_STATE_DIR: dirs.stateDir,
    BASIS_LOCALE: "en-US",
    NO_COLOR: "1",
  };
  const argv = [Deno.execPath(), "run", "-A", "--quiet", ENTRY, "-C", dirs.root, "call", "echo"];
  return Object.assign(dirs, { env, argv });
}

Deno.test({
  name:
    "with the input piped in, the prompt asks on the controlling terminal (/dev/tty), as sudo does",
  ignore: !hasTmux(),
}, async () => {
  await using dirs = await workspace();
  const { env, argv } = dirs;
  // echo '{"greeting":"hi"}' | basis-tools call echo: asked, allowed once, the input goes through.
  const allowed = await inPseudoTerminal(argv, {
    keys: ["Enter"],
    env,
    stdin: '{"greeting":"hi"}',
  });
  assert.equal(allowed.code, 0, allowed.screen);
  assert.ok(allowed.screen.includes(say("prompt.title_tool")), allowed.screen);
  assert.match(allowed.screen, /"greeting": "hi"/);
  assert.ok(
    allowed.screen.includes(`✔ ${say("prompt.question")} ${say("prompt.allowed_once")}`),
    allowed.screen,
  );
  assert.match(allowed.screen, /^\{"greeting":"hi"\}/m);
  // Stderr to a file as well: the question is drawn on the terminal, not in the file.
  const log = `${dirs.root}/stderr.txt`;
  const denied = await inPseudoTerminal(argv, {
    keys: ["Down", "Down", "Enter"],
    env,
    stdin: '{"greeting":"no"}',
    stderr: log,
  });
  assert.equal(denied.code, 5, denied.screen);
  assert.ok(
    denied.screen.includes(`✔ ${say("prompt.question")} ${say("prompt.denied")}`),
    denied.screen,
  );
  const written = await Deno.readTextFile(log);
  assert.ok(!written.includes(say("prompt.allow_once")), written);
  assert.match(written, wording("denied.prompt", { tool: '"echo"' }));
  const audit = (await Deno.readTextFile(`${dirs.stateDir}/audit.jsonl`)).trim().split("\n")
    .map((line) => JSON.parse(line)).filter((entry) => entry.type === "decision");
  assert.deepEqual(audit.map((entry) => [entry.allowed, entry.by]), [[true, "prompt"], [
    false,
    "prompt",
  ]]);
});

Deno.test({
  name: "with the input piped in and no controlling terminal, the call is denied: fail closed",
  ignore: !hasTmux(),
}, async () => {
  await using dirs = await workspace();
  const { env, argv } = dirs;
  // setsid: a session of its own, so no controlling terminal although one is on screen.
  const log = `${dirs.root}/stderr.txt`;
  const run = await inPseudoTerminal(["setsid", "-w", ...argv], {
    keys: [],
    waitFor: "",
    env,
    stdin: '{"greeting":"hi"}',
    stderr: log,
  });
  assert.equal(run.code, 5, run.screen);
  assert.ok(!run.screen.includes(say("prompt.allow_once")), run.screen);
  assert.match(await Deno.readTextFile(log), wording("denied.no_terminal"));
});

Deno.test({
  name: "a host that owns the terminal (controllingTerminal: false) is never asked on /dev/tty",
  ignore: !hasTmux(),
}, async () => {
  const script = `${ROOT}tests/fixtures/approver/prompt_once.ts`;
  const argv = [Deno.execPath(), "run", "-A", "--quiet", script];
  const off = await inPseudoTerminal([...argv, "-", '{"controllingTerminal":false}'], {
    keys: [],
    waitFor: "",
    stdin: "",
  });
  assert.match(off.screen, /ANSWER=no_answer/);
  assert.doesNotMatch(off.screen, /Allow once/);
  const on = await inPseudoTerminal([...argv, "-"], { keys: ["Enter"], stdin: "" });
  assert.match(on.screen, /ANSWER=allow_once/, on.screen);
});

Deno.test({
  name: "Escape or Ctrl-C at the prompt clears its menu and denies (exit 5), in en-US and uk-UA",
  ignore: !hasTmux(),
}, async (t) => {
  await using dirs = await workspace();
  const { env, argv } = dirs;
  for (const locale of ["en-US", "uk-UA"] as const) {
    const words = messages(locale);
    for (const key of ["Escape", "C-c"]) {
      await t.step(`${key} (${locale})`, async () => {
        const run = await inPseudoTerminal([...argv, "{}"], {
          keys: [key],
          waitFor: words.t("prompt.allow_once"),
          env: { ...env, BASIS_LOCALE: locale },
        });
        assert.equal(run.code, 5, run.screen);
        // The request stays; of the menu only the line saying what was answered.
        assert.ok(run.screen.includes(words.t("prompt.title_tool")), run.screen);
        const verdict = `✖ ${words.t("prompt.question")} ${words.t("prompt.denied")}`;
        assert.ok(run.screen.includes(verdict), run.screen);
        for (const choice of ["allow_once", "deny", "key_select"] as const) {
          assert.ok(!run.screen.includes(words.t(`prompt.${choice}`)), run.screen);
        }
      });
    }
  }
});

Deno.test({
  name: "an allow remembered at the prompt keeps no reason; a refusal keeps one",
  ignore: !hasTmux(),
}, async () => {
  await using dirs = await workspace();
  const { env, argv } = dirs;
  const always = await inPseudoTerminal([...argv, "{}"], { keys: ["Down", "Enter"], env });
  assert.equal(always.code, 0, always.screen);
  assert.ok(always.screen.includes(`✔ ${say("prompt.question")} ${say("prompt.always_allowed")}`));
  assert.ok(!always.screen.includes(say("prompt.allow_once")), always.screen);
  const [allowed] = JSON.parse(await Deno.readTextFile(`${dirs.configDir}/rules.json`)).rules;
  assert.equal(allowed.decision, "allow");
  assert.equal(Object.hasOwn(allowed, "reason"), false);
  // "Never", in a workspace of its own (the allow rule answers every later call of this one).
  await using other = await workspace();
  const never = await inPseudoTerminal([...other.argv, "{}"], {
    keys: ["Down", "Down", "Down", "Enter"],
    env: other.env,
  });
  assert.equal(never.code, 5, never.screen);
  const [denied] = JSON.parse(await Deno.readTextFile(`${other.configDir}/rules.json`)).rules;
  assert.equal(denied.decision, "deny");
  assert.equal(typeof denied.reason, "string");
});
