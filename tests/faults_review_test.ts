/**
 * Faults found by a review of the fault-injection work (tests/faults_test.ts), driven through the
 * real CLI: a setpriv(1) without `--pdeathsig` (util-linux before 2.33, BusyBox) in place of the
 * system's, and `init` on a full disk. Each run is in a mount namespace of its own (`unshare -m`),
 * so what it mounts is seen by no other process. Mounting needs root on Linux: those cases are
 * skipped elsewhere, saying so in their names.
 *
 * @module
 */

import assert from "node:assert/strict";
import { assertNoStackTrace, cli, cliCommand, oneTool, scratch, unconfined } from "./_cli.ts";
import { tempDir } from "./_scratch.ts";
import { say } from "./_wording.ts";

const ROOT = Deno.build.os === "linux" && Deno.uid() === 0;

/**
 * Runs a shell script in a mount namespace of its own, the CLI's command line as its `"$@"`.
 *
 * @returns Exit code, stdout and stderr of the script.
 */
async function inMountNamespace(
  script: string,
  cli: { command: string; args: string[]; cwd: string; env: Record<string, string> },
  stdin = "",
) {
  const child = new Deno.Command("unshare", {
    args: ["-m", "sh", "-c", script, "sh", cli.command, ...cli.args],
    cwd: cli.cwd,
    env: cli.env,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(stdin)).catch(() => {});
  await writer.close().catch(() => {});
  const { code, stdout, stderr } = await child.output();
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code, stdout: decode(stdout), stderr: decode(stderr) };
}

Deno.test({
  name: "an unconfined tool runs where setpriv has no --pdeathsig (util-linux < 2.33, BusyBox) " +
    "(root: mounts)",
  ignore: !ROOT,
}, async () => {
  await using dirs = await scratch(oneTool("echo", { command: ["cat"] }));
  await unconfined(dirs);
  await using fake = await tempDir();
  // What such a setpriv does with an option it does not know.
  const setpriv = `${fake.path}/setpriv`;
  const refuses = "echo \"setpriv: unrecognized option '--pdeathsig'\" >&2; exit 1";
  await Deno.writeTextFile(setpriv, `#!/bin/sh\n${refuses}\n`, { mode: 0o755 });
  const bind = ["/usr/bin/setpriv", "/bin/setpriv"]
    .map((path) => `{ ! [ -e ${path} ] || mount --bind ${setpriv} ${path}; }`).join(" && ");
  const cli = cliCommand(dirs, ["call", "echo", "--approve", "always"]);
  const result = await inMountNamespace(`${bind} && exec "$@"`, cli, '{"message":"hi"}');
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stdout, '{"message":"hi"}');
  assertNoStackTrace(result.stderr);
});

Deno.test({
  name: "init on a full disk writes nothing (no empty script or manifest is left) and works once " +
    "there is room (root: mounts)",
  ignore: !ROOT,
}, async () => {
  await using dirs = await scratch();
  await using where = await tempDir();
  const ws = `${where.path}/ws`;
  await Deno.mkdir(ws);
  // No room at all (the script cannot be written), then 4 KiB (the script fits, the manifest not).
  for (const room of [0, 4]) {
    const out = `${where.path}/${room}`;
    await Deno.mkdir(out);
    const script = [
      `mount -t tmpfs -o size=16k tmpfs ${ws}`,
      `{ dd if=/dev/zero of=${ws}/filler bs=1k count=${16 - room} 2>/dev/null; true; }`,
      `{ "$@" 2>${out}/first; echo $? >${out}/first.code; }`,
      `{ ls -A ${ws}/.basis ${ws}/.basis/tools >${out}/left 2>/dev/null; rm ${ws}/filler; }`,
      `{ "$@" >/dev/null 2>${out}/second; echo $? >${out}/second.code; }`,
    ].join(" && ");
    const result = await inMountNamespace(script, cliCommand(dirs, ["init"], { cwd: ws }));
    assert.equal(result.code, 0, result.stderr);
    const read = (name: string) => Deno.readTextFileSync(`${out}/${name}`).trim();
    assert.equal(read("first.code"), "2", read("first"));
    assert.ok(read("first").endsWith(say("fs.no_space")), read("first"));
    assert.equal(read("first").split("\n").length, 1, read("first"));
    assert.doesNotMatch(read("left"), /hello\.sh|tools\.json/, `left behind: ${read("left")}`);
    assert.equal(read("second.code"), "0", read("second"));
  }
});

Deno.test("rules add never writes a rules.json larger than it reads: exit 5, one line, the rules intact", async () => {
  await using dirs = await scratch(oneTool("echo", { command: ["cat"] }));
  const add = await cli(dirs, ["rules", "add", "--tool", "echo"]);
  assert.equal(add.code, 0, add.stderr);
  const file = `${dirs.configDir}/rules.json`;
  // Copies of the rule written, with ids of their own, until one more would pass 4 MiB.
  const written: { version: number; rules: { id: string }[] } = JSON.parse(
    await Deno.readTextFile(file),
  );
  const line = JSON.stringify(written.rules[0]);
  const lines: string[] = [];
  const base32 = (n: number) =>
    [...n.toString(32).padStart(8, "0")].map((digit) =>
      "abcdefghijklmnopqrstuvwxyz234567"[parseInt(digit, 32)]
    ).join("");
  while (64 + (lines.length + 1) * (line.length + 6) < 4 * 1024 * 1024) {
    lines.push(`    ${line.replace(/"r-[a-z2-7]{8}"/, `"r-${base32(lines.length)}"`)}`);
  }
  const full = `{\n  "version": ${written.version},\n  "rules": [\n${lines.join(",\n")}\n  ]\n}\n`;
  await Deno.writeTextFile(file, full);
  const listed = await cli(dirs, ["rules", "list"]);
  assert.equal(listed.code, 0, listed.stderr);
  const refused = await cli(dirs, ["rules", "add", "--tool", "echo", "--input", "/a=1"]);
  assert.equal(refused.code, 5, refused.stderr);
  assertNoStackTrace(refused.stderr);
  assert.equal(refused.stderr.trimEnd().split("\n").length, 1, refused.stderr);
  assert.match(refused.stderr, /^basis-tools: Cannot save rules /);
  assert.equal(await Deno.readTextFile(file), full);
  assert.equal((await cli(dirs, ["rules", "list"])).code, 0);
});
