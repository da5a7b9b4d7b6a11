/**
 * An independent review of issue 22's content pinning, through the real CLI: what a cloned
 * repository can plant so that the file a rule pins is not the file that runs, or so that pinning
 * itself exhausts the machine.
 *
 * @module
 */

import assert from "node:assert/strict";
import { cli, exists, manifest, scratch } from "./_cli.ts";
import { callTool, connectMcp } from "./_mcp.ts";
import { say, wording } from "./_wording.ts";

Deno.test("a script named through a linked directory and `..` is pinned as the file that runs", async () => {
  await using dirs = await scratch();
  // `sub/../run.sh` reads as `run.sh` when `..` is taken off by hand, but the kernel goes up from
  // where `sub` points: `.basis/deep/run.sh` is what sh runs.
  await Deno.mkdir(`${dirs.root}/.basis/deep/dir`, { recursive: true });
  await Deno.writeTextFile(`${dirs.root}/run.sh`, "echo decoy\n");
  await Deno.writeTextFile(`${dirs.root}/.basis/deep/run.sh`, "echo deep\n");
  await Deno.symlink(".basis/deep/dir", `${dirs.root}/sub`);
  await manifest(dirs, { a: { command: ["sh", "sub/../run.sh"] } });
  const added = await cli(dirs, ["rules", "add", "--tool", "a", "--json"]);
  assert.equal(added.code, 0, added.stderr);
  const rule = JSON.parse(added.stdout) as { id: string };
  assert.equal((await cli(dirs, ["call", "a", "{}"])).stdout, "deep\n");

  const marker = `${dirs.root}/EDITED`;
  await Deno.writeTextFile(`${dirs.root}/.basis/deep/run.sh`, `touch '${marker}'\necho deep\n`);
  const denied = await cli(dirs, ["call", "a", "{}"]);
  assert.equal(denied.code, 5, `${denied.stdout}\n${denied.stderr}`);
  assert.ok(!(await exists(marker)), "the changed script ran under the old rule");
  assert.match(denied.stderr, wording("denied.no_terminal_changed", { rule: rule.id }));
});

Deno.test({
  name: "a pinned file that reads past its stated size (a /proc file) is never read to its end",
  ignore: Deno.build.os !== "linux",
  fn: async () => {
    await using dirs = await scratch();
    await Deno.mkdir(`${dirs.root}/tools`);
    // /proc files say they are empty: /proc/version holds a line, /proc/self/pagemap 8 bytes for
    // every page of the address space (hundreds of GiB), which a reader to the end never finishes.
    await Deno.symlink("/proc/version", `${dirs.root}/tools/version`);
    await Deno.symlink("/proc/self/pagemap", `${dirs.root}/tools/pagemap`);
    await manifest(dirs, {
      v: { command: ["cat", "tools/version"] },
      p: { command: ["cat", "tools/pagemap"], files: ["tools/*"] },
    });
    for (const [tool, where] of [["v", "argv[1]"], ["p", "argv[1]"]] as const) {
      const added = await cli(dirs, ["rules", "add", "--tool", tool]);
      assert.equal(added.code, 2, added.stderr);
      assert.match(added.stderr, wording("rules.cannot_read", { where }));
    }
  },
});

Deno.test("a secret in a pinned file is neither kept in approved/ nor shown in the difference", async () => {
  await using dirs = await scratch();
  // A private key in the manifest's env, and in the tool's own config (a file its `files` pins).
  const key = "-----BEGIN KEY-----\nc2VjcmV0LWtleS1ib2R5\n-----END KEY-----";
  const env = { DEPLOY_KEY: key };
  await Deno.mkdir(`${dirs.root}/conf`);
  await Deno.writeTextFile(`${dirs.root}/conf/deploy.conf`, `host=a\nkey=${key}\n`);
  await manifest(dirs, {
    d: { command: ["true"], env: { KEY: "${DEPLOY_KEY}" }, files: ["conf/*"] },
  });
  const added = await cli(dirs, ["rules", "add", "--tool", "d"], { env });
  assert.equal(added.code, 0, added.stderr);
  await Deno.writeTextFile(`${dirs.root}/conf/deploy.conf`, "host=b\n");

  const questions: string[] = [];
  const session = await connectMcp(dirs, ["mcp"], {
    env,
    elicit: (message) => {
      questions.push(message);
      return { action: "accept", content: { decision: "deny" } };
    },
  });
  try {
    assert.equal((await callTool(session, "d", {})).isError, true);
  } finally {
    await session.close();
  }
  assert.equal(questions.length, 1);
  assert.ok(
    questions[0]!.includes(say("prompt.change_changed", { path: "conf/deploy.conf" })),
    questions[0],
  );
  for (const line of key.split("\n")) {
    assert.ok(!questions[0]!.includes(line), `a line of the secret was shown:\n${questions[0]}`);
  }
  for await (const entry of Deno.readDir(`${dirs.configDir}/approved`)) {
    const kept = await Deno.readTextFile(`${dirs.configDir}/approved/${entry.name}`);
    assert.ok(!kept.includes("c2VjcmV0LWtleS1ib2R5"), `approved/${entry.name} holds the secret`);
  }
});
