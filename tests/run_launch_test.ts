/**
 * How the runner starts a child in a process group of its own (`src/run/_launch.ts`): through
 * setsid(1) when `--allow-run` is unscoped, else Deno's `detached`.
 *
 * @module
 */

import { equal, match, ok } from "node:assert/strict";
import { runProgram } from "../src/run/mod.ts";
import { english, phrase } from "../src/locale/messages.ts";
import { processesLeftInGroup } from "./_cli.ts";
import { tempDir } from "./_scratch.ts";

const FIXTURES = new URL("./fixtures/launch/", import.meta.url).pathname;
const IS_LINUX = Deno.build.os === "linux";

Deno.test({
  name: "runProgram() starts the program as the leader of its own process group",
  ignore: !IS_LINUX,
}, async () => {
  const result = await runProgram({
    program: `${FIXTURES}print_group.sh`,
    args: [],
    cwd: FIXTURES,
    stdin: new Uint8Array(),
    timeoutMs: 10_000,
  });
  const [pid, pgid] = result.stdout.trim().split(" ");
  ok(pid !== undefined && pid === pgid, `pid and pgid differ: ${result.stdout}`);
  // Exit 127 with output is the program's own exit, not a launcher's exec failure.
  equal(result.exitCode, 127);
  equal(result.startFailure, undefined);
});

Deno.test({
  name: "runProgram() stops a program cancelled the moment it was spawned",
  ignore: !IS_LINUX,
}, async () => {
  for (let i = 0; i < 5; i++) {
    const controller = new AbortController();
    const started = performance.now();
    const running = runProgram(
      { program: "sleep", args: ["30"], cwd: FIXTURES, stdin: new Uint8Array(), timeoutMs: 60_000 },
      { signal: controller.signal, graceMs: 200 },
    );
    // The child was spawned synchronously: it may not have made its own group yet.
    controller.abort();
    const result = await running;
    equal(result.cancelled, true);
    ok(performance.now() - started < 5_000, "the cancelled run ended at once");
  }
});

Deno.test({
  name: "runProgram() reports a script whose interpreter is missing as not started",
  ignore: !IS_LINUX,
}, async () => {
  const result = await runProgram({
    program: `${FIXTURES}bad_interpreter.sh`,
    args: [],
    cwd: FIXTURES,
    stdin: new Uint8Array(),
    timeoutMs: 10_000,
  });
  equal(result.exitCode, undefined);
  equal(result.startFailure, "not_found");
  match(english(result.startReason ?? phrase("run.no_reason")), /bad_interpreter\.sh/);
  equal(result.stderr, "");
});

Deno.test({
  name: "runProgram() leaves nothing of a timed-out group behind",
  ignore: !IS_LINUX,
}, async () => {
  await using dir = await tempDir();
  const script = `${dir.path}/group.sh`;
  await Deno.writeTextFile(
    script,
    `#!/bin/sh\necho $$ > "${dir.path}/pgid"\nsleep 30 &\nsleep 30\n`,
  );
  await Deno.chmod(script, 0o755);
  const result = await runProgram({
    program: script,
    args: [],
    cwd: dir.path,
    stdin: new Uint8Array(),
    timeoutMs: 300,
  });
  equal(result.timedOut, true);
  const pgid = Number((await Deno.readTextFile(`${dir.path}/pgid`)).trim());
  equal((await processesLeftInGroup(pgid)).length, 0);
});
