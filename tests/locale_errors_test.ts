/**
 * Errors outside the commands' own wording, in uk-UA: no home directory, a `-C` that is not a
 * directory (as the loader finds it), an input schema that cannot be compiled at call time, and
 * the runner of spawn refusing a call; English exactly as it was.
 *
 * @module
 */

import assert from "node:assert/strict";
import { BasisError, errorLines } from "../src/errors.ts";
import { messages } from "../src/locale/messages.ts";
import { loadRoster } from "../src/manifest/load.ts";
import { validateInput } from "../src/schema/gate.ts";
import { runSpawn } from "../src/spawn/run_spawn.ts";
import type { SpawnConfig } from "../src/spawn/config.ts";
import type { SpawnCall } from "../src/spawn/types.ts";
import { cli, oneTool, scratch } from "./_cli.ts";
import { assertNoEnglish, CYRILLIC } from "./_no_english.ts";
import { tempDir } from "./_scratch.ts";
import { caught } from "./_caught.ts";

const EN = messages("en-US");
const UK = messages("uk-UA");

Deno.test("with no home directory the CLI says which variables to set, in uk-UA too", async () => {
  await using dirs = await scratch(oneTool("echo", { command: ["cat"] }));
  const env = {
    BASIS_CONFIG_DIR: "",
    BASIS_CACHE_DIR: "",
    BASIS_STATE_DIR: "",
    XDG_CONFIG_HOME: "",
    HOME: "",
    USERPROFILE: "",
  };
  const en = await cli(dirs, ["list"], { env });
  const uk = await cli(dirs, ["list", "--locale", "uk-UA"], { env });
  assert.equal(en.code, 2);
  assert.equal(uk.code, 2);
  assert.equal(
    en.stderr,
    "basis-tools: Cannot find the user's directories: HOME is not set to an absolute path; " +
      "set HOME, or set BASIS_CONFIG_DIR or XDG_CONFIG_HOME to an absolute path\n",
  );
  assert.equal(
    uk.stderr,
    "basis-tools: Не вдалося визначити каталоги користувача: HOME не містить абсолютного " +
      "шляху; задайте HOME або вкажіть абсолютний шлях у BASIS_CONFIG_DIR чи XDG_CONFIG_HOME\n",
  );
  assertNoEnglish(uk.stderr, en.stderr, [/\bbasis-tools\b/g]);
});

Deno.test("a -C that is no directory, as the loader finds it (permissions), is worded in uk-UA", async () => {
  await using dirs = await scratch(oneTool("echo", { command: ["cat"] }));
  const file = `${dirs.root}/.basis/tools.json`;
  const en = await cli(dirs, ["-C", file, "permissions"]);
  const uk = await cli(dirs, ["-C", file, "permissions", "--locale", "uk-UA"]);
  assert.equal(en.code, 2);
  assert.equal(uk.code, 2);
  const path = JSON.stringify(file);
  assert.equal(en.stderr, `basis-tools: Cannot use workspace ${path}: not a directory\n`);
  assert.equal(
    uk.stderr,
    `basis-tools: Не вдалося використати робочий простір ${path}: це не каталог\n`,
  );
  // The library's loader carries the same phrase.
  const error = await caught(() => loadRoster({ workspace: file, configDir: dirs.configDir }));
  assert.equal(error.code, "usage");
  assert.equal(error.message, `Cannot use workspace ${path}: not a directory`);
  assert.deepEqual(errorLines(error, UK), [
    `Не вдалося використати робочий простір ${path}: це не каталог`,
  ]);
});

Deno.test("runSpawn() refusals (a library caller that skipped the guard) carry uk-UA words", async () => {
  const config: SpawnConfig = {
    file: "/nowhere/spawn.json",
    agent: undefined,
    targets: new Map(),
    maxDepth: 2,
  };
  const cases: [SpawnCall, string, string][] = [
    [
      { mode: "command", body: "make", target: "builder" },
      'Spawn refused: unknown target "builder"',
      'Виклик spawn відхилено: невідома ціль "builder"',
    ],
    [
      { mode: "agent", body: "write the tests" },
      "Spawn refused: no subagent is configured",
      "Виклик spawn відхилено: субагента не налаштовано",
    ],
  ];
  for (const [call, english, ukrainian] of cases) {
    const error = await caught(() => runSpawn(call, "/", { config }));
    assert.equal(error.code, "denied");
    assert.equal(error.message, english);
    assert.equal(error.wordedIn(UK), ukrainian);
    assert.match(ukrainian, CYRILLIC);
  }
});

Deno.test("fsReason() turns Deno's sandbox refusal into a phrase, other errors stay as said", async () => {
  const { fsReason } = await import("../src/fs_reason.ts");
  for (const kind of ["read", "write"]) {
    const said = `Requires ${kind} access to "/x", run again with the --allow-${kind} flag`;
    const reason = fsReason(new Deno.errors.NotCapable(said));
    assert.ok(typeof reason !== "string");
    assert.equal(EN.say(reason), said);
    assert.match(UK.say(reason), CYRILLIC);
  }
  // Worded differently by another Deno: kept as it is.
  assert.equal(fsReason(new Deno.errors.NotCapable("Requires more")), "Requires more");
  assert.equal(fsReason(new Deno.errors.NotFound("gone (os error 2)\nmore")), "gone (os error 2)");
});

Deno.test("an audit log Deno's sandbox refuses is reported once, in the locale", async () => {
  await using dirs = await scratch(oneTool("echo", { command: ["cat"] }));
  await using outside = await tempDir({ prefix: "basis-audit-outside-" });
  const log = `${outside.path}/audit.jsonl`;
  // Writing is confined to the user directories: the log outside.path them is refused.
  const permissions = [
    "--allow-read",
    "--allow-env",
    "--allow-sys",
    "--allow-run",
    `--allow-write=${dirs.configDir},${dirs.cacheDir},${dirs.stateDir}`,
  ];
  const call = ["call", "echo", '{"a":1}', "--approve", "always", "--audit-log", log];
  const run = (locale: string) => cli(dirs, [...call, "--locale", locale], { permissions });
  const en = await run("en-US");
  assert.equal(en.code, 0, en.stderr);
  assert.equal(en.stdout, '{"a":1}');
  assert.equal(
    en.stderr,
    `basis-tools: warning: Cannot write audit log "${log}": Requires write access to "${log}", run again with the --allow-write flag; calls go on unaudited\n`,
  );
  const uk = await run("uk-UA");
  assert.equal(uk.code, 0, uk.stderr);
  assert.equal(uk.stderr.split("\n").filter(Boolean).length, 1, uk.stderr);
  assertNoEnglish(uk.stderr, en.stderr, [log, "--allow-write", /basis-tools/g]);
  assert.match(uk.stderr, /потрібен дозвіл на запис/);
});
