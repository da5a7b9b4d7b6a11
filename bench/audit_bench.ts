// The per-call cost of the audit trail: one decision line and one run line appended, as a call
// does. Goal (issue 3): rules + audit add under 2 ms per call.
import { openAuditLog } from "../src/audit/open_audit_log.ts";
import type { DecisionEntry, RunEntry } from "../src/audit/types.ts";

const dir = Deno.makeTempDirSync({ prefix: "basis-audit-bench-" });
const preview = {
  tool: "grep_code",
  command: ["/usr/bin/grep", "-rn", "--include=*.ts", "TODO", "src"],
  cwd: "/work/project",
  input: { pattern: "TODO", paths: ["src", "tests"], context: 2 },
};
const decision: DecisionEntry = {
  type: "decision",
  tool: "grep_code",
  preview,
  allowed: true,
  by: "rule",
  rule_id: "r-1",
  workspace: "/work/project",
};
const run: RunEntry = {
  type: "run",
  tool: "grep_code",
  exit_code: 0,
  signal: undefined,
  timed_out: false,
  duration_ms: 31.2,
  stdout_bytes: 1234,
  stderr_bytes: 0,
};
const secrets = ["s3cr3t-token-value", "another-secret"];

const open = openAuditLog({ path: `${dir}/open.jsonl` });
Deno.bench("audit: decision + run on an open log", { group: "audit", baseline: true }, () => {
  open.record(decision);
  open.record(run);
});

const redacting = openAuditLog({ path: `${dir}/redact.jsonl` });
Deno.bench("audit: decision + run with 2 secrets redacted", { group: "audit" }, () => {
  redacting.record(decision, { secrets });
  redacting.record(run, { secrets });
});

let n = 0;
Deno.bench("audit: a fresh process's call (open file, 2 lines, close)", { group: "audit" }, () => {
  const log = openAuditLog({ path: `${dir}/fresh-${n++ % 8}.jsonl` });
  log.record(decision);
  log.record(run);
  log.close();
});

const off = openAuditLog({ path: "off" });
Deno.bench("audit: off", { group: "audit" }, () => {
  off.record(decision);
  off.record(run);
});

globalThis.addEventListener("unload", () => {
  open.close();
  redacting.close();
  Deno.removeSync(dir, { recursive: true });
});
