/**
 * Opening the audit log never blocks: a FIFO (or anything else that is not a regular file) at its
 * path is refused with a warning, the call goes on, and signals still end it. The real CLI, as a
 * subprocess: a hang in the old code must fail the test, not the test run.
 *
 * @module
 */

import assert from "node:assert/strict";
import { openAuditLog } from "../src/audit/open_audit_log.ts";
import {
  cli,
  FIXTURES,
  oneTool,
  processesLeftInGroup,
  readPid,
  scratch,
  spawnCli,
  unconfined,
} from "./_cli.ts";
import { tempDir } from "./_scratch.ts";
import { messages, phrase } from "../src/locale/messages.ts";
import { say, wording } from "./_wording.ts";
import { assertNoEnglish, CYRILLIC } from "./_no_english.ts";

const LINUX = Deno.build.os === "linux";

/** How long a run may take before it counts as hung (it takes well under a second). */
const HUNG_MS = 20_000;

async function mkfifo(path: string): Promise<void> {
  const made = await new Deno.Command("mkfifo", { args: [path] }).output();
  assert.ok(made.success, new TextDecoder().decode(made.stderr));
}

/** The child's status and output, or a failure (after killing it) when it hangs. */
async function finishOrKill(child: Deno.ChildProcess): Promise<Deno.CommandOutput> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hung = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      try {
        child.kill("SIGKILL");
      } catch {
        // Gone already.
      }
      reject(new Error(`the CLI hung for ${HUNG_MS} ms`));
    }, HUNG_MS);
  });
  try {
    return await Promise.race([child.output(), hung]);
  } finally {
    clearTimeout(timer);
  }
}

Deno.test({
  name: "call: an audit log that is a FIFO is refused with a warning; the call runs and succeeds",
  ignore: !LINUX,
}, async () => {
  await using dirs = await scratch(oneTool("echo", { command: ["cat"] }));
  const fifo = `${dirs.root}/audit.fifo`;
  await mkfifo(fifo);
  const child = spawnCli(dirs, ["call", "echo", '{"a":1}', "--approve", "always"], {
    env: { BASIS_AUDIT_LOG: fifo },
  });
  const output = await finishOrKill(child);
  const stderr = new TextDecoder().decode(output.stderr);
  assert.equal(output.code, 0, stderr);
  assert.equal(new TextDecoder().decode(output.stdout), '{"a":1}');
  const refused = phrase("audit.cannot_write", {
    path: JSON.stringify(fifo),
    reason: phrase("audit.not_regular_file"),
  });
  assert.match(
    stderr,
    new RegExp(`^${escape(say("audit.warning", { message: refused }))}$`, "m"),
  );
  // Warned once, not once per entry.
  assert.equal(stderr.match(new RegExp(wording("audit.cannot_write").source, "g"))?.length, 1);
});

Deno.test({
  name:
    "call: with a FIFO as the audit log, SIGTERM still stops the tool's group and the CLI (130)",
  ignore: !LINUX,
}, async () => {
  await using pids = await tempDir();
  const pidFile = `${pids.path}/pgid`;
  await using dirs = await scratch(
    oneTool("forever", { command: [`${FIXTURES}/grandchild.sh`, pidFile] }),
  );
  await unconfined(dirs);
  const fifo = `${dirs.root}/audit.fifo`;
  await mkfifo(fifo);
  const child = spawnCli(dirs, ["call", "forever", "--approve", "always", "--audit-log", fifo]);
  const pgid = await readPid(pidFile, () => child.kill("SIGKILL"));
  child.kill("SIGTERM");
  const output = await finishOrKill(child);
  assert.equal(output.code, 130);
  assert.deepEqual(await processesLeftInGroup(pgid), []);
});

const RUN_ENTRY = {
  type: "run",
  tool: "t",
  exit_code: 0,
  signal: undefined,
  timed_out: false,
  duration_ms: 1,
  stdout_bytes: 0,
  stderr_bytes: 0,
} as const;

// In process, and so without a FIFO: that would hang this test file on code that opens one.
Deno.test({
  name: "openAuditLog() opens only a regular file: a directory and /dev/null are refused",
  ignore: !LINUX,
}, async () => {
  await using dir = await tempDir();
  await Deno.mkdir(`${dir.path}/directory`);
  await Deno.symlink("/dev/null", `${dir.path}/link-to-null`);
  for (const path of [`${dir.path}/directory`, "/dev/null", `${dir.path}/link-to-null`]) {
    const warnings: string[] = [];
    const log = openAuditLog({ path, warn: (message) => warnings.push(message) });
    assert.equal(log.record(RUN_ENTRY), false, path);
    assert.equal(log.record(RUN_ENTRY), false, path);
    log.close();
    assert.equal(warnings.length, 1, path);
    assert.equal(
      warnings[0],
      say("audit.cannot_write", {
        path: JSON.stringify(path),
        reason: phrase("audit.not_regular_file"),
      }),
      path,
    );
  }
});

Deno.test("openAuditLog() still makes a missing file, its directory, and the file a link points to", async () => {
  await using dir = await tempDir();
  const nested = `${dir.path}/a/b/audit.jsonl`;
  const fresh = openAuditLog({ path: nested, warn: (message) => assert.fail(message) });
  assert.ok(fresh.record(RUN_ENTRY));
  assert.ok(fresh.record(RUN_ENTRY));
  fresh.close();
  assert.equal((await Deno.readTextFile(nested)).split("\n").length, 3);
  if (Deno.build.os !== "windows") {
    assert.equal((await Deno.stat(nested)).mode! & 0o777, 0o600);
    assert.equal((await Deno.stat(`${dir.path}/a/b`)).mode! & 0o777, 0o700);
    await Deno.symlink(`${dir.path}/real.jsonl`, `${dir.path}/link.jsonl`);
    const linked = openAuditLog({ path: `${dir.path}/link.jsonl`, warn: (m) => assert.fail(m) });
    assert.ok(linked.record(RUN_ENTRY));
    linked.close();
    assert.match(await Deno.readTextFile(`${dir.path}/real.jsonl`), /"type":"run"/);
  }
});

// --- Wording in en-US and uk-UA ---
// Errors outside the commands' own wording, in uk-UA: no home directory, a `-C` that is not a
// directory (as the loader finds it), an input schema that cannot be compiled at call time, and
// the runner of spawn refusing a call; English exactly as it was.

const EN = messages("en-US");
const UK = messages("uk-UA");

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

Deno.test("fsReason() words a full disk, a quota and a read-only file system, which Deno raises as plain errors", async () => {
  const { fsReason, isFileSystemError } = await import("../src/fs_reason.ts");
  const cases = [
    ["ENOSPC", "No space left on device (os error 28)", "fs.no_space"],
    ["EDQUOT", "Disk quota exceeded (os error 122)", "fs.quota"],
    ["EROFS", "Read-only file system (os error 30)", "fs.read_only"],
  ] as const;
  for (const [code, message, key] of cases) {
    const error = Object.assign(new Error(`${message}: writefile '/c/x'`), { code });
    assert.ok(isFileSystemError(error), code);
    assert.deepEqual(fsReason(error), phrase(key));
    assert.match(UK.say(phrase(key)), CYRILLIC);
  }
  assert.ok(!isFileSystemError(new TypeError("a bug")));
  assert.ok(!isFileSystemError(Object.assign(new Error("x"), { code: "internal" })));
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

Deno.test("openAuditLog() words its warning in the locale given", async () => {
  await using dir = await tempDir();
  await Deno.writeTextFile(`${dir.path}/file`, "");
  const path = `${dir.path}/file/audit.jsonl`;
  const warnings: string[] = [];
  const log = openAuditLog({ path, locale: "uk-UA", warn: (m) => warnings.push(m) });
  const preview = { tool: "echo", command: ["cat"], cwd: "/w", input: {} };
  const entry = { type: "decision", tool: "echo", preview, allowed: true, by: "policy" } as const;
  assert.equal(log.record({ ...entry, workspace: "/w" }), false);
  assert.equal(log.record({ ...entry, workspace: "/w" }), false);
  log.close();
  assert.equal(warnings.length, 1);
  assert.match(
    warnings[0] ?? "",
    new RegExp(
      `^Не вдалося записати журнал аудиту ${
        escape(JSON.stringify(path))
      }: .+; далі виклики виконуються без аудиту$`,
    ),
  );
});

/** `text` as a regular expression that matches it literally. */
function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
