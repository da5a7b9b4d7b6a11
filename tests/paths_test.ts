import assert from "node:assert/strict";
import { resolve } from "node:path";
import { cacheDir, configDir, parentPath, resolvePath, spillDir, stateDir } from "../src/paths.ts";
import { cli, oneTool, scratch } from "./_cli.ts";
import { assertNoEnglish } from "./_no_english.ts";

Deno.test("resolvePath() agrees with node:path resolve", () => {
  const cases: string[][] = [
    ["/a/b", "../c", "./d"],
    ["/a", "/b", "c"],
    ["/", ".."],
    ["/a//b/", "c/"],
    ["rel/x"],
    ["/a", ""],
    ["/a/b/c", "../../.."],
  ];
  for (const segments of cases) {
    assert.equal(resolvePath(...segments), resolve(...segments), segments.join(" , "));
  }
});

Deno.test("parentPath() climbs one directory and stops at the root", () => {
  assert.equal(parentPath("/a/b"), "/a");
  assert.equal(parentPath("/a"), "/");
  assert.equal(parentPath("/"), "/");
});

Deno.test("user directories follow BASIS_*, then XDG, then HOME", () => {
  const env = (vars: Record<string, string>) => (name: string) => vars[name];
  assert.equal(configDir(undefined, env({ HOME: "/h" })), "/h/.config/basis");
  assert.equal(configDir(undefined, env({ HOME: "/h", XDG_CONFIG_HOME: "/x" })), "/x/basis");
  assert.equal(configDir(undefined, env({ BASIS_CONFIG_DIR: "/b", XDG_CONFIG_HOME: "/x" })), "/b");
  assert.equal(configDir("/flag", env({ BASIS_CONFIG_DIR: "/b" })), "/flag");
  assert.equal(cacheDir(env({ HOME: "/h" })), "/h/.cache/basis");
  assert.equal(stateDir(env({ XDG_STATE_HOME: "/s" })), "/s/basis");
  assert.equal(spillDir(env({ BASIS_STATE_DIR: "/st" })), "/st/spill");
});

Deno.test("user directories never fall back to a relative path a repository could supply", () => {
  const env = (vars: Record<string, string>) => (name: string) => vars[name];
  assert.throws(() => configDir(undefined, env({})), /HOME/);
  assert.throws(() => cacheDir(env({ HOME: "relative/home" })), /HOME/);
  assert.throws(() => stateDir(env({ XDG_STATE_HOME: "state" })), /HOME/);
  assert.equal(configDir(undefined, env({ XDG_CONFIG_HOME: ".", HOME: "/h" })), "/h/.config/basis");
});

// --- Wording in en-US and uk-UA ---
// Errors outside the commands' own wording, in uk-UA: no home directory, a `-C` that is not a
// directory (as the loader finds it), an input schema that cannot be compiled at call time, and
// the runner of spawn refusing a call; English exactly as it was.

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
