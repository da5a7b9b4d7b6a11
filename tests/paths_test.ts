import assert from "node:assert/strict";
import { resolve } from "node:path";
import { cacheDir, configDir, parentPath, resolvePath, spillDir, stateDir } from "../src/paths.ts";

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
