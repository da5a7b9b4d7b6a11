import assert from "node:assert/strict";
import { AUDIT_FILE, auditLogPath } from "../src/audit/audit_path.ts";
import { openAuditLog } from "../src/audit/open_audit_log.ts";
import type { DecisionEntry, RunEntry } from "../src/audit/types.ts";
import { tempDir } from "./_scratch.ts";
import { wording } from "./_wording.ts";

const WRITER = new URL("./fixtures/approver/audit_writer.ts", import.meta.url).pathname;
const CANARY = "canary-SECRET-7f3a9c";

function envOf(vars: Record<string, string>): (name: string) => string | undefined {
  return (name) => vars[name];
}

const PREVIEW = { tool: "echo", command: ["cat", "-n"], cwd: "/w", input: { text: "hi" } };

const DECISION: DecisionEntry = {
  type: "decision",
  tool: "echo",
  preview: PREVIEW,
  allowed: true,
  by: "rule",
  rule_id: "r1",
  reason: "trusted",
  workspace: "/w",
};

const RUN: RunEntry = {
  type: "run",
  tool: "echo",
  exit_code: 0,
  signal: undefined,
  timed_out: false,
  duration_ms: 12.5,
  stdout_bytes: 3,
  stderr_bytes: 0,
};

async function readLines(path: string): Promise<Record<string, unknown>[]> {
  const text = await Deno.readTextFile(path);
  assert.ok(text.endsWith("\n"));
  return text.slice(0, -1).split("\n").map((line) => JSON.parse(line));
}

Deno.test("auditLogPath() prefers --audit-log, then BASIS_AUDIT_LOG, then the state directory", () => {
  const env = envOf({ XDG_STATE_HOME: "/state", BASIS_AUDIT_LOG: "/env/audit.jsonl" });
  assert.equal(auditLogPath({ path: "/flag/a.jsonl", env }), "/flag/a.jsonl");
  assert.equal(auditLogPath({ env }), "/env/audit.jsonl");
  assert.equal(
    auditLogPath({ env: envOf({ XDG_STATE_HOME: "/state" }) }),
    `/state/basis/${AUDIT_FILE}`,
  );
  assert.equal(
    auditLogPath({ env: envOf({ HOME: "/home/u" }) }),
    "/home/u/.local/state/basis/audit.jsonl",
  );
  assert.equal(
    auditLogPath({ env: envOf({ BASIS_STATE_DIR: "/s", HOME: "/h" }) }),
    "/s/audit.jsonl",
  );
  assert.equal(
    auditLogPath({ env: envOf({ BASIS_AUDIT_LOG: "", HOME: "/h" }) }),
    "/h/.local/state/basis/audit.jsonl",
  );
  assert.equal(auditLogPath({ path: "rel/a.jsonl", env }), `${Deno.cwd()}/rel/a.jsonl`);
});

Deno.test("auditLogPath() is undefined when --audit-log or BASIS_AUDIT_LOG is off", () => {
  assert.equal(auditLogPath({ path: "off", env: envOf({ HOME: "/h" }) }), undefined);
  assert.equal(auditLogPath({ env: envOf({ BASIS_AUDIT_LOG: "off", HOME: "/h" }) }), undefined);
  assert.equal(
    auditLogPath({ path: "/a.jsonl", env: envOf({ BASIS_AUDIT_LOG: "off" }) }),
    "/a.jsonl",
  );
});

Deno.test("openAuditLog() writes a decision and a run as one JSON line each, keys in order", async () => {
  await using dir = await tempDir();
  const log = openAuditLog({ path: `${dir.path}/audit.jsonl` });
  assert.equal(log.record(DECISION), true);
  assert.equal(log.record(RUN), true);
  log.close();
  const [decision, run] = await readLines(`${dir.path}/audit.jsonl`);
  assert.deepEqual(Object.keys(decision!), [
    "ts",
    "type",
    "pid",
    "tool",
    "preview",
    "allowed",
    "by",
    "rule_id",
    "reason",
    "workspace",
  ]);
  assert.deepEqual(decision!.preview, PREVIEW);
  assert.equal(decision!.pid, Deno.pid);
  assert.ok(!Number.isNaN(Date.parse(String(decision!.ts))));
  assert.deepEqual(run, {
    ts: run!.ts,
    type: "run",
    pid: Deno.pid,
    tool: "echo",
    exit_code: 0,
    signal: null,
    timed_out: false,
    duration_ms: 12.5,
    stdout_bytes: 3,
    stderr_bytes: 0,
  });
});

Deno.test("openAuditLog() leaves out rule_id and reason when they do not apply, and appends", async () => {
  await using dir = await tempDir();
  const path = `${dir.path}/audit.jsonl`;
  await Deno.writeTextFile(path, '{"earlier":true}\n');
  const log = openAuditLog({ path });
  log.record({
    type: "decision",
    tool: "t",
    preview: {},
    allowed: false,
    by: "policy",
    workspace: "/w",
  });
  log.record({ ...RUN, exit_code: undefined, signal: "SIGKILL", timed_out: true });
  log.close();
  const [earlier, decision, run] = await readLines(path);
  assert.deepEqual(earlier, { earlier: true });
  assert.equal("rule_id" in decision!, false);
  assert.equal("reason" in decision!, false);
  assert.equal(run!.exit_code, null);
  assert.equal(run!.signal, "SIGKILL");
  assert.equal(run!.timed_out, true);
});

Deno.test(
  "openAuditLog() creates the state directory 0700 and the file 0600, only when first used",
  {
    ignore: Deno.build.os === "windows",
  },
  async () => {
    await using dir = await tempDir();
    const env = envOf({ XDG_STATE_HOME: `${dir.path}/state` });
    const log = openAuditLog({ env });
    assert.equal(log.path, `${dir.path}/state/basis/audit.jsonl`);
    await assert.rejects(Deno.stat(`${dir.path}/state`));
    assert.equal(log.record(RUN), true);
    log.close();
    assert.equal((await Deno.stat(`${dir.path}/state/basis`)).mode! & 0o777, 0o700);
    assert.equal((await Deno.stat(`${dir.path}/state/basis/audit.jsonl`)).mode! & 0o777, 0o600);
  },
);

Deno.test("openAuditLog() writes nothing when off", async () => {
  await using dir = await tempDir();
  const log = openAuditLog({ path: "off", env: envOf({ XDG_STATE_HOME: dir.path }) });
  assert.equal(log.path, undefined);
  assert.equal(log.record(DECISION), false);
  log.close();
  assert.deepEqual([...Deno.readDirSync(dir.path)], []);
});

Deno.test("openAuditLog() redacts every secret, in values, keys and nested input", async () => {
  await using dir = await tempDir();
  const path = `${dir.path}/audit.jsonl`;
  const quoted = 'pa"ss\\word';
  const log = openAuditLog({ path });
  const preview = {
    tool: "t",
    command: ["curl", `-H=Authorization: ${CANARY}`],
    cwd: "/w",
    input: { [CANARY]: [`x${CANARY}y`, { deep: quoted }] },
  };
  log.record({ ...DECISION, preview, reason: `denied ${CANARY}` }, { secrets: [CANARY] });
  log.record({ ...DECISION, preview }, { secrets: [CANARY, quoted] });
  log.close();
  const text = await Deno.readTextFile(path);
  assert.equal(text.includes(CANARY), false);
  const [first, second] = await readLines(path);
  assert.ok(JSON.stringify(first).includes("ss\\\\word"), "only redacted when passed");
  assert.equal(JSON.stringify(second).includes("ss\\\\word"), false);
  assert.deepEqual((first!.preview as { command: string[] }).command, [
    "curl",
    "-H=Authorization: [redacted]",
  ]);
  assert.equal(first!.reason, "denied [redacted]");
  assert.deepEqual((second!.preview as { input: unknown }).input, {
    "[redacted]": ["x[redacted]y", { deep: "[redacted]" }],
  });
});

Deno.test("openAuditLog() warns once and goes on when the log cannot be written", async () => {
  await using dir = await tempDir();
  await Deno.writeTextFile(`${dir.path}/file`, "");
  const warnings: string[] = [];
  const path = `${dir.path}/file/audit.jsonl`;
  const log = openAuditLog({ path, warn: (m) => warnings.push(m) });
  assert.equal(log.record(DECISION), false);
  assert.equal(log.record(RUN), false);
  log.close();
  assert.equal(warnings.length, 1);
  // The reason is the OS's (not a directory).
  assert.match(
    warnings[0]!,
    new RegExp(`^${wording("audit.cannot_write", { path: JSON.stringify(path) }).source}$`),
  );
});

Deno.test("openAuditLog() recovers when the file can be written again", async () => {
  await using dir = await tempDir();
  const warnings: string[] = [];
  await Deno.writeTextFile(`${dir.path}/logs`, "");
  const log = openAuditLog({ path: `${dir.path}/logs/audit.jsonl`, warn: (m) => warnings.push(m) });
  assert.equal(log.record(RUN), false);
  await Deno.remove(`${dir.path}/logs`);
  assert.equal(log.record(RUN), true);
  log.close();
  assert.equal(warnings.length, 1);
  assert.equal((await readLines(`${dir.path}/logs/audit.jsonl`)).length, 1);
});

Deno.test("openAuditLog() lines from 20 concurrent processes × 50 never interleave", async () => {
  await using dir = await tempDir();
  const path = `${dir.path}/audit.jsonl`;
  const writers = Array.from({ length: 20 }, (_, writer) =>
    new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "--quiet", WRITER, path, String(writer), "50"],
      stdout: "null",
      stderr: "piped",
    }).output());
  for (const result of await Promise.all(writers)) {
    assert.equal(result.code, 0, new TextDecoder().decode(result.stderr));
  }
  const lines = await readLines(path);
  assert.equal(lines.length, 1000);
  const seen = new Set<string>();
  for (const line of lines) {
    const input =
      (line.preview as { input: { writer: string; seq: number; filler: string } }).input;
    assert.equal(input.filler.length, 8000);
    assert.ok(input.filler.startsWith(`${input.writer}:`));
    seen.add(`${input.writer}/${input.seq}`);
  }
  assert.equal(seen.size, 1000);
});

Deno.test("openAuditLog() summarises an input above 64 KiB in a decision line instead of copying it", async () => {
  await using dir = await tempDir();
  const path = `${dir.path}/audit.jsonl`;
  const log = openAuditLog({ path });
  const preview = { tool: "t", command: ["cat"], cwd: "/w", input: { blob: "x".repeat(70_000) } };
  const base = {
    type: "decision",
    tool: "t",
    allowed: true,
    by: "policy",
    workspace: "/w",
  } as const;
  log.record({ ...base, preview, input_bytes: 70_012 });
  log.record({ ...base, preview: { ...preview, input: { small: 1 } }, input_bytes: 11 });
  log.close();
  const [large, small] = (await Deno.readTextFile(path)).trim().split("\n").map((l) =>
    JSON.parse(l)
  );
  assert.deepEqual(large.preview.input, "[input of 70012 bytes, not recorded]");
  assert.deepEqual(large.preview.command, ["cat"]);
  assert.deepEqual(large.input_bytes, 70_012);
  assert.deepEqual(small.preview.input, { small: 1 });
});
